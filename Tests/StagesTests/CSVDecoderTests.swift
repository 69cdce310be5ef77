import XCTest
@testable import Stages

final class CSVDecoderTests: XCTestCase {
    /// Decodes `row` under `header` and returns what the report would see of it.
    private func decode(_ header: String, _ row: String, extractor: MentionExtractor? = nil) throws -> Decoded {
        let h = try XCTUnwrap(Array(header.utf8).withUnsafeBytes { CSVHeader.recognise($0, columns: CSVColumns()) })
        let csv = CSVDecoder()
        csv.header = h
        let decoder = TweetDecoder(), table = MentionTable()
        return try Array(row.utf8).withUnsafeBytes { raw in
            do { try csv.decode(raw, into: decoder) } catch { throw error }
            let i = try XCTUnwrap(decoder.outputs.first)
            var set = MentionSet()
            (extractor ?? (h.hasEntities ? EntitiesExtractor() : TextExtractor())).extract(i, from: decoder, table: table, into: &set)
            let text = decoder.retweet(of: i).flatMap { decoder.fullText(of: $0) } ?? decoder.fullText(of: i)
            return Decoded(id: decoder.objects[i].id, author: decoder.author(of: i).map(decoder.string),
                           mentions: Set(set.ids.map { table.keys[Int($0)] }), text: text.map(decoder.string))
        }
    }

    private func message(_ header: String, _ row: String) -> String? {
        do { _ = try decode(header, row); return nil } catch let e as CSVRowError { return e.message } catch { return "\(error)" }
    }

    func testTwarcCSVRowWithProcessedEntities() throws {
        let header = "id,text,entities.hashtags,entities.mentions,author.username,retweeted_username"
        let d = try decode(header, ##"1377650090978992134,"Hi #Swift\n@Bob ""q""","[""#Swift"", ""#Ünï""]","[""@Bob""]", @Alice ,Orig"##)
        XCTAssertEqual(d.id, 1377650090978992134)
        XCTAssertEqual(d.author, "Alice")
        XCTAssertEqual(d.text, "Hi #Swift\n@Bob \"q\"")
        XCTAssertEqual(d.mentions, ["#swift", "#ünï", "@bob", "@orig"])
        // Entity columns rule: an empty one means none, whatever the text says.
        XCTAssertEqual(try decode(header, "2,#a @b,,,x,").mentions, [])
        // Under --mentions-from text the text is read, the retweeted author still counts.
        XCTAssertEqual(try decode(header, "3,#a @b,[],[],x,c", extractor: TextExtractor()).mentions, ["#a", "@b", "@c"])
    }

    func testEntityColumnsAsObjectsOrWords() throws {
        let header = "id,text,entities.hashtags,entities.mentions"
        let objects = #"1,x,"[{""start"":0,""end"":3,""tag"":""Caf\u00e9""}]","[{""username"":""nasa"",""id"":""1""}]""#
        XCTAssertEqual(try decode(header, objects).mentions, ["#café", "@nasa"])
        XCTAssertEqual(try decode(header, "1,x,\"['#a', '#b']\",@c @d").mentions, ["#a", "#b", "@c", "@d"])
        XCTAssertEqual(try decode(header, "1,x,a;b|c,").mentions, ["#a", "#b", "#c"])
    }

    func testRowsWithoutEntityColumnsAreReadByTheirText() throws {
        let d = try decode("tweet_id,tweet,user_screen_name", "7,\"RT @Orig: #one &amp; #tw…\",me")
        XCTAssertEqual(d.mentions, ["@orig", "#one"])
        XCTAssertEqual(d.author, "me")
    }

    /// Options may name one column for two roles: the field is copied once
    /// per role, so the scratch buffer must hold more than the row.
    func testOneColumnForTwoRoles() throws {
        let h = try XCTUnwrap(Array("id,body".utf8).withUnsafeBytes {
            CSVHeader.recognise($0, columns: CSVColumns(text: "body", author: "body"))
        })
        let csv = CSVDecoder()
        csv.header = h
        let decoder = TweetDecoder(), table = MentionTable()
        let body = "#tag " + String(repeating: "x", count: 5000)
        try Array("1,\(body)".utf8).withUnsafeBytes { try csv.decode($0, into: decoder) }
        let i = decoder.outputs[0]
        XCTAssertEqual(decoder.author(of: i).map(decoder.string), body)
        var set = MentionSet()
        TextExtractor().extract(i, from: decoder, table: table, into: &set)
        XCTAssertEqual(set.ids.map { table.keys[Int($0)] }, ["#tag"])
    }

    func testBadRows() {
        XCTAssertEqual(message("id,text", "1,a,b"), "CSV row has 3 fields, the header 2")
        XCTAssertEqual(message("id,text", ",a"), "not a tweet: the row has no id")
        XCTAssertEqual(message("id,text", "1.37765E+18,a"), RejectedObject.badID.message)
        XCTAssertEqual(message("id,text", "18446744073709551616,a"), RejectedObject.badID.message)
        XCTAssertNil(message("id,text", " 18446744073709551615 ,a"))
    }
}
