import Foundation
import XCTest
@testable import Stages

final class StorePruneExportTests: XCTestCase {
    /// Writes the store's snapshot to a file of the folder.
    private func snapshot(_ store: Store, _ folder: StoreFolder, _ name: String) throws -> String {
        var text = ""
        try store.export { text += $0; return true }
        return try folder.write(name, text)
    }

    func testPruneRemovesTweetsLinksAndUnusedMentionsAndShrinksTheFile() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        try store.ingest(StoreFixtures.samplePaths)
        let before = (tweets: try store.tweetCount, links: try store.links().count, mentions: try store.count("mention"))
        // The stream samples are of 2019-03-01, the v2 page of 2021-09-22.
        let o = try store.prune(.createdBefore(CreatedAt.parse("2021-01-01T00:00:00Z")!))
        XCTAssertEqual(o.removed + o.kept, before.tweets)
        XCTAssertGreaterThan(o.removed, 500)
        XCTAssertLessThan(o.bytesAfter, o.bytesBefore)
        XCTAssertLessThan(try store.links().count, before.links)
        XCTAssertLessThan(try store.count("mention"), before.mentions)
        XCTAssertEqual(try store.db.integer("SELECT count(*) FROM tweet WHERE created_at < ?1", [CreatedAt.parse("2021-01-01T00:00:00Z")!]), 0)
        XCTAssertEqual(try store.danglingLinks(), 0, "no link to a removed mention")
        XCTAssertEqual(try store.db.integer("PRAGMA foreign_key_check"), nil, "no dangling reference anywhere")
        // Reports are those of the tweets kept: the same as a stateless run over the snapshot.
        let kept = try snapshot(store, folder, "kept.ndjson")
        assertSameReports(try store.reports(StoreFixtures.terms, minCount: 1, top: nil),
                          statelessReports([kept], StoreFixtures.terms))
        XCTAssertEqual(try store.history().last?.command, "prune")
    }

    func testKeepTweetsKeepsTheNewest() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        try store.ingest(StoreFixtures.samplePaths)
        let newest = try store.db.integer("SELECT min(created_at) FROM (SELECT created_at FROM tweet ORDER BY created_at DESC LIMIT 100)")!
        let o = try store.prune(.keepNewest(100))
        XCTAssertEqual(o.kept, 100)
        XCTAssertEqual(try store.db.integer("SELECT min(created_at) FROM tweet"), newest)
        XCTAssertEqual(try store.prune(.keepNewest(0)).kept, 0)
        XCTAssertEqual(try store.count("mention"), 0)
    }

    func testExportThenImportGivesTheSameReports() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        XCTAssertTrue(try store.enableText())
        try store.ingest(StoreFixtures.samplePaths)
        let file = try snapshot(store, folder, "snapshot.ndjson")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count, try store.tweetCount)

        let copy = try Store.writable(folder.path("copy.db"))
        XCTAssertTrue(try copy.enableText())
        var options = IngestOptions(jobs: 2)
        options.command = "import"
        try copy.ingest(InputPlan(paths: [file]), inputs: [file], options: options, control: RunControl(strict: false))
        let terms = StoreFixtures.terms + [try Term(parsing: "stanford")]
        assertSameReports(try copy.reports(terms, minCount: 1, top: nil), try store.reports(terms, minCount: 1, top: nil))
        // The snapshot is a dump too: reading it directly gives the same.
        assertSameReports(statelessReports([file], terms), try store.reports(terms, minCount: 1, top: nil))
        _ = try snapshot(copy, folder, "again.ndjson")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.path("again.ndjson"))),
                       try Data(contentsOf: URL(fileURLWithPath: file)), "a snapshot of the copy is the same bytes")
        XCTAssertEqual(try copy.history().map(\.command), ["import"])
    }

    func testExportLinesAreV2Tweets() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let path = try folder.write("one.jsonl", #"""
            {"id_str":"1101454535685083166","created_at":"Fri Mar 01 12:10:00 +0000 2019","text":"a \"q\" #X","user":{"screen_name":"NASA"},"entities":{"hashtags":[{"text":"X"},{"text":"Ünï"}],"user_mentions":[{"screen_name":"Bob"}]}}
            {"id":"7","text":"no entities"}

            """#)
        try store.ingest([path])
        var text = ""
        try store.export { text += $0; return true }
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(String(lines[0]), #"{"id":"7"}"#)
        XCTAssertEqual(String(lines[1]), #"{"id":"1101454535685083166","created_at":"2019-03-01T12:10:00.000Z","author":{"username":"nasa"},"entities":{"hashtags":[{"tag":"x"},{"tag":"ünï"}],"mentions":[{"username":"bob"}]}}"#)
    }
}
