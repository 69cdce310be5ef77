import Foundation
import XCTest
@testable import Stages

/// A report's ties are ordered by their mentions' UTF-8 bytes (SPEC §7):
/// `precedesInUTF8` compares the stored bytes at once and must agree with
/// comparing them one by one, for every kind of string Swift may hold.
final class ByteOrderTests: XCTestCase {
    func testAgreesWithByteByByteOrder() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["", "a", "b", "#", "@", "z", "ab", "é", "e\u{301}", "中", "😀", "\u{0}", "\u{7F}", "ÿ", "\u{FFFD}", "_", "A"]
        var strings: [String] = pieces
        for _ in 0..<3000 {
            strings.append((0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        // Strings bridged from NSString, whose UTF-8 is not stored contiguously.
        strings += strings.prefix(200).map { NSString(string: $0) as String }
        for _ in 0..<20_000 {
            let a = strings.randomElement(using: &rng)!, b = strings.randomElement(using: &rng)!
            XCTAssertEqual(a.precedesInUTF8(b), Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)), "\(Array(a.utf8)) \(Array(b.utf8))")
        }
        // Rows sorted by their first bytes' word, then their bytes: as the plain comparison sorts them.
        var rows = strings.enumerated().map { MentionCount(mention: "#" + $1, count: $0 % 4) }
        rows += rows.prefix(50).map { MentionCount(mention: $0.mention + "x", count: $0.count) }
        // Mentions that share their first 8 or 16 bytes and more, so ties go to the second word and to the bytes.
        rows += strings.prefix(400).enumerated().map { MentionCount(mention: "#machine" + $1, count: $0 % 3) }
        rows += strings.prefix(400).enumerated().map { MentionCount(mention: "#machinelearning" + $1, count: $0 % 3) }
        rows += strings.prefix(400).enumerated().map { MentionCount(mention: "#machinelearning_" + $1 + "é", count: $0 % 3) }
        // Some mentions bridged from NSString, whose UTF-8 is not stored contiguously.
        rows += strings.prefix(300).enumerated().map { MentionCount(mention: NSString(string: "#machinelearning__" + $1) as String, count: $0 % 3) }
        var byOrder = Dictionary(rows.map { ($0.mention, $0) }, uniquingKeysWith: { a, _ in a }).map(\.value)
        byOrder.shuffle(using: &rng)
        var fast = byOrder
        fast.sortInReportOrder()
        XCTAssertEqual(fast, byOrder.sorted { a, b in
            a.count != b.count ? a.count > b.count : Array(a.mention.utf8).lexicographicallyPrecedes(Array(b.mention.utf8))
        })
        // The cases that decide a tie by length, and bytes above 0x7F (memcmp compares them unsigned).
        XCTAssertTrue("#ab".precedesInUTF8("#abc"))
        XCTAssertFalse("#abc".precedesInUTF8("#ab"))
        XCTAssertFalse("#ab".precedesInUTF8("#ab"))
        XCTAssertTrue("#z".precedesInUTF8("#é"))
        XCTAssertTrue("".precedesInUTF8("#"))
    }
}
