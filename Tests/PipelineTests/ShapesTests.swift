import Foundation
import XCTest

/// The same dozen tweets in every input shape give the same report, equal to
/// the one worked out by hand from the tweets' table (Tests/Fixtures/generate.py).
final class ShapesTests: XCTestCase {
    struct Case: Decodable {
        var terms: [String]
        var min_count: Int
        var csv: String
        var json: String
        var shapes_excluded: [String]
    }

    static let dozen = Smashtag.fixtures.appendingPathComponent("dozen")

    func shapes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.dozen.path).filter { $0.hasPrefix("dozen") }.sorted()
    }

    func testEveryShapeGivesTheExpectedReport() throws {
        let shapes = try shapes()
        XCTAssertGreaterThanOrEqual(shapes.count, 21)
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.dozen.appendingPathComponent("expected.json")))
        for c in cases {
            let expectedCSV = try fixtureText(Self.dozen.appendingPathComponent(c.csv))
            let expectedJSON = try fixtureText(Self.dozen.appendingPathComponent(c.json))
            for shape in shapes where !c.shapes_excluded.contains(shape) {
                let args = c.terms.flatMap { ["-t", $0] } + [Self.dozen.appendingPathComponent(shape).path, "--min-count", String(c.min_count)]
                let csv = try Smashtag.report(args + ["--format", "csv"])
                XCTAssertEqual(csv.stdout, expectedCSV, "\(c.terms) from \(shape)")
                XCTAssertFalse(csv.stderr.contains(" bad "), "\(shape): \(csv.stderr)")
                XCTAssertEqual(try Smashtag.report(args + ["--format", "json"]).stdout, expectedJSON, "\(c.terms) from \(shape)")
            }
        }
    }

    /// All shapes at once are still a dozen tweets: dedup across files and members.
    func testAllShapesTogetherDedupToADozen() throws {
        let r = try Smashtag.report(["#stanford", Self.dozen.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.stdout, try fixtureText(Self.dozen.appendingPathComponent("expected-stanford.csv")))
    }

    func testStandardInputCompressedOrNot() throws {
        for shape in ["dozen.jsonl", "dozen.jsonl.zst", "dozen-members.tar", "dozen.zip"] {
            let data = try Data(contentsOf: Self.dozen.appendingPathComponent(shape))
            let r = try Smashtag.report(["#stanford", "--format", "csv", "--min-count", "1"], stdin: data)
            XCTAssertEqual(r.stdout, try fixtureText(Self.dozen.appendingPathComponent("expected-stanford.csv")), shape)
            let dash = try Smashtag.report(["#stanford", "-", "--format", "csv", "--min-count", "1"], stdin: data)
            XCTAssertEqual(dash.stdout, r.stdout, shape)
        }
    }
}
