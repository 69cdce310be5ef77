import Foundation
import XCTest

/// SPEC §16: a Bluesky repost is a retweet of its `subject.uri`, carrying
/// that post's mentions (and, here, its text) when the post is in the
/// inputs, wherever it is read; on every path the same bytes. Hand-worked
/// fixtures in `Tests/Fixtures/reposts/` (a folder of their own, so the
/// reports of `social/` stay as they are):
///
///     a.jsonl  identity: did:plc:rrr is "Reposter.bsky.social"
///              r1 rrr 10:00  a repost of s1 (in b.jsonl, the next file: read after the repost)
///              r2 rrr 10:05  a repost of s2 (in no input: it carries nothing; its AT-URI names sss its author)
///              s3 ttt 09:00  "Hill day #Hike with @sam.bsky.social" (#hike, a mention of did:plc:sss); en
///              r3 uuu 10:10  a repost of s3 (read before it, in the same file)
///              r1 again (a duplicated line: counted once, on its AT-URI)
///     b.jsonl  s1 sss 08:00  "Up the hill #hike #Views trail.example.com/a" (tag and link facets); en
///              r4 ttt 2024-05-02 11:00  a repost of s1 (read after it)
///              tweet 100 @tw 12:00 "#hike today"
///
/// So `#hike` matches s1, s3, 100 (originals) and r1, r3, r4 (reposts); r2
/// matches `*` alone; `hill` matches s1, s3 and their reposts r1, r3, r4.
final class RepostTests: StoreTestCase {
    static let folder = Smashtag.fixtures.appendingPathComponent("reposts").path
    static let a = folder + "/a.jsonl", b = folder + "/b.jsonl"
    static let kinds = "hashtag,user,url,poster"
    static let joinTerms = ["-t", "#hike", "-t", "hill", "-t", "*"]

    private func out(_ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try smashtag(args + ["-q"], stdin: stdin, file: file, line: line).stdout
    }

    /// Every row by hand: the reposts count as retweets carrying their subjects' hashtags, users and links.
    func testARepostCarriesItsSubjectsMentions() throws {
        let csv = try out(["report"] + Self.joinTerms + [Self.folder, "--kinds", Self.kinds, "--min-count", "1",
                                                      "--columns", "term,type,mention,count,originals,retweets,authors"])
        XCTAssertEqual(csv, """
            term,type,mention,count,originals,retweets,authors
            #hike,hashtag,#hike,6,3,3,5
            #hike,hashtag,#views,3,1,2,3
            #hike,user,@sam.bsky.social,2,1,1,2
            #hike,url,trail.example.com/a,3,1,2,3
            #hike,poster,@did:plc:ttt,2,1,1,1
            #hike,poster,@did:plc:sss,1,1,0,1
            #hike,poster,@did:plc:uuu,1,0,1,1
            #hike,poster,@reposter.bsky.social,1,0,1,1
            #hike,poster,@tw,1,1,0,1
            hill,hashtag,#hike,5,2,3,4
            hill,hashtag,#views,3,1,2,3
            hill,user,@sam.bsky.social,2,1,1,2
            hill,url,trail.example.com/a,3,1,2,3
            hill,poster,@did:plc:ttt,2,1,1,1
            hill,poster,@did:plc:sss,1,1,0,1
            hill,poster,@did:plc:uuu,1,0,1,1
            hill,poster,@reposter.bsky.social,1,0,1,1
            *,hashtag,#hike,6,3,3,5
            *,hashtag,#views,3,1,2,3
            *,user,@sam.bsky.social,2,1,1,2
            *,url,trail.example.com/a,3,1,2,3
            *,poster,@did:plc:ttt,2,1,1,1
            *,poster,@reposter.bsky.social,2,0,2,1
            *,poster,@did:plc:sss,1,1,0,1
            *,poster,@did:plc:uuu,1,0,1,1
            *,poster,@tw,1,1,0,1

            """)
        // Seven posts: r1 once, r2 with nothing of its own but its poster.
        let json = try out(["report", "*", Self.folder, "--format", "ndjson", "--min-count", "9"])
        XCTAssertEqual(json, "{\"term\":\"*\",\"tweets\":7,\"hashtags\":[],\"users\":[]}\n")
        // The filters judge a repost by its own time and kind.
        XCTAssertEqual(try out(["report", "#hike", Self.folder, "--retweets", "only", "--min-count", "1", "--kinds", "hashtag"]),
                       "term,type,mention,count\n#hike,hashtag,#hike,3\n#hike,hashtag,#views,2\n")
        XCTAssertEqual(try out(["report", "#hike", Self.folder, "--since", "2024-05-02", "--min-count", "1", "--kinds", "hashtag"]),
                       "term,type,mention,count\n#hike,hashtag,#hike,1\n#hike,hashtag,#views,1\n")
        // A repost whose subject is in no input is a retweet of it, carrying nothing.
        XCTAssertEqual(try out(["report", "*", Self.a, "--kinds", "hashtag,poster", "--min-count", "1",
                                "--columns", "term,type,mention,count,retweets"]), """
            term,type,mention,count,retweets
            *,hashtag,#hike,2,1
            *,poster,@reposter.bsky.social,2,2
            *,poster,@did:plc:ttt,1,0
            *,poster,@did:plc:uuu,1,1

            """)
    }

    /// `posts` counts reposts (and Mastodon reblogs) as retweets of what
    /// they name; `trend` and `posts` show Bluesky accounts by handle: an
    /// author by the handle an identity event or a view names, else by DID
    /// (sss is only spelled `@sam.bsky.social` in a text: a mentioned user's
    /// fallback, not an author's, SPEC §16).
    func testPostsAndTrendCountRepostsAndShowHandles() throws {
        XCTAssertEqual(try out(["posts", "*", Self.folder, "--min-count", "1"]), """
            term,id,author,created_at,retweets,quotes,replies
            *,at://did:plc:sss/app.bsky.feed.post/s1,@did:plc:sss,2024-05-01T08:00:00Z,2,0,0
            *,at://did:plc:sss/app.bsky.feed.post/s2,@did:plc:sss,,1,0,0
            *,at://did:plc:ttt/app.bsky.feed.post/s3,@did:plc:ttt,2024-05-01T09:00:00Z,1,0,0

            """)
        XCTAssertEqual(try out(["posts", "#views", Self.folder, "--min-count", "1"]), """
            term,id,author,created_at,retweets,quotes,replies
            #views,at://did:plc:sss/app.bsky.feed.post/s1,@did:plc:sss,2024-05-01T08:00:00Z,2,0,0

            """)
        let social = Smashtag.fixtures.appendingPathComponent("social/mastodon.jsonl").path
        XCTAssertEqual(try out(["posts", "*", social, "--min-count", "1"]), """
            term,id,author,created_at,retweets,quotes,replies
            *,https://social.example/users/ann/statuses/101,@ann@social.example,2024-05-01T10:00:00Z,1,0,0

            """)
        let trend = try out(["trend", "#hike", Self.folder, "--current", "2024-05-01..2024-05-02", "--baseline", "2024-04-30..2024-05-01",
                             "--min-authors", "1", "--retweets", "include", "--kinds", "hashtag,user,poster"])
        XCTAssertEqual(trend, """
            term,type,mention,display,current_tweets,current_authors,baseline_tweets,baseline_authors,expected,score,ratio,status,top_author_share,top_authors,example_ids
            #hike,hashtag,#hike,#hike,5,5,0,0,1,16,6,new,0.2,@did:plc:sss @did:plc:ttt @did:plc:uuu,at://did:plc:sss/app.bsky.feed.post/s1 at://did:plc:ttt/app.bsky.feed.post/s3 at://did:plc:rrr/app.bsky.feed.repost/r1
            #hike,hashtag,#views,#Views,2,2,0,0,1,1,3,new,0.5,@did:plc:sss @reposter.bsky.social,at://did:plc:sss/app.bsky.feed.post/s1 at://did:plc:rrr/app.bsky.feed.repost/r1
            #hike,user,@sam.bsky.social,@sam.bsky.social,2,2,0,0,1,1,3,new,0.5,@did:plc:ttt @did:plc:uuu,at://did:plc:ttt/app.bsky.feed.post/s3 at://did:plc:uuu/app.bsky.feed.repost/r3

            """)
    }

    /// A report of hashtags alone reads no repost's author, except for a
    /// `from:` term, which matches reposts by it as it does with posters
    /// counted (`testTermsNameAccountsOfOtherPlatforms`: the same hashtag
    /// rows): rrr's r1 carries s1's `#hike` and `#Views`, r2 nothing; `#hike`
    /// matches s1, s3, 100, r1, r3 and r4, of which s1, r1 and r4 carry `#Views`.
    func testFromTermMatchesRepostsWhenOnlyHashtagsAreCounted() throws {
        XCTAssertEqual(try out(["report", "-t", "from:@did:plc:rrr", "-t", "#hike", Self.folder, "--kinds", "hashtag", "--min-count", "1"]), """
            term,type,mention,count
            from:did:plc:rrr,hashtag,#hike,1
            from:did:plc:rrr,hashtag,#views,1
            #hike,hashtag,#hike,6
            #hike,hashtag,#views,3

            """)
    }

    /// Terms name a Mastodon account as `user@host` and a Bluesky account
    /// by its DID, on every path; a Bluesky handle is refused with what to give instead.
    func testTermsNameAccountsOfOtherPlatforms() throws {
        let social = Smashtag.fixtures.appendingPathComponent("social").path
        let terms = ["-t", "@Bob@Other.Example", "-t", "from:ann@social.example", "-t", "@did:plc:sss", "-t", "from:@did:plc:rrr"]
        let options = ["--kinds", "hashtag,user,poster", "--min-count", "1"]
        let dumps = try out(["report"] + terms + [social, Self.folder] + options)
        XCTAssertEqual(dumps, """
            term,type,mention,count
            @bob@other.example,hashtag,#rust,2
            @bob@other.example,user,@bob@other.example,2
            @bob@other.example,user,@ann@social.example,1
            @bob@other.example,poster,@ann@social.example,1
            @bob@other.example,poster,@dee@social.example,1
            from:ann@social.example,hashtag,#rust,1
            from:ann@social.example,user,@bob@other.example,1
            from:ann@social.example,poster,@ann@social.example,1
            @did:plc:sss,hashtag,#hike,2
            @did:plc:sss,user,@sam.bsky.social,2
            @did:plc:sss,poster,@did:plc:ttt,1
            @did:plc:sss,poster,@did:plc:uuu,1
            from:did:plc:rrr,hashtag,#hike,1
            from:did:plc:rrr,hashtag,#views,1
            from:did:plc:rrr,poster,@reposter.bsky.social,2

            """)
        let store = path("accounts.db")
        try smashtag(["ingest", Self.folder, "--store", store, "-q"])
        try smashtag(["ingest", social, "--store", store, "-q"], status: 0)
        XCTAssertEqual(try out(["report"] + terms + ["--store", store] + options), dumps)
        let lines = try out(["extract"] + terms + [Self.folder, "--kinds", "hashtag,user,poster"])
            + (try Smashtag.run(["extract"] + terms + [social, "--kinds", "hashtag,user,poster", "-q"]).stdout)
        XCTAssertEqual(try out(["aggregate", "--format", "csv"] + options, stdin: Data(lines.utf8)), dumps)
        for (term, says) in [("@alice.bsky.social", "as a Bluesky handle"), ("from:alice.bsky.social", "give the account's DID"),
                             ("@ann@", "a Mastodon account is user@host"), ("@did:plc", "did:METHOD:ID")] {
            let r = try Smashtag.run(["report", term, Self.folder, "-q"])
            XCTAssertEqual(r.status, 2, term)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
        }
    }

    /// Stores of the fixtures: two ingests in either order, one of both, one
    /// whose terms were tracked before anything was ingested, and one imported from an export.
    private func stores() throws -> [String] {
        let (ab, ba, both, tracked, imported) = (path("ab.db"), path("ba.db"), path("both.db"), path("tracked.db"), path("imported.db"))
        try smashtag(["ingest", Self.a, "--store", ab, "--keep-text", "-q"])
        try smashtag(["ingest", Self.b, "--store", ab, "--keep-text", "-q"])
        try smashtag(["ingest", Self.b, "--store", ba, "--keep-text", "-q"])
        try smashtag(["ingest", Self.a, "--store", ba, "--keep-text", "-q"])
        try smashtag(["ingest", Self.folder, "--store", both, "--keep-text", "-q"])
        // r1 is stored (and counted for the tracked terms) before its subject s1 comes.
        try smashtag(["ingest", Self.a, "--store", tracked, "--keep-text", "-q", "--jobs", "1"])
        try smashtag(["track", "#hike", "hill", "*", "#views", "--store", tracked, "-q"])
        try smashtag(["ingest", Self.b, "--store", tracked, "--keep-text", "-q"])
        let snapshot = try smashtag(["export", "--store", ab, "-q"]).stdout
        try smashtag(["import", "-", "--store", imported, "--keep-text", "-q"], stdin: Data(snapshot.utf8))
        return [ab, ba, both, tracked, imported]
    }

    /// `extract` of each file, concatenated in both orders, through `aggregate`.
    private func extracted(_ extract: [String], _ aggregate: [String], terms: [String] = RepostTests.joinTerms) throws -> [String] {
        let la = try out(["extract"] + terms + [Self.a] + extract), lb = try out(["extract"] + terms + [Self.b] + extract)
        return try [la + lb, lb + la].map { try out(["aggregate"] + aggregate, stdin: Data($0.utf8)) }
    }

    /// Dumps (either order of the files), stores and `extract | aggregate` give the same bytes.
    func testEveryPathGivesTheSameBytes() throws {
        let stores = try stores()
        let kinds = ["--kinds", Self.kinds]
        let columns = ["--columns", "term,type,mention,display,count,originals,retweets,authors"]
        let cases: [(report: [String], extract: [String], aggregate: [String])] = [
            (kinds + ["--min-count", "1"], kinds, kinds + ["--min-count", "1"]),
            (kinds + columns + ["--min-count", "1", "--format", "json"], kinds + columns, kinds + columns + ["--min-count", "1", "--format", "json"]),
            (["--kinds", "hashtag,url,host,domain", "--format", "ndjson"], ["--kinds", "hashtag,url,host,domain"],
             ["--kinds", "hashtag,url,host,domain", "--format", "ndjson"]),
            (kinds + ["--by", "day", "--min-count", "1"], kinds + ["--by", "day"], kinds + ["--by", "day", "--min-count", "1"]),
            (kinds + columns + ["--by", "hour", "--min-count", "2"], kinds + columns + ["--by", "hour"],
             kinds + columns + ["--by", "hour", "--min-count", "2"]),
            (["--retweets", "only", "--min-count", "1"], ["--retweets", "only"], ["--min-count", "1"]),
            (["--since", "2024-05-01T09:30:00Z", "--min-count", "1"] + kinds, ["--since", "2024-05-01T09:30:00Z"] + kinds,
             ["--min-count", "1"] + kinds),
        ]
        for (report, extract, aggregate) in cases {
            let dumps = try out(["report"] + Self.joinTerms + [Self.a, Self.b] + report)
            XCTAssertTrue(dumps.contains("#views"), "\(report)")
            XCTAssertEqual(try out(["report"] + Self.joinTerms + [Self.b, Self.a, "--jobs", "1"] + report), dumps, "b a \(report)")
            // An imported store's `display` is its keys (`Store+Export`): it answers the other columns.
            for store in stores where !(report.contains("--columns") && store.hasSuffix("imported.db")) {
                XCTAssertEqual(try out(["report"] + Self.joinTerms + ["--store", store] + report), dumps, "\(store) \(report)")
            }
            for (i, aggregated) in try extracted(extract, aggregate).enumerated() {
                XCTAssertEqual(aggregated, dumps, "extract | aggregate (order \(i)) \(report)")
            }
        }
        // A tracked term's kept counts, recounted when a subject came after its reposts.
        let tracked = try out(["report", "-t", "#hike", "-t", "*", "-t", "#views", "--store", stores[3], "--min-count", "1"])
        XCTAssertEqual(tracked, try out(["report", "-t", "#hike", "-t", "*", "-t", "#views", Self.folder, "--min-count", "1"]))

        // Pairs.
        let pairs = try out(["pairs"] + Self.joinTerms + [Self.folder, "--min-count", "1"] + kinds)
        XCTAssertTrue(pairs.contains("#hike,#hike,#views,3\n"), pairs)
        for store in stores {
            XCTAssertEqual(try out(["pairs"] + Self.joinTerms + ["--store", store, "--min-count", "1"] + kinds), pairs, store)
        }
        for aggregated in try extracted(kinds, ["--pairs", "--min-count", "1"] + kinds) { XCTAssertEqual(aggregated, pairs) }

        // Posts.
        let posts = try out(["posts"] + Self.joinTerms + [Self.folder, "--min-count", "1"])
        for store in stores { XCTAssertEqual(try out(["posts"] + Self.joinTerms + ["--store", store, "--min-count", "1"]), posts, store) }
        for aggregated in try extracted(["--posts"], ["--posts", "--min-count", "1"]) { XCTAssertEqual(aggregated, posts) }

        // Trend.
        let windows = ["--current", "2024-05-01..2024-05-03", "--baseline", "2024-04-29..2024-05-01", "--min-authors", "1", "--all"]
        let trend = try out(["trend"] + Self.joinTerms + [Self.folder, "--retweets", "include"] + windows + kinds)
        for store in stores where !store.hasSuffix("imported.db") {
            XCTAssertEqual(try out(["trend"] + Self.joinTerms + ["--store", store, "--retweets", "include"] + windows + kinds), trend, store)
        }
        for aggregated in try extracted(["--trend", "--retweets", "include"] + kinds, ["--trend"] + windows + kinds) {
            XCTAssertEqual(aggregated, trend)
        }
    }
}
