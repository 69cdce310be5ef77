import XCTest
@testable import Stages

/// `PairCounts`, the columns' table of (mention, author) and (mention,
/// spelling) pairs, counts as a dictionary does, through its growths.
final class PairCountsTests: XCTestCase {
    func testCountsAsADictionaryThroughGrowth() {
        var table = PairCounts()
        var expected: [UInt64: Int] = [:]
        var state: UInt64 = 0x1234_5678
        for i in 0..<50_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Pairs of small ids, many repeated, and keys that differ only in their low or high half.
            let key = i % 3 == 0 ? UInt64(i % 1000) << 32 | UInt64(i % 7) : (state >> 33) % 5000 << 32 | (state & 0xFFFF) % 300
            let new = table.add(key)
            XCTAssertEqual(new, expected[key] == nil, "key \(key)")
            expected[key, default: 0] += 1
        }
        var seen: [UInt64: Int] = [:]
        table.forEach { seen[$0] = $1 }
        XCTAssertEqual(seen, expected)
        XCTAssertEqual(table.count, expected.count)
    }
}
