import Foundation
import XCTest

/// SPEC §14 against the independent reference (`Tests/Reference/trend_reference.py`,
/// written from the SPEC with Python's `fractions` and `zoneinfo`) on timed
/// tweets with bursts (`make_trend_data.py`: 21 days, retweets, later copies
/// of earlier tweets under other times, tweets without an author, ties of
/// time, spellings in mixed case and beyond ASCII). Each option set's CSV
/// from the dumps, from a store built in two ingests (read on one
/// connection and on three), and through
/// `extract --trend | aggregate --trend` is the reference's, byte for byte.
final class TrendReferenceTests: XCTestCase {
    static let terms = ["*", "#tag8", "@user0", "from:au0"]

    /// Each set: windows, baselines, zones, thresholds and the row options.
    static let options: [[String]] = [
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z"],
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z", "--all"],
        ["--current", "2d", "--now", "2020-03-09T10:00:00Z", "--min-authors", "2", "--top", "4"],
        ["--current", "7d", "--now", "2020-03-09T10:00:00Z", "--baseline", "weekago", "--all"],
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z", "--baseline", "mean:7", "--all"],
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z", "--baseline", "mean:3", "--by-tweets", "--all"],
        ["--current", "2020-03-07..2020-03-09", "--baseline", "2020-02-20..2020-03-01", "--all"],
        ["--current", "2020-03-08T06:00:00+02:00..2020-03-08T20:00:00-05:00", "--baseline", "mean:4", "--min-authors", "1", "--all"],
        ["--current", "12h", "--now", "2020-03-08T23:30:00Z", "--min-authors", "1", "--all"],
        ["--current", "5h", "--now", "2020-03-08T23:30:00Z", "--tz", "Asia/Kolkata", "--min-authors", "1", "--all"],
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z", "--tz", "Europe/Berlin", "--baseline", "weekago", "--all"],
        ["--current", "1w", "--now", "2020-03-09T10:00:00Z", "--min-authors", "2", "--all"],
        ["--current", "1d", "--now", "2020-03-09T10:00:00Z", "--retweets", "include", "--all", "--top", "3"],
        ["--current", "3d", "--now", "2020-03-09T10:00:00Z", "--retweets", "only", "--min-authors", "1"],
    ]

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-trendref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    private func run(_ args: [String], stdin: Data? = nil) throws -> String {
        let r = try Smashtag.run(args, stdin: stdin)
        XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        return r.stdout
    }

    func testEveryPathGivesTheReferencesBytes() throws {
        let dir = try temporaryFolder()
        let dump = dir.appendingPathComponent("timed.jsonl").path
        _ = try Smashtag.reference("make_trend_data.py", [dump, "4000"])
        // The store in two ingests: the first half of the lines, then the rest (later copies of earlier posts among them).
        let lines = try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let half = lines.count / 2
        let store = dir.appendingPathComponent("t.db").path
        for (i, part) in [lines[..<half], lines[half...]].enumerated() {
            let file = dir.appendingPathComponent("part\(i).jsonl")
            try part.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            _ = try run(["ingest", file.path, "--store", store, "-q"])
        }
        let termArgs = Self.terms.flatMap { ["-t", $0] }
        var extracted: [[String]: Data] = [:]
        var rows = 0
        for o in Self.options {
            let expected = try Smashtag.reference("trend_reference.py", termArgs + o + [dump])
            let name = o.joined(separator: " ")
            XCTAssertEqual(try run(["trend"] + termArgs + [dump, "-q"] + o), expected, "dumps: \(name)")
            XCTAssertEqual(try run(["trend"] + termArgs + ["--store", store, "-q"] + o), expected, "store: \(name)")
            // The windows' span cut into pieces, read on three connections and handed on in order.
            XCTAssertEqual(try run(["trend"] + termArgs + ["--store", store, "-q", "--jobs", "3"] + o), expected, "store, --jobs 3: \(name)")
            // The filter is extract's (before matching); the windows and rows are aggregate's.
            let filter = o.firstIndex(of: "--retweets").map { Array(o[$0...($0 + 1)]) } ?? []
            let rest = o.enumerated().filter { i, _ in filter.isEmpty || !(o[i] == "--retweets" || i > 0 && o[i - 1] == "--retweets") }.map(\.element)
            if extracted[filter] == nil { extracted[filter] = Data(try run(["extract"] + termArgs + [dump, "--trend", "-q"] + filter).utf8) }
            XCTAssertEqual(try run(["aggregate", "--trend", "-q"] + rest, stdin: extracted[filter]), expected, "extract | aggregate: \(name)")
            rows += expected.split(separator: "\n").count - 1
        }
        // Something to compare: rows of every term and of every status.
        XCTAssertGreaterThan(rows, 1000)
        let all = try Smashtag.reference("trend_reference.py", termArgs + Self.options[1] + [dump])
        for part in ["\n*,", "\n#tag8,", "\n@user0,", "\nfrom:au0,", ",rising,", ",new,", ",falling,", ",steady,"] {
            XCTAssertTrue(all.contains(part), part)
        }
    }
}
