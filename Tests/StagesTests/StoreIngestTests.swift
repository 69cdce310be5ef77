import Foundation
import XCTest
@testable import Stages

final class StoreIngestTests: XCTestCase {
    /// The issue's first promise: ingest in two batches, report from the
    /// store, and get what one stateless run over every file gives.
    func testTwoIngestsEqualOneStatelessReportOverAllFiles() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let paths = StoreFixtures.samplePaths
        let first = try store.ingest(Array(paths.prefix(2)))
        let second = try store.ingest(Array(paths.dropFirst(2)))
        XCTAssertEqual(first.totals.new + second.totals.new, try store.tweetCount)
        // stream.jsonl opens with 5 tweets of archive-stream.tar, and repeats a line of stream-2.
        XCTAssertGreaterThan(second.totals.known, 0)
        let expected = statelessReports(paths, StoreFixtures.terms)
        assertSameReports(try store.reports(StoreFixtures.terms, minCount: 1, top: nil), expected)
        XCTAssertEqual(expected[0].tweets, try store.tweetCount, "* counts every distinct tweet")
    }

    /// The writer numbers a run's new mentions itself (after the highest
    /// stored, as SQLite would) and looks up only what a store held before
    /// the run: a second run's known and new mentions and spellings land
    /// once each, and its links point at the first run's ids.
    func testALaterRunsNewMentionsFollowTheStoredOnes() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        func tweet(_ id: Int, _ user: String, _ tags: [String]) -> String {
            let list = tags.map { #"{"text":"\#($0)"}"# }.joined(separator: ",")
            return #"{"id_str":"\#(id)","text":"t","user":{"screen_name":"\#(user)"},"entities":{"hashtags":[\#(list)]}}"#
        }
        let a = try folder.write("a.jsonl", [tweet(1, "ann", ["Foo", "bar"]), tweet(2, "bob", ["foo"])].joined(separator: "\n") + "\n")
        let b = try folder.write("b.jsonl", [tweet(3, "ann", ["FOO", "baz"]), tweet(4, "cy", ["Bar", "Foo"])].joined(separator: "\n") + "\n")
        try store.ingest([a])
        // The authors are posters too (SPEC §13: `!ann`), kept with the other kinds.
        XCTAssertEqual(try store.count("mention"), 6, "#foo #bar @ann @bob !ann !bob")
        try store.ingest([b])
        XCTAssertEqual(try store.count("mention"), 9, "and #baz @cy !cy")
        XCTAssertEqual(try store.db.integer("SELECT count(DISTINCT key) FROM mention"), 9)
        XCTAssertEqual(try store.db.integer("SELECT max(id) - min(id) + 1 FROM mention"), 9, "numbered on from the stored ones")
        XCTAssertEqual(try store.db.integer("SELECT count(DISTINCT text) FROM spelling"), try store.db.integer("SELECT count(*) FROM spelling"))
        // Every tweet's links (in its row) point at the one #foo, whichever run stored it.
        let foo = try XCTUnwrap(try store.db.integer("SELECT id FROM mention WHERE key = '#foo'"))
        let rows = try store.db.statement("SELECT links FROM tweet")
        var linked = 0
        while try rows.step() {
            if let blob = rows.blob(0) { Links.entries(blob) { m, _, again in if m == foo && !again { linked += 1 } } }
        }
        rows.done()
        XCTAssertEqual(linked, 4)
        let terms = ["*", "#foo", "#bar", "from:ann"].map { try! Term(parsing: $0) }
        assertSameReports(try store.reports(terms, minCount: 1, top: nil), statelessReports([a, b], terms))
    }

    func testEveryInputShapeStoresTheSameTweets() throws {
        let folder = try StoreFolder()
        let shapes = try FileManager.default.contentsOfDirectory(atPath: StoreFixtures.dozen.path)
            .filter { $0.hasPrefix("dozen") }.sorted()
        XCTAssertGreaterThanOrEqual(shapes.count, 21)
        let terms = ["*", "#stanford", "@nasa", "from:nasa", "#россия"].map { try! Term(parsing: $0) }
        for shape in shapes {
            let path = StoreFixtures.dozen.appendingPathComponent(shape).path
            let store = try Store.writable(folder.path("\(shape).db"))
            try store.ingest([path])
            assertSameReports(try store.reports(terms, minCount: 1, top: nil), statelessReports([path], terms), shape)
        }
    }

    func testTheSameTweetTwiceAddsNothingAndAFileReadWholeIsNotReadAgain() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let a = StoreFixtures.defects.appendingPathComponent("duplicate_across_files_a.jsonl").path
        let b = StoreFixtures.defects.appendingPathComponent("duplicate_across_files_b.jsonl").path
        let first = try store.ingest([a, b])
        XCTAssertEqual(first.totals.read, 6)
        XCTAssertEqual(first.totals.new, 5)
        XCTAssertEqual(first.totals.known, 1)
        let again = try store.ingest([a, b])
        XCTAssertEqual(again.unchanged, 2)
        XCTAssertEqual(again.totals.read, 0)
        XCTAssertEqual(try store.tweetCount, 5)
        XCTAssertEqual(try store.count("source"), 2)
    }

    func testAChangedFileIsReadAgainAndOnlyItsNewTweetsCount() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let lines = try String(contentsOf: StoreFixtures.dozen.appendingPathComponent("dozen.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true)
        let path = try folder.write("day.jsonl", lines.prefix(5).joined(separator: "\n") + "\n")
        let first = try store.ingest([path])
        try folder.write("day.jsonl", lines.joined(separator: "\n") + "\n")  // the day's file grew
        let second = try store.ingest([path])
        XCTAssertEqual(second.unchanged, 0)
        XCTAssertEqual(second.totals.known, first.totals.new)
        XCTAssertEqual(try store.tweetCount, first.totals.new + second.totals.new)
        assertSameReports(try store.reports(StoreFixtures.terms, minCount: 1, top: nil), statelessReports([path], StoreFixtures.terms))
    }

    func testByteRangesOfABigFileAndSmallBatchesGiveTheSameStore() throws {
        let folder = try StoreFolder()
        var big = Data()
        for name in ["stream.jsonl"] { big.append(try Data(contentsOf: StoreFixtures.samples.appendingPathComponent(name))) }
        let path = folder.path("big.jsonl")
        try big.write(to: URL(fileURLWithPath: path))
        let store = try Store.writable(folder.path("s.db"))
        var options = IngestOptions(jobs: 3)
        options.batchSize = 7
        let plan = InputPlan(paths: [path], splitSize: 50_000)
        XCTAssertGreaterThan(plan.units.count, 5)
        let o = try store.ingest(plan, inputs: [path], options: options, control: RunControl(strict: false))
        XCTAssertEqual(o.totals.files, 1, "a file split into ranges is one file")
        XCTAssertEqual(try store.count("source"), 1)
        assertSameReports(try store.reports(StoreFixtures.terms, minCount: 1, top: nil), statelessReports([path], StoreFixtures.terms))
    }

    func testKeptTextAnswersWordTermsAndAStoreWithoutTextRefusesThem() throws {
        let folder = try StoreFolder()
        let words = ["stanford", "r&d", "#stanford"].map { try! Term(parsing: $0) }
        let withText = try Store.writable(folder.path("text.db"))
        XCTAssertTrue(try withText.enableText())
        try withText.ingest(StoreFixtures.samplePaths)
        assertSameReports(try withText.reports(words, minCount: 1, top: nil), statelessReports(StoreFixtures.samplePaths, words))
        XCTAssertTrue(try withText.enableText(), "a store keeping text says so again")

        let bare = try Store.writable(folder.path("bare.db"))
        try bare.ingest(StoreFixtures.samplePaths)
        XCTAssertThrowsError(try bare.reports(words, minCount: 1, top: nil)) { error in
            XCTAssertTrue("\(error)".contains("--keep-text"), "\(error)")
        }
        XCTAssertFalse(try bare.enableText(), "a store holding tweets without text cannot start keeping it")
    }

    func testBadRecordsAreCountedAndTheRunGoesOn() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let paths = ["invalid_json_line.jsonl", "not_a_tweet.jsonl", "big_id.jsonl"]
            .map { StoreFixtures.defects.appendingPathComponent($0).path }
        let o = try store.ingest(paths)
        XCTAssertEqual(o.stats.badRecords, 5)
        XCTAssertEqual(o.totals.skipped, 5)
        XCTAssertEqual(o.problems.compactMap(\.line), [2, 3, 3, 5, 7])
        XCTAssertEqual(try store.tweetCount, 2 + 3 + 5)
        // 2^64-1 keeps its bits through the signed column.
        let big = try store.reports([try Term(parsing: "#bigid")], minCount: 1, top: nil)
        XCTAssertEqual(big[0].tweets, 5)
    }

    func testStrictStopsAtTheFirstBadRecordAndKeepsOnlyCommittedBatches() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let path = StoreFixtures.defects.appendingPathComponent("invalid_json_line.jsonl").path
        let o = try store.ingest([path], strict: true)
        XCTAssertEqual(o.stats.badRecords, 1)
        XCTAssertEqual(try store.count("source"), 0, "a file stopped in the middle is not recorded as read")
        XCTAssertEqual(try store.history().last?.outcome, "stopped")
    }

    func testHistoryListsEveryRun() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        try store.ingest([StoreFixtures.samplePaths[0]])
        try store.ingest(StoreFixtures.samplePaths)
        let runs = try store.history()
        XCTAssertEqual(runs.map(\.command), ["ingest", "ingest"])
        XCTAssertEqual(runs.map(\.outcome), ["ok", "ok"])
        XCTAssertEqual(runs[1].unchanged, 1)
        XCTAssertEqual(runs[1].inputs, StoreFixtures.samplePaths)
        XCTAssertEqual(runs.map(\.totals.new).reduce(0, +), try store.tweetCount)
        XCTAssertNotNil(runs[1].finishedAt)
        let csv = RunRecord.listing(runs).render(as: .csv)
        XCTAssertEqual(csv.split(separator: "\n").count, 3)
        XCTAssertTrue(csv.hasPrefix("run,started,finished,command,outcome,inputs,"), csv)
    }

    func testARunLeftRunningIsShownInterruptedAndMarkedSoByTheNext() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        _ = try store.startRun("ingest", inputs: ["killed.jsonl"])  // as a killed run leaves it
        XCTAssertEqual(try store.history().map(\.outcome), ["running"], "its own run, while it holds the lock")
        store.close()
        XCTAssertEqual(try Store(path: folder.path("s.db"), access: .read).history().map(\.outcome), ["interrupted"])
        let next = try Store.writable(folder.path("s.db"))
        try next.ingest([StoreFixtures.samplePaths[0]])
        XCTAssertEqual(try next.history().map(\.outcome), ["interrupted", "ok"])
        XCTAssertEqual(try next.db.integer("SELECT count(*) FROM run WHERE outcome = 'interrupted'"), 1, "recorded, not only shown")
    }
}
