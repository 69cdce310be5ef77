import Foundation
import XCTest

/// One file per nasty case (Tests/Fixtures/defects/README.md has the counts).
final class DefectTests: XCTestCase {
    static let defects = Smashtag.fixtures.appendingPathComponent("defects")

    private func tweets(_ file: String, _ term: String = "*") throws -> (Int, Smashtag.Result) {
        let r = try Smashtag.report([term, Self.defects.appendingPathComponent(file).path, "--format", "json", "--min-count", "1"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        return (json[0]["tweets"] as! Int, r)
    }

    func testGoodTweetsCountAndBadRecordsAreNamedWithTheirLines() throws {
        let expectations: [(String, Int, [Int])] = [
            ("truncated_last_line.jsonl", 3, [4]),
            ("crlf_bom.jsonl", 3, []),
            ("invalid_json_line.jsonl", 2, [2]),
            ("not_a_tweet.jsonl", 3, [3]),
            ("big_id.jsonl", 5, [3, 5, 7]),
        ]
        for (file, good, badLines) in expectations {
            let (n, r) = try tweets(file)
            XCTAssertEqual(n, good, file)
            for line in badLines {
                XCTAssertTrue(r.stderr.contains("line \(line): "), "\(file) line \(line):\n\(r.stderr)")
            }
            if badLines.isEmpty {
                XCTAssertFalse(r.stderr.contains(" bad "), r.stderr)
            } else {
                XCTAssertTrue(r.stderr.contains("\(file): \(badLines.count) skipped"), r.stderr)
                let strict = try Smashtag.run(["report", "*", Self.defects.appendingPathComponent(file).path, "--strict"])
                XCTAssertEqual(strict.status, 1, file)
                XCTAssertTrue(strict.stderr.contains("line \(badLines[0])"), strict.stderr)
            }
        }
    }

    /// Ids above 2^53 that differ by one stay two tweets; 2^64-1 is valid.
    func testIDsKeepEveryDigit() throws {
        XCTAssertEqual(try tweets("big_id.jsonl", "#bigid").0, 5)
    }

    func testDuplicateAcrossFilesCountsOnce() throws {
        let a = Self.defects.appendingPathComponent("duplicate_across_files_a.jsonl").path
        let b = Self.defects.appendingPathComponent("duplicate_across_files_b.jsonl").path
        let r = try Smashtag.report(["*", a, b, "--format", "json"])
        XCTAssertTrue(r.stdout.hasPrefix(#"[{"term":"*","tweets":5,"#), r.stdout)
    }

    func testMissingPathIsNamedAndTheRestStillCounts() throws {
        let good = Self.defects.appendingPathComponent("crlf_bom.jsonl").path
        let r = try Smashtag.report(["*", "/nonexistent/dump.json", good, "--format", "json"])
        XCTAssertTrue(r.stdout.hasPrefix(#"[{"term":"*","tweets":3,"#), r.stdout)
        XCTAssertTrue(r.stderr.contains("/nonexistent/dump.json: cannot read: No such file or directory"), r.stderr)
        let nothing = try Smashtag.run(["report", "*", "/nonexistent/dump.json"])
        XCTAssertEqual(nothing.status, 1, "nothing at all could be read")
    }

    func testCorruptMemberAmongGoodOnesLosesOnlyItself() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A truncated gzip next to a good one, and random bytes named .json.
        let gz = try Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen.jsonl.gz"))
        try gz.prefix(gz.count / 2).write(to: dir.appendingPathComponent("a-truncated.jsonl.gz"))
        try gz.write(to: dir.appendingPathComponent("b-good.jsonl.gz"))
        var rng = SystemRandomNumberGenerator()
        try Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(to: dir.appendingPathComponent("c-random.json"))
        let r = try Smashtag.report(["#stanford", dir.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.stdout, try fixtureText(ShapesTests.dozen.appendingPathComponent("expected-stanford.csv")))
        XCTAssertTrue(r.stderr.contains("a-truncated.jsonl.gz"), r.stderr)
        XCTAssertTrue(r.stderr.contains("c-random.json"), r.stderr)
    }

    /// A hashtag whose text starts with a combining mark (`#` and U+0301 are
    /// one Swift `Character`) is a hashtag on every path: from the dumps in
    /// both mention modes, through `extract | aggregate` (whose reader once
    /// refused its line), from a store, in `export`, and as a term.
    func testAHashtagStartingWithAMarkIsAHashtagOnEveryPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dump = dir.appendingPathComponent("mark.jsonl").path, store = dir.appendingPathComponent("s.db").path
        let line = #"{"id":1,"text":"x #\u0301abc @b","user":{"screen_name":"a"},"entities":{"hashtags":[{"text":"\u0301ABC"}],"user_mentions":[{"screen_name":"b"}]}}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: dump))
        let expected = "term,type,mention,count\n*,hashtag,#\u{301}abc,1\n*,user,@b,1\n"
        let csv = ["--format", "csv", "--min-count", "1"]
        XCTAssertEqual(try Smashtag.report(["*", dump] + csv).stdout, expected)
        XCTAssertEqual(try Smashtag.report(["*", dump, "--mentions-from", "text"] + csv).stdout, expected)
        let extracted = try Smashtag.run(["extract", "*", dump])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let aggregated = try Smashtag.run(["aggregate", "-", "--min-count", "1", "--format", "csv"], stdin: Data(extracted.stdout.utf8))
        XCTAssertEqual(aggregated.stdout, expected, aggregated.stderr)
        XCTAssertEqual(aggregated.stderr.contains("bad"), false, aggregated.stderr)
        XCTAssertEqual(try Smashtag.run(["ingest", dump, "--store", store, "-q"]).status, 0)
        XCTAssertEqual(try Smashtag.report(["*", "--store", store] + csv).stdout, expected)
        let export = try Smashtag.run(["export", "--store", store])
        XCTAssertTrue(export.stdout.contains(#""hashtags":[{"tag":"\#u{301}abc"}],"mentions":[{"username":"b"}]"#), export.stdout)
        let term = try Smashtag.report(["#\u{301}abc", dump] + csv)
        XCTAssertEqual(term.stdout, expected.replacingOccurrences(of: "\n*,", with: "\n#\u{301}abc,"), "the term is a hashtag term")
    }
}
