import Foundation
import XCTest
@testable import Stages

/// twitter-text's own conformance suite, read straight from
/// `corpus/twitter-text/extract.json`: every test of the hashtag and mention
/// sections must pass, positions compared in Unicode scalars.
final class TwitterTextConformanceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let suite: URL = {
        if let c = ProcessInfo.processInfo.environment["SMASHTAG_CORPUS"] {
            return URL(fileURLWithPath: c).appendingPathComponent("twitter-text/extract.json")
        }
        return root.deletingLastPathComponent().appendingPathComponent("shared/corpus/twitter-text/extract.json")
    }()

    /// The tests of one section, as `(description, text, expected)`.
    private func section(_ name: String) throws -> [(String, String, Any)] {
        let data = try Data(contentsOf: Self.suite)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tests = try XCTUnwrap((doc["tests"] as? [String: Any])?[name] as? [[String: Any]], "no section \(name)")
        XCTAssertFalse(tests.isEmpty, name)
        return try tests.map { t in
            (try XCTUnwrap(t["description"] as? String), try XCTUnwrap(t["text"] as? String), try XCTUnwrap(t["expected"]))
        }
    }

    /// Runs a section whose expectations are plain lists of names.
    private func checkNames(_ name: String, _ extract: (String) -> [TwitterText.Entity]) throws {
        var passed = 0
        let tests = try section(name)
        for (description, text, expected) in tests {
            let got = extract(text).map(\.text)
            XCTAssertEqual(got, expected as? [String], "\(name): \(description) — \(text.debugDescription)")
            if got == expected as? [String] { passed += 1 }
        }
        XCTAssertEqual(passed, tests.count, "\(name): \(passed) of \(tests.count) pass")
    }

    /// Runs a section whose expectations carry `indices` (and `list_slug`).
    private func checkIndexed(_ name: String, key: String, lists: Bool, _ extract: (String) -> [TwitterText.Entity]) throws {
        var passed = 0
        let tests = try section(name)
        for (description, text, expected) in tests {
            let want = try XCTUnwrap(expected as? [[String: Any]]).map { e -> TwitterText.Entity in
                let indices = e["indices"] as! [Int]
                return TwitterText.Entity(text: e[key] as! String, listSlug: lists ? e["list_slug"] as! String : "",
                                          range: indices[0]..<indices[1])
            }
            let got = extract(text)
            XCTAssertEqual(got, want, "\(name): \(description) — \(text.debugDescription)")
            if got == want { passed += 1 }
        }
        XCTAssertEqual(passed, tests.count, "\(name): \(passed) of \(tests.count) pass")
    }

    func testHashtags() throws { try checkNames("hashtags", TwitterText.hashtags(in:)) }

    func testHashtagsFromAstral() throws { try checkNames("hashtags_from_astral", TwitterText.hashtags(in:)) }

    func testHashtagsWithIndices() throws {
        try checkIndexed("hashtags_with_indices", key: "hashtag", lists: false, TwitterText.hashtags(in:))
    }

    func testMentions() throws { try checkNames("mentions", TwitterText.mentions(in:)) }

    func testMentionsWithIndices() throws {
        try checkIndexed("mentions_with_indices", key: "screen_name", lists: false, TwitterText.mentions(in:))
    }

    func testMentionsOrListsWithIndices() throws {
        try checkIndexed("mentions_or_lists_with_indices", key: "screen_name", lists: true, TwitterText.mentionsOrLists(in:))
    }

    /// URLs matter only to drop hashtags inside them; the `urls` sections
    /// check that recognition (all but one test: `xn--` followed by non-ASCII
    /// letters, which only an IDNA encoder rejects).
    func testURLRecognitionForHashtagOverlap() throws {
        var passed = 0
        let tests = try section("urls")
        for (description, text, expected) in tests {
            let s = Array(text.unicodeScalars)
            let got = TwitterText.urlRanges(in: s).map { TwitterText.string(s[$0]) }
            if got == expected as? [String] { passed += 1 } else { print("urls: \(description): \(got)") }
        }
        XCTAssertGreaterThanOrEqual(passed, tests.count - 1)
        for (description, text, expected) in try section("urls_with_indices") {
            let want = try XCTUnwrap(expected as? [[String: Any]]).map { ($0["indices"] as! [Int])[0]..<($0["indices"] as! [Int])[1] }
            XCTAssertEqual(TwitterText.urlRanges(in: Array(text.unicodeScalars)), want, description)
        }
    }
}
