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

    /// The aggregator sorts a report's rows over its merged keys' bytes,
    /// not their strings: a key that is canonically equal to an ASCII one
    /// (a link's path with U+212A KELVIN SIGN, met before the `K`) keeps
    /// its own bytes in the order, and every kind comes out as the plain
    /// sort of (key, count) puts it, big report (kinds on the cores side
    /// by side) and small, with `--min-count` and `--top`.
    func testTheAggregatorsRowsAreInReportOrderOverEveryKind() throws {
        var rng = SystemRandomNumberGenerator()
        var fixed: [(String, Int)] = [
            ("+example.com/\u{212A}a", 6), ("+example.com/Ka", 6), ("+example.com/\u{37E}", 6), ("+example.com/;", 6),
            ("+example.com/été", 6), ("+example.com/zz", 6), ("+example.com/M", 12), ("!ann", 9), ("!böb", 9), ("#été", 4), ("#aaa", 4),
            ("$aapl", 2), ("^example.com", 21), ("=example.com", 21), ("@q", 24),
        ]
        var seen = Set(fixed.map(\.0))
        for sign in ["#", "@", "+", "!", "^"] {
            while fixed.filter({ $0.0.hasPrefix(sign) }).count < 1_500 {
                let key = sign + ["www.nytimes.com/2020/", "a", "Ü", "x,y", "machinelearning"].randomElement(using: &rng)!
                    + String(Int.random(in: 0..<100_000, using: &rng))
                guard seen.insert(key).inserted else { continue }
                fixed.append((key, [1, 1, 2, 3, 7].randomElement(using: &rng)!))
            }
        }
        var facts = PostFields()
        facts.mentionKinds = MentionKinds(MentionKind.allCases)
        for (minCount, top) in [(1, nil), (2, 5), (1, 3)] as [(Int, Int?)] {
            let aggregator = Aggregator(terms: [try Term(parsing: "*")], facts: facts)
            for (key, count) in fixed { aggregator.add(counted: count, term: 0, mention: key) }
            let report = aggregator.reports(minCount: minCount, top: top)[0]
            XCTAssertEqual(report.sections.map(\.kind), MentionKind.allCases)
            // The first of two canonically equal spellings is the key.
            let kept = fixed.filter { k in ![Array("+example.com/Ka".utf8), Array("+example.com/;".utf8)].contains(Array(k.0.utf8)) }
            for section in report.sections {
                var expected = kept.filter { $0.0.signedKind == section.kind && $0.1 >= minCount }
                    .sorted { a, b in a.1 != b.1 ? a.1 > b.1 : Array(a.0.utf8).lexicographicallyPrecedes(Array(b.0.utf8)) }
                    .map { MentionCount(mention: $0.0, count: $0.1 * ($0.0.hasPrefix("+example.com/") && $0.0.utf8.contains(where: { $0 >= 0xCD && $0 <= 0xE2 }) ? 2 : 1)) }
                if section.kind == .url {
                    // The two merged links count twice: resorted with their counts.
                    expected.sort { a, b in a.count != b.count ? a.count > b.count : Array(a.mention.utf8).lexicographicallyPrecedes(Array(b.mention.utf8)) }
                }
                if let top { expected = Array(expected.prefix(top)) }
                // Rows compared by their bytes (a String's `==` takes U+212A for `K`), failures kept short.
                let got = section.rows.map { "\(Array($0.mention.utf8)) \($0.count)" }, want = expected.map { "\(Array($0.mention.utf8)) \($0.count)" }
                XCTAssertTrue(got == want, "\(section.kind) min \(minCount) top \(String(describing: top)): \(got.count) rows, \(want.count) expected, first difference at \((0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count))")
            }
            if top == nil && minCount == 1 {
                let urls = report.sections.first { $0.kind == .url }!.rows
                // In UTF-8, `M` (0x4D) < U+037E (0xCD 0xBE) < U+212A (0xE2…); their ASCII folds would put `M` last.
                XCTAssertEqual(urls.prefix(3).map { Array($0.mention.utf8.dropFirst(13)) },
                               [[0x4D], [0xCD, 0xBE], [0xE2, 0x84, 0xAA, 0x61]])
                XCTAssertEqual(urls.prefix(3).map(\.count), [12, 12, 12])
            }
        }
    }

    func testDecimalsAreWrittenAsStringDoes() {
        for n in [0, 9, 10, 99, 100, 12_345, 1_000_000_007, Int.max, -1, Int.min] {
            var bytes: [UInt8] = []
            ReportWriter.appendInteger(n, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(n))
        }
    }
}
