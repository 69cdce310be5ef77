import XCTest
@testable import Stages

/// The typed seam after parsing (SPEC §12.1): what the JSON and the CSV
/// decoders put in a `DecodedTweet` — time, kind, language, spellings —
/// read back through the `DecodedRecord`. Expected times worked out apart
/// (Python's `datetime`, and the snowflake arithmetic by hand).
final class DecodedTweetTests: XCTestCase {
    /// Decodes one JSON record and runs `check` on its tweets.
    private func json(_ text: String, _ check: (DecodedRecord) throws -> Void) throws {
        let decoder = TweetDecoder()
        try Array(text.utf8).withUnsafeBytes { raw in
            try decoder.decode(raw)
            try check(decoder.record)
        }
    }

    private func csv(_ text: String, _ check: (DecodedRecord) throws -> Void) throws {
        let lines = text.split(separator: "\n").map { Array($0.utf8) }
        let header = try XCTUnwrap(lines[0].withUnsafeBytes { CSVHeader.recognise($0, columns: CSVColumns()) })
        let decoder = CSVDecoder()
        decoder.header = header
        for line in lines.dropFirst() {
            try line.withUnsafeBytes { raw in
                try decoder.decode(raw)
                try check(decoder.record)
            }
        }
    }

    func testCreationTimeFromEveryFormElseTheSnowflakeElseUnknown() throws {
        // 2021-04-01T15:52:31Z is 1617292351.
        for created in ["Thu Apr 01 15:52:31 +0000 2021", "2021-04-01T15:52:31.000Z", "2021-04-01T15:52:31", "2021-04-01T17:52:31+02:00"] {
            try json(#"{"id_str":"5","created_at":"\#(created)","text":"x"}"#) { r in
                XCTAssertEqual(r.createdAt(of: r.tweets[0]), 1_617_292_351, created)
            }
        }
        // 29700859247 is the first snowflake: 7081 ms after 1288834974657.
        try json(#"{"id_str":"29700859247","text":"x"}"#) { r in XCTAssertEqual(r.createdAt(of: r.tweets[0]), 1_288_834_981) }
        try json(#"{"id_str":"29700859246","text":"x"}"#) { r in XCTAssertNil(r.createdAt(of: r.tweets[0])) }
        // An unreadable created_at counts as absent: the snowflake's time (2019-03-01T12:10:00Z).
        try json(#"{"id_str":"1101454535685083166","created_at":"yesterday","text":"x"}"#) { r in
            XCTAssertEqual(r.createdAt(of: r.tweets[0]), 1_551_442_200)
        }
        try csv("id,text,created_at\n5,hello,2021-04-01T15:52:31.000Z\n6,hello,\n") { r in
            XCTAssertEqual(r.createdAt(of: r.tweets[0]), r.tweets[0].id == 5 ? 1_617_292_351 : nil)
        }
    }

    func testRetweetsOriginalsAndTheRTMark() throws {
        try json(#"{"id_str":"1","text":"RT @a: hi","retweeted_status":{"id_str":"2","text":"hi","user":{"screen_name":"Alice"}}}"#) { r in
            XCTAssertTrue(r.isRetweet(r.tweets[0], textMode: false))
            XCTAssertEqual(r.retweetedAuthor(of: r.tweets[0]).map(r.string), "Alice")
        }
        try json(#"{"data":{"id":"1","text":"RT @b: x","author_id":"9","referenced_tweets":[{"type":"retweeted","id":"2"}]},"includes":{"users":[{"id":"9","username":"Bob"}]}}"#) { r in
            XCTAssertTrue(r.isRetweet(r.tweets[0], textMode: false))
            XCTAssertEqual(r.author(of: r.tweets[0]).map(r.string), "Bob")
        }
        // A reply and a quote are originals; a text starting `RT @name:` is a retweet only in text mode.
        try json(#"{"id_str":"3","text":"RT @c: old style","in_reply_to_status_id_str":"1","quoted_status":{"id_str":"4","text":"q"}}"#) { r in
            XCTAssertFalse(r.isRetweet(r.tweets[0], textMode: false))
            XCTAssertTrue(r.isRetweet(r.tweets[0], textMode: true))
        }
        // A CSV without retweet columns cannot say: its text does; with the columns, they do.
        try csv("id,text\n1,RT @c: hi\n2,RT @c hi\n3,hi\n") { r in
            XCTAssertEqual(r.isRetweet(r.tweets[0], textMode: false), r.tweets[0].id == 1)
        }
        try csv("id,text,referenced_tweets.retweeted.id,retweeted_username\n1,RT @c: hi,,\n2,hi,77,\n3,hi,,dee\n") { r in
            XCTAssertEqual(r.isRetweet(r.tweets[0], textMode: false), r.tweets[0].id != 1)
        }
    }

    func testLanguageAndSpellingsAsWritten() throws {
        // `Cafe` + U+0301 is NFC `Café`; case is kept, escapes are undone.
        try json(#"{"id_str":"1","lang":"fr","text":"x","entities":{"hashtags":[{"text":"Cafe\u0301"},{"text":"Stanford"}],"user_mentions":[{"screen_name":"NASA"}]},"retweeted_status":{"id_str":"2","text":"y","user":{"screen_name":"GoTrees"},"entities":{"hashtags":[{"text":"MarchMadness"}],"user_mentions":[]}}}"#) { r in
            let t = r.tweets[0]
            XCTAssertEqual(r.language(of: t), "fr")
            XCTAssertEqual(r.spellings(of: t), ["#Café", "#Stanford", "@NASA", "#MarchMadness", "@GoTrees"])
        }
        try json(#"{"id_str":"1","text":"x"}"#) { r in XCTAssertNil(r.language(of: r.tweets[0])) }
        try csv("id,text,lang,entities.hashtags\n1,#Swift,en,\"[\"\"#Swift\"\"]\"\n") { r in
            XCTAssertEqual(r.language(of: r.tweets[0]), "en")
            XCTAssertEqual(r.spellings(of: r.tweets[0]), ["#Swift"])
        }
    }
}
