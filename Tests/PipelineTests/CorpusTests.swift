import Foundation
import XCTest

/// Every file of `../shared/corpus` (but twitter-text/) reported with the counts
/// of the independent reference (`Tests/Reference/reference.py`, Python's json module).
final class CorpusTests: XCTestCase {
    struct Case: Decodable {
        var name: String
        var paths: [String]
        var terms: [String]
        var min_count: Int
        var top: Int?
        var expected: String
        var expected_json: String
        var bad_records: Int
    }

    func testEveryCorpusCaseMatchesTheReference() throws {
        let reference = Smashtag.root.appendingPathComponent("Tests/Reference")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: reference.appendingPathComponent("corpus_cases.json")))
        XCTAssertGreaterThanOrEqual(cases.count, 24)
        for c in cases {
            var args = c.terms.flatMap { ["-t", $0] } + c.paths.map { Smashtag.corpus.appendingPathComponent($0).path }
            args += ["--min-count", String(c.min_count)]
            if let top = c.top { args += ["--top", String(top)] }
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.report(args + ["--format", format])
                XCTAssertEqual(r.stdout, try fixtureText(reference.appendingPathComponent(expected)), "\(c.name) as \(format)")
                let skipped = r.stderr.range(of: #"skipped (\d+) bad"#, options: .regularExpression)
                    .map { Int(r.stderr[$0].split(separator: " ")[1])! } ?? 0
                XCTAssertEqual(skipped, c.bad_records, "\(c.name): bad records on stderr:\n\(r.stderr)")
            }
        }
    }

    /// lines.json holds the same tweet twice (lines 32 and 55): it counts once.
    func testRealDuplicateTweetCountsOnce() throws {
        let path = Smashtag.corpus.appendingPathComponent("python-twitter/streaming/lines.json").path
        let r = try Smashtag.report(["from:Inquired_Mind", path, "--format", "json", "--min-count", "1"])
        XCTAssertTrue(r.stdout.contains(#""tweets":1,"#), r.stdout)
        let stats = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let all = try Smashtag.report(["*", path, "--format", "json", "--stats", stats.path])
        XCTAssertTrue(all.stdout.hasPrefix(#"[{"term":"*","tweets":71,"#), all.stdout)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as! [String: Any]
        XCTAssertEqual(summary["tweets"] as? Int, 72)
        XCTAssertEqual(summary["duplicates_dropped"] as? Int, 1)
    }

    /// The truncated last line of streaming_output_with_error.jsonl is named, with its line.
    func testTruncatedLastLineIsNamedAndSkipped() throws {
        let path = Smashtag.corpus.appendingPathComponent("twarc-csv/streaming_output_with_error.jsonl").path
        let r = try Smashtag.report(["*", path, "--format", "json"])
        XCTAssertTrue(r.stdout.hasPrefix(#"[{"term":"*","tweets":7,"#), r.stdout)
        XCTAssertTrue(r.stderr.contains("streaming_output_with_error.jsonl: 1 skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("line 8: invalid JSON"), r.stderr)
        let strict = try Smashtag.run(["report", "*", path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stdout, "")
    }
}
