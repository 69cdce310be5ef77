import Foundation
import XCTest
@testable import Stages

/// Stores in a temporary folder, removed when the test ends, and the
/// stateless reports they are compared with.
final class StoreFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to a file of the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }
}

enum StoreFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = root.appendingPathComponent("samples")
    static let dozen = root.appendingPathComponent("Tests/Fixtures/dozen")
    static let defects = root.appendingPathComponent("Tests/Fixtures/defects")

    /// Every sample dump, in the order a folder walk reads them.
    static var samplePaths: [String] {
        ["account-archive.zip", "archive-stream.tar", "search-v2.json", "stream-2.jsonl.gz", "stream.jsonl"]
            .map { samples.appendingPathComponent($0).path }
    }

    /// Terms of every kind the samples have tweets for.
    static let terms = ["*", "#stanford", "#россия", "@stanford", "from:stanford", "#gotrees", "@nasa", "#none"]
        .map { try! Term(parsing: $0) }
}

/// The report of a stateless run over `paths` (read, dedup, aggregate in memory).
func statelessReports(_ paths: [String], _ terms: [Term], minCount: Int = 1) -> [TermReport] {
    let plan = InputPlan(paths: paths)
    let aggregator = Aggregator(terms: terms)
    _ = ParallelRun(terms: terms, jobs: 2).run(plan.units, control: RunControl(strict: false), into: aggregator)
    return aggregator.reports(minCount: minCount, top: nil)
}

extension Store {
    /// Opens (creating) a store for writing in a test.
    static func writable(_ path: String) throws -> Store {
        try Store(path: path, access: .write(command: "test"), create: true, wait: 0)
    }

    /// Ingests `paths` in one run.
    @discardableResult
    func ingest(_ paths: [String], batch: Int = 50_000, jobs: Int = 2, strict: Bool = false) throws -> IngestOutcome {
        var options = IngestOptions(jobs: jobs)
        options.batchSize = batch
        return try ingest(InputPlan(paths: paths, splitSize: 1 << 20), inputs: paths, options: options,
                          control: RunControl(strict: strict))
    }

    /// Rows of a table, for checks on what the database holds.
    func count(_ table: String) throws -> Int {
        Int(try db.integer("SELECT count(*) FROM \(table)") ?? 0)
    }

    /// The mention links of the stored tweets (in their rows' blobs, schema v5),
    /// those of tweet `id` only when given.
    func links(of id: Int64? = nil) throws -> [(tweet: Int64, mention: Int64)] {
        let s = try db.statement("SELECT id, links FROM tweet WHERE links IS NOT NULL" + (id == nil ? "" : " AND id = ?1"))
        if let id { try s.bind(1, id) }
        defer { s.done() }
        var out: [(tweet: Int64, mention: Int64)] = []
        while try s.step() {
            let tweet = s.int64(0)
            if let blob = s.blob(1) { Links.mentions(blob) { out.append((tweet, $0)) } }
        }
        return out
    }

    /// Links to a mention the store does not have (none, ever).
    func danglingLinks() throws -> Int {
        var known = Set<Int64>()
        let s = try db.statement("SELECT id FROM mention")
        while try s.step() { known.insert(s.int64(0)) }
        return try links().filter { !known.contains($0.mention) }.count
    }
}

/// Fails unless two lists of reports are the same, naming the first term that differs.
func assertSameReports(_ a: [TermReport], _ b: [TermReport], _ message: String = "",
                       file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, message, file: file, line: line)
    for (x, y) in zip(a, b) where x != y {
        XCTFail("\(message) \(x.term): \(x.tweets) tweets vs \(y.tweets); hashtags \(x.hashtags.prefix(5)) vs \(y.hashtags.prefix(5)); users \(x.users.prefix(5)) vs \(y.users.prefix(5))",
                file: file, line: line)
        return
    }
}
