import XCTest
@testable import Stages

/// A trend slot's (mention, author) entries folded into each mention's
/// tweets and distinct authors two ways — a counting pass by mention (the
/// current windows, and baselines holding many entries) and a sort (the
/// many short windows of `mean:K`) — must agree with each other and with
/// a count by hand (dictionaries), over random entries: several workers'
/// counters each with its own numbering of the mentions (authors are
/// numbered once for the run, `AuthorBook`), tweets without an author, and
/// dropped copies taken back out.
final class TrendSlotFoldTests: XCTestCase {
    func testCountingAndSortingAgreeWithACountByHand() {
        var rng = SystemRandomNumberGenerator()
        var checkedMentions = 0, withoutAuthor = 0, takenOut = 0
        for round in 0..<200 {
            let n = Int.random(in: 1...60, using: &rng)  // the aggregator's ids
            let authorCount = Int.random(in: 1...12, using: &rng)  // the run's authors
            // Each counter numbers the ids its own way: a permutation of them.
            let counters = Int.random(in: 1...3, using: &rng)
            let maps: [[Int32]] = (0..<counters).map { _ in (0..<Int32(n)).shuffled(using: &rng) }
            var plus: [(pairs: [UInt64], map: [Int32])] = []
            // By hand, in the aggregator's ids: (mention, author or -1) → copies.
            var copies: [[Int32]: Int] = [:]
            var all: [(counter: Int, pair: UInt64, key: [Int32])] = []
            for c in 0..<counters {
                var pairs: [UInt64] = []
                for _ in 0..<Int.random(in: 0...(round % 2 == 0 ? 8 : 300), using: &rng) {
                    let m = Int.random(in: 0..<n, using: &rng)
                    let none = Int.random(in: 0..<6, using: &rng) == 0
                    let a = Int.random(in: 0..<authorCount, using: &rng)
                    let pair = UInt64(m) << 32 | (none ? TrendCounts.noAuthor : UInt64(a))
                    pairs.append(pair)
                    let key = [maps[c][m], none ? -1 : Int32(a)]
                    copies[key, default: 0] += 1
                    all.append((c, pair, key))
                    if none { withoutAuthor += 1 }
                }
                plus.append((pairs, maps[c]))
            }
            // Dropped copies: some of the entries counted, again, in a numbering of their own.
            let dropMap: [Int32] = (0..<Int32(n)).shuffled(using: &rng)
            var inverse = [Int](repeating: 0, count: n)
            for (i, g) in dropMap.enumerated() { inverse[Int(g)] = i }
            var dropped: [UInt64] = []
            for e in all where Int.random(in: 0..<4, using: &rng) == 0 {
                let m = inverse[Int(e.key[0])]
                dropped.append(UInt64(m) << 32 | (e.key[1] < 0 ? TrendCounts.noAuthor : UInt64(e.key[1])))
                copies[e.key]! -= 1
                takenOut += 1
            }
            let minus: (pairs: [UInt64], map: [Int32])? = dropped.isEmpty && round % 3 == 0 ? nil : (dropped.shuffled(using: &rng), dropMap)
            // By hand: per mention, its tweets (copies left) and its authors with a copy left.
            var tweets = [Int32](repeating: 0, count: n), authors = [Int32](repeating: 0, count: n)
            var authorTweets: [Int: [Int32: Int32]] = [:]
            for (key, k) in copies where k != 0 {
                tweets[Int(key[0])] += Int32(k)
                if key[1] >= 0 && k > 0 {
                    authors[Int(key[0])] += 1
                    authorTweets[Int(key[0]), default: [:]][key[1]] = Int32(k)
                }
            }
            let expected = (0..<n).filter { tweets[$0] != 0 || authors[$0] != 0 }
            let counted = TrendTotals.byCounting(plus: plus, minus: minus, mentions: n, authors: authorCount, keepAuthors: true)
            let sorted = TrendTotals.bySorting(plus: plus, minus: minus)
            for slot in [counted, sorted] {
                XCTAssertEqual(slot.present.map(Int.init), expected, "round \(round)")
                XCTAssertEqual(slot.tweets, expected.map { tweets[$0] }, "round \(round)")
                XCTAssertEqual(slot.authors, expected.map { authors[$0] }, "round \(round)")
            }
            // The counting pass also keeps each mention's authors and their tweets (for the explaining columns).
            XCTAssertEqual(counted.starts.count, n + 1)
            for m in 0..<n {
                let range = Int(counted.starts[m])..<Int(counted.starts[m + 1])
                let got = Dictionary(uniqueKeysWithValues: range.map { (counted.ids[$0], counted.counts[$0]) })
                XCTAssertEqual(got, authorTweets[m] ?? [:], "round \(round), mention \(m)")
            }
            checkedMentions += expected.count
        }
        XCTAssertGreaterThan(checkedMentions, 2_000)
        XCTAssertGreaterThan(withoutAuthor, 1_000)
        XCTAssertGreaterThan(takenOut, 1_000)
    }
}
