import Foundation
import XCTest

/// `--since`, `--until`, `--retweets` and `--lang` (SPEC §12.2) on
/// hand-worked fixtures, from dumps and through `extract | aggregate`.
///
/// `Tests/Fixtures/filters` holds nine tweets, each with a hashtag of its
/// own number (`#one` … `#nine`) so a report says which were kept:
///
///     1  2020-03-01T00:00:00Z  created_at      en   original  bob
///     2  2020-03-01T12:00:00Z  created_at      en   retweet   Carol  (spellings differ from its original's)
///     3  2020-03-02T00:00:00Z  snowflake id    es   original  BOB
///     4  unknown (2009 id, no created_at)      -    original  dave
///     5  2020-03-03T00:00:00Z  created_at      EN   original  (no author)
///     6  2020-03-02T12:00:00Z  snowflake (created_at unreadable)  und  retweet  frank
///     7  2020-03-02T06:00:00Z  created_at      -    original, `RT @gina:` text (a retweet in text mode)  hank
///     8  2020-03-01T23:00:00Z  v2, +02:00      de   original  Bob
///     9  2020-03-02T23:59:59Z  v2, no offset   en   retweet   ivy
///
/// Tweet 2 carries `#one` (its original's), so it shows as `two` here.
final class FilterTests: XCTestCase {
    static let dir = Smashtag.fixtures.appendingPathComponent("filters").path
    private let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    /// The numbers of the tweets a `'*'` report with `options` counted, and its tweet count.
    private func kept(_ options: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (tweets: [Int], count: Int) {
        let r = try Smashtag.report(["*", Self.dir, "--format", "csv", "--min-count", "1", "-q"] + options, file: file, line: line)
        var found: [Int] = []
        for row in r.stdout.split(separator: "\n") {
            let f = row.split(separator: ",").map(String.init)
            if f.count == 4, f[1] == "hashtag", let n = numbers.firstIndex(of: String(f[2].dropFirst())), n != 0 { found.append(n + 1) }
        }
        let json = try Smashtag.report(["*", Self.dir, "--format", "json", "-q"] + options, file: file, line: line).stdout
        let count = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first?["tweets"] as? Int ?? -1
        // #one is carried by tweets 1 and 2: tweet 1 is counted when #one outnumbers #two.
        let csv = r.stdout
        func countOf(_ tag: String) -> Int {
            csv.split(separator: "\n").first { $0.hasPrefix("*,hashtag,#\(tag),") }.flatMap { Int($0.split(separator: ",")[3]) } ?? 0
        }
        if countOf("one") > countOf("two") { found.append(1) }
        return (found.sorted(), count)
    }

    func testNoFilterKeepsAll() throws {
        let k = try kept([])
        XCTAssertEqual(k.tweets, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(k.count, 9)
    }

    func testSinceUntilKeepsTheHalfOpenRange() throws {
        // 4 has no time; 5 is created exactly at --until, which is exclusive; 1 exactly at --since, inclusive.
        let k = try kept(["--since", "2020-03-01", "--until", "2020-03-03"])
        XCTAssertEqual(k.tweets, [1, 2, 3, 6, 7, 8, 9])
        XCTAssertEqual(k.count, 7)
        XCTAssertEqual(try kept(["--until", "2020-03-03T00:00:01Z"]).tweets, [1, 2, 3, 5, 6, 7, 8, 9])
        XCTAssertEqual(try kept(["--since", "2020-03-03T00:00:00Z"]).tweets, [5])
        // An offset: 01:00 at +01:00 is midnight UTC; 8 (23:00 UTC, written +02:00) is before it.
        XCTAssertEqual(try kept(["--since", "2020-03-02T01:00:00+01:00"]).tweets, [3, 5, 6, 7, 9])
        // The v2 time without offset is UTC: 9 at 23:59:59 is inside the day, and --until a second later keeps it.
        XCTAssertEqual(try kept(["--since", "2020-03-02T23:59:59Z", "--until", "2020-03-03T00:00:00.000Z"]).tweets, [9])
        // since at or after until: an empty report.
        XCTAssertEqual(try kept(["--since", "2020-03-03", "--until", "2020-03-01"]).count, 0)
        XCTAssertEqual(try kept(["--since", "2020-03-02", "--until", "2020-03-02"]).count, 0)
    }

    func testRetweets() throws {
        XCTAssertEqual(try kept(["--retweets", "only"]).tweets, [2, 6, 9])
        XCTAssertEqual(try kept(["--retweets", "exclude"]).tweets, [1, 3, 4, 5, 7, 8])
        XCTAssertEqual(try kept(["--retweets", "include"]).tweets, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        // In text mode a text that begins `RT @name:` makes a retweet too (7).
        let text = try Smashtag.report(["*", Self.dir, "--format", "csv", "--min-count", "1", "-q", "--retweets", "only",
                                        "--mentions-from", "text"]).stdout
        XCTAssertTrue(text.contains("*,hashtag,#seven,1\n"), text)
        XCTAssertFalse(text.contains("#three"), text)
    }

    func testLanguage() throws {
        XCTAssertEqual(try kept(["--lang", "en"]).tweets, [1, 2, 5, 9], "codes compare case-insensitively (5 is EN)")
        XCTAssertEqual(try kept(["--lang", "ES,und"]).tweets, [3, 6])
        XCTAssertEqual(try kept(["--lang", "xx"]).count, 0, "tweets without lang (4, 7) never match")
        XCTAssertEqual(try kept(["--lang", "en", "--retweets", "exclude", "--until", "2020-03-02"]).tweets, [1])
    }

    /// A tweet left out counts for nothing: not in its term's tweet count, not as a duplicate.
    func testLeftOutBeforeMatchingAndDedup() throws {
        let r = try Smashtag.run(["report", "#stanford", Self.dir, Self.dir, "--since", "2020-03-01", "--until", "2020-03-03",
                                  "--lang", "en,es,de,und", "--progress=plain", "--format", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Kept: 1, 2, 3, 6, 8 carry #stanford (7 and 9 have no lang or no #stanford); read twice, each counts once.
        XCTAssertTrue(r.stdout.hasPrefix(##"[{"term":"#stanford","tweets":5,"##), r.stdout)
        XCTAssertTrue(r.stderr.contains("matched #stanford: 5; 5 duplicates dropped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("left out 6 of 18 tweets by --since 2020-03-01T00:00:00Z --until 2020-03-03T00:00:00Z "
                                        + "--lang en,es,de,und (2 of unknown time)"), r.stderr)
    }

    func testSummaryAndStats() throws {
        let stats = FileManager.default.temporaryDirectory.appendingPathComponent("filters-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try Smashtag.run(["report", "*", Self.dir, "--retweets", "exclude", "--progress=plain", "--stats", stats.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("smashtag: left out 3 of 9 tweets by --retweets exclude\n"), r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any]
        XCTAssertEqual(json?["filtered_out"] as? Int, 3)
        XCTAssertEqual(json?["unknown_time"] as? Int, 0)
        XCTAssertEqual(json?["filter"] as? String, "--retweets exclude")
        // Without filters, neither the line nor the fields.
        let plain = try Smashtag.run(["report", "*", Self.dir, "--progress=plain", "--stats", stats.path])
        XCTAssertFalse(plain.stderr.contains("left out"), plain.stderr)
        XCTAssertNil((try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any])?["filtered_out"])
    }

    func testExtractAppliesTheFilters() throws {
        for options in [["--since", "2020-03-01T12:00:00Z", "--until", "2020-03-02T12:00:00Z"], ["--retweets", "only"],
                        ["--lang", "en,und"], ["--retweets", "exclude", "--lang", "EN"]] {
            let report = try Smashtag.report(["-t", "*", "-t", "#stanford", Self.dir, "--min-count", "1", "-q"] + options)
            let extract = try Smashtag.run(["extract", "-t", "*", "-t", "#stanford", Self.dir] + options)
            XCTAssertEqual(extract.status, 0, extract.stderr)
            let agg = try Smashtag.run(["aggregate", "--min-count", "1"], stdin: Data(extract.stdout.utf8))
            XCTAssertEqual(agg.stdout, report.stdout, "\(options)")
            XCTAssertNotEqual(report.stdout, try Smashtag.report(["-t", "*", "-t", "#stanford", Self.dir, "--min-count", "1"]).stdout)
        }
    }

    func testBadValuesAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--since", "2020-13-01"], "'2020-13-01'"),
            (["--until", "2020-02-30"], "'2020-02-30'"),
            (["--since", "2020-03-01T10:00:00"], "no time zone"),
            (["--since", "March 1"], "2020-03-01"),
            (["--retweets", "maybe"], "include, exclude or only, not 'maybe'"),
            (["--lang", ""], "not ''"),
            (["--lang", "en,,es"], "not 'en,,es'"),
            (["--columns", "foo"], "unknown column 'foo'"),
            (["--columns", "count,count"], "column 'count' twice"),
            (["--columns", ""], "unknown column ''"),
        ]
        for (options, message) in cases {
            for command in [["report", "x", Self.dir], ["extract", "-t", "x", Self.dir]] {
                let r = try Smashtag.run(command + options)
                XCTAssertEqual(r.status, 2, "\(command) \(options)")
                XCTAssertTrue(r.stderr.contains(message), "\(options): \(r.stderr)")
                XCTAssertTrue(r.stdout.isEmpty)
            }
        }
    }
}
