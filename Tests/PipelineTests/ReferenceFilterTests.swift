import Foundation
import XCTest

/// SPEC §12.1–12.3 on the corpus against the independent reference
/// (`Tests/Reference/reference.py`, through `make_filter_cases.py`): each
/// case's report from the dumps, and through `extract | aggregate` over its
/// two halves extracted apart and concatenated in either order, is the
/// reference's, byte for byte.
final class ReferenceFilterTests: XCTestCase {
    struct Case: Decodable {
        var name: String
        var halves: [[String]]
        var terms: [String]
        var min_count: Int
        var options: [String]
        var expected: String
        var expected_json: String
        var left_out: Int?
        var unknown_time: Int?
    }

    static let reference = Smashtag.root.appendingPathComponent("Tests/Reference")

    static func cases() throws -> [Case] {
        try JSONDecoder().decode([Case].self, from: Data(contentsOf: reference.appendingPathComponent("filter_cases.json")))
    }

    static func resolve(_ p: String) -> String {
        p.hasPrefix("fixtures/") ? Smashtag.fixtures.appendingPathComponent(String(p.dropFirst(9))).path
            : Smashtag.corpus.appendingPathComponent(p).path
    }

    static func args(_ c: Case) -> [String] {
        c.terms.flatMap { ["-t", $0] } + ["--min-count", String(c.min_count)]
    }

    func testFromDumpsAsTheReference() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 8)
        for c in cases {
            let paths = c.halves.flatMap { $0 }.map(Self.resolve)
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.run(["report"] + Self.args(c) + paths + c.options + ["--format", format, "--progress=plain"])
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertEqual(r.stdout, try fixtureText(Self.reference.appendingPathComponent(expected)), "\(c.name) as \(format)")
                if let left = c.left_out, let unknown = c.unknown_time {
                    XCTAssertTrue(r.stderr.contains("left out \(groupedDigits(left)) of "), "\(c.name): \(r.stderr)")
                    if c.options.contains("--since") || c.options.contains("--until") {
                        XCTAssertTrue(r.stderr.contains("(\(unknown) of unknown time)"), "\(c.name): \(r.stderr)")
                    }
                }
            }
        }
    }

    func testThroughExtractAndAggregateOverHalvesInEitherOrder() throws {
        for c in try Self.cases() {
            // --top is the aggregate's; the filters and --columns go to extract, --columns to aggregate too.
            var extractOptions = c.options, top: [String] = []
            if let i = extractOptions.firstIndex(of: "--top") {
                top = Array(extractOptions[i...(i + 1)])
                extractOptions.removeSubrange(i...(i + 1))
            }
            let columns = c.options.firstIndex(of: "--columns").map { Array(c.options[$0...($0 + 1)]) } ?? []
            let a = try Smashtag.run(["extract"] + c.terms.flatMap { ["-t", $0] } + c.halves[0].map(Self.resolve) + extractOptions)
            let b = try Smashtag.run(["extract"] + c.terms.flatMap { ["-t", $0] } + c.halves[1].map(Self.resolve) + extractOptions
                                     + ["--jobs", "1"])
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let want = try fixtureText(Self.reference.appendingPathComponent(expected))
                for lines in [a.stdout + b.stdout, b.stdout + a.stdout] {
                    let r = try Smashtag.run(["aggregate", "--min-count", String(c.min_count), "--format", format] + columns + top,
                                             stdin: Data(lines.utf8))
                    XCTAssertEqual(r.status, 0, r.stderr)
                    XCTAssertEqual(r.stdout, want, "\(c.name) as \(format)")
                }
            }
        }
    }
}

/// `1234` → `1,234`, as the summary prints counts.
func groupedDigits(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(ch)
    }
    return out
}
