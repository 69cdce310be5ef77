import Foundation
import XCTest
@testable import Stages

/// twitter-text's conformance suite (`corpus/twitter-text/extract.json`) for
/// cashtags (every test must pass) and URLs (`urls(in:)`, SPEC §13's text
/// mode links: the cases that differ are named below).
final class TwitterTextCashtagURLConformanceTests: XCTestCase {
    /// The tests of one section, as `(description, text, expected)`.
    private func section(_ name: String) throws -> [(String, String, Any)] {
        let data = try Data(contentsOf: TwitterTextConformanceTests.suite)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tests = try XCTUnwrap((doc["tests"] as? [String: Any])?[name] as? [[String: Any]], "no section \(name)")
        XCTAssertFalse(tests.isEmpty, name)
        return try tests.map { t in
            (try XCTUnwrap(t["description"] as? String), try XCTUnwrap(t["text"] as? String), try XCTUnwrap(t["expected"]))
        }
    }

    func testCashtags() throws {
        let tests = try section("cashtags")
        var passed = 0
        for (description, text, expected) in tests {
            let got = TwitterText.cashtags(in: text).map(\.text)
            XCTAssertEqual(got, expected as? [String], "cashtags: \(description) — \(text.debugDescription)")
            if got == expected as? [String] { passed += 1 }
        }
        XCTAssertEqual(passed, tests.count, "cashtags: \(passed) of \(tests.count) pass")
    }

    func testCashtagsWithIndices() throws {
        let tests = try section("cashtags_with_indices")
        var passed = 0
        for (description, text, expected) in tests {
            let want = try XCTUnwrap(expected as? [[String: Any]]).map { e -> TwitterText.Entity in
                let indices = e["indices"] as! [Int]
                return TwitterText.Entity(text: e["cashtag"] as! String, range: indices[0]..<indices[1])
            }
            let got = TwitterText.cashtags(in: text)
            XCTAssertEqual(got, want, "cashtags_with_indices: \(description)")
            if got == want { passed += 1 }
        }
        XCTAssertEqual(passed, tests.count)
    }

    /// Cases of the rule beyond the suite, worked out from the regex.
    func testCashtagRuleEdges() {
        XCTAssertEqual(TwitterText.cashtags(in: "$ab.cde").map(\.text), ["ab"])       // suffix given back
        XCTAssertEqual(TwitterText.cashtags(in: "$ab.c!").map(\.text), ["ab.c"])
        XCTAssertEqual(TwitterText.cashtags(in: "$abcdef $abcdefg").map(\.text), ["abcdef"])
        XCTAssertEqual(TwitterText.cashtags(in: "($AAPL) $GOOG,").map(\.text), ["GOOG"])  // `(` is no space
        XCTAssertEqual(TwitterText.cashtags(in: "\u{3000}$X\u{3000}").map(\.range), [1..<3])
        XCTAssertEqual(TwitterText.cashtags(in: "$x_y_z").map(\.text), ["x_y"])       // `_` after the suffix ends it
        XCTAssertEqual(TwitterText.cashtags(in: "$é $aé"), [])
        XCTAssertEqual(TwitterText.cashtags(in: "＄AAPL"), [])
        XCTAssertEqual(TwitterText.cashtags(in: "😀 $BTC").map(\.range), [2..<6])   // scalars, not UTF-16
    }

    /// The URL sections: each test's extraction compared as a whole, every
    /// one must pass (`urls(in:)`; the ranges are `urlRanges(in:)`'s).
    func testURLs() throws {
        let knownDifferences: Set<String> = []
        var report: [String] = []
        for name in ["urls", "tco_urls_with_params"] {
            let tests = try section(name)
            var passed = 0
            for (description, text, expected) in tests {
                let got = TwitterText.urls(in: text)
                if got == expected as? [String] {
                    passed += 1
                } else {
                    report.append("\(name): \(description): got \(got), want \(expected)")
                    if !knownDifferences.contains(description) {
                        XCTFail("\(name): \(description) — \(text.debugDescription): \(got)")
                    }
                }
            }
            print("\(name): \(passed) of \(tests.count) pass")
        }
        for name in ["urls_with_indices", "urls_with_directional_markers"] {
            let tests = try section(name)
            var passed = 0
            for (description, text, expected) in tests {
                let want = try XCTUnwrap(expected as? [[String: Any]])
                let urls = want.map { $0["url"] as! String }
                let ranges = want.map { ($0["indices"] as! [Int])[0]..<($0["indices"] as! [Int])[1] }
                let s = Array(text.unicodeScalars)
                let got = TwitterText.urlRanges(in: s)
                if TwitterText.urls(in: text) == urls && got == ranges {
                    passed += 1
                } else {
                    report.append("\(name): \(description): got \(got)")
                    if !knownDifferences.contains(description) { XCTFail("\(name): \(description): \(got)") }
                }
            }
            print("\(name): \(passed) of \(tests.count) pass")
        }
        for line in report { print(line) }
    }

    /// An A-label must be ASCII; a Unicode label or a plain `xn--` one is fine.
    func testURLsWithALabels() {
        XCTAssertEqual(TwitterText.urls(in: "a http://xn--bcher-kva.de/x b"), ["http://xn--bcher-kva.de/x"])
        XCTAssertEqual(TwitterText.urls(in: "a http://XN--はじめよう.com b"), [])
        XCTAssertEqual(TwitterText.urls(in: "a http://はじめよう.みんな b"), ["http://はじめよう.みんな"])
    }
}
