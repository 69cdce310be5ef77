import Foundation
import XCTest

/// SPEC §16: Bluesky and Mastodon posts in the same reports as tweets, on
/// hand-worked fixtures (`Tests/Fixtures/social/`) and the real samples in
/// `../shared/corpus/twitwi` and `mastodon-py`.
///
///     mastodon.jsonl   101 ann (account url https://Social.Example:443/@ann): #rust, mentions bob@other.example,
///                          card news.example.org/story, a link www.example.com/a/?utm_source=m; en, 10:00
///                      [102 cy: #rust, mentions bare ann (url social.example); de, 11:00 · 101 again, in a page]
///                      103 dee: a reblog of 101 (#rust, bob@other.example, card), 12:00
///                      104: no uri (bad, line 4)
///     jetstream.jsonl  identity events name did:plc:aaa "old-alice…" then (later) "Alice.bsky.social"
///                      p1 bbb: 🦀 before its facets; #Rust facet, tags " sinradio", "#Dup", "  "; mentions aaa and
///                          ccc; link example.com/x?utm_medium=bsky; embed news.example.org/story; en,ja; 11:00
///                      p2 ccc: no createdAt (time_us 12:00); mentions ddd, spelled "@dave.test"; #rust; de
///                      r1 aaa: a repost of p1, 13:00 · a delete and a like (notices) · a post without rkey (bad, line 8)
///     views.json       p1 as a view in a page (author bbb "bob.bsky.social"), p2 as a feed item (author ccc
///                      "carol.example.com"), each a copy of its Jetstream post
final class SocialTests: XCTestCase {
    static let folder = Smashtag.fixtures.appendingPathComponent("social").path
    static let kinds = "hashtag,user,url,domain,poster"

    private func csv(_ args: [String], stdin: Data? = nil) throws -> String {
        try Smashtag.report(args + ["--format", "csv", "-q"], stdin: stdin).stdout
    }

    /// Originals only (the reposts and the reblog left out), every row by hand.
    func testEveryRuleByHand() throws {
        let out = try csv(["*", Self.folder, "--kinds", Self.kinds, "--min-count", "1", "--retweets", "exclude"])
        XCTAssertEqual(out, """
            term,type,mention,count
            *,hashtag,#rust,4
            *,hashtag,#dup,1
            *,hashtag,#sinradio,1
            *,user,@alice.bsky.social,1
            *,user,@ann@social.example,1
            *,user,@bob@other.example,1
            *,user,@carol.example.com,1
            *,user,@dave.test,1
            *,url,news.example.org/story,2
            *,url,example.com/x,1
            *,url,www.example.com/a,1
            *,domain,example.com,2
            *,domain,example.org,2
            *,poster,@ann@social.example,1
            *,poster,@bob.bsky.social,1
            *,poster,@carol.example.com,1
            *,poster,@cy@social.example,1

            """)
        XCTAssertFalse(out.contains("old-alice"), "the latest handle by time counts")
    }

    /// A Mastodon reblog is a retweet of its status and carries its mentions
    /// and its author (103 at 12:00; the repost r1 at 13:00 is left out by --until).
    func testAMastodonReblogCarriesItsStatus() throws {
        let out = try csv(["*", Self.folder, "--kinds", "hashtag,user,url,poster", "--min-count", "1", "--retweets", "only",
                           "--until", "2024-05-01T12:30:00Z"])
        XCTAssertEqual(out, """
            term,type,mention,count
            *,hashtag,#rust,1
            *,user,@ann@social.example,1
            *,user,@bob@other.example,1
            *,url,news.example.org/story,1
            *,poster,@dee@social.example,1

            """)
    }

    /// Times: `createdAt`, else a Jetstream event's `time_us` (p2); languages: any of `langs`.
    func testTimesAndLanguages() throws {
        func tweets(_ args: [String]) throws -> Int {
            let r = try Smashtag.report(["*", Self.folder, "--format", "json", "-q"] + args)
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            return try XCTUnwrap(doc.first?["tweets"] as? Int)
        }
        // 103 (12:00) and p2 (time_us 12:00) only.
        XCTAssertEqual(try tweets(["--since", "2024-05-01T11:30:00Z", "--until", "2024-05-01T12:30:00Z"]), 2)
        XCTAssertEqual(try tweets(["--lang", "ja"]), 1, "p1's langs are en and ja")
        XCTAssertEqual(try tweets(["--lang", "de"]), 2, "102 and p2")
        XCTAssertEqual(try tweets(["--lang", "en"]), 2, "101 and p1")
    }

    /// The summary counts posts per platform; copies (a status as a line and in
    /// a page, a Jetstream post and its view) count once; notices are skipped;
    /// malformed posts are named with file and line.
    func testSummaryDedupNoticesAndBadPosts() throws {
        let r = try Smashtag.run(["report", "*", Self.folder, "--format", "csv", "--progress=plain", "--stats", "/dev/stdout"])
        XCTAssertTrue(r.stderr.contains("9 posts (0 twitter, 5 bluesky, 4 mastodon) (4 stream notices skipped)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("matched *: 6; 3 duplicates dropped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("jetstream.jsonl: 1 skipped\n    line 8: not a post: a Bluesky post needs"), r.stderr)
        XCTAssertTrue(r.stderr.contains("mastodon.jsonl: 1 skipped\n    line 4: not a post: a Mastodon status without its uri"), r.stderr)
        XCTAssertTrue(r.stdout.contains(#""posts_by_platform":{"twitter":0,"bluesky":5,"mastodon":4}"#), r.stdout)
        // A tweets-only run says tweets, as it always did.
        let tweets = try Smashtag.run(["report", "*", KindsTests.file, "--format", "csv", "--progress=plain"])
        XCTAssertTrue(tweets.stderr.contains(" 7 tweets in "), tweets.stderr)
        XCTAssertFalse(tweets.stderr.contains("posts"), tweets.stderr)
    }

    /// Facet byte ranges are UTF-8 bytes of the text: a DID nothing names is
    /// shown as the handle the text spells at its range (after multi-byte
    /// characters), and as `@did:…` when the range spells nothing usable.
    func testFacetByteRangesOverMultiByteText() throws {
        let text = "é🦀 @zed.example ok"
        let start = Array("é🦀 ".utf8).count, end = start + Array("@zed.example".utf8).count
        func post(_ rkey: String, _ did: String, _ a: Int, _ b: Int) -> String {
            #"{"did":"did:plc:writer","time_us":1714550000000000,"kind":"commit","commit":{"operation":"create","collection":"app.bsky.feed.post","rkey":"\#(rkey)","record":{"text":"\#(text)","createdAt":"2024-05-01T08:00:00Z","facets":[{"index":{"byteStart":\#(a),"byteEnd":\#(b)},"features":[{"$type":"app.bsky.richtext.facet#mention","did":"\#(did)"}]}]}}}"#
        }
        let lines = [post("a", "did:plc:zed", start, end), post("b", "did:plc:nobody", start, start)].joined(separator: "\n") + "\n"
        let out = try csv(["*", "-", "--kinds", "user", "--min-count", "1"], stdin: Data(lines.utf8))
        XCTAssertEqual(out, "term,type,mention,count\n*,user,@did:plc:nobody,1\n*,user,@zed.example,1\n")
        // A range that takes in the white space around the mention (the space before the `@`, the one after)
        // spells the handle between: trimmed, then one `@` dropped. Inner white space spells none.
        let spaced = [post("c", "did:plc:yan", start - 1, end + 1), post("d", "did:plc:two", start - 5, end)]
        let spacedLines = Data((spaced.joined(separator: "\n") + "\n").utf8)
        let trimmed = try csv(["*", "-", "--kinds", "user", "--min-count", "1"], stdin: spacedLines)
        XCTAssertEqual(trimmed, "term,type,mention,count\n*,user,@did:plc:two,1\n*,user,@zed.example,1\n")
        // The same from a store and through extract | aggregate.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-ranges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("r.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", "-", "--store", store, "-q"], stdin: spacedLines).status, 0)
        XCTAssertEqual(try csv(["*", "--store", store, "--kinds", "user", "--min-count", "1"]), trimmed, "store")
        let extracted = try Smashtag.run(["extract", "*", "-", "--kinds", "user", "-q"], stdin: spacedLines).stdout
        XCTAssertEqual(try Smashtag.run(["aggregate", "--kinds", "user", "--min-count", "1", "--format", "csv", "-q"],
                                        stdin: Data(extracted.utf8)).stdout, trimmed, "extract | aggregate")
    }

    /// DIDs are compared as keys are and handles as they are shown (NFC,
    /// lowercased; handles trimmed): an identity event naming `did:plc:ABC`
    /// " Alice.Test " names the account mentioned as `did:plc:abc`; the
    /// spellings `@Zed.Example` and `@zed.example` (of `did:plc:ZED` and
    /// `did:plc:zed`) are one handle spelled twice, so it beats `@Aaa.example`
    /// spelled once (counted apart, the three would tie and `Aaa` come first
    /// in bytes); `cafe` + U+0301 is shown `café`; a tag `"# baz"` is `#baz`.
    func testDIDsAndHandlesAreComparedAsKeys() throws {
        func identity(_ did: String, _ handle: String) -> String {
            #"{"did":"\#(did)","time_us":1,"kind":"identity","identity":{"did":"\#(did)","handle":"\#(handle)","seq":1,"time":"2024-05-01T08:00:00Z"}}"#
        }
        func post(_ author: String, _ rkey: String, _ text: String, _ mentions: [(String, String)], tags: String = "") -> String {
            let facets = mentions.map { did, spelled in
                let a = text.utf8.count - text.components(separatedBy: spelled).dropFirst().joined(separator: spelled).utf8.count - spelled.utf8.count
                return #"{"index":{"byteStart":\#(a),"byteEnd":\#(a + spelled.utf8.count)},"features":[{"$type":"app.bsky.richtext.facet#mention","did":"\#(did)"}]}"#
            }.joined(separator: ",")
            return #"{"did":"\#(author)","time_us":1714550000000000,"kind":"commit","commit":{"rev":"r","operation":"create","collection":"app.bsky.feed.post","rkey":"\#(rkey)","record":{"text":"\#(text)","createdAt":"2024-05-01T08:00:00Z","facets":[\#(facets)]\#(tags)},"cid":"c"}}"#
        }
        let lines = [
            identity("did:plc:ABC", " Alice.Test "),
            identity("did:plc:Writer", "Writer.Example"),
            post("did:plc:writer", "p1", "hi @Zed.Example", [("did:plc:ZED", "@Zed.Example")]),
            post("did:plc:WRITER", "p2", "hi @zed.example", [("did:plc:zed", "@zed.example")]),
            post("did:plc:writer", "p3", "hi @Aaa.example", [("did:plc:zed", "@Aaa.example")]),
            post("did:plc:other", "p4", "to @someone and @cafe\u{301}.test", [("did:plc:abc", "@someone"), ("did:plc:cafe", "@cafe\u{301}.test")],
                 tags: ##","tags":["# baz"," #qux "]"##),
        ].joined(separator: "\n") + "\n"
        let out = try csv(["*", "-", "--kinds", "hashtag,user,poster", "--min-count", "1"], stdin: Data(lines.utf8))
        XCTAssertEqual(out, """
            term,type,mention,count
            *,hashtag,#baz,1
            *,hashtag,#qux,1
            *,user,@zed.example,3
            *,user,@alice.test,1
            *,user,@caf\u{E9}.test,1
            *,poster,@writer.example,3
            *,poster,@did:plc:other,1

            """)
        // The same bytes from a store and through extract | aggregate.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-handles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("h.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", "-", "--store", store, "-q"], stdin: Data(lines.utf8)).status, 0)
        XCTAssertEqual(try csv(["*", "--store", store, "--kinds", "hashtag,user,poster", "--min-count", "1"]), out, "store")
        let extracted = try Smashtag.run(["extract", "*", "-", "--kinds", "hashtag,user,poster", "-q"], stdin: Data(lines.utf8)).stdout
        let aggregated = try Smashtag.run(["aggregate", "--kinds", "hashtag,user,poster", "--min-count", "1", "--format", "csv", "-q"],
                                          stdin: Data(extracted.utf8))
        XCTAssertEqual(aggregated.stdout, out, "extract | aggregate")
    }

    /// SPEC §6 and §16: a post's text spells its mentioned handles once
    /// however many copies of the post are read. Posts p1 and p2 spell
    /// `did:plc:zzz` `@zed.one`; p3 spells it `@zed.two` and is read three
    /// times. By hand, over the distinct posts: `zed.one` 2, `zed.two` 1, so
    /// the account is `@zed.one` (counting copies it was `@zed.two`, 3 to 2);
    /// three posts mention it. The same from a store that took the copies in
    /// later ingests (a file read again, another holding the same post), and
    /// through extract | aggregate of one run or of one run a file (a Spark
    /// job's groups), `posts` lines too.
    func testCopiesOfAPostSpellItsHandlesOnce() throws {
        func post(_ rkey: String, _ spelled: String, _ micros: Int) -> String {
            let text = "hi \(spelled)"
            return #"{"did":"did:plc:x1","time_us":\#(micros),"kind":"commit","commit":{"rev":"r","operation":"create","collection":"app.bsky.feed.post","rkey":"\#(rkey)","record":{"$type":"app.bsky.feed.post","createdAt":"2024-05-01T11:00:00.000Z","text":"\#(text)","facets":[{"index":{"byteStart":3,"byteEnd":\#(text.utf8.count)},"features":[{"$type":"app.bsky.richtext.facet#mention","did":"did:plc:zzz"}]}]},"cid":"c"}}"#
        }
        let p1 = post("q1", "@zed.one", 1_714_561_200_000_000), p2 = post("q2", "@zed.one", 1_714_561_200_000_001)
        let p3 = post("q3", "@zed.two", 1_714_561_200_000_002)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ lines: [String]) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let all = try file("all.jsonl", [p1, p3, p2, p3, p3])
        let expected = "term,type,mention,count\n*,user,@zed.one,3\n"
        let options = ["--kinds", "user", "--min-count", "1"]
        XCTAssertEqual(try csv(["*", all] + options), expected, "dumps")
        // A store: one ingest of every copy; another taking p3's copies in later ingests.
        let one = dir.appendingPathComponent("one.db").path, later = dir.appendingPathComponent("later.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", all, "--store", one, "-q"]).status, 0)
        XCTAssertEqual(try csv(["*", "--store", one] + options), expected, "store")
        let first = try file("first.jsonl", [p1, p2, p3])
        XCTAssertEqual(try Smashtag.run(["ingest", first, "--store", later, "-q"]).status, 0)
        XCTAssertEqual(try Smashtag.run(["ingest", try file("again.jsonl", [p3]), "--store", later, "-q"]).status, 0)
        XCTAssertEqual(try Smashtag.run(["ingest", try file("more.jsonl", [p3, p3]), "--store", later, "-q"]).status, 0)
        XCTAssertEqual(try csv(["*", "--store", later] + options), expected, "store, copies ingested later")
        // Extract lines: of one run, and of one run a file read in one aggregate.
        let aggregate = ["aggregate", "--format", "csv", "-q"] + options
        let lines = try Smashtag.run(["extract", "*", all, "-q", "--kinds", "user"]).stdout
        XCTAssertEqual(try Smashtag.run(aggregate, stdin: Data(lines.utf8)).stdout, expected, "extract | aggregate")
        var groups = ""
        for (g, part) in [[p1, p3], [p3], [p2, p3]].enumerated() {
            groups += try Smashtag.run(["extract", "*", try file("group\(g).jsonl", part), "-q", "--kinds", "user"]).stdout
        }
        XCTAssertEqual(try Smashtag.run(aggregate, stdin: Data(groups.utf8)).stdout, expected, "extract of each group | aggregate")
        // `posts` lines carry them the same way (`B` lines): p3 is shown by its author's DID, the mentioned account
        // is not shown, so the handle is read back through the lines' spellings alone.
        let posts = try Smashtag.run(["extract", "*", all, "--posts", "-q"]).stdout
        let spelled = posts.split(separator: "\n").filter { $0.hasPrefix("B\t") }.map(String.init)
        XCTAssertEqual(spelled, ["B\tdid:plc:zzz\tzed.one\t1\tat://did:plc:x1/app.bsky.feed.post/q1",
                                 "B\tdid:plc:zzz\tzed.one\t1\tat://did:plc:x1/app.bsky.feed.post/q2",
                                 "B\tdid:plc:zzz\tzed.two\t1\tat://did:plc:x1/app.bsky.feed.post/q3"])
    }

    /// Jetstream's `account` events (an account activated or taken down) are
    /// notices, though their `account` object looks like a Mastodon status's.
    func testJetstreamAccountEventsAreNotices() throws {
        let lines = [
            #"{"did":"did:plc:gone","time_us":1795910400079251,"kind":"account","account":{"active":false,"did":"did:plc:gone","seq":6070361058,"status":"takendown","time":"2026-11-29T00:00:00.079Z"}}"#,
            ##"{"did":"did:plc:writer","time_us":1795910400080000,"kind":"commit","commit":{"operation":"create","collection":"app.bsky.feed.post","rkey":"k1","record":{"text":"#Up","createdAt":"2026-11-29T00:00:00Z","facets":[{"index":{"byteStart":0,"byteEnd":3},"features":[{"$type":"app.bsky.richtext.facet#tag","tag":"Up"}]}]}}}"##,
            #"{"did":"did:plc:new","time_us":1795910400081000,"kind":"account","account":{"active":true,"did":"did:plc:new","seq":6070361059,"time":"2026-11-29T00:00:00.081Z"}}"#,
        ].joined(separator: "\n") + "\n"
        let r = try Smashtag.run(["report", "*", "-", "--format", "csv", "--min-count", "1", "--progress=plain"], stdin: Data(lines.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#up,1\n")
        XCTAssertTrue(r.stderr.contains("1 post (0 twitter, 1 bluesky, 0 mastodon) (2 stream notices skipped)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("bad record"), r.stderr)
    }

    /// One run over tweets and both platforms: a hashtag is one mention everywhere.
    func testOneRunOverThreePlatforms() throws {
        let tweet = ##"{"id_str":"900","text":"#Rust","user":{"screen_name":"tw"},"entities":{"hashtags":[{"text":"Rust"}],"user_mentions":[]}}"##
        // Originals: the tweet, 101, 102, p1 and p2.
        let r = try Smashtag.run(["report", "#rust", "-", Self.folder, "--format", "csv", "--kinds", "hashtag,poster",
                                  "--min-count", "1", "--retweets", "exclude", "--progress=plain"], stdin: Data((tweet + "\n").utf8))
        XCTAssertTrue(r.stdout.hasPrefix("term,type,mention,count\n#rust,hashtag,#rust,5\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("#rust,poster,@tw,1\n"), r.stdout)
        XCTAssertTrue(r.stderr.contains("10 posts (1 twitter, 5 bluesky, 4 mastodon)"), r.stderr)
    }

    /// Dumps, `extract | aggregate` and a store built in two ingests give the
    /// same bytes; an export imported into a new store too.
    func testEveryPathGivesTheSameBytes() throws {
        let dir = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                              appropriateFor: URL(fileURLWithPath: NSTemporaryDirectory()), create: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.db").path, copy = dir.appendingPathComponent("c.db").path
        let corpus = Smashtag.corpus.path
        let inputs = [Self.folder, corpus + "/twitwi", corpus + "/mastodon-py"]
        XCTAssertEqual(try Smashtag.run(["ingest", Self.folder + "/mastodon.jsonl", corpus + "/mastodon-py", "--store", store, "-q"]).status, 0)
        XCTAssertEqual(try Smashtag.run(["ingest"] + inputs + ["--store", store, "-q"]).status, 0)
        let snapshot = try Smashtag.run(["export", "--store", store, "-q"])
        XCTAssertEqual(try Smashtag.run(["import", "-", "--store", copy, "-q"], stdin: Data(snapshot.stdout.utf8)).status, 0)
        let terms = ["-t", "*", "-t", "#rust", "-t", "#hiking", "-t", "domain:example.org"]
        let columns = ["--columns", "term,type,mention,count,originals,retweets,authors"]
        // (the report's options, extract's, aggregate's)
        let cases: [([String], [String], [String])] = [
            (["--kinds", Self.kinds, "--min-count", "1"], ["--kinds", Self.kinds], ["--kinds", Self.kinds, "--min-count", "1"]),
            (["--kinds", Self.kinds, "--lang", "en"], ["--kinds", Self.kinds, "--lang", "en"], ["--kinds", Self.kinds]),
            (["--retweets", "exclude", "--min-count", "1"], ["--retweets", "exclude"], ["--min-count", "1"]),
            (["--kinds", Self.kinds, "--min-count", "1"] + columns, ["--kinds", Self.kinds] + columns,
             ["--kinds", Self.kinds, "--min-count", "1"] + columns),
        ]
        for (options, extract, aggregate) in cases {
            let dumps = try csv(terms + inputs + options)
            XCTAssertGreaterThan(dumps.split(separator: "\n").count, 10, "\(options)")
            XCTAssertEqual(try csv(terms + ["--store", store] + options), dumps, "store \(options)")
            // On three connections: the whole store's posts of known time in pieces, then those of unknown time
            // (filters, columns); its ids in ranges taken as each connection is free (terms alone).
            XCTAssertEqual(try csv(terms + ["--store", store, "--jobs", "3"] + options), dumps, "store, --jobs 3 \(options)")
            XCTAssertEqual(try csv(terms + ["--store", copy] + options), dumps, "imported \(options)")
            let lines = try Smashtag.run(["extract"] + terms + inputs + ["-q"] + extract)
            let aggregated = try Smashtag.run(["aggregate", "--format", "csv", "-q"] + aggregate, stdin: Data(lines.stdout.utf8))
            XCTAssertEqual(aggregated.stdout, dumps, "extract | aggregate \(options)")
        }
    }

    /// The real samples: the Bluesky posts' tags, mentioned handles and links
    /// are twitwi's own normalisation of them (which leaves out `record.tags`
    /// and lowercases tags, as smashtag's keys are), post by post.
    func testTheRealBlueskySamplesAgreeWithTwitwi() throws {
        let corpus = Smashtag.corpus.appendingPathComponent("twitwi")
        let data = try Data(contentsOf: corpus.appendingPathComponent("bluesky-normalized-firehose-posts.json"))
        let posts = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var hashtags: [String: Int] = [:], users: [String: Int] = [:]
        for p in posts {
            for h in Set((p["hashtags"] as? [String]) ?? []) { hashtags["#" + h.lowercased(), default: 0] += 1 }
            for u in Set((p["mentioned_user_handles"] as? [String]) ?? []) { users["@" + u.lowercased(), default: 0] += 1 }
        }
        XCTAssertGreaterThan(hashtags.count, 5)
        let events = corpus.appendingPathComponent("bluesky-firehose-posts.json").path
        let views = corpus.appendingPathComponent("bluesky-hydrated-firehose-posts.json").path
        for inputs in [[events, views], [views]] {
            let out = try csv(["*"] + inputs + ["--min-count", "1"])
            var got: [String: Int] = [:]
            for row in out.split(separator: "\n").dropFirst() {
                let f = row.split(separator: ",")
                got[String(f[2]), default: 0] += Int(f[3])!
            }
            XCTAssertEqual(got.filter { $0.key.hasPrefix("#") }, hashtags, "\(inputs)")
            XCTAssertEqual(got.filter { $0.key.hasPrefix("@") }, users, "\(inputs)")
        }
    }
}
