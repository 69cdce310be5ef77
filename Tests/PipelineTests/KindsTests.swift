import Foundation
import XCTest

/// SPEC §13's kinds (symbols, links, hosts, domains, posters), `--kinds`
/// and the terms `$sym`, `domain:` and `url:`, on a hand-worked fixture,
/// from dumps and through `extract | aggregate`.
///
/// `Tests/Fixtures/kinds/kinds.jsonl` holds six tweets and a copy of the first:
///
///     1  v1.1  Alice  $AAPL $aapl (one symbol); www.Example.com:443/a/?utm_source=x&id=3#top
///     2  v1.1  bob    extended_tweet: $TSLA, unwound.url http://news.bbc.co.uk/story
///                     (the truncated top level's $IGNORED and top.example.org are not read)
///     3  v1.1  carol  a retweet of 1; its own link www.example.com/a?id=3&utm_medium=y has 1's key
///     4  v1.1  dave   quotes 1: twitter.com/alice/status/1 and x.com/i/web/status/1?s=20 are its
///                     permalink (left out); mobile.twitter.com/alice/status/12 is not; ftp:// is no
///                     link; notbbc.co.uk/page has no scheme
///     5  v2    eve    cashtag GOOG; unwound_url www.bbc.co.uk/news/uk-1?fbclid=abc&b=2& first; a
///                     photo (media_key) left out; the author's profile URL never counts
///     6  v1.1  ALICE  a.b.github.io/x/, 192.168.0.1:8080/, Bücher.de/
final class KindsTests: XCTestCase {
    static let file = Smashtag.fixtures.appendingPathComponent("kinds/kinds.jsonl").path
    static let every = "symbol,url,host,domain,poster"

    private func csv(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let r = try Smashtag.report(args + ["--format", "csv", "-q"], file: file, line: line)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func testEveryKindByHand() throws {
        let rows = try csv(["*", Self.file, "--kinds", Self.every, "--min-count", "1"])
        XCTAssertEqual(rows, Self.everyKindRows)
    }

    /// `report '*' --kinds symbol,url,host,domain,poster --min-count 1` of the fixture, worked out by hand.
    static let everyKindRows = [
            "term,type,mention,count",
            "*,symbol,$aapl,2", "*,symbol,$goog,1", "*,symbol,$tsla,1",
            "*,url,www.example.com/a?id=3,2",
            "*,url,192.168.0.1:8080,1", "*,url,a.b.github.io/x,1", "*,url,bücher.de,1",
            "*,url,mobile.twitter.com/alice/status/12,1", "*,url,news.bbc.co.uk/story,1",
            "*,url,notbbc.co.uk/page,1", "*,url,www.bbc.co.uk/news/uk-1?b=2,1",
            "*,host,example.com,2",
            "*,host,192.168.0.1,1", "*,host,a.b.github.io,1", "*,host,bbc.co.uk,1", "*,host,bücher.de,1",
            "*,host,mobile.twitter.com,1", "*,host,news.bbc.co.uk,1", "*,host,notbbc.co.uk,1",
            "*,domain,bbc.co.uk,2", "*,domain,example.com,2",
            "*,domain,192.168.0.1,1", "*,domain,b.github.io,1", "*,domain,bücher.de,1",
            "*,domain,notbbc.co.uk,1", "*,domain,twitter.com,1",
            "*,poster,@alice,2", "*,poster,@bob,1", "*,poster,@carol,1", "*,poster,@dave,1", "*,poster,@eve,1",
        ]

    func testKindsPrintInTheFixedOrderWhateverTheList() throws {
        let a = try csv(["*", Self.file, "--kinds", "poster,symbol,hashtag", "--min-count", "2"])
        XCTAssertEqual(a, ["term,type,mention,count", "*,hashtag,#kinds,2", "*,symbol,$aapl,2", "*,poster,@alice,2"])
        // The default is hashtag,user: the report of SPEC §7, byte for byte.
        XCTAssertEqual(try csv(["*", Self.file, "--min-count", "1"]),
                       try csv(["*", Self.file, "--min-count", "1", "--kinds", "user,hashtag"]))
        XCTAssertEqual(try csv(["*", Self.file, "--min-count", "1"]),
                       ["term,type,mention,count", "*,hashtag,#kinds,2", "*,user,@alice,1"])
    }

    func testJSONHasAnArrayPerPickedKind() throws {
        let r = try Smashtag.report(["$aapl", Self.file, "--kinds", "domain,symbol", "--format", "json", "-q", "--min-count", "1"])
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(doc.count, 1)
        XCTAssertEqual(Set(doc[0].keys), ["term", "tweets", "symbols", "domains"])
        XCTAssertEqual(doc[0]["term"] as? String, "$aapl")
        XCTAssertEqual(doc[0]["tweets"] as? Int, 2)
        let domains = try XCTUnwrap(doc[0]["domains"] as? [[String: Any]])
        XCTAssertEqual(domains.map { $0["mention"] as? String }, ["example.com"])
        XCTAssertEqual(domains.map { $0["count"] as? Int }, [2])
        // The keys of the object are in the kinds' order.
        XCTAssertLessThan(try XCTUnwrap(r.stdout.range(of: "\"symbols\"")).lowerBound, try XCTUnwrap(r.stdout.range(of: "\"domains\"")).lowerBound)
    }

    func testTheNewTerms() throws {
        func tweets(_ term: String) throws -> Int {
            let r = try Smashtag.report([term, Self.file, "--format", "json", "-q"])
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            return try XCTUnwrap(doc.first?["tweets"] as? Int)
        }
        XCTAssertEqual(try tweets("$AAPL"), 2)  // 1 and its retweet 3; the copy of 1 counts once
        XCTAssertEqual(try tweets("$tsla"), 1)  // the long form's
        XCTAssertEqual(try tweets("$ignored"), 0)  // the truncated top level's is not read
        // A subdomain matches, a look-alike does not (4's notbbc.co.uk); www. is dropped from NAME.
        XCTAssertEqual(try tweets("domain:bbc.co.uk"), 2)
        XCTAssertEqual(try tweets("domain:WWW.BBC.co.uk"), 2)
        XCTAssertEqual(try tweets("domain:news.bbc.co.uk"), 1)
        XCTAssertEqual(try tweets("domain:co.uk"), 3)
        XCTAssertEqual(try tweets("domain:twitter.com"), 1)  // 4's mobile.twitter.com; the permalinks and 5's photo do not count
        XCTAssertEqual(try tweets("domain:eve.example.com"), 0)  // a profile URL is no link of the tweet
        XCTAssertEqual(try tweets("url:https://WWW.example.com/a/?id=3&utm_campaign=z#x"), 2)
        XCTAssertEqual(try tweets("url:files.example.com/x"), 0)
        let term = try Smashtag.report(["url:HTTPS://www.example.com:443/a", Self.file, "--format", "csv", "-q"])
        XCTAssertTrue(term.stdout.hasPrefix("term,type,mention,count\n"))
        XCTAssertEqual(try csv(["url:https://www.example.com/a?id=3", Self.file, "--kinds", "url"]),
                       ["term,type,mention,count", "url:www.example.com/a?id=3,url,www.example.com/a?id=3,2"])
    }

    func testBadKindsAndTermsAreUsageErrors() throws {
        let r = try Smashtag.run(["report", "*", Self.file, "--kinds", "hashtag,links"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("'links' is not a kind"), r.stderr)
        XCTAssertTrue(r.stderr.contains("hashtag, user, symbol, url, host, domain, poster"), r.stderr)
        let u = try Smashtag.run(["report", "url:ftp://example.com/", Self.file])
        XCTAssertEqual(u.status, 2)
        XCTAssertTrue(u.stderr.contains("url: takes an http or https link"), u.stderr)
        let s = try Smashtag.run(["report", "$a-b", Self.file])
        XCTAssertEqual(s.status, 2)
        XCTAssertTrue(s.stderr.contains("cashtag"), s.stderr)
    }

    func testColumnsOfTheNewKinds() throws {
        let rows = try csv(["*", Self.file, "--kinds", "url,poster", "--min-count", "2",
                            "--columns", "term,type,mention,display,count,originals,retweets,authors"])
        // 1 writes its link as below, 3 (a retweet) both ways: that spelling is the more frequent.
        XCTAssertEqual(rows, [
            "term,type,mention,display,count,originals,retweets,authors",
            "*,url,www.example.com/a?id=3,https://www.Example.com:443/a/?utm_source=x&id=3#top,2,1,1,2",
            "*,poster,@alice,@ALICE,2,2,0,1",
        ])
    }

    func testPairsOfKindsSortAsPrinted() throws {
        let r = try Smashtag.run(["pairs", "$aapl", Self.file, "--kinds", "symbol,url,poster", "--min-count", "1", "--format", "csv", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            term,source,target,weight
            $aapl,$aapl,www.example.com/a?id=3,2
            $aapl,$aapl,@alice,1
            $aapl,$aapl,@carol,1
            $aapl,@alice,www.example.com/a?id=3,1
            $aapl,@carol,www.example.com/a?id=3,1

            """)
    }

    func testTextModeFindsCashtagsAndLinks() throws {
        let line = #"{"id_str":"9","text":"Buy $AAPL and $goog now https://t.co/abc?utm_source=tw &amp; $TSLA…","user":{"screen_name":"Zed"}}"#
        let r = try Smashtag.report(["*", "-", "--mentions-from", "text", "--kinds", "symbol,url,poster", "--min-count", "1",
                                     "--format", "csv", "-q"], stdin: Data((line + "\n").utf8))
        // $TSLA is the word the final … cut off: no mention.
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,symbol,$aapl,1\n*,symbol,$goog,1\n*,url,t.co/abc,1\n*,poster,@zed,1\n")
    }

    func testExtractAggregateGivesTheSameBytes() throws {
        let kinds = "hashtag,user," + Self.every
        let terms = ["-t", "*", "-t", "$aapl", "-t", "domain:bbc.co.uk", "-t", "url:www.example.com/a?id=3", "-t", "#kinds"]
        for extra in [[], ["--columns", "term,type,mention,display,count,originals,retweets,authors"], ["--by", "day"],
                      ["--retweets", "exclude"]] {
            let direct = try Smashtag.report(terms + [Self.file, "--kinds", kinds, "--min-count", "1", "--format", "csv", "-q"] + extra)
            let lines = try Smashtag.run(["extract"] + terms + [Self.file, "--kinds", kinds, "-q"] + extra)
            XCTAssertEqual(lines.status, 0, lines.stderr)
            let aggregateOptions = extra.first == "--retweets" ? [] : extra
            let aggregated = try Smashtag.run(["aggregate", "--kinds", kinds, "--min-count", "1", "--format", "csv", "-q"] + aggregateOptions,
                                              stdin: Data(lines.stdout.utf8))
            XCTAssertEqual(aggregated.status, 0, aggregated.stderr)
            XCTAssertEqual(aggregated.stdout, direct.stdout, "\(extra)")
            XCTAssertGreaterThan(direct.stdout.split(separator: "\n").count, 20, "\(extra)")
        }
        // aggregate --kinds picks among what extract wrote.
        let lines = try Smashtag.run(["extract", "*", Self.file, "--kinds", kinds, "-q"])
        let symbols = try Smashtag.run(["aggregate", "--kinds", "symbol", "--min-count", "1", "--format", "csv", "-q"], stdin: Data(lines.stdout.utf8))
        XCTAssertEqual(symbols.stdout, try Smashtag.report(["*", Self.file, "--kinds", "symbol", "--min-count", "1", "--format", "csv", "-q"]).stdout)
        let pairs = try Smashtag.run(["pairs", "*", Self.file, "--kinds", kinds, "--min-count", "1", "--format", "csv", "-q"])
        let aggregatedPairs = try Smashtag.run(["aggregate", "--pairs", "--kinds", kinds, "--min-count", "1", "--format", "csv", "-q"],
                                               stdin: Data(lines.stdout.utf8))
        XCTAssertEqual(aggregatedPairs.stdout, pairs.stdout)
    }
}

extension KindsTests {
    /// The screen that passes over tweets without a link to a `domain:` or
    /// `url:` term's host, or a `$sym` term's symbol, before extraction rules
    /// out no tweet the full match keeps: with `*` beside them (no screen)
    /// the terms' reports are the same.
    func testTheScreenLosesNoMatch() throws {
        let corpus = Smashtag.corpus.path
        let terms = ["domain:twitter.com", "domain:co.uk", "domain:youtu.be", "domain:bbc.co.uk", "url:bit.ly/3pz4hKM", "$aapl", "$btc"]
        let kinds = ["--kinds", "hashtag,symbol,domain", "--min-count", "1", "--format", "csv", "-q"]
        let screened = try Smashtag.report(terms.flatMap { ["-t", $0] } + [corpus, Self.file] + kinds)
        let unscreened = try Smashtag.report(terms.flatMap { ["-t", $0] } + ["-t", "*", corpus, Self.file] + kinds)
        let rows = unscreened.stdout.split(separator: "\n").filter { !$0.hasPrefix("*,") }.joined(separator: "\n") + "\n"
        XCTAssertEqual(screened.stdout, rows)
        XCTAssertGreaterThan(screened.stdout.split(separator: "\n").filter { $0.hasPrefix("domain:twitter.com,") }.count, 5)
    }
}

extension KindsTests {
    /// A retweet of a quote: the retweet's own entities (v1.1 repeats the
    /// retweeted tweet's) hold the quoted tweet's permalink, which is no link
    /// of the quote, so none of the retweet either (SPEC §13). By hand: only
    /// example.com counts, on both tweets.
    func testARetweetOfAQuoteCarriesNoPermalink() throws {
        let quote = #"{"id_str":"20","text":"q","user":{"screen_name":"qa"},"quoted_status_id_str":"10","entities":{"urls":[{"url":"https://t.co/p","expanded_url":"https://twitter.com/orig/status/10"},{"url":"https://t.co/e","expanded_url":"https://example.com/x"}]}}"#
        let retweet = #"{"id_str":"30","text":"RT @qa: q","user":{"screen_name":"rt"},"retweeted_status":"# + quote
            + #","entities":{"urls":[{"url":"https://t.co/p","expanded_url":"https://twitter.com/orig/status/10"},{"url":"https://t.co/e","expanded_url":"https://example.com/x"}]}}"#
        let r = try Smashtag.report(["*", "-", "--kinds", "url,domain", "--min-count", "1", "--format", "csv", "-q"],
                                    stdin: Data((quote + "\n" + retweet + "\n").utf8))
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,url,example.com/x,2\n*,domain,example.com,2\n")
    }
}
