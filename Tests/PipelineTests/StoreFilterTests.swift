import Foundation
import XCTest
@testable import Stages

/// SPEC §12.1–12.3 from a store (schema v4): a store built in two ingests
/// answers every case of the reference (`ReferenceFilterTests`) with the
/// bytes the dumps give; a version 3 store migrates and says what it lacks.
final class StoreFilterTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-filters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @discardableResult
    func smashtag(_ args: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let r = try Smashtag.run(args)
        XCTAssertEqual(r.status, status, "smashtag \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    func testTwoIngestsAnswerAsTheReference() throws {
        let cases = try ReferenceFilterTests.cases()
        let halves = cases[0].halves.map { $0.map(ReferenceFilterTests.resolve) }
        // The halves in the dumps' order: the store keeps a tweet's first copy, as a report counts it (the
        // CSV export in the second half has no lang: ingested first, its copies would be the ones kept).
        let forward = path("forward.db")
        try smashtag(["ingest"] + halves[0] + ["--store", forward, "-q"])
        try smashtag(["ingest"] + halves[1] + ["--store", forward, "-q", "--jobs", "1"])
        for c in cases {
            XCTAssertEqual(c.halves, cases[0].halves)
            for store in [forward] {
                // `--jobs 3`: a --since/--until range read in pieces on three connections.
                for (format, expected, jobs) in [("csv", c.expected, [String]()), ("json", c.expected_json, []), ("csv", c.expected, ["--jobs", "3"])] {
                    let r = try smashtag(["report"] + c.terms.flatMap { ["-t", $0] } + ["--min-count", String(c.min_count)]
                                         + c.options + ["--store", store, "--format", format] + jobs)
                    XCTAssertEqual(r.stdout, try fixtureText(ReferenceFilterTests.reference.appendingPathComponent(expected)),
                                   "\(c.name) as \(format) from \(store) \(jobs)")
                    // The store holds each tweet once: what it leaves out is counted over distinct tweets.
                    if c.left_out != nil { XCTAssertTrue(r.stderr.contains("; left out "), "\(c.name): \(r.stderr)") }
                    XCTAssertFalse(r.stderr.contains("schema version 4"), r.stderr)
                }
            }
        }
    }

    /// The hand-worked tweets: the columns and filters of `ColumnsTests` and
    /// `FilterTests` from a store, including tweet 2's two spellings of one
    /// mention (a link and an extra spelling).
    func testHandWorkedFromAStore() throws {
        let store = path("s.db")
        try smashtag(["ingest", FilterTests.dir, "--store", store, "-q"])
        let all = "term,type,mention,display,count,originals,retweets,authors"
        for options in [["--columns", all, "--min-count", "2"], ["--retweets", "only", "--columns", "mention,display,count"],
                        ["--since", "2020-03-01", "--until", "2020-03-03", "--lang", "EN,es", "--columns", all],
                        ["--columns", "mention,display,authors,retweets,count", "--format", "json"]] {
            let dumps = try smashtag(["report", "-t", "*", "-t", "#stanford", FilterTests.dir, "-q"] + options)
            let stored = try smashtag(["report", "-t", "*", "-t", "#stanford", "--store", store, "-q"] + options)
            XCTAssertEqual(stored.stdout, dumps.stdout, "\(options)")
            // A range read as a span, in pieces on three connections.
            let pieces = try smashtag(["report", "-t", "*", "-t", "#stanford", "--store", store, "-q", "--jobs", "3"] + options)
            XCTAssertEqual(pieces.stdout, dumps.stdout, "--jobs 3 \(options)")
        }
        let r = try smashtag(["report", "#stanford", "--store", store, "--columns", "mention,display,count", "-q"])
        XCTAssertEqual(r.stdout, "mention,display,count\n#stanford,#Stanford,8\n#one,#one,2\n@alice,@Alice,3\n")
        // The whole store with a filter (no range): its posts of known time in pieces on three connections, then
        // tweet 4 (no time) on the first; the same counts and summary as one cursor over the store.
        for options in [["--retweets", "exclude"], ["--lang", "en", "--columns", "mention,display,count"]] {
            let one = try smashtag(["report", "*", "--store", store, "--min-count", "1", "--jobs", "1", "--progress=plain"] + options)
            let three = try smashtag(["report", "*", "--store", store, "--min-count", "1", "--jobs", "3", "--progress=plain"] + options)
            XCTAssertEqual(three.stdout, one.stdout, "\(options)")
            func summary(_ r: Smashtag.Result) -> String { r.stderr.components(separatedBy: "; ").dropLast().joined(separator: "; ") }
            XCTAssertEqual(summary(three), summary(one), "\(options)")
            XCTAssertTrue(one.stderr.contains("9 tweets; matched *: "), one.stderr)
        }
        // Tweet 4 has no time; 5 is at --until.
        // Read as a span: what lies outside it is counted, not read (on one connection and on three).
        for jobs in ["1", "3"] {
            let summary = try smashtag(["report", "*", "--store", store, "--since", "2020-03-01", "--until", "2020-03-03", "--jobs", jobs])
            XCTAssertTrue(summary.stderr.contains("9 tweets; matched *: 7; left out 2 by --since 2020-03-01T00:00:00Z --until 2020-03-03T00:00:00Z (1 of unknown time)"),
                          summary.stderr)
        }
    }

    func testAVersion3StoreMigratesAndSaysWhatItLacks() throws {
        let store = path("v3.db")
        let db = try Database(path: store, create: true, busyTimeout: 0)
        try db.execute(try String(contentsOf: Smashtag.fixtures.appendingPathComponent("store/v3.sql"), encoding: .utf8))
        db.close()
        let plain = try smashtag(["report", "-t", "#old", "-t", "*", "--store", store, "-q", "--min-count", "1"])
        XCTAssertEqual(plain.stdout, """
            term,type,mention,count
            #old,hashtag,#old,2
            #old,hashtag,#other,1
            #old,user,@someone,1
            *,hashtag,#old,2
            *,hashtag,#other,1
            *,user,@someone,2

            """)
        let check = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Schema.current)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM tweet WHERE retweet IS NULL AND lang IS NULL"), 3)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM spelling"), 0)
        check.close()
        // Times were kept: the filters by time work; the rest is unknown, and said so.
        let since = try smashtag(["report", "*", "--store", store, "--since", "2019-03-01T11:51:00Z", "--format", "json", "-q"])
        XCTAssertTrue(since.stdout.hasPrefix(##"[{"term":"*","tweets":1,"##), since.stdout)
        let columns = try smashtag(["report", "#old", "--store", store, "--columns", "mention,display,count,originals,retweets,authors",
                                    "-q", "--min-count", "1"])
        XCTAssertEqual(columns.stdout, "mention,display,count,originals,retweets,authors\n#old,,2,0,0,1\n#other,,1,0,0,1\n@someone,,1,0,0,1\n")
        XCTAssertTrue(columns.stderr.contains("2 of the matching tweets were ingested before schema version 4"), columns.stderr)
        // A series counts them per bucket the same way, and says so too.
        let series = try smashtag(["report", "#old", "--store", store, "--by", "day", "--columns", "mention,display,count,originals,authors",
                                   "-q", "--min-count", "1"])
        XCTAssertEqual(series.stdout, "bucket,mention,display,count,originals,authors\n2019-03-01,#old,,2,0,1\n2019-03-01,#other,,1,0,1\n"
                       + "2019-03-01,@someone,,1,0,1\n")
        XCTAssertTrue(series.stderr.contains("2 of the matching tweets were ingested before schema version 4"), series.stderr)
        XCTAssertEqual(try smashtag(["report", "*", "--store", store, "--lang", "en", "--format", "json", "-q"]).stdout,
                       ##"[{"term":"*","tweets":0,"hashtags":[],"users":[]}]"## + "\n")
        XCTAssertTrue(try smashtag(["report", "*", "--store", store, "--retweets", "exclude", "--format", "json", "-q"]).stdout
            .hasPrefix(##"[{"term":"*","tweets":0,"##))
        // New tweets ingested into the upgraded store carry everything.
        try smashtag(["ingest", FilterTests.dir, "--store", store, "-q"])
        let mixed = try smashtag(["report", "#stanford", "--store", store, "--columns", "mention,display,count,retweets", "-q"])
        XCTAssertEqual(mixed.stdout, "mention,display,count,retweets\n#stanford,#Stanford,8,2\n#one,#one,2,1\n@alice,@Alice,3,1\n")
        XCTAssertEqual(try smashtag(["history", "--store", store, "--format", "json"]).stdout.components(separatedBy: "\"ingest\"").count, 3)
    }

    /// A version 4 store (links as rows, spellings as rows, one in
    /// extra_spelling) migrates to links in their tweets' rows: every answer
    /// is the one the hand-worked tweets of `Fixtures/store/v4.sql` give.
    func testAVersion4StoreMigratesWithItsLinksAndSpellings() throws {
        let store = path("v4.db")
        let db = try Database(path: store, create: true, busyTimeout: 0)
        try db.execute(try String(contentsOf: Smashtag.fixtures.appendingPathComponent("store/v4.sql"), encoding: .utf8))
        db.close()
        let plain = try smashtag(["report", "-t", "#old", "-t", "*", "--store", store, "-q", "--min-count", "1"])
        XCTAssertEqual(plain.stdout, """
            term,type,mention,count
            #old,hashtag,#old,3
            #old,hashtag,#café,1
            #old,hashtag,#other,1
            #old,user,@someone,2
            *,hashtag,#old,3
            *,hashtag,#café,1
            *,hashtag,#other,1
            *,user,@someone,3

            """)
        let check = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Schema.current)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM sqlite_schema WHERE name IN ('tweet_mention', 'extra_spelling')"), 0)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM tweet"), 5)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM tweet WHERE links IS NULL"), 1)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM spelling"), 4)
        check.close()
        // #old: #Old twice (10, 12), #OLD (10's second spelling) and #old (11) once; @someone's tie goes to the smaller bytes.
        let columns = try smashtag(["report", "#old", "--store", store, "--columns", "mention,display,count,originals,retweets,authors",
                                    "-q", "--min-count", "1"])
        XCTAssertEqual(columns.stdout, """
            mention,display,count,originals,retweets,authors
            #old,#Old,3,2,1,2
            #café,#CAFÉ,1,0,1,1
            #other,#other,1,0,1,1
            @someone,@SomeOne,2,2,0,2

            """)
        let all = try smashtag(["report", "*", "--store", store, "--columns", "mention,display,count,authors", "-q", "--min-count", "1"])
        XCTAssertEqual(all.stdout, "mention,display,count,authors\n#old,#Old,3,2\n#café,#CAFÉ,1,1\n#other,#other,1,1\n@someone,@SomeOne,3,2\n")
        XCTAssertEqual(try smashtag(["report", "*", "--store", store, "--lang", "es", "--columns", "mention,count,retweets", "-q",
                                     "--min-count", "1"]).stdout,
                       "mention,count,retweets\n#café,1,1\n#old,1,1\n#other,1,1\n")
        XCTAssertTrue(try smashtag(["report", "from:writer", "--store", store, "--format", "json", "-q"]).stdout
            .hasPrefix(##"[{"term":"from:writer","tweets":3,"##))
        XCTAssertEqual(try smashtag(["pairs", "#old", "--store", store, "--min-count", "1", "-q"]).stdout,
                       "term,source,target,weight\n#old,#old,@someone,2\n#old,#café,#old,1\n#old,#café,#other,1\n#old,#old,#other,1\n")
        let export = try smashtag(["export", "--store", store]).stdout
        XCTAssertTrue(export.contains(##"{"id":"11","created_at":"2019-03-01T11:51:00.000Z","author":{"username":"writer"},"lang":"es","referenced_tweets":[{"type":"retweeted"}],"entities":{"hashtags":[{"tag":"café"},{"tag":"old"},{"tag":"other"}],"mentions":[]}}"##), export)
        XCTAssertTrue(export.contains(##"{"id":"13","created_at":"2019-03-01T11:53:00.000Z","author":{"username":"writer"},"lang":"en"}"##), export)
        // New tweets ingested into the upgraded store: their spellings beside the migrated ones.
        try smashtag(["ingest", FilterTests.dir, "--store", store, "-q"])
        let mixed = try smashtag(["report", "#stanford", "#old", "--store", store, "--columns", "mention,display,count", "-q"])
        XCTAssertEqual(mixed.stdout, "mention,display,count\n#stanford,#Stanford,8\n#one,#one,2\n@alice,@Alice,3\n#old,#Old,3\n@someone,@SomeOne,2\n")
    }

    /// Spellings that differ from their key by capitals of the fixed table
    /// (ASCII, Latin-1, Greek, Cyrillic) are masks in the links, no
    /// `spelling` row; any other spelling is a row. `display` is the same.
    func testCapitalsAreMasksAndOtherSpellingsRows() throws {
        let dump = path("spellings.jsonl"), store = path("s.db")
        func tweet(_ id: Int, _ tags: [String]) -> String {
            let hashtags = tags.map { "{\"text\":\"\($0)\"}" }.joined(separator: ",")
            return "{\"id_str\":\"\(1233904783979446273 + id)\",\"created_at\":\"Sun Mar 01 00:00:0\(id) +0000 2020\",\"lang\":\"en\","
                + "\"text\":\"x\",\"user\":{\"screen_name\":\"bob\"},\"entities\":{\"hashtags\":[\(hashtags)],\"user_mentions\":[]}}"
        }
        let lines = [tweet(1, ["Stanford", "Łódź", "МОСКВА"]), tweet(2, ["Stanford", "łódź"]), tweet(3, ["STANFORD", "Łódź", "ÉTÉ"])]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dump))
        try smashtag(["ingest", dump, "--store", store, "-q"])
        let check = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try check.statement("SELECT group_concat(text, ' ') FROM spelling").first { $0.text(0) } ?? nil, "#Łódź")
        check.close()
        let options = ["report", "*", "--columns", "mention,display,count", "--min-count", "1", "-q"]
        let expected = "mention,display,count\n#stanford,#Stanford,3\n#łódź,#Łódź,3\n#été,#ÉTÉ,1\n#москва,#МОСКВА,1\n"
        XCTAssertEqual(try smashtag(options + [dump]).stdout, expected)
        XCTAssertEqual(try smashtag(options + ["--store", store]).stdout, expected)
    }

    /// A tweet's time is kept as its difference from its snowflake id's
    /// (0, no byte, when `created_at` is the id's second); `created_at` adds
    /// them up again, for old ids, unsigned ids past 2^63, times that differ
    /// from their id's and tweets without one. The filters by time agree with
    /// the dump's.
    func testTimesAreKeptAsTheirDifferenceFromTheSnowflake() throws {
        let dump = path("times.jsonl"), store = path("s.db")
        func tweet(_ id: UInt64, _ createdAt: String?) -> String {
            "{\"id_str\":\"\(id)\"," + (createdAt.map { "\"created_at\":\"\($0)\"," } ?? "")
                + "\"text\":\"x\",\"user\":{\"screen_name\":\"bob\"},\"entities\":{\"hashtags\":[{\"text\":\"t\"}],\"user_mentions\":[]}}"
        }
        let lines = [
            tweet(1233904783979446273, "Sun Mar 01 00:00:00 +0000 2020"),   // the id's own second
            tweet(1233904783979446274, "Sun Mar 01 01:00:00 +0000 2020"),   // an hour after its id's
            tweet(1233904783979446275, nil),                                 // the id's time
            tweet(12345, "Sun Mar 01 02:00:00 +0000 2020"),                  // before the snowflakes
            tweet(12346, nil),                                               // unknown
            tweet(18446744073709551000, "Sun Mar 01 03:00:00 +0000 2020"),  // past 2^63
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dump))
        try smashtag(["ingest", dump, "--store", store, "-q"])
        let check = try Database(path: store, create: false, busyTimeout: 0)
        let rows = try check.statement("SELECT group_concat(coalesce(created_at, 'null') || ':' || coalesce(created_delta, 'null'), ' ') FROM (SELECT * FROM tweet ORDER BY id)")
            .first { $0.text(0) } ?? nil
        check.close()
        // By id as stored (signed: the id past 2^63 first); its snowflake second is 5686881485.
        XCTAssertEqual(rows, "1583031600:-4103849885 1583028000:1583028000 null:null 1583020800:0 1583024400:3600 1583020800:0")
        for window in [["--since", "2020-03-01T00:30:00Z"], ["--until", "2020-03-01T01:00:00Z"], ["--since", "2020-03-01T02:00:00Z", "--until", "2020-03-01T03:00:01Z"]] {
            let options = ["report", "*", "--format", "json", "-q"] + window
            XCTAssertEqual(try smashtag(options + ["--store", store]).stdout, try smashtag(options + [dump]).stdout, "\(window)")
        }
    }

    /// Kind and language survive a snapshot: export, import, the same reports
    /// (spellings do not: a snapshot writes keys, so `display` is left out here).
    func testExportImportKeepsKindAndLanguage() throws {
        let store = path("s.db"), copy = path("copy.db"), snapshot = path("snapshot.ndjson")
        try smashtag(["ingest", FilterTests.dir, Smashtag.corpus.appendingPathComponent("twarc-csv").path, "--store", store, "-q"])
        let export = try smashtag(["export", "--store", store]).stdout
        try Data(export.utf8).write(to: URL(fileURLWithPath: snapshot))
        try smashtag(["import", snapshot, "--store", copy, "-q"])
        XCTAssertEqual(try smashtag(["export", "--store", copy]).stdout, export)
        let options = ["-t", "*", "-t", "#brexit", "--columns", "term,type,mention,count,originals,retweets,authors",
                       "--lang", "en,und", "--min-count", "1", "-q"]
        XCTAssertEqual(try smashtag(["report", "--store", copy] + options).stdout, try smashtag(["report", "--store", store] + options).stdout)
        // The snapshot itself is a dump that reports the same.
        XCTAssertEqual(try smashtag(["report", snapshot] + options).stdout, try smashtag(["report", "--store", store] + options).stdout)
    }
}
