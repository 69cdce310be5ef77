import XCTest
@testable import Stages

/// What `posts` reads of a tweet (SPEC §15), from hand-made records of each
/// encoding: the posts it retweets, quotes and replies to, and what each
/// copy read says of a post (its own record, and the copies it embeds).
/// Times worked out apart: `Mon Mar 02 10:00:00 +0000 2020` is 1583143200.
final class PostReferencesTests: XCTestCase {
    struct Refs: Equatable {
        var id: UInt64
        var retweet: UInt64?
        var quote: UInt64?
        var reply: UInt64?
    }

    struct Said: Equatable {
        var id: UInt64
        var own: Bool
        var author: String?
        var time: Int64?
        var text: String?
    }

    /// Scans `records` (JSON lines, or a CSV header and rows) for `*` with references and texts.
    private func scan(_ records: [String], csv: Bool = false) -> (refs: [Refs], said: [Said]) {
        var facts = PostFields()
        facts.references = true
        facts.texts = true
        facts.mentionKinds = []
        let scanner = UnitScanner(terms: [try! Term(parsing: "*")], control: RunControl(strict: false), facts: facts)
        scanner.begin()
        let origin = Origin(path: "test")
        for (n, r) in records.enumerated() {
            Array(r.utf8).withUnsafeBytes { raw in
                if csv && n == 0 {
                    scanner.beginCSV(CSVHeader.recognise(raw, columns: CSVColumns())!, line: 1, origin: origin)
                } else if csv {
                    scanner.csvRow(raw, line: n + 1, origin: origin)
                } else {
                    scanner.record(raw, line: n + 1, origin: origin)
                }
            }
        }
        let part = scanner.finish(lines: records.count)
        func post(_ n: UInt64) -> UInt64? { n == PostPart.noPost ? nil : n }
        let refs = (0..<part.count).map {
            Refs(id: part.tweetIDs[$0], retweet: post(part.retweetOf[$0]), quote: post(part.quoteOf[$0]), reply: post(part.replyTo[$0]))
        }
        let c = part.copies
        let said = (0..<c.count).map {
            Said(id: c.ids[$0], own: c.own[$0], author: c.authors[$0] < 0 ? nil : part.keys[Int(c.authors[$0])],
                 time: c.times[$0] == PostPart.unknownTime ? nil : c.times[$0], text: c.texts[$0])
        }
        return (refs, said)
    }

    func testV1RetweetNamesTheRetweetedPostAndItsCopyAlone() {
        // A retweet of a quote: v1.1 repeats the quoted id on the retweet; the retweet names only what it retweets,
        // but the quoted copy it carries still says who wrote the quoted post.
        let r = scan([#"""
        {"id_str":"10","created_at":"Mon Mar 02 10:05:00 +0000 2020","text":"RT @Alice: q","user":{"screen_name":"bob"},
         "quoted_status_id_str":"5","quoted_status":{"id_str":"5","text":"five","user":{"screen_name":"Five"}},
         "retweeted_status":{"id_str":"7","created_at":"Mon Mar 02 10:00:00 +0000 2020","text":"seven",
           "extended_tweet":{"full_text":"seven, long"},"user":{"screen_name":"Alice"},"quoted_status_id_str":"5"}}
        """#])
        XCTAssertEqual(r.refs, [Refs(id: 10, retweet: 7)])
        XCTAssertEqual(r.said, [Said(id: 10, own: true, author: "@bob", time: 1_583_143_500, text: "seven, long"),
                                Said(id: 7, own: false, author: "@alice", time: 1_583_143_200, text: "seven, long"),
                                Said(id: 5, own: false, author: "@five", time: nil, text: "five")])
    }

    func testV1QuoteAndReplyBothCountAndTheReplyNamesItsAuthor() {
        let r = scan([#"{"id_str":"11","text":"x","user":{"screen_name":"c"},"quoted_status_id":5,"in_reply_to_status_id_str":"6","in_reply_to_screen_name":"Six","in_reply_to_status_id":6}"#,
                      #"{"id_str":"12","text":"y","user":{"screen_name":"d"},"in_reply_to_status_id_str":null,"in_reply_to_screen_name":"Nobody"}"#])
        XCTAssertEqual(r.refs, [Refs(id: 11, quote: 5, reply: 6), Refs(id: 12)])
        // The quote without a copy says nothing of 5; a reply to no tweet names no post.
        XCTAssertEqual(r.said, [Said(id: 11, own: true, author: "@c", time: nil, text: "x"),
                                Said(id: 6, own: false, author: "@six", time: nil, text: nil),
                                Said(id: 12, own: true, author: "@d", time: nil, text: "y")])
    }

    func testV2PageReferencesThroughIncludes() {
        let r = scan([#"""
        {"data":[{"id":"20","text":"RT @u: hi","author_id":"1","referenced_tweets":[{"type":"retweeted","id":"30"}]},
                 {"id":"21","text":"look","author_id":"2","referenced_tweets":[{"type":"quoted","id":"31"},{"type":"replied_to","id":"32"}],
                  "in_reply_to_user_id":"3"}],
         "includes":{"users":[{"id":"1","username":"Ann"},{"id":"2","username":"Ben"},{"id":"3","username":"Cy"},{"id":"4","username":"Di"}],
                     "tweets":[{"id":"30","text":"thirty","author_id":"4","created_at":"2020-03-02T10:00:00.000Z"},
                               {"id":"31","text":"thirty-one","author_id":"3"}]}}
        """#])
        XCTAssertEqual(r.refs, [Refs(id: 20, retweet: 30), Refs(id: 21, quote: 31, reply: 32)])
        XCTAssertEqual(r.said, [Said(id: 20, own: true, author: "@ann", time: nil, text: "thirty"),
                                Said(id: 30, own: false, author: "@di", time: 1_583_143_200, text: "thirty"),
                                Said(id: 21, own: true, author: "@ben", time: nil, text: "look"),
                                Said(id: 31, own: false, author: "@cy", time: nil, text: "thirty-one"),
                                Said(id: 32, own: false, author: "@cy", time: nil, text: nil)])
    }

    func testV2FlattenedReferenceWrittenInline() {
        let r = scan([#"{"id":"40","text":"q","author":{"username":"E"},"referenced_tweets":[{"type":"quoted","id":"41","text":"inline","author":{"username":"F"},"created_at":"2020-03-02T10:00:00Z"}]}"#])
        XCTAssertEqual(r.refs, [Refs(id: 40, quote: 41)])
        XCTAssertEqual(r.said.last, Said(id: 41, own: false, author: "@f", time: 1_583_143_200, text: "inline"))
    }

    func testArchiveReply() {
        let r = scan([#"[{"tweet":{"id_str":"50","full_text":"@G yes","in_reply_to_status_id_str":"51","in_reply_to_screen_name":"G","created_at":"Mon Mar 02 10:00:00 +0000 2020"}}]"#])
        XCTAssertEqual(r.refs, [Refs(id: 50, reply: 51)])
        XCTAssertEqual(r.said, [Said(id: 50, own: true, author: nil, time: 1_583_143_200, text: "@G yes"),
                                Said(id: 51, own: false, author: "@g", time: nil, text: nil)])
    }

    func testTwarcCSVColumns() {
        let header = "id,referenced_tweets.replied_to.id,referenced_tweets.retweeted.id,referenced_tweets.quoted.id,"
            + "in_reply_to_username,retweeted_username,quoted_username,text,author.username"
        let r = scan([header, "60,,61,,,Orig,,RT @Orig: hi,h", "62,63,,64,Rep,,Quo,a reply,i", "65,,,,,,,plain,j"], csv: true)
        XCTAssertEqual(r.refs, [Refs(id: 60, retweet: 61), Refs(id: 62, quote: 64, reply: 63), Refs(id: 65)])
        XCTAssertEqual(r.said.filter { !$0.own }, [Said(id: 61, own: false, author: "@orig"),
                                                   Said(id: 64, own: false, author: "@quo"),
                                                   Said(id: 63, own: false, author: "@rep")])
    }

    func testWithoutReferencesNothingIsRead() {
        let scanner = UnitScanner(terms: [try! Term(parsing: "*")], control: RunControl(strict: false))
        scanner.begin()
        Array(#"{"id_str":"1","text":"x","in_reply_to_status_id_str":"2"}"#.utf8).withUnsafeBytes {
            scanner.record($0, line: 1, origin: Origin(path: "t"))
        }
        let part = scanner.finish(lines: 1)
        XCTAssertEqual(part.count, 1)
        XCTAssertTrue(part.replyTo.isEmpty)
        XCTAssertEqual(part.copies.count, 0)
    }
}
