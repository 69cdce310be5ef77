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
        var part = PartBuilder<KeyedNumbering<String>>(fields: PostFields())
        for (id, mentions) in [(1, ["#b", "#a", "@z", "#b"]), (2, ["#b", "#a"]), (1, ["#c"]), (3, ["#é", "#e"])] {
            part.append(id: UInt64(id), mask: 1, mentions: mentions, text: { $0 })
        }
        agg.add(part.take())
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

/// The screen that rules tweets out before extraction must never rule out
/// one the full extract and match stages would keep.
final class MentionScreenTests: XCTestCase {
    private let tweets = [
        #"{"id_str":"1","user":{"screen_name":"Ana"},"entities":{"hashtags":[{"text":"STANFORD"}],"user_mentions":[]}}"#,
        #"{"id_str":"2","user":{"screen_name":"bob"},"entities":{"hashtags":[{"text":"Other"}],"user_mentions":[{"screen_name":"NASA"}]}}"#,
        #"{"id_str":"3","user":{"screen_name":"cy"},"entities":{"hashtags":[{"text":"\u0053tanford"}]}}"#,
        // U+212A KELVIN SIGN: NFC makes it `K`, so #Kelvin and #\u212Aelvin are one key.
        "{\"id_str\":\"4\",\"user\":{\"screen_name\":\"dee\"},\"entities\":{\"hashtags\":[{\"text\":\"\u{212A}elvin\"}]}}",
        #"{"id_str":"5","user":{"screen_name":"eve"},"entities":{"hashtags":[]},"retweeted_status":{"id_str":"6","user":{"screen_name":"NASA"},"entities":{"hashtags":[{"text":"kelvin"}]}}}"#,
        #"{"id_str":"7","user":{"screen_name":"fay"},"entities":{"hashtags":[{"text":"stanfordx"}],"user_mentions":[{"screen_name":"nas"}]}}"#,
        #"{"id_str":"8","user":{"screen_name":"Gus"},"entities":{"hashtags":[{"text":"Sta\u00f1ford"}]}}"#,
        #"{"id_str":"9","user":{"screen_name":"hal"},"entities":{"hashtags":[],"user_mentions":[{"screen_name":"n\u0061sa"}]}}"#,
    ]

    private func screened(_ terms: [Term]) throws -> [(id: UInt64, may: Bool, mask: UInt64)] {
        let screen = try XCTUnwrap(MentionScreen(terms: terms))
        let decoder = TweetDecoder(), table = MentionTable()
        let matcher = TermMatcher(terms: terms, table: table)
        var out: [(UInt64, Bool, UInt64)] = []
        for tweet in tweets {
            // The decoder's spans point into the record: use them while it lives.
            try Array(tweet.utf8).withUnsafeBytes { record in
                try decoder.decode(record)
                let index = try XCTUnwrap(decoder.outputs.first)
                var mentions = MentionSet()
                EntitiesExtractor().extract(index, from: decoder, table: table, into: &mentions)
                out.append((decoder.objects[index].id, EntitiesExtractor.mayMatch(index, from: decoder, screen: screen),
                            matcher.match(index, in: decoder, table: table, mentions: mentions)))
            }
        }
        return out
    }

    func testNeverRulesOutATweetThatMatches() throws {
        let termSets: [[String]] = [["#stanford"], ["#kelvin"], ["@nasa"], ["from:ana"], ["#Other", "@nas", "from:gus"], ["#stañford"]]
        for set in termSets {
            let terms = try set.map { try Term(parsing: $0) }
            for r in try screened(terms) where r.mask != 0 {
                XCTAssertTrue(r.may, "tweet \(r.id) matches \(set) but was ruled out")
            }
        }
    }

    func testRulesOutMentionsWhoseKeysDiffer() throws {
        let stanford = try screened([Term(parsing: "#stanford")])
        XCTAssertEqual(stanford.filter(\.may).map(\.id), [1, 3],
                       "ASCII in any case, and an escape that decodes to it; not the Kelvin sign's #Kelvin nor #Stañford")
        XCTAssertEqual(stanford.filter { $0.mask != 0 }.map(\.id), [1, 3])
        let kelvin = try screened([Term(parsing: "#kelvin")])
        XCTAssertEqual(kelvin.filter { $0.mask != 0 }.map(\.id), [4, 5], "the Kelvin sign and a retweet's hashtag")
        XCTAssertEqual(kelvin.filter(\.may).map(\.id), [4, 5], "the Kelvin sign is decoded and normalised, as extraction does")
        let stanyford = try screened([Term(parsing: "#stañford")])
        XCTAssertEqual(stanyford.filter(\.may).map(\.id), [8], "an escaped non-ASCII hashtag, decoded")
        XCTAssertEqual(stanyford.filter { $0.mask != 0 }.map(\.id), [8])
        let nasa = try screened([Term(parsing: "@nasa")])
        XCTAssertEqual(nasa.filter { $0.mask != 0 }.map(\.id), [2, 5, 9], "a mention, a retweet's author, an escaped mention")
        XCTAssertEqual(nasa.filter(\.may).map(\.id), [2, 5, 9])
        XCTAssertFalse(nasa[5].may, "@nas is not @nasa")
        XCTAssertNil(MentionScreen(terms: [Term(kind: .all, key: "*")]))
        XCTAssertNotNil(MentionScreen(terms: [Term(kind: .hashtag, key: "a"), Term(kind: .word, key: "b")]))
    }

    /// Word terms too (issue 16): on the corpus's tweets and words drawn from
    /// their own texts (so that many match), every tweet the full extract and
    /// match stages give a term is one the screen lets through; and the
    /// screen does rule tweets out, or it would prove nothing.
    func testWordTermsNeverRuleOutATweetThatMatches() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        var records: [[UInt8]] = []
        for name in ["twarc-csv/flat.jsonl", "twarc-csv/kpop.jsonl", "twarc-csv/brexit.jsonl", "python-twitter/streaming/lines.json",
                     "twitter4j/streamingapi-testcase.json", "sferik-twitter/track_streaming_user.json"] {
            guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path) else { continue }
            records += data.split(separator: UInt8(ascii: "\n")).prefix(400).map(Array.init)
        }
        // Documents (search pages, timelines, an archive) as one record each.
        for name in ["python-twitter/get_search_raw.json", "python-twitter/get_user_timeline_count.json",
                     "python-twitter/3.2/extended_tweet_in_extended_mode.json", "sferik-twitter/premium_search_next.json"] {
            if let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path) { records.append(Array(data)) }
        }
        XCTAssertGreaterThan(records.count, 150, "the corpus should be at ../shared/corpus")
        // Words of the texts themselves, in their own case and escapes, plus the hard ones of WordScreenTests.
        var words = ["love", "k", "i", "kite", "stanford", "don't", "the", "a", "rt", "brexit", "bts", "amp", "lt", "é", "straße"]
        let decoder = TweetDecoder()
        for (n, record) in records.enumerated() where n % 7 == 0 {
            try? record.withUnsafeBytes { try decoder.decode($0) }
            for tweet in decoder.record.tweets {
                guard let text = decoder.record.fullText(of: tweet) else { continue }
                let parts = decoder.record.string(text).split { !$0.isLetter && !$0.isNumber && $0 != "_" }
                if let w = parts.dropFirst(3).first { words.append(String(w)) }
            }
        }
        // Hashtags and user mentions the corpus writes escaped or in non-ASCII
        // letters, which the screen decodes and normalises (issue 16).
        var unusual: [Term] = []
        for record in records {
            try? record.withUnsafeBytes { try decoder.decode($0) }
            for tweet in decoder.record.tweets {
                for (range, kind) in [(tweet.hashtags, Term.Kind.hashtag), (tweet.users, .user)] {
                    for i in range {
                        let span = decoder.record.spans[i]
                        let raw = decoder.record.bytes(span)
                        guard span.escaped || raw.contains(where: { $0 >= 0x80 }) else { continue }
                        let key = MentionKey.normalize(decoder.record.string(span))
                        if !key.isEmpty && !unusual.contains(where: { $0.key == key }) { unusual.append(Term(kind: kind, key: key)) }
                    }
                }
            }
        }
        XCTAssertGreaterThan(unusual.count, 20, "the corpus writes many mentions escaped or in other scripts")
        var ruledOut = 0, matched = 0
        for chunk in stride(from: 0, to: words.count, by: 6) {
            let set = words[chunk..<min(chunk + 6, words.count)].map { Term(kind: .word, key: MentionKey.normalize($0)) }
                + [Term(kind: .hashtag, key: "brexit"), unusual[(chunk / 6) % unusual.count], unusual[(chunk / 6 + 7) % unusual.count]]
            let screen = try XCTUnwrap(MentionScreen(terms: set))
            let table = MentionTable()
            let matcher = TermMatcher(terms: set, table: table)
            for record in records {
                try record.withUnsafeBytes { raw in
                    do { try decoder.decode(raw) } catch { return }
                    for tweet in decoder.record.tweets {
                        var mentions = MentionSet()
                        EntitiesExtractor().extract(tweet, in: decoder.record, table: table, into: &mentions)
                        let mask = matcher.match(tweet, in: decoder.record, table: table, mentions: mentions)
                        let may = screen.mayMatch(tweet, in: decoder.record)
                        if mask != 0 { matched += 1 }
                        if !may { ruledOut += 1 }
                        if mask != 0 && !may {
                            XCTFail("tweet \(tweet.id) matches \(set.map(\.key)) but the screen rules it out")
                        }
                    }
                }
            }
        }
        print("word screen: \(records.count) records, \(words.count) words, \(matched) matches, \(ruledOut) ruled out")
        XCTAssertGreaterThan(matched, 300, "the terms should match many tweets")
        XCTAssertGreaterThan(ruledOut, 300, "the screen should rule many tweets out")
    }
}
