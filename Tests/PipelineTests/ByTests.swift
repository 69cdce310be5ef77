import Foundation
import XCTest

/// `--by` and `--tz` (SPEC §12.4) on the hand-worked fixtures of
/// `Tests/Fixtures/by` (see `make_by.py` for what each tweet is).
///
/// `newyear.jsonl`'s `#nye` tweets (UTC): 12-27 22:59 and 23:00 with `#old`
/// and `@eve`; 12-31 12:00 `#Party` `@eve`; 12-31 23:30 `#party` `@frank`
/// (twice: counts once); 01-01 04:59 `#party` `@frank`; and one of unknown
/// time. `#new`: 01-03 22:59:59 and 23:00 with `@gina`, 01-04 12:00 with
/// `#old` and `@gina`.
final class ByTests: XCTestCase {
    static let dir = Smashtag.fixtures.appendingPathComponent("by").path
    static let newYear = Smashtag.fixtures.appendingPathComponent("by/newyear.jsonl").path
    static let dst = Smashtag.fixtures.appendingPathComponent("by/dst.jsonl").path

    func testZeroFillOverASinceUntilWiderThanTheData() throws {
        let r = try Smashtag.report(["#new", Self.newYear, "--by", "day", "--since", "2021-01-02", "--until", "2021-01-07", "-q"])
        XCTAssertEqual(r.stdout, """
            term,bucket,type,mention,count
            #new,2021-01-02,hashtag,#new,0
            #new,2021-01-02,user,@gina,0
            #new,2021-01-03,hashtag,#new,2
            #new,2021-01-03,user,@gina,2
            #new,2021-01-04,hashtag,#new,1
            #new,2021-01-04,user,@gina,1
            #new,2021-01-05,hashtag,#new,0
            #new,2021-01-05,user,@gina,0
            #new,2021-01-06,hashtag,#new,0
            #new,2021-01-06,user,@gina,0

            """)
        // --until is exclusive: the last bucket holds the last instant before it.
        let end = try Smashtag.report(["#new", Self.newYear, "--by", "day", "--until", "2021-01-05T00:00:01Z", "-q"])
        XCTAssertTrue(end.stdout.hasSuffix("#new,2021-01-05,user,@gina,0\n"), end.stdout)
        let exact = try Smashtag.report(["#new", Self.newYear, "--by", "day", "--until", "2021-01-05", "-q"])
        XCTAssertTrue(exact.stdout.hasSuffix("#new,2021-01-04,user,@gina,1\n"), exact.stdout)
        // Without --since/--until: the term's first bucket to its last. In Berlin the 23:00 tweet is on the 4th.
        let own = try Smashtag.report(["#new", Self.newYear, "--by", "day", "--tz", "Europe/Berlin", "-q"])
        XCTAssertEqual(own.stdout, """
            term,bucket,type,mention,count
            #new,2021-01-03,hashtag,#new,1
            #new,2021-01-03,user,@gina,1
            #new,2021-01-04,hashtag,#new,2
            #new,2021-01-04,user,@gina,2

            """)
    }

    func testTopIsChosenOverTheWholePeriod() throws {
        // Totals: #nye 5, #party 3, #old 2; @eve 3, @frank 2. On 12-27 #old (2) outnumbers #party (0), yet is not shown.
        let r = try Smashtag.report(["#nye", Self.newYear, "--by", "day", "--top", "2", "-q"])
        XCTAssertEqual(r.stdout, """
            term,bucket,type,mention,count
            #nye,2020-12-27,hashtag,#nye,2
            #nye,2020-12-27,hashtag,#party,0
            #nye,2020-12-27,user,@eve,2
            #nye,2020-12-27,user,@frank,0
            #nye,2020-12-28,hashtag,#nye,0
            #nye,2020-12-28,hashtag,#party,0
            #nye,2020-12-28,user,@eve,0
            #nye,2020-12-28,user,@frank,0
            #nye,2020-12-29,hashtag,#nye,0
            #nye,2020-12-29,hashtag,#party,0
            #nye,2020-12-29,user,@eve,0
            #nye,2020-12-29,user,@frank,0
            #nye,2020-12-30,hashtag,#nye,0
            #nye,2020-12-30,hashtag,#party,0
            #nye,2020-12-30,user,@eve,0
            #nye,2020-12-30,user,@frank,0
            #nye,2020-12-31,hashtag,#nye,2
            #nye,2020-12-31,hashtag,#party,2
            #nye,2020-12-31,user,@eve,1
            #nye,2020-12-31,user,@frank,1
            #nye,2021-01-01,hashtag,#nye,1
            #nye,2021-01-01,hashtag,#party,1
            #nye,2021-01-01,user,@frank,1
            #nye,2021-01-01,user,@eve,0

            """)
        // --min-count applies to the total: #old (2 in all) is kept with --min-count 2, though no day has it twice but one.
        let kept = try Smashtag.report(["#nye", Self.newYear, "--by", "week", "--tz", "Europe/Berlin", "-q"])
        XCTAssertEqual(kept.stdout, """
            term,bucket,type,mention,count
            #nye,2020-W52,hashtag,#nye,1
            #nye,2020-W52,hashtag,#old,1
            #nye,2020-W52,hashtag,#party,0
            #nye,2020-W52,user,@eve,1
            #nye,2020-W52,user,@frank,0
            #nye,2020-W53,hashtag,#nye,4
            #nye,2020-W53,hashtag,#party,3
            #nye,2020-W53,hashtag,#old,1
            #nye,2020-W53,user,@eve,2
            #nye,2020-W53,user,@frank,2

            """)
    }

    func testColumnsPerBucketWithEmptyDisplayOnZeroRows() throws {
        let r = try Smashtag.report(["#fall", Self.dst, "--by", "day", "--tz", "Europe/Berlin", "--min-count", "2",
                                     "--columns", "term,type,mention,display,count,retweets,authors", "-q"])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "term,bucket,type,mention,display,count,retweets,authors")
        // 10-31 (Berlin): #Fall once and #fall three times, one a retweet, by ann, ben and cy twice.
        XCTAssertTrue(lines.contains("#fall,2021-10-31,hashtag,#fall,#fall,4,1,3"), r.stdout)
        XCTAssertTrue(lines.contains("#fall,2021-10-31,hashtag,#clock,#clock,2,1,2"), r.stdout)
        XCTAssertTrue(lines.contains("#fall,2021-10-30,hashtag,#fall,#fall,1,0,1"), r.stdout)
        XCTAssertTrue(lines.contains("#fall,2021-10-30,hashtag,#clock,,0,0,0"), r.stdout)
        for day in 1...6 {
            // A zero bucket orders its rows by mention: #clock before #fall.
            XCTAssertTrue(lines.contains("#fall,2021-11-0\(day),hashtag,#fall,,0,0,0"), "\(day): \(r.stdout)")
            XCTAssertEqual(lines.firstIndex(of: "#fall,2021-11-0\(day),hashtag,#clock,,0,0,0").map { $0 + 1 },
                           lines.firstIndex(of: "#fall,2021-11-0\(day),hashtag,#fall,,0,0,0"))
        }
        XCTAssertTrue(lines.contains("#fall,2021-11-07,hashtag,#fall,#fall,1,0,1"), r.stdout)
        let json = try Smashtag.report(["#fall", Self.dst, "--by", "day", "--tz", "Europe/Berlin", "--min-count", "2",
                                        "--columns", "mention,display,count,retweets", "--format", "json", "-q"])
        XCTAssertTrue(json.stdout.contains(##"{"term":"#fall","bucket":"2021-11-02","tweets":0,"retweets":0,"hashtags":[{"mention":"#clock","display":"","count":0,"retweets":0},{"mention":"#fall","display":"","count":0,"retweets":0}],"users":["##), json.stdout)
        XCTAssertTrue(json.stdout.contains(##"{"term":"#fall","bucket":"2021-10-31","tweets":4,"retweets":1,"hashtags":[{"mention":"#fall","display":"#fall","count":4,"retweets":1},"##), json.stdout)
    }

    /// `tide.jsonl` (worked by hand, see `make_by.py`), in Asia/Tokyo: 06-01 ann's `#Tide @sea` and her
    /// retweet of it; 06-02 ben's `#TIDE @SEA` (00:30, 06-01 in UTC), ben's `#tide @Sea`, cy's `#tide @sea`
    /// and ben's retweet `#tide @moon`; nothing on 06-03; 06-04 cy's `#tide`. Over the whole period
    /// `#tide`'s display is `#tide` (4 of 7) by 3 authors and `@sea`'s `@sea` (3 of 5): each bucket's
    /// columns are its own tweets' (`#Tide` by one author on 06-01; on 06-02 `@SEA`, `@Sea` and
    /// `@sea` once each, the tie to the lowest bytes), from the dumps, a store built in two ingests,
    /// and `extract | aggregate` over halves in either order.
    func testEachBucketCountsItsOwnColumnsOnEveryPath() throws {
        let tide = Smashtag.fixtures.appendingPathComponent("by/tide.jsonl")
        let options = ["--by", "day", "--tz", "Asia/Tokyo", "--columns", "term,type,mention,display,count,originals,retweets,authors"]
        let expected = """
            term,bucket,type,mention,display,count,originals,retweets,authors
            #tide,2022-06-01,hashtag,#tide,#Tide,2,1,1,1
            #tide,2022-06-01,user,@sea,@sea,2,1,1,1
            #tide,2022-06-01,user,@moon,,0,0,0,0
            #tide,2022-06-02,hashtag,#tide,#tide,4,3,1,2
            #tide,2022-06-02,user,@sea,@SEA,3,3,0,2
            #tide,2022-06-02,user,@moon,@moon,1,0,1,1
            #tide,2022-06-03,hashtag,#tide,,0,0,0,0
            #tide,2022-06-03,user,@moon,,0,0,0,0
            #tide,2022-06-03,user,@sea,,0,0,0,0
            #tide,2022-06-04,hashtag,#tide,#tide,1,1,0,1
            #tide,2022-06-04,user,@moon,,0,0,0,0
            #tide,2022-06-04,user,@sea,,0,0,0,0

            """
        let json = ##"{"term":"#tide","bucket":"2022-06-01","tweets":2,"originals":1,"retweets":1,"authors":1,"##
            + ##""hashtags":[{"mention":"#tide","display":"#Tide","count":2,"originals":1,"retweets":1,"authors":1}],"##
            + ##""users":[{"mention":"@sea","display":"@sea","count":2,"originals":1,"retweets":1,"authors":1},"##
            + ##"{"mention":"@moon","display":"","count":0,"originals":0,"retweets":0,"authors":0}]}"##
        // The halves: the first three tweets (the 06-01 boundary tweet among them) and the rest.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-tide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try String(contentsOf: tide, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 7)
        let halves = (0..<2).map { dir.appendingPathComponent("half\($0).jsonl").path }
        for (path, part) in zip(halves, [lines[..<3], lines[3...]]) {
            try (part.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        }
        let store = dir.appendingPathComponent("tide.db").path
        for half in halves {
            let r = try Smashtag.run(["ingest", "--store", store, "-q", half])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let extracts = try halves.map { half in
            let r = try Smashtag.run(["extract", "#tide", half] + options)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        func paths(_ format: String) throws -> [(String, Smashtag.Result)] {
            let args = ["--min-count", "1", "--format", format, "-q"] + options
            return [("dumps", try Smashtag.run(["report", "#tide", tide.path] + args)),
                    ("store", try Smashtag.run(["report", "#tide", "--store", store] + args)),
                    ("extract | aggregate", try Smashtag.run(["aggregate"] + args, stdin: Data((extracts[0] + extracts[1]).utf8))),
                    ("the halves the other way", try Smashtag.run(["aggregate"] + args, stdin: Data((extracts[1] + extracts[0]).utf8)))]
        }
        for (path, r) in try paths("csv") {
            XCTAssertEqual(r.status, 0, "\(path): \(r.stderr)")
            XCTAssertEqual(r.stdout, expected, path)
        }
        for format in ["json", "ndjson", "table"] {
            let all = try paths(format)
            XCTAssertEqual(all[0].1.status, 0, all[0].1.stderr)
            if format != "table" { XCTAssertTrue(all[0].1.stdout.contains(json), "\(format): \(all[0].1.stdout)") }
            for (path, r) in all.dropFirst() { XCTAssertEqual(r.stdout, all[0].1.stdout, "\(path) as \(format)") }
        }
        // The table shows each bucket's display spelling.
        let table = try paths("table")[0].1.stdout
        XCTAssertTrue(table.contains("#Tide"), table)
        XCTAssertTrue(table.contains("@SEA"), table)
    }

    func testUnknownTimeIsLeftOutBeforeMatchingAndCounted() throws {
        let plain = try Smashtag.report(["#nye", Self.newYear, "--format", "json", "-q"])
        XCTAssertTrue(plain.stdout.contains(##""tweets":6"##), plain.stdout)
        let r = try Smashtag.run(["report", "#nye", Self.newYear, "--by", "year", "--format", "ndjson", "--progress=plain"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix(##"{"term":"#nye","bucket":"2020","tweets":4,"##), r.stdout)
        XCTAssertTrue(r.stdout.contains(##"{"term":"#nye","bucket":"2021","tweets":1,"##), r.stdout)
        XCTAssertTrue(r.stderr.contains("matched #nye: 5"), r.stderr)
        XCTAssertTrue(r.stderr.contains("left out 1 of 10 tweets by --by year --tz UTC (1 of unknown time)"), r.stderr)
    }

    func testTheSameSeriesWhateverTheJobsAndSplits() throws {
        let args = ["report", "-t", "*", "-t", "#dst", Self.dir, "--by", "hour", "--tz", "America/New_York", "--min-count", "1",
                    "--columns", "term,mention,display,count,authors", "--format", "csv"]
        let one = try Smashtag.run(args + ["--jobs", "1"])
        let split = try Smashtag.run(args + ["--jobs", "2"], environment: ["SMASHTAG_SPLIT_BYTES": "700"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertGreaterThan(one.stdout.count, 1000)
        XCTAssertEqual(one.stdout, split.stdout)
    }

    func testTheTableHasABucketInEachHeading() throws {
        let r = try Smashtag.report(["#new", Self.newYear, "--by", "day", "--format", "table", "-q"])
        XCTAssertTrue(r.stdout.hasPrefix("#new · 2021-01-03 · 2 tweets\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n#new · 2021-01-04 · 1 tweet\n"), r.stdout)
    }

    func testBadUnitsAndZonesAreUsageErrors() throws {
        let zone = try Smashtag.run(["report", "#nye", Self.newYear, "--by", "day", "--tz", "Europe/Atlantis"])
        XCTAssertEqual(zone.status, 2)
        XCTAssertTrue(zone.stderr.contains("--tz 'Europe/Atlantis' is not a time zone"), zone.stderr)
        XCTAssertEqual(zone.stdout, "")
        let unit = try Smashtag.run(["report", "#nye", Self.newYear, "--by", "fortnight"])
        XCTAssertEqual(unit.status, 2)
        XCTAssertTrue(unit.stderr.contains("--by takes hour, day, week, month or year, not 'fortnight'"), unit.stderr)
        let alone = try Smashtag.run(["report", "#nye", Self.newYear, "--tz", "Europe/Berlin"])
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("--tz names the zone --by counts in"), alone.stderr)
        for command in [["extract", "#nye"], ["aggregate"]] {
            let r = try Smashtag.run(command + ["--by", "day", "--tz", "Not/AZone"], stdin: Data())
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
        }
        let window = try Smashtag.run(["aggregate", "--since", "2020-01-01"], stdin: Data())
        XCTAssertEqual(window.status, 2)
        XCTAssertTrue(window.stderr.contains("give it to smashtag extract"), window.stderr)
    }

    func testAggregateByNeedsAnExtractWithTimes() throws {
        let plain = try Smashtag.run(["extract", "#nye", Self.newYear])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let r = try Smashtag.run(["aggregate", "--by", "day"], stdin: Data(plain.stdout.utf8))
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("carries no creation times for --by: extract with --by"), r.stderr)
        let timed = try Smashtag.run(["extract", "#nye", Self.newYear, "--by", "day"])
        XCTAssertTrue(timed.stdout.hasPrefix("H\tsmashtag-extract\t2\tcarries=time\t#nye\n"), timed.stdout)
        // One extract serves every unit and zone: the times are the instants.
        let week = try Smashtag.run(["aggregate", "--by", "week", "--tz", "Europe/Berlin"], stdin: Data(timed.stdout.utf8))
        let direct = try Smashtag.report(["#nye", Self.newYear, "--by", "week", "--tz", "Europe/Berlin", "-q"])
        XCTAssertEqual(week.stdout, direct.stdout)
        // Without --by, aggregate reads the timed lines as a plain report.
        let whole = try Smashtag.run(["aggregate"], stdin: Data(timed.stdout.utf8))
        XCTAssertEqual(whole.stdout, try Smashtag.report(["#nye", Self.newYear, "--since", "2000-01-01", "-q"]).stdout)
    }

    /// Counts made elsewhere per creation second (the Spark job with --by):
    /// aggregate buckets, chooses over the totals and zero-fills.
    func testCountsPerSecondAreBucketed() throws {
        let counts = [
            "H\tsmashtag-counts\t2\tcarries=time\t#a",
            "N\t#a\t1609459199\t2", "C\t#a\t1609459199\t#a\t2", "C\t#a\t1609459199\t#b\t1",  // 2020-12-31T23:59:59Z
            "N\t#a\t1609545600\t1", "C\t#a\t1609545600\t#a\t1", "C\t#a\t1609545600\t#b\t1",  // 2021-01-02T00:00:00Z
            "N\t#a\t1609545601\t1", "C\t#a\t1609545601\t#a\t1", "C\t#a\t1609545601\t#c\t1",
        ].joined(separator: "\n") + "\n"
        let r = try Smashtag.run(["aggregate", "--by", "day", "--tz", "Europe/Berlin"], stdin: Data(counts.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            term,bucket,type,mention,count
            #a,2021-01-01,hashtag,#a,2
            #a,2021-01-01,hashtag,#b,1
            #a,2021-01-02,hashtag,#a,2
            #a,2021-01-02,hashtag,#b,1

            """)
        let plain = try Smashtag.run(["aggregate"], stdin: Data(counts.utf8))
        XCTAssertEqual(plain.stdout, "term,type,mention,count\n#a,hashtag,#a,4\n#a,hashtag,#b,2\n")
    }

    /// Counts made elsewhere per bucket with SPEC §12.3's columns (the Spark
    /// job with --by and --columns), each bucket named by an instant in it:
    /// aggregate puts each in its bucket with its own retweets, authors and display.
    func testCountsPerBucketWithColumns() throws {
        let counts = [
            "H\tsmashtag-counts\t2\tcarries=retweets,authors,display,time\t#a",
            "N\t#a\t1609459199\t2\t1\t2", "C\t#a\t1609459199\t#a\t2\t1\t2\t#A", "C\t#a\t1609459199\t#b\t1\t0\t1\t#b",
            "N\t#a\t1609545600\t1\t0\t1", "C\t#a\t1609545600\t#a\t1\t0\t1\t#a",  // 2021-01-02T00:00:00Z
        ].joined(separator: "\n") + "\n"
        let r = try Smashtag.run(["aggregate", "--by", "day", "--tz", "Europe/Berlin", "--min-count", "1",
                                  "--columns", "term,mention,display,count,originals,authors"], stdin: Data(counts.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            term,bucket,mention,display,count,originals,authors
            #a,2021-01-01,#a,#A,2,1,2
            #a,2021-01-01,#b,#b,1,1,1
            #a,2021-01-02,#a,#a,1,1,1
            #a,2021-01-02,#b,,0,0,0

            """)
        let json = try Smashtag.run(["aggregate", "--by", "day", "--tz", "Europe/Berlin", "--columns", "mention,retweets,authors",
                                     "--format", "ndjson"], stdin: Data(counts.utf8))
        XCTAssertTrue(json.stdout.hasPrefix(##"{"term":"#a","bucket":"2021-01-01","tweets":2,"retweets":1,"authors":2,"##), json.stdout)
    }

    /// One post dated 900 years on (a mangled `created_at`) stretches a
    /// series to about 7.9 million hours × 201 mentions: more rows than any
    /// report can hold. Every path refuses it before making it, with status
    /// 1, nothing on stdout, and a message naming the span (the far date
    /// shows) and how to narrow it; `--since`/`--until` narrow it to the
    /// rows worked out by hand.
    func testASeriesTooLongToWriteIsRefusedOnEveryPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-far-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 200 posts of 2020-03-01, one an hour from 00:00 UTC round the clock, each with #all and a tag of its own; then one in 2920.
        var lines: [String] = []
        for i in 0..<200 {
            let hour = i % 24
            let created = "Sun Mar 01 \(hour < 10 ? "0" : "")\(hour):00:00 +0000 2020"
            lines.append(##"{"id":\##(1000 + i),"id_str":"\##(1000 + i)","created_at":"\##(created)","text":"#all #t\##(i)","##
                + ##""user":{"screen_name":"a\##(i)"},"entities":{"hashtags":[{"text":"all"},{"text":"t\##(i)"}],"user_mentions":[]}}"##)
        }
        lines.append(##"{"id":5000,"id_str":"5000","created_at":"Sun Mar 01 20:38:46 +0000 2920","text":"#all","##
            + ##""user":{"screen_name":"far"},"entities":{"hashtags":[{"text":"all"}],"user_mentions":[]}}"##)
        let dump = dir.appendingPathComponent("far.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: dump, atomically: false, encoding: .utf8)
        let store = dir.appendingPathComponent("far.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", "--store", store, "-q", dump]).status, 0)
        let extract = try Smashtag.run(["extract", "#all", dump, "--by", "hour"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let options = ["--by", "hour", "--min-count", "1", "-q"]
        let paths: [(String, Smashtag.Result)] = [
            ("dumps", try Smashtag.run(["report", "#all", dump] + options)),
            ("store", try Smashtag.run(["report", "#all", "--store", store] + options)),
            ("extract | aggregate", try Smashtag.run(["aggregate"] + options, stdin: Data(extract.stdout.utf8))),
        ]
        for (path, r) in paths {
            XCTAssertEqual(r.status, 1, "\(path): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", path)
            XCTAssertTrue(r.stderr.contains("the series of #all by hour would have about"), "\(path): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("from 2020-03-01T00:00:00Z to 2920-03-01T20:38:46Z × 201 mentions"), "\(path): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--since/--until"), "\(path): \(r.stderr)")
        }
        // By month it is 10,801 months × 201 mentions = 2,171,001 rows: written as CSV, too many for a
        // sheet. The workbook is refused naming the file asked for (not the temporary one it is put
        // together in), and nothing is left at that path.
        let book = dir.appendingPathComponent("series.xlsx").path
        let months = try Smashtag.run(["report", "#all", dump, "--by", "month", "--min-count", "1", "-o", book, "-q"])
        XCTAssertEqual(months.status, 1, months.stderr)
        XCTAssertEqual(months.stderr, "smashtag: cannot write \(book): #all has 2171001 rows, and a sheet holds 1,048,575: "
                       + "keep fewer with --top, --min-count or a longer --by\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: book))
        // Narrowed to the day: 24 hours × the 201 mentions, zero-filled; the far post left out before matching.
        let day = try Smashtag.report(["#all", dump, "--since", "2020-03-01", "--until", "2020-03-02"] + options)
        let rows = day.stdout.split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 24 * 201)
        XCTAssertEqual(rows.filter { $0.hasPrefix("#all,2020-03-01T05,hashtag,#all,") }, ["#all,2020-03-01T05,hashtag,#all,9"])
        XCTAssertEqual(rows.filter { $0.hasSuffix(",hashtag,#t29,1") }, ["#all,2020-03-01T05,hashtag,#t29,1"])
    }
}
