import XCTest
@testable import Stages

/// The pair aggregator on extractions built by hand: workers count every
/// copy, the merge drops later copies; the result is what counting first
/// copies alone in the merge gives.
final class PairAggregatorTests: XCTestCase {
    /// An extraction of tweets (id, term mask, mention keys).
    func extraction(_ tweets: [(UInt64, UInt64, [String])]) -> PostPart {
        var e = PostPart()
        for (id, mask, mentions) in tweets {
            e.tweetIDs.append(id)
            e.termMasks.append(mask)
            for m in mentions {
                if let i = e.keys.firstIndex(of: m) {
                    e.mentions.append(Int32(i))
                } else {
                    e.mentions.append(Int32(e.keys.count))
                    e.keys.append(m)
                }
            }
            e.mentionEnds.append(Int32(e.mentions.count))
        }
        return e
    }

    func rows(_ p: [TermPairs]) -> [String] {
        p.flatMap { t in t.pairs.map { "\(t.term) \($0.source) \($0.target) \($0.weight)" } }
    }

    func testWorkerTablesMinusDroppedCopiesEqualFirstCopiesCountedInTheMerge() throws {
        let terms = [Term(kind: .all, key: "*"), Term(kind: .hashtag, key: "c")]
        // Unit 1: tweet 1 twice in a row (the second copy richer), tweet 2.
        let u1 = extraction([(1, 0b01, ["#b", "#a"]), (1, 0b11, ["#a", "#b", "#c"]), (2, 0b11, ["#c", "@a", "#a"])])
        // Unit 2, read by another worker: copies of 1 and 2, and tweet 3.
        let u2 = extraction([(2, 0b11, ["#a"]), (1, 0b11, ["#c", "#a"]), (3, 0b01, ["#a", "@a"])])

        let serial = PairAggregator(terms: terms)
        serial.add(u1)
        serial.add(u2)
        let parallel = PairAggregator(terms: terms)
        parallel.begin(workers: 2)
        parallel.prepare(u2, worker: 1)
        parallel.prepare(u1, worker: 0)
        parallel.add(u1)
        parallel.add(u2)

        // By hand: * counts 1 {#a,#b}, 2 {#a,#c,@a}, 3 {#a,@a}; #c counts 1's copy
        // {#a,#b,#c} (its first copy for #c) and 2.
        let expected = ["* #a @a 2", "* #a #b 1", "* #a #c 1", "* #c @a 1",
                        "#c #a #c 2", "#c #a #b 1", "#c #a @a 1", "#c #b #c 1", "#c #c @a 1"]
        XCTAssertEqual(rows(serial.pairs(minCount: 1, top: nil, withoutTerm: false)), expected)
        XCTAssertEqual(rows(parallel.pairs(minCount: 1, top: nil, withoutTerm: false)), expected)
        XCTAssertEqual(serial.duplicates, 5)
        XCTAssertEqual(parallel.duplicates, 5)
        let p = parallel.pairs(minCount: 2, top: nil, withoutTerm: true)
        XCTAssertEqual(rows(p), ["* #a @a 2"])
        XCTAssertEqual(p[0].nodes.map(\.mention), ["#a", "@a"])
        XCTAssertEqual(p[0].nodes.map(\.count), [3, 2], "the report's counts among the term's tweets")
        XCTAssertEqual(p.map(\.tweets), [3, 2])
    }
}
