import Foundation
import XCTest

/// What every command that reads inputs shares (`InputRun`): `--strict`
/// ends each of them with the same lines in the same order, and each one's
/// "did you mean" knows every option of the groups it takes.
final class CommandSetupTests: StoreTestCase {
    /// A good tweet, then bad JSON on line 2, then a tweet that would match.
    private func badInput() throws -> String {
        let file = path("bad.jsonl")
        let lines = #"{"id_str":"1","text":"x","entities":{"hashtags":[{"text":"a"}]}}"# + "\n{bad\n"
            + #"{"id_str":"2","text":"x","entities":{"hashtags":[{"text":"a"},{"text":"b"}]}}"# + "\n"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Report, pairs, extract and ingest stop at line 2 with exit status 1
    /// and say the same two lines, nothing else (ingest adds what it keeps);
    /// `aggregate` says the same of a bad extract line.
    func testStrictStopsEveryCommandWithTheSameLines() throws {
        let file = try badInput()
        let named = "smashtag: \(file), line 2: invalid JSON: unexpected 'b' at byte 2\n"
        let stop = "smashtag: stopped: --strict stops at the first bad input (leave it off to skip and count bad input)"
        for command in ["report", "pairs", "extract"] {
            let r = try smashtag([command, "#a", file, "--strict"], status: 1)
            XCTAssertEqual(r.stderr, named + stop + "\n", command)
            XCTAssertEqual(r.stdout, "", "\(command): no output after bad input under --strict")
        }
        let ingest = try smashtag(["ingest", file, "--store", path("s.db"), "--strict"], status: 1)
        XCTAssertEqual(ingest.stderr, named + stop + "; the batches committed before it are kept\n")
        let lines = try smashtag(["extract", "#a", file, "-q"]).stdout
        let extract = path("x.tsv")
        try Data((lines + "Q\tnot a line\n").utf8).write(to: URL(fileURLWithPath: extract))
        let lineNumber = lines.split(separator: "\n").count + 1
        for args in [["aggregate", extract, "--strict"], ["aggregate", "--pairs", extract, "--strict"]] {
            let r = try smashtag(args, status: 1)
            XCTAssertEqual(r.stderr, "smashtag: \(extract), line \(lineNumber): not an extract line: it starts with neither "
                           + "H, M, T, N, C, P, A, S, J, X nor R\n" + stop + "\n", "\(args)")
        }
        // Without --strict, the same input is read past the bad line.
        XCTAssertEqual(try smashtag(["pairs", "#a", file, "--format", "csv", "--min-count", "1", "-q"]).stdout,
                       "term,source,target,weight\n#a,#a,#b,1\n")
    }

    /// An extract header of more terms than a run takes (64: a part marks
    /// a tweet's terms as the bits of one word) is named and its lines are
    /// passed over, never counted under the wrong term or silently lost.
    func testAnExtractHeaderOfMoreThanSixtyFourTermsIsRefused() throws {
        let terms = (0..<65).map { "#t\($0)" }
        let lines = "H\tsmashtag-extract\t1\t" + terms.joined(separator: "\t") + "\nM\t#t64\t1\t#t64\n"
        let file = path("wide.tsv")
        try Data(lines.utf8).write(to: URL(fileURLWithPath: file))
        let r = try smashtag(["aggregate", file, "--min-count", "1", "--format", "csv"], status: 1)
        XCTAssertTrue(r.stderr.contains("\(file): 1 skipped\n    line 1: not an extract line: a header of 65 terms; "
                                        + "a run takes at most 64"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        // 64 terms are read, the 64th counted.
        let ok = "H\tsmashtag-extract\t1\t" + terms.prefix(64).joined(separator: "\t") + "\nM\t#t63\t1\t#t63\n"
        try Data(ok.utf8).write(to: URL(fileURLWithPath: file))
        let counted = try smashtag(["aggregate", file, "--min-count", "1", "--format", "csv"])
        XCTAssertTrue(counted.stdout.hasSuffix("#t63,hashtag,#t63,1\n"), counted.stdout)
    }

    /// Each command's "did you mean" is built from the names of the option
    /// groups it takes: the input options (`--deleted`, `--no-input-limits`)
    /// for every reading command, `-o` for pairs.
    func testDidYouMeanKnowsEveryOptionOfTheGroups() throws {
        let cases: [([String], String)] = [
            (["report", "#a", "--no-input-limit"], "--no-input-limits"),
            (["report", "#a", "--delete", "skip"], "--deleted"),
            (["pairs", "#a", "--no-input-limit"], "--no-input-limits"),
            (["pairs", "#a", "--delete", "skip"], "--deleted"),
            (["pairs", "#a", "--outpt", "x"], "--output"),
            (["pairs", "#a", "--max-pair-mention", "3"], "--max-pair-mentions"),
            (["extract", "#a", "--no-input-limit"], "--no-input-limits"),
            (["ingest", "x", "--delete", "skip"], "--deleted"),
            (["aggregate", "--max-pair-mention", "3"], "--max-pair-mentions"),
        ]
        for (args, suggestion) in cases {
            let r = try smashtag(args, status: 2)
            XCTAssertTrue(r.stderr.contains("unknown option '\(args.first { $0.hasPrefix("--") }!)' (did you mean \(suggestion)?)"),
                          "\(args): \(r.stderr)")
        }
    }
}
