import XCTest
@testable import Stages

/// The values of SPEC §12.2's options and the filter's verdicts on decoded
/// tweets. Expected instants worked out apart (`date -u -d … +%s`).
final class TweetFilterTests: XCTestCase {
    func testTimes() throws {
        XCTAssertEqual(try TweetFilter.time("2020-03-01"), 1_583_020_800)
        XCTAssertEqual(try TweetFilter.time("2020-03-01T00:00:00Z"), 1_583_020_800)
        XCTAssertEqual(try TweetFilter.time("2020-03-01T01:00:00+01:00"), 1_583_020_800)
        XCTAssertEqual(try TweetFilter.time("2020-02-29T19:00:00-05:00"), 1_583_020_800)
        XCTAssertEqual(try TweetFilter.time("2020-03-01T00:00:00.999Z"), 1_583_020_800, "fractions are dropped")
        XCTAssertEqual(try TweetFilter.time("2020-02-29"), 1_582_934_400, "a leap day")
        for bad in ["2020-13-01", "2020-02-30", "2019-02-29", "2020-3-1", "March 1", "", "2020-03-01T24:00:00Z",
                    "2020-03-01T12:00Z", "2020-03-01 12:00:00Z", "2020-03-01T12:00:00+1"] {
            XCTAssertThrowsError(try TweetFilter.time(bad), bad)
        }
        XCTAssertThrowsError(try TweetFilter.time("2020-03-01T12:00:00")) { error in
            XCTAssertEqual(error as? TweetFilter.TimeError, .noOffset)
        }
    }

    func testLanguages() {
        XCTAssertEqual(TweetFilter.languages("en"), ["en"])
        XCTAssertEqual(TweetFilter.languages("en,ES,und"), ["en", "ES", "und"])
        for bad in ["", ",", "en,", "en,,es", "e n", "en\t"] { XCTAssertNil(TweetFilter.languages(bad), bad) }
        XCTAssertEqual(TweetFilter(languages: ["EN", "Es"]).languages, ["en", "es"])
    }

    func testDescription() {
        XCTAssertEqual(TweetFilter(since: 1_583_020_800, retweets: .exclude, languages: ["en", "und"]).description,
                       "--since 2020-03-01T00:00:00Z --retweets exclude --lang en,und")
        XCTAssertFalse(TweetFilter().isActive)
        XCTAssertTrue(TweetFilter(retweets: .only).isActive)
    }

    /// Verdicts on decoded v1.1 tweets: time first (unknown counts apart), then kind, then language.
    func testVerdicts() throws {
        let lines = [
            #"{"id_str":"1","created_at":"Sun Mar 01 00:00:00 +0000 2020","lang":"EN","text":"a"}"#,
            #"{"id_str":"2","created_at":"Sun Mar 01 12:00:00 +0000 2020","text":"RT @x: b","retweeted_status":{"id_str":"9","text":"b"}}"#,
            #"{"id_str":"3","text":"RT @x: c","lang":"und"}"#,
            #"{"id_str":"4","created_at":"Mon Mar 02 00:00:00 +0000 2020","lang":"","text":"d"}"#,
        ]
        func verdicts(_ f: TweetFilter, textMode: Bool = false) throws -> [TweetFilter.Verdict] {
            var out: [TweetFilter.Verdict] = []
            let decoder = TweetDecoder()
            for line in lines {
                try Array(line.utf8).withUnsafeBytes { raw in
                    try decoder.decode(raw)
                    for t in decoder.record.tweets { out.append(f.judge(t, in: decoder.record, textMode: textMode)) }
                }
            }
            return out
        }
        let day = TweetFilter(since: 1_583_020_800, until: 1_583_107_200)
        XCTAssertEqual(try verdicts(day), [.kept, .kept, .unknownTime, .leftOut])
        XCTAssertEqual(try verdicts(TweetFilter(retweets: .only)), [.leftOut, .kept, .leftOut, .leftOut])
        XCTAssertEqual(try verdicts(TweetFilter(retweets: .only), textMode: true), [.leftOut, .kept, .kept, .leftOut])
        XCTAssertEqual(try verdicts(TweetFilter(languages: ["en", "und"])), [.kept, .leftOut, .kept, .leftOut])
        XCTAssertEqual(try verdicts(TweetFilter(since: 1_583_020_800, retweets: .exclude)), [.kept, .leftOut, .unknownTime, .kept])
    }
}
