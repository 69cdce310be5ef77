import Foundation
import XCTest

/// Mentions from text and CSV input, end to end, against the independent
/// reference (`Tests/Reference/make_text_cases.py` wrote the expectations
/// with reference.py): `--mentions-from text` on every corpus file; the
/// corpus's v2 tweets as twarc-csv exports, which must report what their
/// JSON reports; exports without entity columns; custom columns; bad rows.
final class TextAndCSVTests: XCTestCase {
    struct Case: Decodable {
        var name: String
        var paths: [String]
        var terms: [String]
        var min_count: Int
        var mentions_from: String?
        var options: [String]?
        var expected: String
        var expected_json: String
        var bad_records: Int
    }

    static let reference = Smashtag.root.appendingPathComponent("Tests/Reference")
    static let csv = Smashtag.fixtures.appendingPathComponent("csv")

    /// `corpus/…` in the corpus, anything else in the repository.
    private func resolve(_ path: String) -> String {
        path.hasPrefix("corpus/") ? Smashtag.corpus.appendingPathComponent(String(path.dropFirst(7))).path
            : Smashtag.root.appendingPathComponent(path).path
    }

    func testEveryCaseMatchesTheReference() throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.reference.appendingPathComponent("text_cases.json")))
        XCTAssertGreaterThanOrEqual(cases.count, 27)
        for c in cases {
            var args = c.terms.flatMap { ["-t", $0] } + c.paths.map(resolve) + ["--min-count", String(c.min_count)]
            if let m = c.mentions_from { args += ["--mentions-from", m] }
            args += c.options ?? []
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try Smashtag.report(args + ["--format", format])
                XCTAssertEqual(r.stdout, try fixtureText(Self.reference.appendingPathComponent(expected)), "\(c.name) as \(format)")
                let skipped = r.stderr.range(of: #"skipped (\d+) bad"#, options: .regularExpression)
                    .map { Int(r.stderr[$0].split(separator: " ")[1])! } ?? 0
                XCTAssertEqual(skipped, c.bad_records, "\(c.name): bad records on stderr:\n\(r.stderr)")
            }
        }
    }

    func testBadRowsAreNamedWithTheirLines() throws {
        let path = Self.csv.appendingPathComponent("bad_rows.csv").path
        let r = try Smashtag.report(["*", path, "--format", "json"])
        XCTAssertTrue(r.stdout.hasPrefix(#"[{"term":"*","tweets":2,"#), r.stdout)
        for (line, why) in [(3, "CSV row has 4 fields, the header 3"), (4, "its id is not an unsigned 64-bit"),
                            (5, "the row has no id"), (8, "its id is not"), (9, "CSV row has 2 fields")] {
            XCTAssertTrue(r.stderr.contains("line \(line): \(why)") || r.stderr.contains("line \(line): not a tweet: \(why)"),
                          "line \(line): \(r.stderr)")
        }
        let strict = try Smashtag.run(["report", "*", path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("line 3"), strict.stderr)
    }

    /// A CSV export read from standard input, compressed or not, or from an
    /// archive's members, is recognised by its content.
    func testCSVIsRecognisedByContentAnywhere() throws {
        let twarc = try Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen-twarc.csv"))
        let expected = try fixtureText(ShapesTests.dozen.appendingPathComponent("expected-stanford.csv"))
        let plain = try Smashtag.report(["#stanford", "--format", "csv", "--min-count", "1"], stdin: twarc)
        XCTAssertEqual(plain.stdout, expected)
        let zip = try Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen-csv.zip"))
        XCTAssertEqual(try Smashtag.report(["#stanford", "--format", "csv", "--min-count", "1"], stdin: zip).stdout, expected)
    }

    /// Text mode reads every tweet's text: the dozen in JSON under text mode
    /// equals the dozen's entities (their texts hold exactly their entities).
    func testTextModeOnTheDozenEqualsTheEntities() throws {
        for shape in ["dozen.jsonl", "dozen-v2-page.json", "dozen-v2-flat.jsonl", "dozen-search.json", "dozen-twarc.csv"] {
            let path = ShapesTests.dozen.appendingPathComponent(shape).path
            let r = try Smashtag.report(["*", path, "--format", "csv", "--min-count", "1", "--mentions-from", "text"])
            XCTAssertEqual(r.stdout, try fixtureText(ShapesTests.dozen.appendingPathComponent("expected-all.csv")), shape)
        }
    }

    /// Byte ranges are cut for big JSON-lines files only; a CSV is read whole,
    /// so every --jobs gives the same report.
    func testJobsGiveTheSameReportOnCSV() throws {
        let paths = ["brexit", "flat", "kpop"].map { Self.csv.appendingPathComponent("corpus/\($0).csv").path }
        var outputs: [String] = []
        for jobs in ["1", "3"] {
            let r = try Smashtag.run(["report", "*"] + paths + ["--jobs", jobs, "--format", "csv"],
                                     environment: ["SMASHTAG_SPLIT_BYTES": "4096"])
            XCTAssertEqual(r.status, 0)
            XCTAssertFalse(r.stderr.contains(" bad "), r.stderr)
            outputs.append(r.stdout)
        }
        XCTAssertEqual(outputs[0], outputs[1])
    }

    /// A CSV whose columns are not found is one bad input that says what to
    /// do, not a bad record per line; named, its columns are read.
    func testACSVWithoutTheColumnsIsOneProblemThatSaysWhatToDo() throws {
        let data = Data("Tweet Number,Body,Handle\n1,#a @b,c\n2,#a,d\n".utf8)
        let r = try Smashtag.run(["report", "*", "--format", "csv", "--min-count", "1"], stdin: data)
        XCTAssertEqual(r.status, 1, "nothing at all could be read")
        XCTAssertEqual(r.stdout, "term,type,mention,count\n")
        XCTAssertTrue(r.stderr.contains("1 skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("name them with --id-column and --text-column"), r.stderr)
        let named = try Smashtag.report(["*", "--format", "csv", "--min-count", "1", "--id-column", "tweet number",
                                         "--text-column", "Body", "--author-column", "handle"], stdin: data)
        XCTAssertEqual(named.stdout, "term,type,mention,count\n*,hashtag,#a,2\n*,user,@b,1\n")
    }

    func testOptionsAndTheirErrors() throws {
        let dozen = CommandLineTests.dozen
        for (args, message) in [(["--mentions-from", "html"], "--mentions-from must be entities or text"),
                                (["--text-column", " "], "--text-column needs a column name"),
                                (["--mentions-frm", "text"], "did you mean --mentions-from")] {
            let r = try Smashtag.run(["report", "*", dozen] + args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        let help = try Smashtag.run(["report", "--help"]).stdout
        for option in ["--mentions-from SOURCE", "--text-column NAME", "--id-column NAME", "--author-column NAME"] {
            XCTAssertTrue(help.contains(option), option)
        }
    }
}
