import Foundation
import XCTest

/// `smashtag extract … | smashtag aggregate` is `smashtag report …`, also
/// over inputs extracted apart and concatenated in any order.
final class ExtractTests: XCTestCase {
    private let corpus = Smashtag.corpus
    private lazy var halves = [
        ["twarc-csv/flat.jsonl", "twarc-csv/brexit.jsonl", "python-twitter/streaming/lines.json"],
        ["twarc-csv/kpop.jsonl", "twarc-csv/streaming_output_with_error.jsonl", "sferik-twitter/premium_search_next.json",
         "darkliquid-twoo/tweets.js", "python-twitter/get_search_raw.json"],
    ].map { $0.map { corpus.appendingPathComponent($0).path } }
    private let terms = ["-t", "*", "-t", "#Brexit", "-t", "obama", "-t", "from:jack", "-t", "@BTS_twt", "-t", "#nowhere"]

    private func aggregate(_ lines: String, _ options: [String]) throws -> Smashtag.Result {
        try Smashtag.run(["aggregate"] + options, stdin: Data(lines.utf8))
    }

    func testExtractThenAggregateIsReport() throws {
        for options in [["--format", "csv", "--min-count", "1"], ["--format", "json"], ["--format", "ndjson", "--top", "3"]] {
            let report = try Smashtag.report(terms + halves[0] + halves[1] + options)
            let extract = try Smashtag.run(["extract"] + terms + halves[0] + halves[1])
            XCTAssertEqual(extract.status, 0, extract.stderr)
            let r = try aggregate(extract.stdout, options)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, report.stdout, "\(options)")
        }
    }

    func testHalvesExtractedApartInEitherOrder() throws {
        let options = ["--format", "csv", "--min-count", "1"]
        let report = try Smashtag.report(terms + halves[0] + halves[1] + options)
        let a = try Smashtag.run(["extract"] + terms + halves[0]).stdout
        let b = try Smashtag.run(["extract"] + terms + halves[1] + ["--jobs", "1"]).stdout
        XCTAssertEqual(try aggregate(a + b, options).stdout, report.stdout)
        XCTAssertEqual(try aggregate(b + a, options).stdout, report.stdout)
        // A tweet in both halves (the same file twice) still counts once.
        XCTAssertEqual(try aggregate(a + b + a, options).stdout, report.stdout)
    }

    func testPathsFromStandardInput() throws {
        let listed = try Smashtag.run(["extract"] + terms + ["--paths-from-stdin"],
                                      stdin: Data((halves[0] + halves[1]).joined(separator: "\n").utf8))
        let named = try Smashtag.run(["extract"] + terms + halves[0] + halves[1])
        XCTAssertEqual(listed.stdout, named.stdout)
    }

    /// `--list-inputs` is the walk a run makes: handing the list back through
    /// `--paths-from-stdin` reads the same tweets in the same order.
    func testListedInputsReadAsTheFoldersDo() throws {
        let folders = [Smashtag.root.appendingPathComponent("samples").path, corpus.path]
        let listed = try Smashtag.run(["extract", "--list-inputs"] + folders)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let paths = listed.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(paths.contains { $0.hasSuffix("samples/archive-stream.tar") }, "a tar read member by member is listed once")
        XCTAssertFalse(paths.contains { $0.hasSuffix("README.md") || $0.hasSuffix(".py") }, "not tweet data")
        let inCorpus = paths.filter { $0.hasPrefix(corpus.path) }
        XCTAssertEqual(inCorpus, inCorpus.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "byte order of names")
        XCTAssertEqual(paths.suffix(inCorpus.count), inCorpus[...], "folders in command-line order")
        let fromList = try Smashtag.run(["extract"] + terms + ["--paths-from-stdin"], stdin: Data(listed.stdout.utf8))
        XCTAssertEqual(fromList.stdout, try Smashtag.run(["extract"] + terms + folders).stdout)
        let missing = try Smashtag.run(["extract", "--list-inputs", "/nonexistent"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent"), missing.stderr)
    }

    /// Counts made elsewhere (the Spark job) are formatted as a report of the
    /// same counts, added without dedup.
    func testCountsAreAddedAsTheyAre() throws {
        let counts = "H\tsmashtag-counts\t1\t#a\tb\nN\t#a\t3\nC\t#a\t#a\t3\nC\t#a\t@x\t2\nC\t#a\t#c,d\t2\nN\tb\t0\n"
        let r = try aggregate(counts, ["--format", "csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n#a,hashtag,#a,3\n#a,hashtag,\"#c,d\",2\n#a,user,@x,2\n")
        // With tweet lines of other tweets, both add up.
        let more = try aggregate(counts + "H\tsmashtag-extract\t1\t#a\tb\nM\t#a\t9\t@x\n", ["--format", "json", "--top", "1"])
        XCTAssertEqual(more.stdout, ##"[{"term":"#a","tweets":4,"hashtags":[{"mention":"#a","count":3}],"users":[{"mention":"@x","count":3}]},{"term":"b","tweets":0,"hashtags":[],"users":[]}]"## + "\n")
        let bad = try aggregate("H\tsmashtag-counts\t1\t#a\nN\t#a\tmany\nC\t#a\tx\t1\n", ["--strict"])
        XCTAssertEqual(bad.status, 1, "a count that is not a number, a mention without a sign")
    }

    func testFormatEscapesAndTweetsWithoutMentions() throws {
        let data = Data("""
            {"id_str":"1","text":"a","entities":{"hashtags":[{"text":"tab\\there"},{"text":"back\\\\slash"}]}}
            {"id_str":"2","text":"no mentions"}
            """.utf8)
        let extract = try Smashtag.run(["extract", "*"], stdin: data)
        XCTAssertEqual(extract.stdout, "H\tsmashtag-extract\t1\t*\nM\t*\t1\t#tab\\there\nM\t*\t1\t#back\\\\slash\nT\t*\t2\n")
        let report = try Smashtag.report(["*", "--format", "json", "--min-count", "1"], stdin: data)
        XCTAssertEqual(try aggregate(extract.stdout, ["--format", "json", "--min-count", "1"]).stdout, report.stdout)
    }

    /// Two copies of a tweet with different mentions, read one after the
    /// other: the first counts, in a report and through extract lines alike
    /// (they used to be read back as one tweet with the union of mentions).
    func testAdjacentCopiesKeepTheFirstNotTheUnion() throws {
        let first = #"{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"}]}}"#
        let second = #"{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"},{"text":"y"}]}}"#
        let options = ["--format", "csv", "--min-count", "1"]
        let both = Data((first + "\n" + second + "\n").utf8)
        let report = try Smashtag.report(["*"] + options, stdin: both)
        XCTAssertEqual(report.stdout, "term,type,mention,count\n*,hashtag,#x,1\n")
        let extract = try Smashtag.run(["extract", "*"], stdin: both)
        XCTAssertEqual(extract.stdout, "H\tsmashtag-extract\t1\t*\nM\t*\t5\t#x\n")
        XCTAssertEqual(try aggregate(extract.stdout, options).stdout, report.stdout)
        // Extracted apart and concatenated: the header between them ends the first copy.
        let a = try Smashtag.run(["extract", "*"], stdin: Data((first + "\n").utf8)).stdout
        let b = try Smashtag.run(["extract", "*"], stdin: Data((second + "\n").utf8)).stdout
        XCTAssertEqual(try aggregate(a + b, options).stdout, report.stdout)
    }

    func testBadLinesAreNamedAndNoHeaderIsAnError() throws {
        let lines = "H\tsmashtag-extract\t1\t#a\nM\t#a\t5\t#a\nM\t#b\t6\t#a\nX\tjunk\nM\t#a\tnotanid\t#a\nT\t#a\t7\n"
        let r = try aggregate(lines, ["--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n#a,hashtag,#a,1\n")
        XCTAssertTrue(r.stderr.contains("line 3: not an extract line: a term that is not in the header"), r.stderr)
        XCTAssertTrue(r.stderr.contains("line 4:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("line 5:"), r.stderr)
        XCTAssertEqual(try aggregate(lines, ["--strict"]).status, 1)
        let none = try aggregate("", [])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no extract header"), none.stderr)
        XCTAssertEqual(try aggregate("H\tsmashtag-extract\t2\t#a\n", []).status, 1, "a newer format version is refused")
    }

    /// Bad lines past the problem ledger's limit (the first 1,000 keep their
    /// lines) are counted all the same, and said to be: memory stays bounded
    /// however much of an extract is bad.
    func testBadLinesPastTheLedgersLimitAreCountedNotKept() throws {
        let bad = String(repeating: "X\tjunk\n", count: 1500)
        let r = try aggregate("H\tsmashtag-extract\t1\t#a\nM\t#a\t5\t#a\n" + bad, ["--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n#a,hashtag,#a,1\n")
        XCTAssertTrue(r.stderr.contains("skipped 1500 bad records:\n  <stdin>: 1500 skipped\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("line 3: not an extract line"), r.stderr)
        XCTAssertTrue(r.stderr.contains("… and 1495 more, counted but not kept"), r.stderr)
    }

    /// Extract lines of word terms only (`H smashtag-extract 1 obama`) look
    /// like CSV column names; aggregate reads them as extract lines all the same.
    func testWordTermsOnlyGoThroughAggregate() throws {
        let input = Smashtag.corpus.appendingPathComponent("twarc-csv/flat.jsonl").path
        for terms in [["obama"], ["obama", "the"]] {
            let args = terms.flatMap { ["-t", $0] }
            let lines = try Smashtag.run(["extract"] + args + [input, "-q"])
            XCTAssertTrue(lines.stdout.hasPrefix("H\tsmashtag-extract\t1\t" + terms.joined(separator: "\t") + "\n"), lines.stdout)
            let r = try Smashtag.run(["aggregate", "--min-count", "1", "--format", "csv"], stdin: Data(lines.stdout.utf8))
            XCTAssertEqual(r.status, 0, r.stderr)
            let expected = try Smashtag.report(args + [input, "--min-count", "1", "--format", "csv", "-q"]).stdout
            XCTAssertEqual(r.stdout, expected)
            XCTAssertGreaterThan(expected.split(separator: "\n").count, 1, "the words match something")
        }
    }
}
