import XCTest
@testable import Stages

/// Edge cases of the text extractor beyond the conformance suite: what the
/// rules imply where the suite has no example, and what tweets add (HTML
/// entities, truncation, retweets).
final class TextExtractorTests: XCTestCase {
    private func tags(_ text: String) -> [String] { TwitterText.hashtags(in: text).map(\.text) }
    private func users(_ text: String) -> [String] { TwitterText.mentions(in: text).map(\.text) }

    func testHashtagBoundaries() {
        XCTAssertEqual(tags("##tag #a#b &#39;x &#tag"), ["tag"])  // `#a` is followed by `#`; `&#` is an entity
        XCTAssertEqual(tags("#tag/x #tag.x #tag's"), ["tag", "tag", "tag"])
        XCTAssertEqual(tags("#http://x.com #ok://"), [])
        XCTAssertEqual(tags("#️⃣ #\u{20E3}x #x\u{FE0F}"), ["x\u{FE0F}"])  // keycap; a mark ends a tag
        XCTAssertEqual(tags("café#tag 1#tag _#tag ·#tag"), [])  // glued to a word (the middle dot is a tag character)
        XCTAssertEqual(tags("—#tag «#tag» 「#タグ」"), ["tag", "tag", "タグ"])
    }

    func testHashtagCharactersOfManyScripts() {
        XCTAssertEqual(tags("#e\u{301}te #ქართული #ᏣᎳᎩ #ꦗꦮ #日本語123 #١٢٣ #٣أ"), ["e\u{301}te", "ქართული", "ᏣᎳᎩ", "ꦗꦮ", "日本語123", "٣أ"])
        XCTAssertEqual(tags("#a\u{200C}b #a\u{200D}b #a_b #a·b #a゠b #a・b"), ["a\u{200C}b", "a\u{200D}b", "a_b", "a·b", "a゠b", "a・b"])
        XCTAssertEqual(tags("#a-b #a.b #a'b #a’b"), ["a", "a", "a", "a"])
        XCTAssertEqual(tags("#𝐁𝐨𝐥𝐝 #🙂 #a🙂"), ["𝐁𝐨𝐥𝐝", "a"])  // mathematical letters are letters; emoji are not
    }

    func testHashtagsInsideURLsAreDropped() {
        XCTAssertEqual(tags("http://example.com/#frag example.com/#frag https://t.co/abc/#x"), ["x"])  // t.co ends after its slug
        XCTAssertEqual(tags("see example.com #tag, http://x.com/?q=#v and (#y)"), ["tag", "y"])
        XCTAssertEqual(tags("foo.notatld/#tag /example.com/#tag"), ["tag", "tag"])  // no URL there
    }

    /// Regression: long chains of dotted words made URL recognition quadratic
    /// (a 40 000-character text took most of a minute); every position now
    /// costs O(1) amortised.
    func testLongChainsOfDottedWordsStayLinear() {
        let dotted = "x/" + String(repeating: "a.", count: 20_000) + "#tag " + String(repeating: "日.", count: 10_000) + "#b"
        XCTAssertEqual(tags(dotted), ["tag", "b"])
        // A URL after `.` needs `http://`; this one is cut after its `.`, so #c is no part of it.
        let manyTags = String(repeating: "#a.", count: 20_000) + "x.com/#c"
        XCTAssertEqual(tags(manyTags).count, 20_001)
        // 20 000 labels make one domain: #c is inside the URL.
        XCTAssertEqual(tags(String(repeating: "a.", count: 20_000) + "com/#c #d"), ["d"])
        // Labels of more than 63 characters make no host name, so no URL.
        let longLabel = "x/" + String(repeating: "a", count: 30_000) + ".com/#c " + String(repeating: "日a", count: 10_000) + ".jp/#d"
        XCTAssertEqual(tags(longLabel), ["c", "d"])
    }

    func testMentionRules() {
        XCTAssertEqual(users("@abcdefghijklmnopqrstuvwxyz"), ["abcdefghijklmnopqrst"])  // the first 20
        XCTAssertEqual(users("a@b a_@b a.@b .@b -@b"), ["b", "b", "b"])
        XCTAssertEqual(users("x@rt@b RT@a RT:@b xRT@c .RT@d"), ["b", "a", "b"])
        XCTAssertEqual(users("@a/list @b/1 @c/ @d/list@x"), ["b", "c"])
        XCTAssertEqual(users("＠全角 ＠ab 日本＠cd"), ["ab", "cd"])
        XCTAssertEqual(users("@user: @user's @user. (@user)"), ["user", "user", "user", "user"])
        XCTAssertEqual(users("@useré @user\u{301} @userñ @user日本"), ["user"])
        XCTAssertEqual(users("@@a ＠@b @＠c"), [])  // one at sign, as the JavaScript and Ruby extractors read it
    }

    func testTweetTextIsUnescapedAndTruncationIsHonoured() {
        let (t1, u1) = TextExtractor.mentions(inTweetText: "R&amp;D &amp;#tag &lt;#ok&gt; &amp;@no @yes")
        XCTAssertEqual(t1, ["ok"])
        XCTAssertEqual(u1, ["yes"])
        let (t2, u2) = TextExtractor.mentions(inTweetText: "RT @orig: hello #full #cut… ")
        XCTAssertEqual(t2, ["full"])
        XCTAssertEqual(u2, ["orig"])
        let (t3, u3) = TextExtractor.mentions(inTweetText: "RT @orig: hello #full @whole …")
        XCTAssertEqual(t3, ["full"])
        XCTAssertEqual(u3, ["orig", "whole"])
        XCTAssertEqual(TextExtractor.mentions(inTweetText: "RT @cut…").users, [])
    }

    func testRetweetIsReadFromTheRetweetedFullTextWithItsAuthor() throws {
        let json = #"""
        {"id_str":"10","text":"RT @Orig: see #One and #Tw…","user":{"screen_name":"rter"},
         "entities":{"hashtags":[],"user_mentions":[]},
         "retweeted_status":{"id_str":"9","text":"see #One and #Two… https://t.co/x","user":{"screen_name":"Orig"},
           "extended_tweet":{"full_text":"see #One and #Two and @Third, &amp; more"}}}
        """#
        let decoder = TweetDecoder(), table = MentionTable()
        try Array(json.utf8).withUnsafeBytes { try decoder.decode($0) }
        var set = MentionSet()
        TextExtractor().extract(decoder.outputs[0], from: decoder, table: table, into: &set)
        XCTAssertEqual(Set(set.ids.map { table.keys[Int($0)] }), ["#one", "#two", "@third", "@orig"])
    }
}
