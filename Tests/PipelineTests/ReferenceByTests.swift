import Foundation
import XCTest

/// SPEC §12.4 (`--by`, `--tz`) on the corpus and on the DST and new-year
/// fixtures (`Tests/Fixtures/by`) against the independent reference
/// (`Tests/Reference/reference.py`, buckets by Python's zoneinfo, through
/// `make_by_cases.py`): each case's series from the dumps, and through
/// `extract | aggregate` over its two halves extracted apart and
/// concatenated in either order, is the reference's, byte for byte.
final class ReferenceByTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-by-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    static func cases() throws -> [ReferenceFilterTests.Case] {
        try JSONDecoder().decode([ReferenceFilterTests.Case].self,
                                 from: Data(contentsOf: ReferenceFilterTests.reference.appendingPathComponent("by_cases.json")))
    }

    func testFromDumpsAsTheReference() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 10)
        for c in cases {
            let paths = c.halves.flatMap { $0 }.map(ReferenceFilterTests.resolve)
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.run(["report"] + ReferenceFilterTests.args(c) + paths + c.options
                                         + ["--format", format, "--progress=plain", "--jobs", format == "csv" ? "2" : "1"])
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertEqual(r.stdout, try fixtureText(ReferenceFilterTests.reference.appendingPathComponent(expected)),
                               "\(c.name) as \(format)")
                if let left = c.left_out, let unknown = c.unknown_time {
                    XCTAssertTrue(r.stderr.contains("left out \(groupedDigits(left)) of "), "\(c.name): \(r.stderr)")
                    XCTAssertTrue(r.stderr.contains("(\(unknown) of unknown time)"), "\(c.name): \(r.stderr)")
                    XCTAssertGreaterThan(unknown, 0, "the inputs hold tweets of unknown time")
                }
            }
        }
    }

    /// `--by`, `--tz`, `--since`, `--until` and `--columns` go to both
    /// stages (extract applies the filters and carries times; aggregate
    /// buckets and spans the series), `--top` to aggregate.
    static func stageOptions(_ c: ReferenceFilterTests.Case) -> (extract: [String], aggregate: [String]) {
        var extract: [String] = [], aggregate: [String] = []
        var i = 0
        while i < c.options.count {
            let pair = Array(c.options[i...(i + 1)])
            switch pair[0] {
            case "--top": aggregate += pair
            case "--by", "--tz", "--since", "--until", "--columns": extract += pair; aggregate += pair
            default: extract += pair
            }
            i += 2
        }
        return (extract, aggregate)
    }

    func testThroughExtractAndAggregateOverHalvesInEitherOrder() throws {
        for c in try Self.cases() {
            let (extractOptions, aggregateOptions) = Self.stageOptions(c)
            let terms = c.terms.flatMap { ["-t", $0] }
            let a = try Smashtag.run(["extract"] + terms + c.halves[0].map(ReferenceFilterTests.resolve) + extractOptions)
            let b = try Smashtag.run(["extract"] + terms + c.halves[1].map(ReferenceFilterTests.resolve) + extractOptions
                                     + ["--jobs", "1"])
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let want = try fixtureText(ReferenceFilterTests.reference.appendingPathComponent(expected))
                for lines in [a.stdout + b.stdout, b.stdout + a.stdout] {
                    let r = try Smashtag.run(["aggregate", "--min-count", String(c.min_count), "--format", format] + aggregateOptions,
                                             stdin: Data(lines.utf8))
                    XCTAssertEqual(r.status, 0, r.stderr)
                    XCTAssertEqual(r.stdout, want, "\(c.name) as \(format)")
                }
            }
        }
    }

    /// From a store built in two ingests (one per half), bucketed at query
    /// time: every case, `--columns` counted per bucket among them, is the
    /// reference's as CSV and JSON, and the dumps' as NDJSON and a table.
    func testFromAStoreBuiltInTwoIngests() throws {
        let store = try temporaryFolder().appendingPathComponent("by.db").path
        let cases = try Self.cases()
        let first = try Smashtag.run(["ingest", "--store", store, "-q"] + cases[0].halves[0].map(ReferenceFilterTests.resolve))
        let second = try Smashtag.run(["ingest", "--store", store, "-q"] + cases[0].halves[1].map(ReferenceFilterTests.resolve))
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(cases.contains { $0.options.contains("--retweets") }, "a case with --retweets is answered from the store")
        XCTAssertGreaterThanOrEqual(cases.filter { $0.options.contains("--columns") }.count, 5)
        for c in cases {
            XCTAssertEqual(c.halves, cases[0].halves, "every case reads the same inputs")
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.run(["report", "--store", store] + ReferenceFilterTests.args(c) + c.options + ["--format", format])
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertEqual(r.stdout, try fixtureText(ReferenceFilterTests.reference.appendingPathComponent(expected)),
                               "\(c.name) as \(format) from a store")
                if let unknown = c.unknown_time {
                    XCTAssertTrue(r.stderr.contains("(\(unknown) of unknown time left out by --by"), r.stderr)
                }
            }
            let paths = c.halves.flatMap { $0 }.map(ReferenceFilterTests.resolve)
            for format in ["ndjson", "table"] {
                let stored = try Smashtag.run(["report", "--store", store] + ReferenceFilterTests.args(c) + c.options
                                              + ["--format", format, "-q"])
                let dumps = try Smashtag.run(["report"] + ReferenceFilterTests.args(c) + paths + c.options + ["--format", format, "-q"])
                XCTAssertEqual(stored.status, 0, stored.stderr)
                XCTAssertGreaterThan(dumps.stdout.utf8.count, 0, "\(c.name) as \(format)")
                XCTAssertEqual(stored.stdout, dumps.stdout, "\(c.name) as \(format) from a store")
            }
        }
    }

    /// The same series whether extract was told the filters' window or
    /// only aggregate was (aggregate leaves out the times outside it).
    func testAggregateAloneAppliesTheWindow() throws {
        let c = try XCTUnwrap(try Self.cases().first { $0.name == "week_new_year_berlin" })
        let paths = c.halves.flatMap { $0 }.map(ReferenceFilterTests.resolve)
        let e = try Smashtag.run(["extract"] + c.terms.flatMap { ["-t", $0] } + paths + ["--by", "week", "--columns", "display,authors"])
        XCTAssertEqual(e.status, 0, e.stderr)
        let r = try Smashtag.run(["aggregate", "--min-count", "1"] + Self.stageOptions(c).aggregate, stdin: Data(e.stdout.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try fixtureText(ReferenceFilterTests.reference.appendingPathComponent(c.expected)))
    }
}
