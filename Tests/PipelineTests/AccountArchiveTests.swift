import Foundation
import XCTest

/// A downloaded account archive as it really is (issue 17, items 1 and 2):
/// `data/manifest.js` (`window.__THAR_CONFIG`), `tweets.js`,
/// `community-tweet.js`, `deleted-tweets.js`, other data (`like.js`) and
/// the archive's own scripts. The files are written here in the real files'
/// structure, from the dozen's `tweets.js`: eight tweets in `tweets.js`,
/// four in `community-tweet.js`, so the whole archive's report is the dozen's.
final class AccountArchiveTests: XCTestCase {
    private var dir = URL(fileURLWithPath: "/")
    private var archive: URL { dir.appendingPathComponent("twitter-2023-03-01") }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-archive-\(UUID().uuidString)")
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
        let data = archive.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("assets/js"), withIntermediateDirectories: true)

        let js = try fixtureText(ShapesTests.dozen.appendingPathComponent("dozen-tweets.js"))
        let body = js[js.index(after: try XCTUnwrap(js.firstIndex(of: "=")))...]
        let tweets = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
        XCTAssertEqual(tweets.count, 12)
        try write("data/tweets.js", "tweets", Array(tweets.prefix(8)))
        try write("data/community-tweet.js", "community_tweet", Array(tweets.dropFirst(8)))
        // A deleted tweet: an id and a hashtag of its own, and the archive's `deleted_at`.
        var deleted = try XCTUnwrap(tweets[0]["tweet"] as? [String: Any])
        deleted["id"] = "1633000000000000099"
        deleted["id_str"] = "1633000000000000099"
        deleted["deleted_at"] = "2023-03-01T10:00:00.000Z"
        deleted["entities"] = ["hashtags": [["text": "deletedtag", "indices": ["0", "11"]]], "user_mentions": [],
                               "urls": [], "symbols": []]
        try write("data/deleted-tweets.js", "deleted_tweets", [["tweet": deleted]])
        try write("data/like.js", "like", [["like": ["tweetId": "1101452040074326118", "fullText": "#Stanford"]]])
        let manifest: [String: Any] = [
            "userInfo": ["accountId": "12", "userName": "dozen", "displayName": "Dozen"],
            "archiveInfo": ["sizeBytes": "20480", "generationDate": "2023-03-01T10:00:00.000Z", "isPartialArchive": false,
                            "maxPartSizeBytes": "53687091200"],
            "readmeInfo": ["fileName": "data/README.txt", "directory": "data/", "name": "README.txt"],
            "dataTypes": [
                "tweets": ["files": [["fileName": "data/tweets.js", "globalName": "YTD.tweets.part0", "count": "8"]]],
                "communityTweet": ["files": [["fileName": "data/community-tweet.js", "globalName": "YTD.community_tweet.part0",
                                              "count": "4"]]],
                "deletedTweets": ["files": [["fileName": "data/deleted-tweets.js", "globalName": "YTD.deleted_tweets.part0",
                                             "count": "1"]]],
            ],
        ]
        let m = try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
        try (Data("window.__THAR_CONFIG = ".utf8) + m).write(to: data.appendingPathComponent("manifest.js"))
        try Data("!function(e){var t={};function n(r){return t[r]}}([]);\n".utf8)
            .write(to: archive.appendingPathComponent("assets/js/main.0c2d5b8e.js"))
    }

    private func write(_ path: String, _ kind: String, _ elements: [Any]) throws {
        let json = try JSONSerialization.data(withJSONObject: elements, options: [.prettyPrinted, .sortedKeys])
        try (Data("window.YTD.\(kind).part0 = ".utf8) + json).write(to: archive.appendingPathComponent(path))
    }

    /// Item 1: every real archive holds `data/manifest.js`, which was "not a
    /// tweet: the object has no id", so `--strict` on a genuine archive exited 1.
    func testManifestOfAGenuineArchiveIsNoBadRecordUnderStrict() throws {
        let zip = dir.appendingPathComponent("twitter-2023-03-01.zip").path
        let z = Process()
        z.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        z.arguments = ["zip", "-qr", zip, "."]
        z.currentDirectoryURL = archive
        try z.run()
        z.waitUntilExit()
        XCTAssertEqual(z.terminationStatus, 0, "zip (make deps installs it)")
        for input in [archive.path, zip, archive.appendingPathComponent("data/manifest.js").path] {
            let r = try Smashtag.run(["report", "*", input, "--strict", "--format", "csv", "--min-count", "1", "--progress=plain"])
            XCTAssertEqual(r.status, 0, "\(input): \(r.stderr)")
            if input.hasSuffix("manifest.js") {
                XCTAssertEqual(r.stdout, "term,type,mention,count\n")
            } else {
                XCTAssertEqual(r.stdout, try fixtureText(ShapesTests.dozen.appendingPathComponent("expected-all.csv")), input)
            }
            XCTAssertFalse(r.stderr.contains("bad record"), r.stderr)
            XCTAssertTrue(r.stderr.contains("manifest.js: the account archive's manifest (window.__THAR_CONFIG), no tweets")
                          || r.stderr.contains("manifest.js): the account archive's manifest (window.__THAR_CONFIG), no tweets"),
                          r.stderr)
        }
    }

    /// Item 2: `community-tweet.js` holds live posts and was passed over
    /// (`0 B`); `deleted-tweets.js` is passed over by default, named with
    /// why, and read with `--deleted include`.
    func testCommunityTweetsAreReadAndDeletedTweetsPassedOverByName() throws {
        let community = archive.appendingPathComponent("data/community-tweet.js").path
        let alone = try Smashtag.run(["report", "*", community, "--format", "json", "--min-count", "1", "--strict"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stdout.hasPrefix(#"[{"term":"*","tweets":4,"#), alone.stdout)

        let r = try Smashtag.run(["report", "*", archive.path, "--format", "csv", "--min-count", "1", "--progress=plain"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("#deletedtag"), r.stdout)
        XCTAssertTrue(r.stderr.contains("smashtag: passed over 4 files or members that hold no tweets\n"), r.stderr)
        for named in ["data/deleted-tweets.js: tweets the account deleted (deleted_tweets); --deleted include reads them",
                      "data/like.js: account-archive data that holds no tweets (like)",
                      "assets/js/main.0c2d5b8e.js: a script (.js that is not JSON or account-archive data), no tweets"] {
            XCTAssertTrue(r.stderr.contains(named), "\(named) in \(r.stderr)")
        }

        let included = try Smashtag.run(["report", "*", archive.path, "--deleted", "include", "--format", "json", "--min-count", "1", "-q"])
        XCTAssertEqual(included.status, 0, included.stderr)
        XCTAssertTrue(included.stdout.hasPrefix(#"[{"term":"*","tweets":13,"#), included.stdout)
        XCTAssertTrue(included.stdout.contains("#deletedtag"), included.stdout)
        let wrong = try Smashtag.run(["report", "*", archive.path, "--deleted", "yes"])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
    }
}
