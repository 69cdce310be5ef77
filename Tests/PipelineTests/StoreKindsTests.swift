import Foundation
import XCTest
@testable import Stages

/// SPEC §13's kinds from a store (schema v6): a store keeps every tweet's
/// symbols, links, hosts, domains and poster, answers `--kinds`, `$sym`,
/// `domain:` and `url:` with the bytes the dumps give, keeps them tracked,
/// carries them through export and import, and refuses (never answers with
/// an empty table) when it holds tweets stored before it kept them.
final class StoreKindsTests: StoreTestCase {
    static let kinds = "hashtag,user,symbol,url,host,domain,poster"
    static let fixture = KindsTests.file
    static let corpus = Smashtag.corpus.appendingPathComponent("twarc-csv").path

    /// The fixture's hand-worked rows, from a store built in two ingests.
    func testAStoreGivesTheHandWorkedRows() throws {
        let store = path("s.db")
        // Tweets 1–3 in one ingest, 4–6 (and the copy of 1) in the next.
        let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n")
        try smashtag(["ingest", "-", "--store", store, "-q"], stdin: Data((lines.prefix(3).joined(separator: "\n") + "\n").utf8))
        try smashtag(["ingest", "-", "--store", store, "-q"], stdin: Data((lines.dropFirst(3).joined(separator: "\n") + "\n").utf8))
        let r = try smashtag(["report", "*", "--store", store, "--kinds", KindsTests.every, "--min-count", "1", "--format", "csv", "-q"])
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), KindsTests.everyKindRows)
        // The new terms, by hand: $aapl is in 1 and its retweet 3; bbc.co.uk's hosts in 2 and 5; 1's link key in 1 and 3.
        let terms = try smashtag(["report", "-t", "$aapl", "-t", "domain:bbc.co.uk", "-t", "url:https://WWW.example.com/a/?id=3",
                                  "-t", "domain:co.uk", "-t", "domain:ample.com", "--store", store, "--format", "json", "-q",
                                  "--kinds", "poster", "--min-count", "1"])
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(terms.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(doc.map { $0["tweets"] as? Int }, [2, 2, 2, 3, 0])
        // $aapl's posters: Alice wrote 1, carol retweeted it (3).
        XCTAssertEqual((doc[0]["posters"] as? [[String: Any]])?.map { "\($0["mention"]!) \($0["count"]!)" }, ["@alice 1", "@carol 1"])
    }

    /// Every option of §12 and §13 from a store built in two ingests equals the dumps, byte for byte.
    func testEveryKindAndTermFromAStoreEqualsTheDumps() throws {
        let store = path("s.db")
        try smashtag(["ingest", Self.corpus, "--store", store, "-q"])
        try smashtag(["ingest", Self.fixture, Self.corpus, "--store", store, "-q"])
        let terms = ["*", "$aapl", "domain:twitter.com", "domain:bbc.co.uk", "url:www.example.com/a?id=3", "#kinds", "from:alice"]
        let flags = terms.flatMap { ["-t", $0] }
        for options in [["--kinds", Self.kinds], ["--kinds", "url,domain", "--min-count", "2", "--top", "5"],
                        ["--kinds", Self.kinds, "--columns", "term,type,mention,display,count,originals,retweets,authors"],
                        ["--kinds", "symbol,host,poster", "--by", "month"], ["--kinds", "domain,poster", "--retweets", "exclude", "--lang", "en"],
                        ["--kinds", "url"], []] {
            let dumps = try smashtag(["report"] + flags + [Self.fixture, Self.corpus, "--format", "csv", "-q"] + options)
            let stored = try smashtag(["report"] + flags + ["--store", store, "--format", "csv", "-q"] + options)
            XCTAssertEqual(stored.stdout, dumps.stdout, "\(options)")
            XCTAssertGreaterThan(dumps.stdout.split(separator: "\n").count, 10, "\(options)")
        }
        for options in [["--kinds", Self.kinds], ["--kinds", "domain,symbol", "--min-count", "1"], ["--kinds", "url,poster", "--retweets", "only"]] {
            let dumps = try smashtag(["pairs"] + flags + [Self.fixture, Self.corpus, "--format", "csv", "-q"] + options)
            let stored = try smashtag(["pairs"] + flags + ["--store", store, "--format", "csv", "-q"] + options)
            XCTAssertEqual(stored.stdout, dumps.stdout, "\(options)")
            XCTAssertGreaterThan(dumps.stdout.split(separator: "\n").count, 3, "\(options)")
        }
        // --max-pair-mentions counts the picked kinds only, as from the dumps.
        let few = ["pairs", "*", "--kinds", "hashtag", "--max-pair-mentions", "2", "--format", "csv", "-q", "--min-count", "1"]
        XCTAssertEqual(try smashtag(few + ["--store", store]).stdout, try smashtag(few + [Self.fixture, Self.corpus]).stdout)
    }

    /// Tracked `$sym`, `url:` and `domain:` terms keep their counts across
    /// ingests (a host under the domain first met by the later ingest among them).
    func testTrackedNewTermsKeepTheirCounts() throws {
        let store = path("s.db")
        let terms = ["$aapl", "domain:bbc.co.uk", "url:www.example.com/a?id=3", "domain:twitter.com", "*"]
        try smashtag(["track"] + terms + ["--store", store, "-q"])
        try smashtag(["ingest", Self.corpus, "--store", store, "-q"])
        try smashtag(["ingest", Self.fixture, "--store", store, "-q"])
        let flags = terms.flatMap { ["-t", $0] } + ["--kinds", Self.kinds, "--format", "csv", "-q", "--min-count", "1"]
        let dumps = try smashtag(["report"] + flags + [Self.corpus, Self.fixture])
        XCTAssertEqual(try smashtag(["report"] + flags + ["--store", store]).stdout, dumps.stdout)
        // The kept counts answer (not a scan): by hand, bbc.co.uk's two tweets (2 and 5).
        let kept = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try kept.integer("SELECT tweets FROM term WHERE term = 'domain:bbc.co.uk'"), 2)
        XCTAssertEqual(try kept.integer("SELECT tweets FROM term WHERE term = '$aapl'"), 2)
        kept.close()
    }

    /// A snapshot carries symbols and links (as links whose keys are the
    /// stored ones); hosts, domains and posters follow from them on import.
    func testExportAndImportKeepEveryKind() throws {
        let store = path("s.db"), copy = path("copy.db"), snapshot = path("snap.ndjson")
        try smashtag(["ingest", Self.fixture, Self.corpus, "--store", store, "-q"])
        let exported = try smashtag(["export", "--store", store, "-q"])
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: snapshot))
        XCTAssertTrue(exported.stdout.contains(#""cashtags":[{"tag":"aapl"}]"#))
        XCTAssertTrue(exported.stdout.contains(#"{"expanded_url":"http://www.example.com/a?id=3"}"#))
        try smashtag(["import", snapshot, "--store", copy, "-q"])
        let args = ["report", "-t", "*", "-t", "domain:bbc.co.uk", "-t", "$aapl", "--kinds", Self.kinds, "--format", "csv", "-q", "--min-count", "1"]
        let before = try smashtag(args + ["--store", store]).stdout
        XCTAssertEqual(try smashtag(args + ["--store", copy]).stdout, before)
        XCTAssertEqual(try smashtag(args + [snapshot]).stdout, before)
    }

    /// A store upgraded from version 5 or older holds tweets without symbols
    /// or links: a report that needs them is refused with what to do; the
    /// hashtags and users it kept answer as before; a new store answers.
    func testAStoreOlderThanTheKindsSaysHowToHaveThem() throws {
        let store = path("v4.db")
        let db = try Database(path: store, create: true, busyTimeout: 0)
        try db.execute(try String(contentsOf: Smashtag.fixtures.appendingPathComponent("store/v4.sql"), encoding: .utf8))
        db.close()
        for args in [["report", "*", "--kinds", "url"], ["report", "$aapl"], ["report", "#old", "--kinds", "hashtag,poster", "--by", "day"],
                     ["report", "*", "--kinds", "domain", "--columns", "mention,display,count"], ["pairs", "domain:bbc.co.uk"],
                     ["pairs", "*", "--kinds", "symbol"]] {
            let r = try smashtag(args + ["--store", store], status: 2)
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.contains("holds 5 tweets ingested before smashtag kept symbols, links and posters"), r.stderr)
            XCTAssertTrue(r.stderr.contains("ingest the dumps into a new store"), r.stderr)
        }
        let check = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Schema.current)
        XCTAssertEqual(try check.integer("SELECT CAST(value AS INTEGER) FROM setting WHERE key = 'tweets_without_kinds'"), 5)
        check.close()
        let plain = try smashtag(["report", "#old", "--store", store, "-q", "--min-count", "1"])
        XCTAssertEqual(plain.stdout, "term,type,mention,count\n#old,hashtag,#old,3\n#old,hashtag,#café,1\n#old,hashtag,#other,1\n#old,user,@someone,2\n")
        // A store made now answers every kind (an empty one too: nothing was left out).
        let fresh = path("new.db")
        try smashtag(["ingest", Self.fixture, "--store", fresh, "-q"])
        let r = try smashtag(["report", "$aapl", "--store", fresh, "--kinds", "symbol", "--format", "csv", "-q"])
        XCTAssertEqual(r.stdout, "term,type,mention,count\n$aapl,symbol,$aapl,2\n")
    }
}
