import XCTest
@testable import Stages

final class MatchTests: XCTestCase {
    func testTermParsing() throws {
        XCTAssertEqual(try Term(parsing: "#Stanford"), Term(kind: .hashtag, key: "stanford"))
        XCTAssertEqual(try Term(parsing: "＃東京"), Term(kind: .hashtag, key: "東京"))
        XCTAssertEqual(try Term(parsing: "@NASA"), Term(kind: .user, key: "nasa"))
        XCTAssertEqual(try Term(parsing: "From:Jack").description, "from:jack")
        XCTAssertEqual(try Term(parsing: "Stanford").description, "stanford")
        XCTAssertEqual(try Term(parsing: "*").kind, .all)
        for bad in ["", "#", "@", "from:", "two words", "tab\there", "nl\n"] {
            XCTAssertThrowsError(try Term(parsing: bad), bad)
        }
    }

    func testWholeWordMatching() {
        let w = WordMatch("stanford")
        XCTAssertTrue(w.matches("Go #Stanford!"))
        XCTAssertTrue(w.matches("Stanford's best"))
        XCTAssertTrue(w.matches("STANFORD"))
        XCTAssertFalse(w.matches("Stanfordian"))
        XCTAssertFalse(w.matches("the_stanford"))
        XCTAssertFalse(w.matches("stanford2"))
        XCTAssertTrue(w.matches("Stanfordian and stanford"), "a later occurrence can match")
        XCTAssertFalse(w.matches("滿stanford"), "an ideograph is a letter")
        XCTAssertTrue(WordMatch("r&d").matches("R&amp;D rocks"))
        XCTAssertTrue(WordMatch("<3").matches("i &lt;3 it"))
        XCTAssertTrue(WordMatch("café").matches("Cafe\u{301} time"), "NFC on both sides")
    }

    func testAggregatorDedupsAndOrders() {
        let agg = Aggregator(terms: [Term(kind: .all, key: "*")])
        XCTAssertTrue(agg.add(tweet: 1, term: 0, mentions: ["#b", "#a", "@z", "#b"]))
        XCTAssertTrue(agg.add(tweet: 2, term: 0, mentions: ["#b", "#a"]))
        XCTAssertFalse(agg.add(tweet: 1, term: 0, mentions: ["#c"]), "the first copy counts")
        XCTAssertTrue(agg.add(tweet: 3, term: 0, mentions: ["#é", "#e"]))
        XCTAssertEqual(agg.duplicates, 1)
        let r = agg.reports(minCount: 1, top: nil)[0]
        XCTAssertEqual(r.tweets, 3)
        XCTAssertEqual(r.hashtags.map(\.mention), ["#a", "#b", "#e", "#é"])
        XCTAssertEqual(r.hashtags.map(\.count), [2, 2, 1, 1])
        XCTAssertEqual(r.users, [MentionCount(mention: "@z", count: 1)])
        XCTAssertEqual(agg.reports(minCount: 2, top: 1)[0].hashtags, [MentionCount(mention: "#a", count: 2)])
        XCTAssertEqual(agg.reports(minCount: 2, top: nil)[0].users, [])
    }

    func testJSONStringsEscapeOnlyWhatTheyMust() {
        XCTAssertEqual(ReportWriter.jsonString("a\"b\\c\n\u{01}é😀"), #""a\"b\\c\n\u0001é😀""#)
        XCTAssertEqual(ReportWriter.csvField("plain"), "plain")
        XCTAssertEqual(ReportWriter.csvField("a,b"), "\"a,b\"")
        XCTAssertEqual(ReportWriter.csvField("say \"hi\""), "\"say \"\"hi\"\"\"")
    }
}
