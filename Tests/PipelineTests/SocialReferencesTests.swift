import Foundation
import XCTest

/// SPEC §15 on the platforms of §16: a Bluesky post replies to its
/// `reply.parent.uri` and quotes the post its record embed shows
/// (`app.bsky.embed.record`'s `record.uri`, `recordWithMedia`'s
/// `record.record.uri`); a Mastodon status quotes its `quote.quoted_status`,
/// whose copy says that status's author, time and text. Hand-worked
/// fixtures in `Tests/Fixtures/references/`:
///
///     bluesky.jsonl  identity: did:plc:aaa is "ann.bsky.social"
///                    q1 aaa 10:00 "Root post #x" (a tag facet)
///                    q2 bbb 10:10 #x, a reply to q1 (root q1)
///                    q3 ccc 10:20 #x, a reply to q2 (root q1): counts for its parent, q2
///                    q4 ddd 10:30 #x, quotes q1 (a record embed)
///                    q5 eee 10:40 #x, quotes q9 (with media, `$type` last; q9 in no input: its
///                                 AT-URI alone names its author, did:plc:zzz) and replies to q1
///                    q6 fff 10:50 #x, embeds a list, not a post: no quote
///                    r7 ggg 11:00 a repost of q1 (so #x)
///                    q2 again (counted once)
///                    q10 hhh 11:10 #y, a reply to q1 (so `*` only)
///     views.json     q8 iii ("ivy.example") #x, quotes q1; the view's own `embed` shows q1 (no post of its own)
///                    q11 jjj #x, quotes q12 (with media; in no input) and its view's `embed` shows q12:
///                    by did:plc:kkk, 2024-05-30 08:00, "elsewhere" (a copy of q12)
///     feed.json      a feed page: q13 nnn #x, a reply to q14 (in no input), its item's `reply.parent`
///                    view showing q14 (did:plc:mmm, 2024-05-29 07:00, "the parent"); q16 ooo #x, a
///                    reply to q15, whose item (`reply` before `post`) shows it not found
///     mastodon.jsonl m1 ann@social.example 12:00 #x
///                    m2 bob@other.example #x, quotes m1 (`quote.quoted_status`, m1 whole)
///                    m3 cat #x, quotes m0 (zed@far.example, 2024-05-31 09:00, "old &amp; gold"; in no input)
///                    m4 dee #x, a quote still pending (`quoted_status` null): none
///                    m5 eve #x, a reply by `in_reply_to_id` (a server's own number, no URI): none
///                    m6 fay, a reblog of m2 (whose quote, inside the reblog, is not read)
///
/// So for `#x`: q1 is retweeted by r7, quoted by q4 and q8, answered by q2
/// and q5 (1, 2, 2); m2 reblogged by m6; q12, q9, m0 and m1 quoted once; q2
/// answered by q3; q14 and q15 answered once (q14's time and text from the
/// feed item's view, q15's author from its AT-URI alone). `*` adds q10's reply to q1.
final class SocialReferencesTests: StoreTestCase {
    static let folder = Smashtag.fixtures.appendingPathComponent("references").path
    static let columns = ["--columns", "term,id,author,created_at,retweets,quotes,replies,text"]
    static let termArgs = ["-t", "#x", "-t", "*"]

    static let expected = """
        term,id,author,created_at,retweets,quotes,replies,text
        #x,at://did:plc:aaa/app.bsky.feed.post/q1,@ann.bsky.social,2024-06-01T10:00:00Z,1,2,2,Root post #x
        #x,https://other.example/users/bob/statuses/12,@bob@other.example,2024-06-01T12:10:00Z,1,0,0,quoting ann
        #x,at://did:plc:kkk/app.bsky.feed.post/q12,@did:plc:kkk,2024-05-30T08:00:00Z,0,1,0,elsewhere
        #x,at://did:plc:zzz/app.bsky.feed.post/q9,@did:plc:zzz,,0,1,0,
        #x,https://far.example/users/zed/statuses/1,@zed@far.example,2024-05-31T09:00:00Z,0,1,0,old & gold
        #x,https://social.example/users/ann/statuses/11,@ann@social.example,2024-06-01T12:00:00Z,0,1,0,first
        #x,at://did:plc:bbb/app.bsky.feed.post/q2,@did:plc:bbb,2024-06-01T10:10:00Z,0,0,1,yes
        #x,at://did:plc:mmm/app.bsky.feed.post/q14,@did:plc:mmm,2024-05-29T07:00:00Z,0,0,1,the parent
        #x,at://did:plc:ppp/app.bsky.feed.post/q15,@did:plc:ppp,,0,0,1,
        *,at://did:plc:aaa/app.bsky.feed.post/q1,@ann.bsky.social,2024-06-01T10:00:00Z,1,2,3,Root post #x
        *,https://other.example/users/bob/statuses/12,@bob@other.example,2024-06-01T12:10:00Z,1,0,0,quoting ann
        *,at://did:plc:kkk/app.bsky.feed.post/q12,@did:plc:kkk,2024-05-30T08:00:00Z,0,1,0,elsewhere
        *,at://did:plc:zzz/app.bsky.feed.post/q9,@did:plc:zzz,,0,1,0,
        *,https://far.example/users/zed/statuses/1,@zed@far.example,2024-05-31T09:00:00Z,0,1,0,old & gold
        *,https://social.example/users/ann/statuses/11,@ann@social.example,2024-06-01T12:00:00Z,0,1,0,first
        *,at://did:plc:bbb/app.bsky.feed.post/q2,@did:plc:bbb,2024-06-01T10:10:00Z,0,0,1,yes
        *,at://did:plc:mmm/app.bsky.feed.post/q14,@did:plc:mmm,2024-05-29T07:00:00Z,0,0,1,the parent
        *,at://did:plc:ppp/app.bsky.feed.post/q15,@did:plc:ppp,,0,0,1,

        """

    private func posts(_ source: [String], _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try smashtag(["posts"] + Self.termArgs + source + ["--min-count", "1", "-q"] + Self.columns + extra, file: file, line: line).stdout
    }

    /// Every row by hand, from the dumps in either order and with one job.
    func testRepliesAndQuotesOfEveryPlatformByHand() throws {
        let f = Self.folder
        XCTAssertEqual(try posts([f]), Self.expected)
        XCTAssertEqual(try posts([f + "/mastodon.jsonl", f + "/feed.json", f + "/views.json", f + "/bluesky.jsonl"], ["--jobs", "1"]),
                       Self.expected)
        // The default threshold (2) keeps q1 alone; JSON says the unknown as null.
        let json = try smashtag(["posts", "#x", f, "--format", "json", "-q"]).stdout
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let rows = try XCTUnwrap(parsed.first?["posts"] as? [[String: Any]])
        XCTAssertEqual(rows.count, 1, json)
        XCTAssertEqual(rows.first?["id"] as? String, "at://did:plc:aaa/app.bsky.feed.post/q1")
        XCTAssertEqual(rows.first?["quotes"] as? Int, 2)
        XCTAssertEqual(rows.first?["replies"] as? Int, 2)
        // A report reads no reference: the quoted and reblogged statuses add no mention of their own.
        let report = try smashtag(["report", "#x", f, "--kinds", "hashtag,user", "--min-count", "1", "-q"]).stdout
        XCTAssertEqual(report, "term,type,mention,count\n#x,hashtag,#x,17\n#x,user,@bob@other.example,1\n")
    }

    /// Stores built in two ingests (either order), an import of an export,
    /// the export read as a dump, and `extract --posts | aggregate --posts`
    /// in either order: the same bytes.
    func testEveryPathGivesTheSameBytes() throws {
        let f = Self.folder
        let halves = [[f + "/bluesky.jsonl", f + "/views.json"], [f + "/mastodon.jsonl", f + "/feed.json"]]
        for (name, order) in [("ab.db", halves), ("ba.db", halves.reversed())] {
            let store = path(name)
            for paths in order { try smashtag(["ingest"] + paths + ["--store", store, "--keep-text", "-q"]) }
            XCTAssertEqual(try posts(["--store", store]), Self.expected, name)
            let snapshot = try smashtag(["export", "--store", store, "-q"]).stdout
            let imported = path("imported-" + name)
            try smashtag(["import", "-", "--store", imported, "--keep-text", "-q"], stdin: Data(snapshot.utf8))
            XCTAssertEqual(try posts(["--store", imported]), Self.expected, "imported \(name)")
            let dump = path("snapshot-\(name).ndjson")
            try snapshot.write(toFile: dump, atomically: true, encoding: .utf8)
            XCTAssertEqual(try posts([dump]), Self.expected, "snapshot of \(name) read as a dump")
        }
        let lines = try halves.map { try smashtag(["extract", "--posts"] + Self.termArgs + $0 + Self.columns + ["-q"]).stdout }
        for joined in [lines[0] + lines[1], lines[1] + lines[0]] {
            let aggregated = try smashtag(["aggregate", "--posts", "--min-count", "1", "-q"] + Self.columns, stdin: Data(joined.utf8)).stdout
            XCTAssertEqual(aggregated, Self.expected)
        }
    }

    /// The real samples: the Jetstream reply and its post view answer the
    /// post twitwi's normalisation names (`to_post_uri`); Mastodon.py's
    /// quote counts for the status it quotes, and its reblog for the reblogged one.
    func testRealSamples() throws {
        let twitwi = Smashtag.corpus.appendingPathComponent("twitwi")
        let data = try Data(contentsOf: twitwi.appendingPathComponent("bluesky-normalized-firehose-posts.json"))
        let normalized = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let parents = normalized.compactMap { p in (p["to_post_uri"] as? String).map { ($0, p["to_user_did"] as? String ?? "") } }
        XCTAssertEqual(parents.count, 1)
        for name in ["bluesky-firehose-posts.json", "bluesky-hydrated-firehose-posts.json"] {
            let out = try smashtag(["posts", "*", twitwi.appendingPathComponent(name).path, "--min-count", "1", "-q"]).stdout
            // The parent is in no input: its AT-URI names its author (twitwi's `to_user_did`), nothing says its time.
            XCTAssertEqual(out, "term,id,author,created_at,retweets,quotes,replies\n" + parents.map { "*,\($0.0),@\($0.1),,0,0,1\n" }.joined(), name)
        }
        let statuses = Smashtag.corpus.appendingPathComponent("mastodon-py/statuses.jsonl").path
        var quoted: [String] = [], reblogged: [String] = []
        for line in try String(contentsOfFile: statuses, encoding: .utf8).split(separator: "\n") {
            let status = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let quote = status["quote"] as? [String: Any], let q = quote["quoted_status"] as? [String: Any], let uri = q["uri"] as? String {
                quoted.append(uri)
            }
            if let rb = status["reblog"] as? [String: Any], let uri = rb["uri"] as? String { reblogged.append(uri) }
        }
        XCTAssertEqual([quoted.count, reblogged.count], [1, 1])
        let out = try smashtag(["posts", "*", statuses, "--min-count", "1", "--columns", "id,retweets,quotes,replies", "-q"]).stdout
        XCTAssertEqual(out, "id,retweets,quotes,replies\n\(reblogged[0]),1,0,0\n\(quoted[0]),0,1,0\n")
    }
}
