import Foundation
import XCTest

/// What a new user trips on: a missing term, a silent wait for standard
/// input, a pipe the store ignores, terms that can never match, option
/// forms, help and messages that say what to do.
final class NewUserTests: XCTestCase {
    static let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path

    private func shell(_ command: String) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    // MARK: Terms and paths

    /// `smashtag report samples/`: the folder is no term; exit 2 at once,
    /// without waiting on standard input.
    func testAPathAloneSaysATermIsMissing() throws {
        let samples = Smashtag.root.appendingPathComponent("samples").path + "/"
        for command in ["report", "extract"] {
            let r = try Smashtag.run([command, samples])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("'\(samples)' is a path, and a term is missing"), r.stderr)
            XCTAssertEqual(r.stdout, "")
        }
        // A term and a path are fine; so is a word term that is a file's name, given with -t.
        XCTAssertTrue(try Smashtag.report(["#stanford", samples, "-q"]).stdout.hasPrefix("term,type,mention,count\n#stanford,"))
        XCTAssertEqual(try Smashtag.report(["-t", samples.dropLast().description, Self.dozen, "-q"]).stdout,
                       "term,type,mention,count\n")
    }

    /// On a terminal, reading standard input is said (a run would seem to hang).
    func testReadingATerminalSaysSo() throws {
        let r = try shell("printf '' | script -qfec \"'\(Smashtag.binary.path)' report '#stanford' --format csv\" /dev/null < /dev/null & "
                          + "pid=$!; sleep 2; kill $pid 2>/dev/null; wait $pid 2>/dev/null; true")
        XCTAssertTrue(r.output.contains("reading standard input (Ctrl-D ends)"), r.output)
        // Not when standard input is a pipe or a file.
        let piped = try Smashtag.run(["report", "#stanford", "--format", "csv"], stdin: Data())
        XCTAssertFalse(piped.stderr.contains("Ctrl-D"), piped.stderr)
    }

    /// `zcat day.gz | smashtag report TERM` with SMASHTAG_STORE set answers
    /// from the store, and says that the pipe is not read.
    func testAPipeIntoAStoreReportIsNamedOnStderr() throws {
        let dir = try temporaryFolder()
        let store = dir.appendingPathComponent("s.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", Self.dozen, "--store", store, "-q"]).status, 0)
        let fromStore = try Smashtag.run(["report", "#stanford", "--store", store, "-q"]).stdout
        let piped = try Smashtag.run(["report", "#stanford", "-q"], stdin: Data("{}\n".utf8),
                                     environment: ["SMASHTAG_STORE": store])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, fromStore)
        XCTAssertTrue(piped.stderr.contains("standard input is not read: give - as a path"), piped.stderr)
        // With - the pipe is read, statelessly.
        let dash = try Smashtag.run(["report", "#stanford", "-", "-q"], stdin: try Data(contentsOf: URL(fileURLWithPath: Self.dozen)),
                                    environment: ["SMASHTAG_STORE": store])
        XCTAssertEqual(dash.stdout, try Smashtag.report(["#stanford", Self.dozen, "-q"]).stdout)
    }

    /// `from:@name` is `from:name`; a hashtag or name term holding what no
    /// hashtag or screen name can hold is a usage error naming it.
    func testTermsThatCouldNeverMatchAreUsageErrors() throws {
        let plain = try Smashtag.report(["from:cafe_lover", Self.dozen, "--min-count", "1", "-q"]).stdout
        XCTAssertTrue(plain.contains("from:cafe_lover,"), plain)
        XCTAssertEqual(try Smashtag.report(["from:@Cafe_Lover", Self.dozen, "--min-count", "1", "-q"]).stdout, plain)
        for (term, bad) in [("#tag!", "!"), ("#a-b", "-"), ("@na.sa", "."), ("from:jo-hn", "-")] {
            let r = try Smashtag.run(["report", term, Self.dozen])
            XCTAssertEqual(r.status, 2, "\(term): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("invalid term '\(term)'") && r.stderr.contains("'\(bad)'"), r.stderr)
        }
        // Hashtags of any script, and the joiners twitter-text allows, are fine.
        for term in ["#россия", "#日本・東京", "#tag_2"] {
            XCTAssertEqual(try Smashtag.run(["report", term, Self.dozen, "-q"]).status, 0, term)
        }
    }

    // MARK: Options

    /// `--opt value`, `--opt=value`, `-j2`; a flag given a value is an
    /// error; hints name only close options.
    func testTheUsualOptionForms() throws {
        let expected = try Smashtag.report(["#stanford", Self.dozen, "--jobs", "2", "-q", "--progress=off"]).stdout
        XCTAssertEqual(try Smashtag.report(["#stanford", Self.dozen, "-j2", "-q", "--progress", "off"]).stdout, expected)
        XCTAssertEqual(try Smashtag.report(["-t#stanford", Self.dozen, "--jobs=2", "--quiet"]).stdout, expected)
        let flag = try Smashtag.run(["report", "#stanford", Self.dozen, "-q2"])
        XCTAssertEqual(flag.status, 2)
        XCTAssertTrue(flag.stderr.contains("-q takes no value, not '2'"), flag.stderr)
        let hints: [(String, String?)] = [("--bogus", nil), ("--jbos", "--jobs"), ("--formt", "--format"),
                                          ("--min", "--min-count"), ("--xyzzy", nil), ("--stirct", "--strict")]
        for (typed, hint) in hints {
            let r = try Smashtag.run(["report", "#stanford", Self.dozen, typed, "1"])
            XCTAssertEqual(r.status, 2)
            if let hint {
                XCTAssertTrue(r.stderr.contains("unknown option '\(typed)' (did you mean \(hint)?)"), r.stderr)
            } else {
                XCTAssertTrue(r.stderr.contains("unknown option '\(typed)'\n"), r.stderr)
            }
        }
    }

    // MARK: Help and messages

    /// Help is plain text: no control characters but line ends; report's
    /// help lists every exit status it can give.
    func testHelpHoldsNoControlCharactersAndEveryExitStatus() throws {
        for command in [["--help"], ["report", "--help"], ["extract", "--help"], ["aggregate", "--help"],
                        ["ingest", "--help"], ["history", "--help"], ["export", "--help"], ["prune", "--help"]] {
            let r = try Smashtag.run(command)
            XCTAssertEqual(r.status, 0, command.joined(separator: " "))
            let controls = r.stdout.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" }
            XCTAssertEqual(controls.map { $0.value }, [], "\(command.joined(separator: " ")) prints control characters")
        }
        let extract = try Smashtag.run(["extract", "--help"]).stdout
        XCTAssertTrue(extract.contains(#"are written \\, \t, \r, \n."#), extract)
        let report = try Smashtag.run(["report", "--help"]).stdout
        for status in ["0  done", "1  bad input", "2  usage error", "3  with --store", "130, 143"] {
            XCTAssertTrue(report.contains(status), "report --help lacks exit status \(status)")
        }
    }

    /// A file that is not a store says so in words, not in SQL.
    func testAFileThatIsNotAStoreSaysWhatItIs() throws {
        let dir = try temporaryFolder()
        let notAStore = dir.appendingPathComponent("notes.db")
        try Data("these are my notes, not a database\n".utf8).write(to: notAStore)
        let r = try Smashtag.run(["report", "*", "--store", notAStore.path])
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stderr.contains("is not a smashtag store"), r.stderr)
        XCTAssertFalse(r.stderr.contains("PRAGMA"), r.stderr)
        XCTAssertEqual(try String(contentsOf: notAStore, encoding: .utf8), "these are my notes, not a database\n")
    }

    /// A 7z from a pipe cannot be read (its index is at its end): said as
    /// that, not as damage; the same archive by path is read.
    func testA7zFromAPipeSaysToGiveItsPath() throws {
        let dir = try temporaryFolder()
        let archive = dir.appendingPathComponent("d.7z").path
        let made = try shell("7z a -bd -bso0 -bsp0 '\(archive)' '\(Self.dozen)'")
        XCTAssertEqual(made.status, 0, made.output)
        let byPath = try Smashtag.report(["#stanford", archive, "-q"]).stdout
        XCTAssertEqual(byPath, try Smashtag.report(["#stanford", Self.dozen, "-q"]).stdout)
        let piped = try Smashtag.run(["report", "#stanford", "-q"], stdin: try Data(contentsOf: URL(fileURLWithPath: archive)))
        XCTAssertTrue(piped.stderr.contains("a 7z archive cannot be read from a pipe"), piped.stderr)
        XCTAssertFalse(piped.stderr.contains("corrupt"), piped.stderr)
    }

    /// The summary counts in words that agree with their numbers, and says
    /// its bytes are those of the files as stored.
    func testTheSummarySpeaksPlainly() throws {
        let one = try temporaryFolder().appendingPathComponent("one.jsonl")
        try Data(#"{"id_str":"1","text":"hi #a","user":{"screen_name":"x"},"entities":{"hashtags":[{"text":"a"}],"user_mentions":[]}}"#.utf8 + [0x0A])
            .write(to: one)
        let r = try Smashtag.run(["report", "*", one.path, "--progress=plain", "--min-count", "1"])
        XCTAssertTrue(r.stderr.contains("read 1 input ("), r.stderr)
        XCTAssertTrue(r.stderr.contains(" as stored), 1 tweet "), r.stderr)
        let bad = try Smashtag.run(["report", "*", one.path, "/nonexistent/x.jsonl", "-q"])
        XCTAssertTrue(bad.stderr.contains("skipped 1 bad input:"), bad.stderr)
        XCTAssertFalse(bad.stderr.contains("or inputs"), bad.stderr)
    }

    /// `prune --older-than 2020-02-30` is no date (it is not 1 March); a
    /// leap day is one. A term of bytes that are not UTF-8 is a usage error.
    func testDatesThatDoNotExistAndTermsThatAreNotTextAreUsageErrors() throws {
        let dir = try temporaryFolder()
        let store = dir.appendingPathComponent("s.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", Self.dozen, "--store", store, "-q"]).status, 0)
        for day in ["2020-02-30", "2021-02-29", "2020-04-31", "2020-13-01"] {
            let r = try Smashtag.run(["prune", "--older-than", day, "--store", store])
            XCTAssertEqual(r.status, 2, day)
            XCTAssertTrue(r.stderr.contains("not '\(day)'"), r.stderr)
        }
        XCTAssertEqual(try Smashtag.run(["prune", "--older-than", "2020-02-29", "--store", store, "-q"]).status, 0)
        let bad = try shell("'\(Smashtag.binary.path)' report \"$(printf '#ab\\377')\" '\(Self.dozen)'")
        XCTAssertEqual(bad.status, 2, bad.output)
        XCTAssertTrue(bad.output.contains("a term must be valid UTF-8"), bad.output)
    }
}
