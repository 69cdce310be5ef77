import Foundation
import XCTest

/// `--columns` (SPEC §12.3) on the hand-worked tweets of
/// `Tests/Fixtures/filters` (see `FilterTests`), from dumps and through
/// `extract | aggregate`.
///
/// `#stanford` is on tweets 1–8, spelled
///
///     1 #Stanford   2 #STANFORD (own) and #Stanford (its original's)   3 #stanford   4 #Stanford
///     5 #Stanford   6 #STANFORD (its original's only)   7 #Stanford   8 #Stanford
///
/// so `#Stanford` is written by 6 tweets, `#STANFORD` by 2, `#stanford` by 1.
/// Retweets among them: 2 and 6. Authors: bob (1, 3 as BOB, 8 as Bob),
/// Carol, dave, frank, hank, and none for 5: 5 distinct.
/// `@alice`: 1 (Alice), 2 (alice, and Alice of its original), 5 (ALICE);
/// one retweet (2), authors bob and carol.
/// `@bob` is on tweet 2 only, as the retweeted author and a mention, both `Bob`.
final class ColumnsTests: XCTestCase {
    private let dir = FilterTests.dir
    private let all = "term,type,mention,display,count,originals,retweets,authors"

    func testHandWorkedColumns() throws {
        let r = try Smashtag.report(["*", dir, "--columns", all, "--min-count", "2", "-q", "--format", "csv"])
        XCTAssertEqual(r.stdout, """
        term,type,mention,display,count,originals,retweets,authors
        *,hashtag,#stanford,#Stanford,8,6,2,5
        *,hashtag,#one,#one,2,1,1,2
        *,user,@alice,@Alice,3,2,1,2

        """)
    }

    func testJSONCarriesTheTermsTotals() throws {
        let r = try Smashtag.report(["-t", "*", "-t", "@bob", dir, "--columns", "mention,display,authors,retweets,count",
                                     "--min-count", "1", "--top", "1", "-q", "--format", "json"])
        // Nine tweets, three retweets (2, 6, 9), six authors (bob, carol, dave, frank, hank, ivy; 5 has none).
        XCTAssertEqual(r.stdout, ##"[{"term":"*","tweets":9,"authors":6,"retweets":3,"hashtags":[{"mention":"#stanford","display":"#Stanford","authors":5,"retweets":2,"count":8}],"users":[{"mention":"@alice","display":"@Alice","authors":2,"retweets":1,"count":3}]},"##
            + ##"{"term":"@bob","tweets":1,"authors":1,"retweets":1,"hashtags":[{"mention":"#one","display":"#one","authors":1,"retweets":1,"count":1}],"users":[{"mention":"@alice","display":"@Alice","authors":1,"retweets":1,"count":1}]}]"##
            + "\n")
        let nd = try Smashtag.report(["*", dir, "--columns", "count,originals", "--min-count", "3", "-q", "--format", "ndjson"])
        XCTAssertEqual(nd.stdout, ##"{"term":"*","tweets":9,"originals":6,"hashtags":[{"count":8,"originals":6}],"users":[{"count":3,"originals":2}]}"## + "\n")
    }

    /// A tie of spellings goes to the one first in UTF-8 byte order.
    func testDisplayTiesByBytes() throws {
        // With --retweets only: #stanford is on 2 (#STANFORD and #Stanford) and 6 (#STANFORD): #STANFORD 2, #Stanford 1.
        let rt = try Smashtag.report(["#stanford", dir, "--retweets", "only", "--columns", "mention,display,count", "-q"])
        XCTAssertEqual(rt.stdout, "mention,display,count\n#stanford,#STANFORD,2\n")
        // Tweets 1 and 3 of bob: #Stanford once, #stanford once: a tie, "#S" (0x53) before "#s" (0x73).
        let tie = try Smashtag.report(["from:bob", dir, "--until", "2020-03-02T06:00:00Z", "--columns", "mention,display,count",
                                       "--lang", "en,es", "-q"])
        XCTAssertEqual(tie.stdout, "mention,display,count\n#stanford,#Stanford,2\n")
    }

    func testTableShowsTheDisplaySpelling() throws {
        let r = try Smashtag.report(["*", dir, "--columns", "display,count,authors", "-q", "--format", "table", "--min-count", "3"])
        XCTAssertEqual(r.stdout, """
        * · 9 tweets (6 authors)

          Hashtags              count  authors
          #Stanford                 8        5

          Users                 count  authors
          @Alice                    3        2

        """)
    }

    /// Mentions from text: spellings as the text writes them.
    func testTextModeSpellings() throws {
        let r = try Smashtag.report(["*", dir, "--mentions-from", "text", "--columns", "mention,display,count,retweets",
                                     "--min-count", "4", "-q"])
        // Texts: 1 #Stanford, 2 (its original's text) #Stanford, 3 #stanford, 4 #Stanford, 5 #Stanford,
        // 6 #Stanford? no: 6's original text is "#six #Stanford"; 7 #Stanford; 8 #Stanford.
        // Retweets in text mode: 2, 6, 7 (RT @gina:), 9.
        XCTAssertEqual(r.stdout, "mention,display,count,retweets\n#stanford,#Stanford,8,3\n")
    }

    func testDefaultColumnsAreTheReport() throws {
        let plain = try Smashtag.report(["*", dir, "-q", "--min-count", "1"])
        for format in ["csv", "json", "ndjson", "table"] {
            XCTAssertEqual(try Smashtag.report(["*", dir, "-q", "--format", format, "--columns", "term,type,mention,count"]).stdout,
                           try Smashtag.report(["*", dir, "-q", "--format", format]).stdout)
        }
        XCTAssertTrue(plain.stdout.hasPrefix("term,type,mention,count\n"))
    }

    func testExtractVersion2AndAggregate() throws {
        let extract = try Smashtag.run(["extract", "-t", "*", "-t", "#stanford", dir, "--columns", all])
        XCTAssertTrue(extract.stdout.hasPrefix("H\tsmashtag-extract\t2\tcarries=kind,author,spellings\t*\t#stanford\n"), extract.stdout)
        // Tweet 5 has no author; tweet 2's #stanford line carries both spellings.
        XCTAssertTrue(extract.stdout.contains("\to\t-\n"), extract.stdout)
        XCTAssertTrue(extract.stdout.contains("\t#stanford\t#STANFORD\t#Stanford\n"), extract.stdout)
        for columns in [all, "mention,count,authors", "display,type"] {
            let agg = try Smashtag.run(["aggregate", "--columns", columns, "--min-count", "1"], stdin: Data(extract.stdout.utf8))
            XCTAssertEqual(agg.status, 0, agg.stderr)
            XCTAssertEqual(agg.stdout, try Smashtag.report(["-t", "*", "-t", "#stanford", dir, "--columns", columns,
                                                            "--min-count", "1", "-q"]).stdout)
        }
        // Without columns of its own, aggregate reads version 2 as the plain report.
        let plain = try Smashtag.run(["aggregate", "--min-count", "1"], stdin: Data(extract.stdout.utf8))
        XCTAssertEqual(plain.stdout, try Smashtag.report(["-t", "*", "-t", "#stanford", dir, "--min-count", "1", "-q"]).stdout)
        // Version 1 carries no facts: columns that need them are refused, with the fix named.
        let v1 = try Smashtag.run(["extract", "-t", "*", dir])
        XCTAssertTrue(v1.stdout.hasPrefix("H\tsmashtag-extract\t1\t*\n"))
        let refused = try Smashtag.run(["aggregate", "--columns", "mention,authors"], stdin: Data(v1.stdout.utf8))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("format version 1 carries no kinds, authors or spellings"), refused.stderr)
        XCTAssertEqual(try Smashtag.run(["aggregate", "--columns", "count,mention"], stdin: Data(v1.stdout.utf8)).status, 0)
        // The filters belong to extract.
        XCTAssertEqual(try Smashtag.run(["aggregate", "--since", "2020-01-01"], stdin: Data(v1.stdout.utf8)).status, 2)
    }

    /// Counts made elsewhere (the Spark job), version 2: added as they are.
    func testCountsVersion2() throws {
        let lines = "H\tsmashtag-counts\t2\tcarries=retweets,authors,display\t#a\nN\t#a\t5\t2\t4\n"
            + "C\t#a\t#a\t5\t2\t4\t#A\nC\t#a\t@b\t3\t1\t2\t@B\nN\t#a\t1\t1\t1\nC\t#a\t@b\t1\t1\t1\t@B\n"
        let r = try Smashtag.run(["aggregate", "--columns", "mention,display,count,originals,retweets,authors", "--format", "json"],
                                 stdin: Data(lines.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, ##"[{"term":"#a","tweets":6,"originals":3,"retweets":3,"authors":5,"hashtags":[{"mention":"#a","display":"#A","count":5,"originals":3,"retweets":2,"authors":4}],"users":[{"mention":"@b","display":"@B","count":4,"originals":2,"retweets":2,"authors":3}]}]"## + "\n")
        let unlabelled = try Smashtag.run(["aggregate"], stdin: Data("H\tsmashtag-counts\t2\t#a\nN\t#a\t5\t2\t4\n".utf8))
        XCTAssertEqual(unlabelled.status, 1)
        XCTAssertTrue(unlabelled.stderr.contains("carries=retweets,authors,display"), unlabelled.stderr)
    }
}
