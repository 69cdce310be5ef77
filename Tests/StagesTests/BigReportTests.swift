import XCTest
@testable import Stages

/// A report of thousands of rows is sorted and written on the cores side
/// by side (hashtags and users, term after term); it must come out as
/// the plain one-thread way writes it: rows in report order, RFC 4180
/// fields, terms in the order given.
final class BigReportTests: XCTestCase {
    /// Rows with ties, shared 16-byte prefixes, fields to quote, big counts.
    private func counts(_ n: Int, seed: Int) -> [(String, Int)] {
        var rng = SystemRandomNumberGenerator()
        let stems = ["machinelearning", "a", "Ü", "中文", "x,y", "say\"hi\"", "line\nbreak", "_"]
        var seen = Set<String>()
        var out: [(String, Int)] = []
        while out.count < n {
            let sign = Bool.random(using: &rng) ? "#" : "@"
            let key = sign + stems.randomElement(using: &rng)! + String(Int.random(in: 0..<(n * 3), using: &rng))
            guard seen.insert(key).inserted else { continue }
            let count = [1, 1, 1, 2, 3, seed, 1_000_000_007, Int.random(in: 1...50, using: &rng)].randomElement(using: &rng)!
            out.append((key, count))
        }
        return out
    }

    private func reference(_ reports: [TermReport]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var out = "term,type,mention,count\n"
        for r in reports {
            for (type, rows) in [("hashtag", r.hashtags), ("user", r.users)] {
                for row in rows { out += "\(field(r.term.description)),\(type),\(field(row.mention)),\(row.count)\n" }
            }
        }
        return out
    }

    func testABigReportIsSortedAndWrittenAsOneThreadWould() throws {
        let terms = [try Term(parsing: "*"), Term(kind: .word, key: "say, \"hi\""), try Term(parsing: "@nasa")]
        let reports = terms.enumerated().map { t, term in
            TermReport(term: term, tweets: 10, counts: counts(t == 1 ? 300 : 9_000, seed: t + 4), minCount: 1, top: nil)
        }
        for r in reports {
            for rows in [r.hashtags, r.users] {
                XCTAssertEqual(rows, rows.sorted { a, b in
                    a.count != b.count ? a.count > b.count : Array(a.mention.utf8).lexicographicallyPrecedes(Array(b.mention.utf8))
                })
            }
            XCTAssertTrue(r.hashtags.allSatisfy { $0.mention.hasPrefix("#") } && r.users.allSatisfy { $0.mention.hasPrefix("@") })
        }
        XCTAssertEqual(reports.map { $0.hashtags.count + $0.users.count }, [9_000, 300, 9_000])
        XCTAssertEqual(ReportWriter.csv(reports), reference(reports))
        XCTAssertEqual(ReportWriter.csv(Array(reports[1...1])), reference(Array(reports[1...1])), "a small one, on one thread")
    }

    func testDecimalsAreWrittenAsStringDoes() {
        for n in [0, 9, 10, 99, 100, 12_345, 1_000_000_007, Int.max, -1, Int.min] {
            var bytes: [UInt8] = []
            ReportWriter.appendInteger(n, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(n))
        }
    }
}
