import Foundation
import XCTest
@testable import Stages

/// `smashtag posts` (SPEC §15) end to end: hand-worked fixtures for each
/// rule (`Tests/Fixtures/posts/`), the same bytes from dumps, a store, an
/// exported and imported store and `extract --posts | aggregate --posts`,
/// the formats, and the usage errors.
///
/// `v11.jsonl` (term `#a`; times 2020-03-02 UTC unless said):
///
///     100 @Alice 10:00 the original          X in the data
///     101 bob  RT 100 · 102 carol RT 100 · 102 again (read twice: counts once)
///     103 dave quotes 100 · 104 erin replies to 100 (in_reply_to_screen_name Alice)
///     105 frank, 106 gina RT 9000            absent X, copies by Zed (then zed), 2020-03-01T09:00:00Z
///     107 hank quotes 8000 (copy: Quinn, 2020-02-29T08:00:00Z, "quoted, text only here") · 108 ivy quotes 8000 (no copy)
///     109 alice RT 100                       a self-retweet: counts
///     110 jack, 111 kim RT 101               a retweet of a retweet: counts for 101
///     112, 113 reply to 7000 (Seven) · 114, 115 reply to 6000 (Six)   ties, by id ascending
///     116 pat RT 100, #b only                does not match #a
final class PostsTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-posts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let fixtures = Smashtag.fixtures.appendingPathComponent("posts")
    static let v11 = fixtures.appendingPathComponent("v11.jsonl").path
    static let v2 = fixtures.appendingPathComponent("v2.json").path
    static let csv = fixtures.appendingPathComponent("twarc.csv").path

    /// `smashtag ARGS…`, failing the test unless it exits `status`.
    @discardableResult
    func smashtag(_ args: [String], stdin: Data? = nil, status: Int32 = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let r = try Smashtag.run(args, stdin: stdin, environment: ["SMASHTAG_STORE": ""])
        XCTAssertEqual(r.status, status, "smashtag \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    static let header = "term,id,author,created_at,retweets,quotes,replies\n"

    // MARK: The rules, on fixtures worked out by hand

    func testCountsWhatIsInTheData() throws {
        // 100: retweets 101, 102 (once), 109 (self); quoted by 103; replied to by 104. 116 does not match.
        // 101 and 9000 tie on 2, 0, 0: by id. 6000 before 7000 likewise; their times are unknown (old ids, no copy says).
        let r = try smashtag(["posts", "#a", Self.v11, "-q"])
        XCTAssertEqual(r.stdout, Self.header + """
            #a,100,@alice,2020-03-02T10:00:00Z,3,1,1
            #a,101,@bob,2020-03-02T10:05:00Z,2,0,0
            #a,9000,@zed,2020-03-01T09:00:00Z,2,0,0
            #a,8000,@quinn,2020-02-29T08:00:00Z,0,2,0
            #a,6000,@six,,0,0,2
            #a,7000,@seven,,0,0,2

            """)
    }

    func testTextIsAnyCopysAndAQuoteMayCarryItAlone() throws {
        // 101 is a retweet: its full text is the retweeted tweet's (SPEC §4). 8000's text only 107's quoted copy holds.
        let r = try smashtag(["posts", "#a", Self.v11, "-q", "--columns", "id,text,retweets", "--top", "4"])
        XCTAssertEqual(r.stdout, "id,text,retweets\n100,the original #a,3\n101,the original #a,2\n9000,absent #a,2\n8000,\"quoted, text only here\",0\n")
    }

    func testFiltersNarrowTheMatchingTweetsNotWhatIsSaidOfX() throws {
        // From 11:00 on: 100 keeps only 109's retweet (under --min-count 2); 101's own record (10:05) is left out
        // as a matching tweet, yet still says who wrote 101 and when.
        let r = try smashtag(["posts", "#a", Self.v11, "-q", "--since", "2020-03-02T11:00:00Z"])
        XCTAssertEqual(r.stdout, Self.header + """
            #a,101,@bob,2020-03-02T10:05:00Z,2,0,0
            #a,9000,@zed,2020-03-01T09:00:00Z,2,0,0
            #a,8000,@quinn,2020-02-29T08:00:00Z,0,2,0
            #a,6000,@six,,0,0,2
            #a,7000,@seven,,0,0,2

            """)
        let retweets = try smashtag(["posts", "#a", Self.v11, "-q", "--retweets", "exclude", "--min-count", "1"])
        XCTAssertEqual(retweets.stdout, Self.header + """
            #a,8000,@quinn,2020-02-29T08:00:00Z,0,2,0
            #a,100,@alice,2020-03-02T10:00:00Z,0,1,1
            #a,6000,@six,,0,0,2
            #a,7000,@seven,,0,0,2

            """)
    }

    func testMinCountIsOnTheSumAndTopKeepsTheFirst() throws {
        let r = try smashtag(["posts", "#a", Self.v11, "-q", "--min-count", "5"])
        XCTAssertEqual(r.stdout, Self.header + "#a,100,@alice,2020-03-02T10:00:00Z,3,1,1\n")
        let top = try smashtag(["posts", "-t", "#a", "-t", "#b", Self.v11, "-q", "--top", "1", "--min-count", "1"])
        XCTAssertEqual(top.stdout, Self.header + "#a,100,@alice,2020-03-02T10:00:00Z,3,1,1\n#b,100,@alice,2020-03-02T10:00:00Z,1,0,0\n")
    }

    func testTheSnowflakeSaysTheTimeWhenNoCopyDoes() throws {
        // 1212121212121212121 >> 22 = 288991308534 ms after 1288834974657: 1577827191 s, 2019-12-31T21:19:51Z.
        let lines = [#"{"id_str":"1","text":"a","user":{"screen_name":"a"},"in_reply_to_status_id_str":"1212121212121212121","in_reply_to_screen_name":"Big"}"#,
                     #"{"id_str":"2","text":"b","user":{"screen_name":"b"},"in_reply_to_status_id_str":"1212121212121212121"}"#]
        let r = try smashtag(["posts", "*", "-q"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(r.stdout, Self.header + "*,1212121212121212121,@big,2019-12-31T21:19:51Z,0,0,2\n")
    }

    func testXsOwnRecordSpeaksFirstThenTheFirstCopyRead() throws {
        // 50's copies disagree (Old, then New): the first read counts. 60's own record, read after a copy, wins over it.
        let lines = [#"{"id_str":"1","text":"RT","user":{"screen_name":"a"},"retweeted_status":{"id_str":"50","text":"x","user":{"screen_name":"Old"}}}"#,
                     #"{"id_str":"2","text":"RT","user":{"screen_name":"b"},"retweeted_status":{"id_str":"50","text":"x","user":{"screen_name":"New"},"created_at":"Mon Mar 02 10:00:00 +0000 2020"}}"#,
                     #"{"id_str":"3","text":"RT","user":{"screen_name":"c"},"retweeted_status":{"id_str":"60","text":"y","user":{"screen_name":"Copy"}}}"#,
                     #"{"id_str":"4","text":"RT","user":{"screen_name":"d"},"retweeted_status":{"id_str":"60","text":"y","user":{"screen_name":"Copy"}}}"#,
                     #"{"id_str":"60","text":"y","user":{"screen_name":"Own"}}"#]
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        for jobs in ["1", "2"] {
            let r = try smashtag(["posts", "*", "-q", "--jobs", jobs], stdin: data)
            // 50's author is Old's; its time only New's copy says.
            XCTAssertEqual(r.stdout, Self.header + "*,50,@old,2020-03-02T10:00:00Z,2,0,0\n*,60,@own,,2,0,0\n")
        }
    }

    func testOnlyTheFirstCopyOfXReadCountsAsItsOwnRecord() throws {
        // 70 is read twice: first without an author, then with one. The second read is the same tweet again (the
        // copy a store does not keep), so 70's author is the one the embedded copies say.
        let lines = [#"{"id_str":"70","text":"seventy","created_at":"Mon Mar 02 10:00:00 +0000 2020"}"#,
                     #"{"id_str":"70","text":"seventy","user":{"screen_name":"Late"}}"#,
                     #"{"id_str":"71","text":"RT","user":{"screen_name":"a"},"retweeted_status":{"id_str":"70","text":"seventy","user":{"screen_name":"Copy"}}}"#,
                     #"{"id_str":"72","text":"RT","user":{"screen_name":"b"},"retweeted_status":{"id_str":"70","text":"seventy","user":{"screen_name":"Copy"}}}"#]
        let file = path("twice.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try smashtag(["posts", "*", file, "-q"]).stdout, Self.header + "*,70,@copy,2020-03-02T10:00:00Z,2,0,0\n")
        try assertEveryPathAgrees([file], ["*", "--columns", "term,id,author,created_at,retweets,text"])
    }

    func testV2PagesAndTwarcCSVFeedIt() throws {
        // v2: 300 retweeted by 200, 201 (its copy in includes.tweets, by u5 Eve); 301 quoted by 202, 203 (includes, by u4 Di);
        // 302 replied to by 202, 204 (no copy: in_reply_to_user_id u4 is Di).
        XCTAssertEqual(try smashtag(["posts", "*", Self.v2, "-q"]).stdout, Self.header + """
            *,300,@eve,2020-03-01T08:00:00Z,2,0,0
            *,301,@di,,0,2,0
            *,302,@di,,0,0,2

            """)
        // twarc-csv: its reference and *_username columns; 500's own row (inlined by twarc-csv) says its time.
        XCTAssertEqual(try smashtag(["posts", "*", Self.csv, "-q"]).stdout, Self.header + """
            *,500,@orig,2020-03-01T08:00:00Z,2,0,0
            *,501,@quo,,0,2,0
            *,502,@rep,,0,0,2

            """)
    }

    // MARK: The independent reference

    struct Case: Decodable {
        var name: String
        var paths: [String]
        var terms: [String]
        var options: [String]
        var expected: String
    }

    /// Every case of `Tests/Reference/posts_reference.py` on the corpus
    /// (`make_posts_cases.py` writes them): each file alone with its terms,
    /// the whole corpus with every column, `--top`, filters.
    func testEveryCorpusCaseMatchesTheReference() throws {
        let reference = Smashtag.root.appendingPathComponent("Tests/Reference")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: reference.appendingPathComponent("posts_cases.json")))
        XCTAssertGreaterThanOrEqual(cases.count, 17)
        for c in cases {
            let args = ["posts"] + c.terms.flatMap { ["-t", $0] } + c.paths.map { Smashtag.corpus.appendingPathComponent($0).path }
                + c.options + ["-q"]
            XCTAssertEqual(try smashtag(args).stdout, try fixtureText(reference.appendingPathComponent(c.expected)), c.name)
        }
    }

    // MARK: Formats

    func testJSONNDJSONAndTable() throws {
        let json = try smashtag(["posts", "#a", Self.v11, "-q", "--format", "json", "--top", "1", "--columns", "id,author,created_at,retweets,text"])
        XCTAssertEqual(json.stdout, ##"[{"term":"#a","tweets":16,"posts":[{"id":"100","author":"@alice","created_at":"2020-03-02T10:00:00Z","retweets":3,"text":"the original #a"}]}]"## + "\n")
        let nd = try smashtag(["posts", "-t", "#a", "-t", "#none", Self.v11, "-q", "--format", "ndjson", "--top", "1", "--columns", "id,author,created_at"])
        XCTAssertEqual(nd.stdout, ##"{"term":"#a","tweets":16,"posts":[{"id":"100","author":"@alice","created_at":"2020-03-02T10:00:00Z"}]}"## + "\n"
                       + ##"{"term":"#none","tweets":0,"posts":[]}"## + "\n")
        let unknown = try smashtag(["posts", "#a", Self.v11, "-q", "--format", "json", "--min-count", "2", "--columns", "id,created_at,text"])
        XCTAssertTrue(unknown.stdout.contains(#"{"id":"6000","created_at":null,"text":null}"#), unknown.stdout)
        let table = try smashtag(["posts", "#a", Self.v11, "-q", "--format", "table", "--top", "2"])
        XCTAssertEqual(table.stdout, """
            #a · 16 tweets · 2 posts

              id   author  created_at            retweets  quotes  replies
              100  @alice  2020-03-02T10:00:00Z         3       1        1
              101  @bob    2020-03-02T10:05:00Z         2       0        0

            """)
    }

    func testWorkbookAndPageToAFile() throws {
        try smashtag(["posts", "#a", Self.v11, "-q", "-o", path("p.xlsx"), "--columns", "id,author,retweets,text"])
        let xlsx = try Data(contentsOf: URL(fileURLWithPath: path("p.xlsx")))
        XCTAssertEqual(Array(xlsx.prefix(2)), [0x50, 0x4B], "a zip")
        try smashtag(["posts", "#a", Self.v11, "-q", "-o", path("p.html"), "--columns", "id,author,text"])
        let html = try String(contentsOfFile: path("p.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<td><bdi>quoted, text only here</bdi></td>"), html)
        XCTAssertTrue(html.contains("default-src 'none'"))
        XCTAssertFalse(html.contains("<script"))
        try smashtag(["posts", "#a", Self.v11, "-q", "-o", path("p.csv")])
        XCTAssertTrue(try String(contentsOfFile: path("p.csv"), encoding: .utf8).hasPrefix(Self.header + "#a,100,"))
    }

    // MARK: The same bytes on every path

    /// Dumps, a store kept with text, the store exported and imported, the
    /// snapshot read as a dump, and `extract --posts | aggregate --posts`.
    func assertEveryPathAgrees(_ inputs: [String], _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let store = path("s-\(UUID().uuidString).db"), copy = path("i-\(UUID().uuidString).db"), snapshot = path("snap.ndjson")
        let dumps = try smashtag(["posts"] + args + inputs + ["-q"], file: file, line: line).stdout
        XCTAssertNotEqual(dumps, Self.header, "something to compare", file: file, line: line)
        try smashtag(["ingest"] + inputs + ["--store", store, "--keep-text", "-q"], file: file, line: line)
        XCTAssertEqual(try smashtag(["posts"] + args + ["--store", store, "-q"], file: file, line: line).stdout, dumps, "store", file: file, line: line)
        let exported = try smashtag(["export", "--store", store, "-q"], file: file, line: line).stdout
        try exported.write(toFile: snapshot, atomically: true, encoding: .utf8)
        try smashtag(["import", snapshot, "--store", copy, "--keep-text", "-q"], file: file, line: line)
        XCTAssertEqual(try smashtag(["posts"] + args + ["--store", copy, "-q"], file: file, line: line).stdout, dumps, "import", file: file, line: line)
        XCTAssertEqual(try smashtag(["posts"] + args + [snapshot, "-q"], file: file, line: line).stdout, dumps, "snapshot", file: file, line: line)
        let terms = args.first.map { [$0] } ?? []
        let extractArgs = ["extract", "--posts"] + terms + inputs + ["-q"]
            + (args.contains { $0.contains("text") } ? ["--columns", "text"] : [])
            + zip(args, args.dropFirst()).filter { ["--since", "--until", "--retweets", "--lang"].contains($0.0) }.flatMap { [$0.0, $0.1] }
        let lines = try smashtag(extractArgs, file: file, line: line).stdout
        let aggregateArgs = ["aggregate", "--posts", "-q"]
            + zip(args, args.dropFirst()).filter { ["--columns", "--min-count", "--top", "--format"].contains($0.0) }.flatMap { [$0.0, $0.1] }
        XCTAssertEqual(try smashtag(aggregateArgs, stdin: Data(lines.utf8), file: file, line: line).stdout, dumps, "extract | aggregate",
                       file: file, line: line)
    }

    func testDumpsStoreExportAndExtractAggregateGiveTheSameBytes() throws {
        let all = "term,id,author,created_at,retweets,quotes,replies,text"
        try assertEveryPathAgrees([Self.v11], ["#a", "--columns", all, "--min-count", "1"])
        try assertEveryPathAgrees([Self.v11], ["#a", "--since", "2020-03-02T11:00:00Z", "--format", "json"])
        try assertEveryPathAgrees([Self.v2, Self.csv], ["*", "--columns", all])
        try assertEveryPathAgrees([Smashtag.corpus.path], ["*", "--columns", all, "--min-count", "1"])
        try assertEveryPathAgrees([Smashtag.corpus.path], ["#bts", "--retweets", "only", "--min-count", "1"])
    }

    func testJobsDoNotChangeTheAnswer() throws {
        let one = try smashtag(["posts", "*", Smashtag.corpus.path, "-q", "--jobs", "1", "--min-count", "1", "--columns", "id,author,created_at,retweets,quotes,replies,text"])
        let two = try smashtag(["posts", "*", Smashtag.corpus.path, "-q", "--jobs", "2", "--min-count", "1", "--columns", "id,author,created_at,retweets,quotes,replies,text"])
        XCTAssertEqual(one.stdout, two.stdout)
        XCTAssertGreaterThan(one.stdout.split(separator: "\n").count, 100)
    }

    // MARK: The store

    func testAStoreOlderThanTheReferencesSaysHowToHaveThem() throws {
        let store = path("v4.db")
        let db = try Database(path: store, create: true, busyTimeout: 0)
        try db.execute(try String(contentsOf: Smashtag.fixtures.appendingPathComponent("store/v4.sql"), encoding: .utf8))
        db.close()
        let r = try smashtag(["posts", "*", "--store", store], status: 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("holds 5 tweets ingested before smashtag kept what a tweet retweets"), r.stderr)
        // A report from it answers as before.
        try smashtag(["report", "#old", "--store", store, "-q"])
        let noText = path("n.db")
        try smashtag(["ingest", Self.v11, "--store", noText, "-q"])
        let refused = try smashtag(["posts", "#a", "--store", noText, "--columns", "id,text"], status: 2)
        XCTAssertTrue(refused.stderr.contains("--columns text needs the posts' texts"), refused.stderr)
        let word = try smashtag(["posts", "original", "--store", noText], status: 2)
        XCTAssertTrue(word.stderr.contains("needs the tweets' text"), word.stderr)
    }

    func testPruneTakesACopyWithTheLastTweetNamingIt() throws {
        let store = path("p.db")
        try smashtag(["ingest", Self.v11, "--store", store, "-q"])
        let db = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM post_copy WHERE post IN (100, 9000, 8000, 101, 6000, 7000)"), 6)
        db.close()
        // The 3 newest tweets are 114, 115 (reply to 6000) and 116 (RT 100).
        try smashtag(["prune", "--keep-tweets", "3", "--store", store, "-q"])
        let after = try Database(path: store, create: false, busyTimeout: 0)
        XCTAssertEqual(try after.statement("SELECT group_concat(post) FROM (SELECT post FROM post_copy ORDER BY post)").first { $0.text(0) }, "100,6000")
        after.close()
        XCTAssertEqual(try smashtag(["posts", "*", "--store", store, "-q", "--min-count", "1"]).stdout,
                       Self.header + "*,100,@alice,2020-03-02T10:00:00Z,1,0,0\n*,6000,@six,,0,0,2\n")
    }

    // MARK: The command line

    func testUsageErrors() throws {
        for args in [["posts", "#a", Self.v11, "--by", "day"], ["posts", "#a", Self.v11, "--kinds", "url"],
                     ["posts", "#a", Self.v11, "--columns", "id,mention"], ["posts", "#a", Self.v11, "--columns", "id,id"],
                     ["posts", "#a", Self.v11, "--format", "gexf"], ["posts", "#a", Self.v11, "--format", "xlsx"],
                     ["posts", "#a", Self.v11, "--min-count", "0"], ["aggregate", "--posts", "--pairs"],
                     ["extract", "--posts", "#a", "--by", "day"]] {
            let r = try smashtag(args, status: 2)
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("smashtag: "), "\(args): \(r.stderr)")
        }
        let lines = try smashtag(["extract", "#a", Self.v11, "-q"]).stdout
        let wrong = try smashtag(["aggregate", "--posts", "-q"], stdin: Data(lines.utf8), status: 1)
        XCTAssertTrue(wrong.stderr.contains("extract --posts"), wrong.stderr)
        let noText = try smashtag(["extract", "--posts", "#a", Self.v11, "-q"]).stdout
        let lacking = try smashtag(["aggregate", "--posts", "--columns", "id,text"], stdin: Data(noText.utf8), status: 1)
        XCTAssertTrue(lacking.stderr.contains("carries no texts"), lacking.stderr)
    }

    func testHelpIsItsSnapshot() throws {
        let snapshots = Smashtag.root.appendingPathComponent("Tests/PipelineTests/Snapshots")
        XCTAssertEqual(try smashtag(["posts", "--help"]).stdout, try fixtureText(snapshots.appendingPathComponent("posts-help.txt")))
    }
}
