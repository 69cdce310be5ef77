import Foundation
import XCTest

/// `smashtag trend` (SPEC §14) end to end, on the hand-made fixtures of
/// `Tests/Fixtures/trend` (written by `make_trend.py`, which says what each
/// holds); every expected row is worked out by hand in the comments.
final class TrendTests: XCTestCase {
    static let folder = Smashtag.fixtures.appendingPathComponent("trend")
    static let rise = folder.appendingPathComponent("rise.jsonl").path
    static let dst = folder.appendingPathComponent("dst.jsonl").path
    static let header = "term,type,mention,display,current_tweets,current_authors,baseline_tweets,baseline_authors,"
        + "expected,score,ratio,status,top_author_share,top_authors,example_ids\n"
    /// rise.jsonl's present: the current day is 2020-03-07, the previous 2020-03-06.
    static let day = ["--current", "1d", "--now", "2020-03-08T10:00:00Z"]

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-trend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    func trend(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let r = try Smashtag.run(["trend"] + args)
        XCTAssertEqual(r.status, 0, "smashtag trend \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    // #rise: 9 authors now (5 write #Rise, 4 #rise), 2 before: e = 2, (9 − 2)² / 2 = 24.5, ratio 10/3.
    // #fresh: 5 now, none before: e = 1, (5 − 1)² = 16, ratio 6, new. The copy of 101 and the retweet add nothing.
    static let riseRows = """
        *,hashtag,#rise,#Rise,9,9,2,2,2,24.5,3.3333,rising,0.1111,@a1 @a2 @a3,101 102 103
        *,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103

        """

    func testRisingRowsByHand() throws {
        let r = try trend(["*", Self.rise] + Self.day + ["-q"])
        XCTAssertEqual(r.stdout, Self.header + Self.riseRows)
        XCTAssertEqual(r.stderr, "")
    }

    func testAllRowsInOrder() throws {
        // Then by score (0), current authors: #meh 4; #fall and #spam 1 each, by bytes.
        // #meh: 4 authors, under N = 5: score 0, steady. #fall: 1 now, 3 before: falling, ratio 2/4.
        // #spam: 50 tweets by one author: share 1, score by authors 0.
        let r = try trend(["*", Self.rise, "--all", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + Self.riseRows + """
            *,hashtag,#meh,#meh,4,4,0,0,1,0,5,steady,0.25,@a6 @a7 @a8,106 107 108
            *,hashtag,#fall,#fall,1,1,3,3,3,0,0.5,falling,1,@a1,110
            *,hashtag,#spam,#spam,50,1,0,0,1,0,2,steady,1,@spammer,201 202 203

            """)
    }

    func testOneAuthorFiftyTimesByTweetsAndTop() throws {
        // By tweets, #spam is 50 against 0: (50 − 1)² = 2401, new; --top 1 keeps it alone.
        let r = try trend(["*", Self.rise, "--by-tweets", "--top", "1", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + "*,hashtag,#spam,#spam,50,1,0,0,1,2401,51,new,1,@spammer,201 202 203\n")
    }

    func testBaselines() throws {
        // weekago: 2020-02-29 holds #rise by w1..w4: e = 4, (9 − 4)² / 4 = 6.25, ratio 10/5.
        var r = try trend(["*", Self.rise, "--baseline", "weekago", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + """
            *,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103
            *,hashtag,#rise,#Rise,9,9,4,4,4,6.25,2,rising,0.1111,@a1 @a2 @a3,101 102 103

            """)
        // mean:2: 2020-03-06 (2 authors) and 2020-03-05 (1): b = 1.5, (9 − 1.5)² / 1.5 = 37.5, ratio 10/2.5.
        r = try trend(["*", Self.rise, "--baseline", "mean:2", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + """
            *,hashtag,#rise,#Rise,9,9,1.5,1.5,1.5,37.5,4,rising,0.1111,@a1 @a2 @a3,101 102 103
            *,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103

            """)
        // 2020-03-01..2020-03-07 (6 days, scaled by 1/6): #rise 3 authors → 0.5, e = 1, (9 − 1)² = 64, ratio 10/1.5.
        r = try trend(["*", Self.rise, "--baseline", "2020-03-01..2020-03-07", "-q", "--all", "--top", "2"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + """
            *,hashtag,#rise,#Rise,9,9,0.5,0.5,1,64,6.6667,rising,0.1111,@a1 @a2 @a3,101 102 103
            *,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103

            """)
        // An explicit current window: 2020-03-07 again, previous 2020-03-06.
        r = try trend(["*", Self.rise, "--current", "2020-03-07..2020-03-08", "-q"])
        XCTAssertEqual(r.stdout, Self.header + Self.riseRows)
    }

    func testBerlinDayAcrossTheSpringChange() throws {
        // Berlin's 2021-03-28 has 23 hours, [2021-03-27T23:00Z, 2021-03-28T22:00Z): #first (00:00 local) and
        // #edge (23:59:59 local) are in it, #next (2021-03-29 00:00 local) is not; #edge by e1, e2 the day before.
        let berlin = try trend(["*", Self.dst, "--current", "1d", "--now", "2021-03-29T10:00:00+02:00", "--tz", "Europe/Berlin", "--all"])
        XCTAssertEqual(berlin.stdout, Self.header + """
            *,hashtag,#first,#first,5,5,0,0,1,16,6,new,0.2,@f1 @f2 @f3,601 602 603
            *,hashtag,#edge,#edge,5,5,2,2,2,4.5,2,rising,0.2,@d1 @d2 @d3,401 402 403

            """)
        XCTAssertTrue(berlin.stderr.contains("current window 2021-03-27T23:00:00Z..2021-03-28T22:00:00Z (--current 1d, "
                                             + "--now 2021-03-29T08:00:00Z, --tz Europe/Berlin); baseline "
                                             + "2021-03-26T23:00:00Z..2021-03-27T23:00:00Z (previous)"), berlin.stderr)
        // In UTC the same present makes 2021-03-28 UTC the current day: #next is in it, #first is the day before.
        let utc = try trend(["*", Self.dst, "--current", "1d", "--now", "2021-03-29T10:00:00+02:00", "--all", "-q"])
        XCTAssertEqual(utc.stdout, Self.header + """
            *,hashtag,#next,#next,5,5,0,0,1,16,6,new,0.2,@n1 @n2 @n3,501 502 503
            *,hashtag,#edge,#edge,5,5,2,2,2,4.5,2,rising,0.2,@d1 @d2 @d3,401 402 403
            *,hashtag,#first,,0,0,5,5,5,0,0.1667,falling,0,,

            """)
    }

    func testRetweetsAreLeftOutUnlessAsked() throws {
        // With the retweet by a10, #rise has 10 authors now: (10 − 2)² / 2 = 32.
        let r = try trend(["*", Self.rise, "--retweets", "include", "--top", "1", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + "*,hashtag,#rise,#Rise,10,10,2,2,2,32,3.6667,rising,0.1,@a1 @a10 @a2,101 102 103\n")
    }

    func testTermsFiltersAndKinds() throws {
        // #fresh's tweets: 101..105, all carrying #Rise too; --kinds user leaves no hashtag.
        var r = try trend(["#fresh", Self.rise, "--all", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + """
            #fresh,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103
            #fresh,hashtag,#rise,#Rise,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103

            """)
        r = try trend(["#fresh", Self.rise, "--all", "-q", "--kinds", "poster"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + (1...5).map { "#fresh,poster,@a\($0),@a\($0),1,1,0,0,1,0,2,steady,1,@a\($0),10\($0)\n" }.joined())
        // --until 09:03:01 keeps 101..103 of the current day: 3 authors, under N.
        r = try trend(["*", Self.rise, "--until", "2020-03-07T09:03:01Z", "--min-authors", "3", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, Self.header + """
            *,hashtag,#fresh,#fresh,3,3,0,0,1,4,4,new,0.3333,@a1 @a2 @a3,101 102 103
            *,hashtag,#rise,#Rise,3,3,2,2,2,0.5,1.3333,rising,0.3333,@a1 @a2 @a3,101 102 103

            """)
    }

    func testJSONAndNDJSON() throws {
        let r = try trend(["*", Self.rise, "--format", "json", "--top", "1", "-q"] + Self.day)
        XCTAssertEqual(r.stdout, """
            [{"term":"*","current":["2020-03-07T00:00:00Z","2020-03-08T00:00:00Z"],"baseline":["2020-03-06T00:00:00Z","2020-03-07T00:00:00Z"],\
            "rows":[{"type":"hashtag","mention":"#rise","display":"#Rise","current_tweets":9,"current_authors":9,"baseline_tweets":2,\
            "baseline_authors":2,"expected":2,"score":24.5,"ratio":3.3333,"status":"rising","top_author_share":0.1111,\
            "top_authors":"@a1 @a2 @a3","example_ids":"101 102 103"}]}]

            """)
        let n = try trend(["-t", "*", "-t", "#nothing", Self.rise, "--format", "ndjson", "--top", "1", "-q"] + Self.day)
        let lines = n.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1], ##"{"term":"#nothing","current":["2020-03-07T00:00:00Z","2020-03-08T00:00:00Z"],"baseline":["2020-03-06T00:00:00Z","2020-03-07T00:00:00Z"],"rows":[]}"##)
    }

    func testSummaryNamesBothWindowsAndWhatIsMissing() throws {
        let r = try trend(["*", Self.rise, "--baseline", "mean:3"] + Self.day)
        XCTAssertTrue(r.stderr.contains("smashtag: current window 2020-03-07T00:00:00Z..2020-03-08T00:00:00Z (--current 1d, "
                                        + "--now 2020-03-08T10:00:00Z, --tz UTC); baseline 2020-03-04T00:00:00Z..2020-03-07T00:00:00Z "
                                        + "(mean:3: the mean of 3 windows)\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("smashtag: the current window is partial: it ends at 2020-03-08T00:00:00Z, after the newest "
                                        + "matching tweet read (2020-03-07T20:00:00Z)\n"), r.stderr)
        // The oldest tweet is of 2020-02-29 (weekago's): mean:3 starts after it, mean:9 before.
        XCTAssertFalse(r.stderr.contains("before the oldest"), r.stderr)
        let far = try trend(["*", Self.rise, "--baseline", "mean:9"] + Self.day)
        XCTAssertTrue(far.stderr.contains("smashtag: the baseline starts at 2020-02-27T00:00:00Z, before the oldest matching tweet read "
                                          + "(2020-02-29T11:00:00Z): its counts may be too low\n"), far.stderr)
        let quiet = try trend(["*", Self.rise, "-q"] + Self.day)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testUsageErrors() throws {
        for (args, says) in [
            (["*", Self.rise], "needs --current"),
            (["*", Self.rise, "--current", "7x"], "--current takes"),
            (["*", Self.rise, "--current", "2020-03-08..2020-03-01"], "empty window"),
            (["*", Self.rise, "--current", "1d", "--baseline", "mean:0"], "--baseline takes"),
            // Past the bounds, the message says what the bounds are.
            (["*", Self.rise, "--current", "1d", "--baseline", "mean:10001"], "mean:K (K from 1 to 10,000)"),
            (["*", Self.rise, "--current", "100001d"], "from 1 to 100,000"),
            (["*", Self.rise, "--current", "1d", "--min-count", "2"], "--min-count does not apply"),
            (["*", Self.rise, "--current", "1d", "--columns", "term"], "--columns does not apply"),
            (["*", Self.rise, "--current", "1d", "--by", "day"], "--by does not apply"),
            (["*", Self.rise, "--current", "1d", "--tz", "Mars/Base"], "not a time zone"),
            (["*", Self.rise, "--current", "1d", "--now", "2020-03-08T10:00:00"], "no time zone"),
            (["*", Self.rise, "--current", "1d", "--format", "xlsx"], "give -o FILE"),
        ] {
            let r = try Smashtag.run(["trend"] + args)
            XCTAssertEqual(r.status, 2, args.joined(separator: " "))
            XCTAssertTrue(r.stderr.contains(says), "\(args): \(r.stderr)")
        }
        let help = try Smashtag.run(["trend", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, try fixtureText(Smashtag.root.appendingPathComponent("Tests/PipelineTests/Snapshots/trend-help.txt")))
    }

    // MARK: Every path, the same bytes

    func testDumpsStoreAndExtractAggregateGiveTheSameBytes() throws {
        let dir = try temporaryFolder()
        let store = dir.appendingPathComponent("t.db").path
        // The store is built in several ingests (the current day, then the rest).
        let lines = try fixtureText(URL(fileURLWithPath: Self.rise)).split(separator: "\n")
        let parts = [lines[..<30], lines[30...]]
        for (i, part) in parts.enumerated() {
            let file = dir.appendingPathComponent("part\(i).jsonl")
            try (part.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            XCTAssertEqual(try Smashtag.run(["ingest", file.path, "--store", store, "-q"]).status, 0)
        }
        let extract = try Smashtag.run(["extract", "-t", "*", "-t", "#fresh", Self.rise, Self.dst, "--trend"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let options: [[String]] = [
            Self.day + ["--all"],
            Self.day + ["--baseline", "weekago", "--format", "json"],
            Self.day + ["--baseline", "mean:2", "--format", "ndjson", "--by-tweets", "--all"],
            ["--current", "2020-03-07..2020-03-08", "--baseline", "2020-03-01..2020-03-07", "--all", "--top", "3", "--format", "table"],
            ["--current", "1d", "--now", "2021-03-29T10:00:00+02:00", "--tz", "Europe/Berlin", "--all"],
            ["--current", "1w", "--now", "2020-03-10T00:00:00Z", "--min-authors", "2", "--all"],
        ]
        for o in options {
            let dumps = try trend(["-t", "*", "-t", "#fresh", Self.rise, Self.dst, "-q"] + o)
            let stored = try trend(["-t", "*", "-t", "#fresh", "--store", store, "-q"] + o)
            let aggregated = try Smashtag.run(["aggregate", "--trend", "-q"] + o, stdin: Data(extract.stdout.utf8))
            XCTAssertEqual(aggregated.status, 0, aggregated.stderr)
            XCTAssertEqual(aggregated.stdout, dumps.stdout, o.joined(separator: " "))
            XCTAssertFalse(dumps.stdout.isEmpty)
            if !o.contains("Europe/Berlin") {  // the store holds rise.jsonl alone
                let riseOnly = try trend(["-t", "*", "-t", "#fresh", Self.rise, "-q"] + o)
                XCTAssertEqual(stored.stdout, riseOnly.stdout, o.joined(separator: " "))
            }
        }
    }

    func testTheFirstCopyCountsWhateverItsTime() throws {
        // Post 900 is read first dated March 1 (in no window), then again dated March 7: the second
        // read is a duplicate (SPEC §6), so #late has 901 alone now: 1 tweet, 1 author, none before:
        // e = 1, score 0 (under 5 authors), ratio 2/1, steady. Counting the later copy would give 2.
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("late.jsonl")
        func tweet(_ id: Int, _ day: Int, _ author: String) -> String {
            "{\"created_at\":\"Sat Mar 0\(day) 12:00:00 +0000 2020\",\"id\":\(id),\"id_str\":\"\(id)\",\"text\":\"#late\","
                + "\"user\":{\"screen_name\":\"\(author)\"},\"entities\":{\"hashtags\":[{\"text\":\"late\"}],\"user_mentions\":[]}}\n"
        }
        try (tweet(900, 1, "z1") + tweet(901, 7, "z2") + tweet(900, 7, "z1")).write(to: file, atomically: true, encoding: .utf8)
        let expected = Self.header + "*,hashtag,#late,#late,1,1,0,0,1,0,2,steady,1,@z2,901\n"
        XCTAssertEqual(try trend(["*", file.path, "--all", "-q"] + Self.day).stdout, expected)
        let extract = try Smashtag.run(["extract", "*", file.path, "--trend", "-q"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let aggregated = try Smashtag.run(["aggregate", "--trend", "--all", "-q"] + Self.day, stdin: Data(extract.stdout.utf8))
        XCTAssertEqual(aggregated.stdout, expected, aggregated.stderr)
    }

    func testAStoreReadsItsWindowsSpanAndMissesNoPost() throws {
        // A store finds a tweet created in its id's second by the id range of the windows' span, and
        // every other post by the partial index of their times. Current 2020-03-07, baseline 03-06.
        // #edge now: a (00:00:00, the window's first second), b (23:59:59, its last), e (id of
        // 03-01, created 03-07 12:00), h (an id before the snowflakes), the Mastodon status of g:
        // 5 posts, 5 authors. Before: d (03-06 23:59:59): 1. Not counted: c (03-08 00:00:00, the
        // current window's end), f (id of 03-07 12:00, created 02-01), k (03-20, after both).
        // e = 1, (5 − 1)² / 1 = 16, ratio 6/2 = 3, rising.
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("edge.jsonl")
        func seconds(_ iso: String) -> Int64 { Int64(ISO8601DateFormatter().date(from: iso)!.timeIntervalSince1970) }
        func snowflake(_ iso: String, _ n: Int64) -> Int64 { (seconds(iso) * 1000 - 1_288_834_974_657) << 22 + n }
        let twitter = DateFormatter()
        twitter.locale = Locale(identifier: "en_US_POSIX")
        twitter.timeZone = TimeZone(identifier: "UTC")
        twitter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        func tweet(_ id: Int64, _ iso: String, _ author: String) -> String {
            let created = twitter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds(iso))))
            return "{\"created_at\":\"\(created)\",\"id\":\(id),\"id_str\":\"\(id)\",\"text\":\"#edge\","
                + "\"user\":{\"screen_name\":\"\(author)\"},\"entities\":{\"hashtags\":[{\"text\":\"edge\"}],\"user_mentions\":[]}}\n"
        }
        var lines = [
            tweet(snowflake("2020-03-07T00:00:00Z", 1), "2020-03-07T00:00:00Z", "a"),
            tweet(snowflake("2020-03-07T23:59:59Z", 2), "2020-03-07T23:59:59Z", "b"),
            tweet(snowflake("2020-03-08T00:00:00Z", 3), "2020-03-08T00:00:00Z", "c"),
            tweet(snowflake("2020-03-06T23:59:59Z", 4), "2020-03-06T23:59:59Z", "d"),
            tweet(snowflake("2020-03-01T00:00:00Z", 5), "2020-03-07T12:00:00Z", "e"),
            tweet(snowflake("2020-03-07T12:00:00Z", 6), "2020-02-01T00:00:00Z", "f"),
            tweet(12_345, "2020-03-07T14:00:00Z", "h"),
            tweet(snowflake("2020-03-20T00:00:00Z", 7), "2020-03-20T00:00:00Z", "k"),
        ]
        lines.append("{\"id\":\"9\",\"uri\":\"https://social.example/users/g/statuses/9\",\"created_at\":\"2020-03-07T13:00:00.000Z\","
                     + "\"account\":{\"acct\":\"g\"},\"content\":\"<p>#edge</p>\",\"tags\":[{\"name\":\"edge\"}],\"mentions\":[]}\n")
        try lines.joined().write(to: file, atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("edge.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", file.path, "--store", store, "-q"]).status, 0)
        let options = Self.day + ["--all", "--kinds", "hashtag", "-q"]
        // Examples are the three earliest: a (00:00), e (12:00), g (13:00); h (14:00) is fourth.
        let expected = Self.header + "#edge,hashtag,#edge,#edge,5,5,1,1,1,16,3,rising,0.2,@a @b @e,\(snowflake("2020-03-07T00:00:00Z", 1)) "
            + "\(snowflake("2020-03-01T00:00:00Z", 5)) https://social.example/users/g/statuses/9\n"
        let dumps = try trend(["#edge", file.path] + options)
        let stored = try trend(["#edge", "--store", store] + options)
        XCTAssertEqual(stored.stdout, dumps.stdout)
        XCTAssertEqual(dumps.stdout, expected)
        // The summary of a store tells its windows by the store's own oldest and newest posts.
        let told = try trend(["#edge", "--store", store, "--current", "1d", "--now", "2020-03-21T10:00:00Z", "--baseline", "2020-01-01..2020-01-02"])
        XCTAssertTrue(told.stderr.contains("before the oldest post in the store (2020-02-01T00:00:00Z)"), told.stderr)
        XCTAssertTrue(told.stderr.contains("after the newest post in the store (2020-03-20T00:00:00Z)"), told.stderr)
    }

    func testAggregateTrendRefusesLinesWithoutTimes() throws {
        let plain = try Smashtag.run(["extract", "*", Self.rise])
        let r = try Smashtag.run(["aggregate", "--trend", "--current", "1d"], stdin: Data(plain.stdout.utf8))
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("extract with --trend"), r.stderr)
        let misuse = try Smashtag.run(["aggregate", "--current", "1d"], stdin: Data(plain.stdout.utf8))
        XCTAssertEqual(misuse.status, 2)
        XCTAssertTrue(misuse.stderr.contains("goes with --trend"), misuse.stderr)
    }

    /// The README's nightly recipe: ingest each night's dump, then the day
    /// against the same weekday a week before, written with -o.
    func testCronRecipeOnAStoreOfSeveralIngests() throws {
        let dir = try temporaryFolder()
        let store = dir.appendingPathComponent("tweets.db").path
        let lines = try fixtureText(URL(fileURLWithPath: Self.rise)).split(separator: "\n")
        // One file per day of creation, ingested in turn as nights would.
        var days: [String: [Substring]] = [:]
        for line in lines {
            let at = line.range(of: "\"created_at\":\"")!.upperBound
            days[String(line[at...].prefix(10)), default: []].append(line)
        }
        XCTAssertGreaterThanOrEqual(days.count, 4)
        for (n, day) in days.keys.sorted().enumerated() {
            let file = dir.appendingPathComponent("night\(n).jsonl")
            try (days[day]!.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            let ingest = try Smashtag.run(["ingest", file.path, "--store", store])
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
        }
        let out = dir.appendingPathComponent("rising.csv").path
        let r = try Smashtag.run(["trend", "*", "--store", store, "--current", "1d", "--baseline", "weekago",
                                  "--now", "2020-03-08T03:00:00Z", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("baseline 2020-02-29T00:00:00Z..2020-03-01T00:00:00Z (weekago)"), r.stderr)
        XCTAssertEqual(try fixtureText(URL(fileURLWithPath: out)), Self.header + """
            *,hashtag,#fresh,#fresh,5,5,0,0,1,16,6,new,0.2,@a1 @a2 @a3,101 102 103
            *,hashtag,#rise,#Rise,9,9,4,4,4,6.25,2,rising,0.1111,@a1 @a2 @a3,101 102 103

            """)
    }

    // MARK: Reports for people

    func testWorkbookAndPage() throws {
        let dir = try temporaryFolder()
        let book = dir.appendingPathComponent("rising.xlsx").path
        _ = try trend(["*", Self.rise, "-o", book, "-q"] + Self.day)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: book))
        XCTAssertEqual(Array(bytes.prefix(2)), [0x50, 0x4B], "a zip")
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-l", book]
        let pipe = Pipe()
        unzip.standardOutput = pipe
        try unzip.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        unzip.waitUntilExit()
        XCTAssertTrue(listing.contains("xl/charts/chart1.xml"), listing)
        XCTAssertTrue(listing.contains("xl/worksheets/sheet2.xml"), listing)

        let page = try trend(["*", Self.rise, "--format", "html", "-q", "--all"] + Self.day).stdout
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("<script"))
        XCTAssertTrue(page.contains("<td><bdi>#Rise</bdi></td>"), page)
        XCTAssertTrue(page.contains("<td><bdi>24.5</bdi></td>"))
        XCTAssertTrue(page.contains("Top 2 rising, by score"))
        let table = try trend(["*", Self.rise, "--format", "table", "-q"] + Self.day).stdout
        XCTAssertTrue(table.hasPrefix("* · 60 tweets from 2020-03-07T00:00:00Z to 2020-03-08T00:00:00Z · baseline from "
                                      + "2020-03-06T00:00:00Z to 2020-03-07T00:00:00Z\n"), table)
        XCTAssertTrue(table.contains("  #Rise           9         2   24.5  3.3333  rising     0.1111  @a1 @a2 @a3\n"), table)
    }

    /// 8,400 rising hashtags, enough for the rows, their explaining columns and
    /// the CSV to be made a share of them a core (two or more chunks of 4,096):
    /// every row's numbers worked out from how the data was made, not by the
    /// program's own code paths.
    ///
    /// Tag i (`#t<i>`, written `#T<i>` when i % 10 == 0) has o = 5 + i % 7
    /// authors `u<i>x<j>` in the current week, one tweet each (author 0 two
    /// more when i % 13 == 0), and b = i % 4 authors in the week before.
    func testManyRowsEachWorkedOutFromTheData() throws {
        let dir = try temporaryFolder()
        let path = dir.appendingPathComponent("many.jsonl").path
        let start = 1_583_020_800  // 2020-03-01T00:00:00Z; the week before starts 604,800 s earlier.
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        var lines: [String] = [], id = 1_000_000
        struct Tweet { let id: Int, time: Int }
        var current: [[Tweet]] = []
        func tweet(_ tag: String, _ author: String, _ time: Int) -> Tweet {
            id += 1
            let created = format.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
            lines.append(##"{"id":\##(id),"id_str":"\##(id)","created_at":"\##(created)","text":"#\##(tag)","user":{"screen_name":"\##(author)"},"##
                         + ##""entities":{"hashtags":[{"text":"\##(tag)","indices":[0,\##(tag.utf8.count + 1)]}],"user_mentions":[],"urls":[],"symbols":[]}}"##)
            return Tweet(id: id, time: time)
        }
        let tags = 8_400
        for i in 0..<tags {
            let written = i % 10 == 0 ? "T\(i)" : "t\(i)"
            var mine: [Tweet] = []
            for j in 0..<(5 + i % 7) { mine.append(tweet(written, "u\(i)x\(j)", start + (i * 7_919 + j * 104_729) % 604_800)) }
            if i % 13 == 0 { for k in 1...2 { mine.append(tweet(written, "u\(i)x0", start + (i * 131 + k * 7) % 604_800)) } }
            for j in 0..<(i % 4) { _ = tweet(written, "v\(i)x\(j)", start - 604_800 + (i * 31 + j * 977) % 604_800) }
            current.append(mine)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)

        /// p / q rounded half to even to 4 decimals, trailing zeros dropped (SPEC §14).
        func decimal(_ p: Int, _ q: Int) -> String {
            var r = p * 10_000 / q
            let rest = p * 10_000 % q
            if 2 * rest > q || (2 * rest == q && r % 2 == 1) { r += 1 }
            var frac = String(r % 10_000)
            frac = String(repeating: "0", count: 4 - frac.count) + frac
            while frac.hasSuffix("0") { frac.removeLast() }
            return String(r / 10_000) + (frac.isEmpty ? "" : "." + frac)
        }
        struct Row { let i: Int, o: Int, e: Int, line: String }
        var rows: [Row] = []
        for i in 0..<tags {
            let o = 5 + i % 7, b = i % 4, e = max(b, 1), extra = i % 13 == 0 ? 2 : 0
            let names = (0..<o).map { "@u\(i)x\($0)" }
            let top = extra > 0 ? [names[0]] + names.dropFirst().sorted().prefix(2) : Array(names.sorted().prefix(3))
            let examples = current[i].sorted { ($0.time, $0.id) < ($1.time, $1.id) }.prefix(3).map { String($0.id) }
            let line = ["*", "hashtag", "#t\(i)", i % 10 == 0 ? "#T\(i)" : "#t\(i)", String(o + extra), String(o), String(b), String(b),
                        String(e), decimal((o - e) * (o - e), e), decimal(o + 1, b + 1), b == 0 ? "new" : "rising",
                        decimal(1 + extra, o + extra), top.joined(separator: " "), examples.joined(separator: " ")].joined(separator: ",")
            rows.append(Row(i: i, o: o, e: e, line: line))
        }
        // Score descending ((o − e)² / e, compared exactly), current authors descending, mention by bytes.
        rows.sort { x, y in
            let l = (x.o - x.e) * (x.o - x.e) * y.e, r = (y.o - y.e) * (y.o - y.e) * x.e
            if l != r { return l > r }
            if x.o != y.o { return x.o > y.o }
            return Array("#t\(x.i)".utf8).lexicographicallyPrecedes(Array("#t\(y.i)".utf8))
        }
        let expected = Self.header + rows.map { $0.line + "\n" }.joined()
        let r = try trend(["*", path, "--current", "2020-03-01..2020-03-08", "-q"])
        XCTAssertEqual(r.stdout.split(separator: "\n").count, tags + 1)
        XCTAssertEqual(r.stdout, expected)
    }

    /// One author written in several cases, in files that different workers
    /// read, is one author (SPEC §5's key): #x's 8 tweets of 2020-03-07 are by
    /// alice (Alice, alice, ALICE), bob (bob, Bob, bob), carol and dave: 4
    /// authors, none before: e = 1, (4 − 1)² / 1 = 9, ratio 5, new; the top
    /// author writes 3 of 8 (0.375), alice and bob tie at 3 (by bytes), then
    /// carol and dave at 1. The same bytes with one worker, with four, and in
    /// one file.
    func testOneAuthorReadByManyWorkersIsOneAuthor() throws {
        let dir = try temporaryFolder()
        func tweet(_ id: Int, _ author: String) -> String {
            let time = String(format: "Sat Mar 07 %02d:00:00 +0000 2020", id)
            return ##"{"created_at":"\##(time)","id":\##(id),"id_str":"\##(id)","text":"#x","user":{"id":\##(id),"screen_name":"\##(author)"},"##
                + ##""entities":{"hashtags":[{"text":"x","indices":[0,2]}],"user_mentions":[],"urls":[]}}"##
        }
        let files = [[(1, "Alice"), (2, "bob")], [(3, "alice"), (4, "Bob")], [(5, "ALICE"), (6, "carol")], [(7, "bob"), (8, "dave")]]
        var paths: [String] = [], all = ""
        for (i, file) in files.enumerated() {
            let text = file.map { tweet($0.0, $0.1) + "\n" }.joined()
            let url = dir.appendingPathComponent("part-\(i).jsonl")
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
            all += text
        }
        let one = dir.appendingPathComponent("all.jsonl")
        try all.write(to: one, atomically: true, encoding: .utf8)
        let expected = Self.header + "*,hashtag,#x,#x,8,4,0,0,1,9,5,new,0.375,@alice @bob @carol,1 2 3\n"
        for args in [paths + ["--jobs", "1"], paths + ["--jobs", "4"], [dir.path, "--jobs", "2"], [one.path]] {
            let r = try trend(["*"] + args + ["--min-authors", "1", "-q"] + Self.day)
            XCTAssertEqual(r.stdout, expected, args.joined(separator: " "))
        }
    }
}
