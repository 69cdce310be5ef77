import XCTest
@testable import Stages

/// `PostsWriter`'s own byte writing (SPEC §15's CSV) against the project's
/// string forms: the time as `CreatedAt.isoSeconds` prints it, fields
/// quoted as `ReportWriter.csvField` quotes them.
final class PostsWriterTests: XCTestCase {
    func testTimesAreWrittenAsIsoSecondsPrintsThem() {
        var times: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_800, 1_583_143_200, 4_102_444_799, 253_402_300_799,
                              -62_135_596_800, 253_402_300_800, -62_135_596_801]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<5000 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            times.append(Int64(bitPattern: x % 400_000_000_000) - 100_000_000_000)
        }
        for t in times {
            var out: [UInt8] = []
            PostsWriter.isoSeconds(t, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), CreatedAt.isoSeconds(t), "\(t)")
        }
    }

    func testCSVQuotesWhatMustBeQuoted() throws {
        let row = PostRow(id: "7", author: "@a,b", createdAt: 0, text: "say \"hi\"\nthere", retweets: 12, quotes: 0, replies: 3)
        let posts = [TermPosts(term: try Term(parsing: "*"), tweets: 1, posts: [row])]
        XCTAssertEqual(PostsWriter.csv(posts, columns: [.term, .id, .author, .createdAt, .retweets, .quotes, .replies, .text]),
                       "term,id,author,created_at,retweets,quotes,replies,text\n*,7,\"@a,b\",1970-01-01T00:00:00Z,12,0,3,\"say \"\"hi\"\"\nthere\"\n")
    }
}
