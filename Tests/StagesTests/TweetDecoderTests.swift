import XCTest
@testable import Stages

/// Decodes a record and extracts what the report would see of each tweet.
struct Decoded: Equatable {
    var id: UInt64
    var author: String?
    var mentions: Set<String>
    var text: String?
}

func decode(_ json: String) throws -> (tweets: [Decoded], rejected: [RejectedObject], notices: Int) {
    let decoder = TweetDecoder()
    let table = MentionTable()
    let bytes = Array(json.utf8)
    return try bytes.withUnsafeBytes { raw in
        try decoder.decode(raw)
        let tweets = decoder.outputs.map { i -> Decoded in
            var set = MentionSet()
            EntitiesExtractor().extract(i, from: decoder, table: table, into: &set)
            let textIndex = decoder.retweet(of: i).flatMap { decoder.fullText(of: $0) } ?? decoder.fullText(of: i)
            return Decoded(id: decoder.objects[i].id, author: decoder.author(of: i).map(decoder.string),
                           mentions: Set(set.ids.map { table.keys[Int($0)] }), text: textIndex.map(decoder.string))
        }
        return (tweets, decoder.rejected, decoder.notices)
    }
}

final class TweetDecoderTests: XCTestCase {
    func testV1RetweetCarriesRetweetedMentionsAndAuthor() throws {
        let json = #"""
        {"id":1,"id_str":"1377650090978992134","text":"RT @Orig: short #A…","user":{"screen_name":"Retweeter","id":5},
         "entities":{"hashtags":[{"text":"A","indices":[0,1]}],"user_mentions":[{"screen_name":"Orig"}]},
         "retweeted_status":{"id_str":"2","text":"trunc","user":{"screen_name":"Orig"},"truncated":true,
           "entities":{"hashtags":[{"text":"Short"}],"user_mentions":[]},
           "extended_tweet":{"full_text":"long #A #Long text &amp; more","entities":{"hashtags":[{"text":"A"},{"text":"Long"}],"user_mentions":[{"screen_name":"Third"}]}},
           "quoted_status":{"id_str":"3","entities":{"hashtags":[{"text":"Quoted"}]}}}}
        """#
        let (tweets, rejected, _) = try decode(json)
        XCTAssertEqual(rejected, [])
        XCTAssertEqual(tweets, [Decoded(id: 1_377_650_090_978_992_134, author: "Retweeter",
                                        mentions: ["#a", "#long", "@orig", "@third"], text: "long #A #Long text &amp; more")])
    }

    func testQuoteCarriesOnlyItsOwnMentions() throws {
        let json = #"{"id_str":"9","full_text":"q","user":{"screen_name":"q"},"entities":{"hashtags":[{"text":"Mine"}],"user_mentions":[]},"quoted_status":{"id_str":"8","entities":{"hashtags":[{"text":"Theirs"}]}}}"#
        XCTAssertEqual(try decode(json).tweets.map(\.mentions), [["#mine"]])
    }

    func testV2PageResolvesRetweetsAndAuthorsThroughIncludes() throws {
        let json = #"""
        {"data":[{"id":"10","text":"RT @b: hi","author_id":"1","referenced_tweets":[{"type":"retweeted","id":"20"}],
                  "entities":{"mentions":[{"username":"b","start":3,"end":5}]}},
                 {"id":"11","text":"note","author_id":"2","note_tweet":{"text":"long note #Big","entities":{"hashtags":[{"tag":"Big"}]}},
                  "entities":{"hashtags":[{"tag":"Cut"}]}}],
         "includes":{"users":[{"id":"1","username":"Alice"},{"id":"2","username":"Bob"},{"id":"3","username":"Carol"}],
                     "tweets":[{"id":"20","text":"hi #There @x","author_id":"3","entities":{"hashtags":[{"tag":"There"}],"mentions":[{"username":"x"}]}}]},
         "meta":{"result_count":2}}
        """#
        let (tweets, rejected, _) = try decode(json)
        XCTAssertEqual(rejected, [])
        XCTAssertEqual(tweets, [
            Decoded(id: 10, author: "Alice", mentions: ["@b", "#there", "@x", "@carol"], text: "hi #There @x"),
            Decoded(id: 11, author: "Bob", mentions: ["#big"], text: "long note #Big"),
        ])
    }

    func testFlattenedV2WithInlineReference() throws {
        let json = #"{"id":"30","text":"RT @w: x","author":{"username":"Z"},"entities":{"mentions":[{"username":"w"}]},"referenced_tweets":[{"type":"retweeted","id":"31","text":"x #Inline","author":{"username":"W"},"entities":{"hashtags":[{"tag":"Inline"}]}}]}"#
        XCTAssertEqual(try decode(json).tweets, [Decoded(id: 30, author: "Z", mentions: ["@w", "#inline"], text: "x #Inline")])
    }

    func testDocumentsAndArchiveWrappers() throws {
        let status = #"{"id_str":"7","text":"t","entities":{"hashtags":[{"text":"X"}]}}"#
        for json in ["[\(status),\(status)]", #"{"statuses":[\#(status),\#(status)],"search_metadata":{}}"#,
                     #"{"results":[\#(status),\#(status)],"next":"abc"}"#, #"[{"tweet":\#(status)},{"tweet":\#(status)}]"#] {
            XCTAssertEqual(try decode(json).tweets.map(\.id), [7, 7], json)
        }
    }

    func testNoticesAreSkippedNotBad() throws {
        for notice in [#"{"delete":{"status":{"id":1,"user_id":2}}}"#, #"{"limit":{"track":5}}"#, #"{"friends":[1,2]}"#,
                       #"{"status_withheld":{"id":3}}"#] {
            let d = try decode(notice)
            XCTAssertEqual(d.tweets, [])
            XCTAssertEqual(d.rejected, [])
            XCTAssertEqual(d.notices, 1)
        }
        XCTAssertEqual(try decode(#"{"meta":{"result_count":0}}"#).rejected, [], "an empty v2 page")
    }

    func testObjectsThatAreNotTweets() throws {
        XCTAssertEqual(try decode(#"{"foo":1}"#).rejected, [.noID])
        XCTAssertEqual(try decode(#"{"id":-5}"#).rejected, [.badID])
        XCTAssertEqual(try decode(#"{"id":1.5}"#).rejected, [.badID])
        XCTAssertEqual(try decode(#"{"id_str":"12a","id":12}"#).rejected, [.badID])
        XCTAssertEqual(try decode(#"{"id_str":null,"id":12}"#).tweets.map(\.id), [12])
        XCTAssertEqual(try decode(#"[1,{"id":2}]"#).rejected, [.notAnObject])
        XCTAssertThrowsError(try decode(#"{"id":1"#))
        XCTAssertThrowsError(try decode(#"{"id":1} {"id":2}"#))
    }

    func testExtendedEntitiesReplaceTruncatedOnes() throws {
        let json = #"{"id":5,"text":"cut #Sh…","entities":{"hashtags":[{"text":"Sh"}]},"extended_tweet":{"full_text":"full #Shown","entities":{"hashtags":[{"text":"Shown"}],"user_mentions":[]}}}"#
        XCTAssertEqual(try decode(json).tweets, [Decoded(id: 5, author: nil, mentions: ["#shown"], text: "full #Shown")])
    }

    func testEscapedAndDecomposedMentionsNormalise() throws {
        let json = #"{"id":6,"text":"","entities":{"hashtags":[{"text":"Caf\u00e9"},{"text":"Cafe\u0301"},{"text":"РОССИЯ"},{"text":""}],"user_mentions":[{"screen_name":"NASA"},{"screen_name":"nasa"}]}}"#
        XCTAssertEqual(try decode(json).tweets.map(\.mentions), [["#café", "#россия", "@nasa"]])
    }
}
