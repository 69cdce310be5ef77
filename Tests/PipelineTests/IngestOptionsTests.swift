import Foundation
import XCTest

/// `ingest` takes every input option of `report` (one parser reads them for
/// both): CSV columns, `--mentions-from`, `--max-record`, `--stats`. Each
/// case of the independent reference (`Tests/Reference/text_cases.json`,
/// written by reference.py) is ingested with its options into a new store;
/// the store's report must be the reference's bytes, and the bad records
/// on stderr the ones `report` names.
final class IngestOptionsTests: XCTestCase {
    private var dir = URL(fileURLWithPath: "/")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-ingest-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
    }

    private func store() -> String { dir.appendingPathComponent("s-\(UUID().uuidString).db").path }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("corpus/") ? Smashtag.corpus.appendingPathComponent(String(path.dropFirst(7))).path
            : Smashtag.root.appendingPathComponent(path).path
    }

    /// Text mode, CSV exports with and without entity columns, custom
    /// columns, bad rows: each ingested as the case says, then reported
    /// from the store.
    func testEveryReferenceCaseIngestedReportsTheReference() throws {
        let cases = try JSONDecoder().decode([TextAndCSVTests.Case].self,
                                             from: Data(contentsOf: TextAndCSVTests.reference.appendingPathComponent("text_cases.json")))
        XCTAssertGreaterThanOrEqual(cases.count, 27)
        XCTAssertTrue(cases.contains { ($0.options ?? []).contains("--text-column") }, "the custom-columns case is there")
        for c in cases {
            let s = store()
            var options = (c.mentions_from.map { ["--mentions-from", $0] } ?? []) + (c.options ?? [])
            options += ["--keep-text"]  // word terms are answered from kept text
            let paths = c.paths.map(resolve)
            let i = try Smashtag.run(["ingest"] + paths + ["--store", s, "-q"] + options)
            XCTAssertEqual(i.status, 0, "\(c.name): \(i.stderr)")
            let skipped = i.stderr.range(of: #"skipped (\d+) bad"#, options: .regularExpression)
                .map { Int(i.stderr[$0].split(separator: " ")[1])! } ?? 0
            XCTAssertEqual(skipped, c.bad_records, "\(c.name): bad records on stderr:\n\(i.stderr)")
            let stateless = try Smashtag.run(["report"] + c.terms.flatMap { ["-t", $0] } + paths
                                             + ["--min-count", String(c.min_count), "--format", "csv"] + (c.options ?? [])
                                             + (c.mentions_from.map { ["--mentions-from", $0] } ?? []))
            XCTAssertEqual(i.stderr, stateless.stderr, "\(c.name): ingest names what report names")
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.run(["report"] + c.terms.flatMap { ["-t", $0] }
                                         + ["--store", s, "--min-count", String(c.min_count), "--format", format, "-q"])
                XCTAssertEqual(r.status, 0, "\(c.name): \(r.stderr)")
                XCTAssertEqual(r.stdout, try fixtureText(TextAndCSVTests.reference.appendingPathComponent(expected)),
                               "\(c.name) from the store as \(format)")
            }
        }
    }

    /// Without `--text-column` the custom export is one bad input (nothing
    /// read, exit 1); with the columns named, its rows are read.
    func testCSVColumnsAreNeededAndTaken() throws {
        let data = Data("Tweet Number,Body,Handle\n1,#a @b,c\n2,#a,d\n".utf8)
        let bare = try Smashtag.run(["ingest", "-", "--store", store(), "-q"], stdin: data)
        XCTAssertEqual(bare.status, 1, "nothing at all could be read")
        XCTAssertTrue(bare.stderr.contains("name them with --id-column and --text-column"), bare.stderr)
        let s = store()
        let named = try Smashtag.run(["ingest", "-", "--store", s, "-q", "--id-column", "tweet number", "--text-column", "Body",
                                      "--author-column", "handle"], stdin: data)
        XCTAssertEqual(named.status, 0, named.stderr)
        let r = try Smashtag.run(["report", "*", "from:c", "--store", s, "--format", "csv", "--min-count", "1", "-q"])
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#a,2\n*,user,@b,1\nfrom:c,hashtag,#a,1\nfrom:c,user,@b,1\n")
    }

    /// `--max-record`: a record over the cap is skipped and named as report
    /// names it; the rest is stored.
    func testMaxRecordSkipsWhatReportSkips() throws {
        let padding = String(repeating: "x", count: 3000)
        let long = "{\"id_str\":\"7\",\"text\":\"\(padding) #long\",\"entities\":{\"hashtags\":[{\"text\":\"long\"}],\"user_mentions\":[]}}"
        let short = "{\"id_str\":\"8\",\"text\":\"#short\",\"entities\":{\"hashtags\":[{\"text\":\"short\"}],\"user_mentions\":[]}}"
        let file = dir.appendingPathComponent("long.jsonl")
        try Data((short + "\n" + long + "\n" + short.replacingOccurrences(of: "\"8\"", with: "\"9\"") + "\n").utf8).write(to: file)
        let s = store()
        let i = try Smashtag.run(["ingest", file.path, "--store", s, "-q", "--max-record", "1K"])
        XCTAssertEqual(i.status, 0, i.stderr)
        XCTAssertTrue(i.stderr.contains("long.jsonl: 1 skipped\n    line 2: record longer than --max-record (1024 bytes)"), i.stderr)
        let stateless = try Smashtag.run(["report", "*", file.path, "--max-record", "1K", "--format", "csv"])
        XCTAssertEqual(i.stderr, stateless.stderr)
        let r = try Smashtag.run(["report", "*", "--store", s, "--format", "csv", "--min-count", "1", "-q"])
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#short,2\n")
        XCTAssertEqual(try Smashtag.run(["ingest", file.path, "--store", store(), "--max-record", "1Q"]).status, 2)
    }

    /// `--stats FILE`: the run summary as report writes it (counts of what
    /// was read and skipped, by reason and by input), with the store's own.
    func testStatsCountWhatWasReadAndStored() throws {
        let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path
        let bad = dir.appendingPathComponent("page.json")
        try Data("<html>\n{\"id\":1.5}\n".utf8).write(to: bad)
        let s = store(), stats = dir.appendingPathComponent("i.json").path
        let i = try Smashtag.run(["ingest", dozen, dozen, bad.path, "--store", s, "-q", "--stats", stats])
        XCTAssertEqual(i.status, 0, i.stderr)
        let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        // The dozen is 13 lines (12 tweets and a notice); read twice, the second copies are known.
        XCTAssertEqual(o["inputs"] as? Int, 3)
        XCTAssertEqual(o["records"] as? Int, 13 + 13 + 2)
        XCTAssertEqual(o["tweets"] as? Int, 24)
        XCTAssertEqual(o["notices_skipped"] as? Int, 2)
        XCTAssertEqual(o["tweets_new"] as? Int, 12)
        XCTAssertEqual(o["tweets_known"] as? Int, 12)
        XCTAssertEqual(o["bad_records"] as? Int, 2)
        XCTAssertEqual(o["bad_records_by_reason"] as? [String: Int], ["invalid JSON": 1, "bad tweet id": 1])
        XCTAssertEqual(o["bad_records_by_input"] as? [String: Int], [bad.path: 2])
    }

    /// One compressed file is cut into record batches that every worker
    /// parses, for an ingest as for a report: the store, and the bad lines
    /// named on stderr, are the same for every --jobs and equal the report.
    func testBatchesOfOneCompressedFileGiveTheSameStoreForEveryJobs() throws {
        var big = Data()
        for name in ["python-twitter/streaming/lines.json", "twarc-csv/flat.jsonl", "twarc-csv/streaming_output_with_error.jsonl"] {
            big.append(try Data(contentsOf: Smashtag.corpus.appendingPathComponent(name)))
            if big.last != 0x0A { big.append(0x0A) }
        }
        big.append(Data("{\"broken\": \n".utf8))
        let path = dir.appendingPathComponent("big.jsonl").path
        try big.write(to: URL(fileURLWithPath: path))
        try Smashtag.gzip([path])
        // Tiny batches: dozens of pieces, parsed on any worker, handed to the writer in order.
        let env = ["SMASHTAG_BATCH_BYTES": "20000"]
        let stateless = try Smashtag.run(["report", "*", path + ".gz", "--min-count", "1", "--format", "csv"], environment: env)
        var exports: [String] = []
        for jobs in ["1", "3"] {
            let s = store()
            let i = try Smashtag.run(["ingest", path + ".gz", "--store", s, "-q", "--jobs", jobs], environment: env)
            XCTAssertEqual(i.status, 0, i.stderr)
            XCTAssertEqual(i.stderr, stateless.stderr, "--jobs \(jobs): the bad lines named as report names them")
            XCTAssertTrue(i.stderr.contains("line 180: invalid JSON") && i.stderr.contains("line 181: invalid JSON"), i.stderr)
            let r = try Smashtag.run(["report", "*", "--store", s, "--min-count", "1", "--format", "csv", "-q"])
            XCTAssertEqual(r.stdout, stateless.stdout, "--jobs \(jobs)")
            exports.append(try Smashtag.run(["export", "--store", s]).stdout)
        }
        XCTAssertEqual(exports[0], exports[1])
        XCTAssertGreaterThan(exports[0].split(separator: "\n").count, 150)
    }
}
