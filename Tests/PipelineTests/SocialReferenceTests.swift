import Foundation
import XCTest

/// SPEC §16 against the independent reference (`Tests/Reference/social_reference.py`,
/// written from the SPEC: Jetstream events, post views, Mastodon statuses,
/// handles, reposts joined to their subjects, §13's link keys and domains by
/// the system's Public Suffix List): the real samples of
/// `../shared/corpus/twitwi` and `mastodon-py` and the hand-worked fixtures
/// of `Tests/Fixtures/social`, each alone in CSV and JSON with every kind,
/// and all of them with tweets in one run, are the reference's, byte for
/// byte; so are their `posts` (SPEC §15) and `trend` (§14) against
/// `social_posts_reference.py` and `social_trend_reference.py`.
final class SocialReferenceTests: XCTestCase {
    static let kinds = "hashtag,user,url,host,domain,poster"

    private func report(_ args: [String]) throws -> String {
        let r = try Smashtag.run(["report"] + args + ["--min-count", "1", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    static var files: [String] {
        let corpus = ["twitwi/bluesky-firehose-posts.json", "twitwi/bluesky-hydrated-firehose-posts.json",
                      "twitwi/bluesky-normalized-firehose-posts.json", "mastodon-py/statuses.jsonl"]
            .map { Smashtag.corpus.appendingPathComponent($0).path }
        let fixtures = ["jetstream.jsonl", "mastodon.jsonl", "views.json"]
            .map { Smashtag.fixtures.appendingPathComponent("social").appendingPathComponent($0).path }
        return corpus + fixtures
    }

    func testEachFileAloneAsTheReference() throws {
        var rows = 0
        for file in Self.files {
            for format in ["csv", "json"] {
                let expected = try Smashtag.reference("social_reference.py", ["*", file, "--kinds", Self.kinds, "--format", format])
                XCTAssertEqual(try report(["*", file, "--kinds", Self.kinds, "--format", format]), expected, "\(file) \(format)")
                if format == "csv" { rows += expected.split(separator: "\n").count - 1 }
            }
        }
        XCTAssertGreaterThan(rows, 50, "something to compare")
    }

    /// SPEC §15 on the same posts (`Tests/Reference/social_posts_reference.py`):
    /// reposts, quotes, replies and reblogs counted, each file alone and all
    /// of them with tweets, every column; a Bluesky author shown by the
    /// handle an identity event or a view names, else by its DID.
    func testPostsAsTheReference() throws {
        let all = ["--columns", "term,id,author,created_at,retweets,quotes,replies,text"]
        let reposts = Smashtag.fixtures.appendingPathComponent("reposts").path
        var rows = 0
        for file in Self.files + [reposts] {
            for columns in [[], all] {
                let expected = try Smashtag.reference("social_posts_reference.py", ["-t", "*", file, "--min-count", "1"] + columns)
                let r = try Smashtag.run(["posts", "-t", "*", file, "--min-count", "1", "-q"] + columns)
                XCTAssertEqual(r.stdout, expected, "\(file) \(columns)")
                rows += expected.split(separator: "\n").count - 1
            }
        }
        let paths = [Smashtag.root.appendingPathComponent("samples/stream.jsonl").path, reposts,
                     Smashtag.corpus.appendingPathComponent("twitwi").path, Smashtag.corpus.appendingPathComponent("mastodon-py").path,
                     Smashtag.fixtures.appendingPathComponent("social").path]
        let terms = ["*", "#hike", "#rust", "stanford"].flatMap { ["-t", $0] }
        let expected = try Smashtag.reference("social_posts_reference.py", terms + paths + ["--min-count", "1"] + all)
        XCTAssertEqual(try Smashtag.run(["posts"] + terms + paths + ["--min-count", "1", "-q", "--jobs", "2"] + all).stdout, expected)
        rows += expected.split(separator: "\n").count - 1
        XCTAssertGreaterThan(rows, 100, "something to compare")
    }

    /// SPEC §14 on the same posts with timed tweets (`social_trend_reference.py`):
    /// a window of each platform's days, and one across all of them; from the
    /// dumps (one worker and two: the run's authors numbered once for every
    /// worker), from a store of them (read on one connection and on three)
    /// and through `extract --trend | aggregate --trend`, the reference's
    /// bytes.
    func testTrendAsTheReference() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-socialtrend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let timed = dir.appendingPathComponent("timed.jsonl").path
        _ = try Smashtag.reference("make_trend_data.py", [timed, "1500"])
        let paths = [timed, Smashtag.fixtures.appendingPathComponent("social").path, Smashtag.fixtures.appendingPathComponent("reposts").path,
                     Smashtag.corpus.appendingPathComponent("twitwi").path, Smashtag.corpus.appendingPathComponent("mastodon-py").path]
        let terms = ["*", "#hike", "#rust"].flatMap { ["-t", $0] }
        let kinds = ["--kinds", "hashtag,user,poster", "--min-authors", "1", "--all"]
        let store = dir.appendingPathComponent("posts.db").path
        XCTAssertEqual(try Smashtag.run(["ingest"] + paths + ["--store", store, "-q"]).status, 0)
        var rows = 0
        for o in [["--current", "2024-05-01..2024-05-02", "--baseline", "2024-04-30..2024-05-01", "--retweets", "include"],
                  ["--current", "1d", "--now", "2024-05-02T10:00:00Z", "--baseline", "mean:3"],
                  ["--current", "2020-03-01..2026-12-01", "--retweets", "include", "--tz", "Europe/Berlin"],
                  ["--current", "2d", "--now", "2020-03-09T10:00:00Z", "--by-tweets", "--retweets", "only", "--top", "3"]] {
            let expected = try Smashtag.reference("social_trend_reference.py", terms + o + kinds + paths)
            let name = o.joined(separator: " ")
            for jobs in ["1", "2"] {
                XCTAssertEqual(try Smashtag.run(["trend"] + terms + paths + o + kinds + ["-q", "--jobs", jobs]).stdout, expected, "jobs \(jobs): \(name)")
            }
            XCTAssertEqual(try Smashtag.run(["trend"] + terms + ["--store", store] + o + kinds + ["-q"]).stdout, expected, "store: \(name)")
            // The span cut into pieces read on three connections, the posts of every platform among them.
            XCTAssertEqual(try Smashtag.run(["trend"] + terms + ["--store", store] + o + kinds + ["-q", "--jobs", "3"]).stdout, expected,
                           "store, --jobs 3: \(name)")
            // `--retweets` is extract's (a filter, before matching); the windows and rows are aggregate's.
            let r = o.firstIndex(of: "--retweets")
            let filter = r.map { Array(o[$0...($0 + 1)]) } ?? [], rest = r.map { Array(o[..<$0] + o[($0 + 2)...]) } ?? o
            let lines = try Smashtag.run(["extract"] + terms + paths + ["--trend", "-q"] + filter + kinds.prefix(2)).stdout
            XCTAssertEqual(try Smashtag.run(["aggregate", "--trend", "-q"] + rest + kinds, stdin: Data(lines.utf8)).stdout, expected,
                           "extract | aggregate: \(name)")
            rows += expected.split(separator: "\n").count - 1
        }
        XCTAssertGreaterThan(rows, 200, "something to compare")
    }

    /// Tweets, Bluesky and Mastodon in one run, with terms of each kind.
    func testThreePlatformsInOneRunAsTheReference() throws {
        let paths = [Smashtag.root.appendingPathComponent("samples/stream.jsonl").path,
                     Smashtag.corpus.appendingPathComponent("twitwi").path,
                     Smashtag.corpus.appendingPathComponent("mastodon-py").path,
                     Smashtag.fixtures.appendingPathComponent("social").path]
        let terms = ["*", "#rust", "#stanford", "#hoot", "word"].flatMap { ["-t", $0] }
        for (kinds, format) in [("hashtag,user,poster", "csv"), ("hashtag,user,poster", "json"), ("url,domain", "csv")] {
            let expected = try Smashtag.reference("social_reference.py", terms + paths + ["--kinds", kinds, "--format", format])
            XCTAssertEqual(try report(terms + paths + ["--kinds", kinds, "--format", format, "--jobs", "2"]), expected, "\(kinds) \(format)")
            XCTAssertGreaterThan(format == "csv" ? expected.split(separator: "\n").count : expected.count / 40, 20, "something to compare")
        }
    }
}
