import Foundation
import XCTest

/// `-o FILE` and `--stats FILE` end to end: what is at the path stays what it
/// was (mode, links, FIFOs, devices), failures are named with exit 1, and an
/// interrupt leaves the old file whole.
final class ReportOutputTests: XCTestCase {
    private var dir = ""
    private let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-o-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func stat(_ path: String) -> stat {
        var st = Glibc.stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st
    }

    private func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    private func make(_ name: String, _ text: String, mode: mode_t) -> String {
        let path = dir + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    private func bash(_ command: String) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The CSV report on standard output, to compare files with.
    private func csv() throws -> String {
        try Smashtag.report(["-t", "#stanford", "-t", "@nasa", dozen, "--format", "csv", "-q"]).stdout
    }

    func testReportToANewFileEqualsStandardOutput() throws {
        let path = dir + "/report.csv"
        let r = try Smashtag.report(["-t", "#stanford", "-t", "@nasa", dozen, "-o", path, "-q"])
        XCTAssertEqual(r.stdout, "", "the report goes to the file, not to stdout")
        XCTAssertEqual(contents(path), try csv())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["report.csv"])
    }

    func testFormatFollowsTheFileNameUnlessGiven() throws {
        _ = try Smashtag.report(["#stanford", dozen, "-o", dir + "/r.json", "-q"])
        let json = try JSONSerialization.jsonObject(with: Data(contents(dir + "/r.json").utf8)) as? [[String: Any]]
        XCTAssertEqual(json?.first?["tweets"] as? Int, 10)
        _ = try Smashtag.report(["#stanford", dozen, "-o", dir + "/r2.json", "--format", "csv", "-q"])
        XCTAssertTrue(contents(dir + "/r2.json").hasPrefix("term,type,mention,count\n"))
        _ = try Smashtag.report(["#stanford", dozen, "-o", dir + "/r.html", "-q"])
        XCTAssertTrue(contents(dir + "/r.html").hasPrefix("<!DOCTYPE html>"))
        _ = try Smashtag.report(["#stanford", dozen, "-o", dir + "/r.xlsx", "-q"])
        XCTAssertEqual(Array(contents(dir + "/r.xlsx").utf8.prefix(2)), [0x50, 0x4B], "a zip: PK")
    }

    func testStatsAndReportKeepModeSixHundredAndHardAndSymbolicLinks() throws {
        for option in ["-o", "--stats"] {
            let secret = make("secret\(option)", "old", mode: 0o600)
            let linked = make("linked\(option)", "old", mode: 0o644)
            XCTAssertEqual(link(linked, dir + "/other\(option)"), 0)
            let target = make("target\(option)", "old", mode: 0o640)
            XCTAssertEqual(symlink("target\(option)", dir + "/symlink\(option)"), 0)
            for path in [secret, linked, dir + "/symlink\(option)"] {
                _ = try Smashtag.report(["-t", "#stanford", "-t", "@nasa", dozen, option, path, "-q"]
                                        + (option == "-o" ? ["--format", "csv"] : []))
            }
            let expected = option == "-o" ? try csv() : nil
            for path in [secret, linked, dir + "/other\(option)", target] {
                let text = contents(path)
                if let expected {
                    XCTAssertEqual(text, expected, path)
                } else {
                    let s = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                    XCTAssertEqual(s?["matched"] as? [String: Int], ["#stanford": 10, "@nasa": 3], path)
                }
            }
            XCTAssertEqual(stat(secret).st_mode & 0o7777, 0o600, "\(option): mode 600 kept")
            XCTAssertEqual(stat(linked).st_ino, stat(dir + "/other\(option)").st_ino, "\(option): still one file")
            XCTAssertEqual(stat(linked).st_nlink, 2)
            XCTAssertEqual(stat(dir + "/symlink\(option)").st_mode & S_IFMT, S_IFLNK, "\(option): the link stays")
            XCTAssertEqual(stat(target).st_mode & 0o7777, 0o640)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "no temporary file left")
    }

    func testFIFOIsReadByAReader() throws {
        let fifo = dir + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let r = try bash("cat '\(fifo)' > '\(dir)/read' & '\(Smashtag.binary.path)' report -t '#stanford' -t @nasa '\(dozen)' "
                         + "--format csv -q -o '\(fifo)' && wait")
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(contents(dir + "/read"), try csv())
        XCTAssertEqual(stat(fifo).st_mode & S_IFMT, S_IFIFO)
        // A reader that goes away early ends the run quietly, as a closed stdout
        // does (a report of 20,000 hashtags is more than the pipe holds).
        let many = dir + "/many.jsonl"
        try (0..<40_000).map { #"{"id":\#($0 + 1),"text":"t","entities":{"hashtags":[{"text":"t\#($0 % 20_000)"}]}}"# }
            .joined(separator: "\n").write(toFile: many, atomically: false, encoding: .utf8)
        let early = try bash("head -c 5 '\(fifo)' > '\(dir)/five' & '\(Smashtag.binary.path)' report '*' '\(many)' "
                             + "--format csv -q -o '\(fifo)'; s=$?; wait; exit $s")
        XCTAssertEqual(early.status, 0, early.output)
        XCTAssertEqual(early.output, "")
        XCTAssertEqual(contents(dir + "/five"), "term,")
    }

    func testDevNullStaysADevice() throws {
        for option in ["-o", "--stats"] {
            let r = try Smashtag.report(["#stanford", dozen, option, "/dev/null", "-q"])
            XCTAssertEqual(r.status, 0)
            XCTAssertEqual(stat("/dev/null").st_mode & S_IFMT, S_IFCHR, option)
        }
    }

    func testFullDiskIsExitOneNamingTheFile() throws {
        for option in ["-o", "--stats"] {
            let r = try Smashtag.run(["report", "#stanford", dozen, option, "/dev/full", "-q"])
            XCTAssertEqual(r.status, 1, option)
            XCTAssertTrue(r.stderr.contains("cannot write /dev/full: write failed (No space left on device)"), r.stderr)
        }
        // A file past the size limit (bash's ulimit -f counts kibibytes): the old file stays, no temporary file.
        let path = make("report.csv", "old", mode: 0o644)
        let r = try bash("ulimit -f 1; '\(Smashtag.binary.path)' report '*' '\(dozen)' --min-count 1 -q -o '\(path)' --format html")
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("cannot write \(path): write failed (File too large)"), r.output)
        XCTAssertEqual(contents(path), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["report.csv"])
    }

    func testDirectoryAndMissingFolderAreNamed() throws {
        let r = try Smashtag.run(["report", "#stanford", dozen, "-o", dir, "-q"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("cannot write \(dir): it is a directory"), r.stderr)
        let r2 = try Smashtag.run(["report", "#stanford", dozen, "--stats", dir + "/no/such.json", "-q"])
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stderr.contains("--stats: cannot write \(dir)/no/such.json"), r2.stderr)
        XCTAssertFalse(r2.stdout.isEmpty, "the report itself was written")
    }

    func testWorkbookNeedsAFileAndNeverGoesToATerminal() throws {
        let r = try Smashtag.run(["report", "#stanford", dozen, "--format", "xlsx"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("give -o FILE"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        // -o /dev/stdout on a pseudo-terminal is a terminal: refused, nothing written to it.
        let t = try bash("script -qfec \"'\(Smashtag.binary.path)' report '#stanford' '\(dozen)' --format xlsx -o /dev/stdout -q\" /dev/null")
        XCTAssertEqual(t.status, 1, t.output)
        XCTAssertTrue(t.output.contains("cannot write /dev/stdout: it is a terminal"), t.output)
        XCTAssertFalse(t.output.contains("PK"), "no zip bytes on the terminal")
        // In a pipe, -o /dev/stdout writes the workbook into it.
        let p = try bash("'\(Smashtag.binary.path)' report '#stanford' '\(dozen)' --format xlsx -o /dev/stdout -q | head -c 2")
        XCTAssertEqual(p.output, "PK")
        let dash = try bash("'\(Smashtag.binary.path)' report '#stanford' '\(dozen)' --format xlsx -o - -q | head -c 2")
        XCTAssertEqual(dash.output, "PK", "-o - is standard output")
    }

    /// SIGTERM while the workbook is being put together: exit 143, the old
    /// file as it was, no temporary file beside it or in TMPDIR.
    func testSigtermWhileWritingLeavesTheOldFile() throws {
        // 60,000 distinct hashtags twice over: a workbook that takes a while to write.
        let input = dir + "/many.jsonl"
        var lines = ""
        for i in 0..<120_000 {
            lines += #"{"id":\#(i + 1),"text":"t","entities":{"hashtags":[{"text":"tag\#(i % 60_000)"}]}}"# + "\n"
        }
        try lines.write(toFile: input, atomically: false, encoding: .utf8)
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let path = out + "/report.xlsx"
        try "old workbook".write(toFile: path, atomically: false, encoding: .utf8)
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = ["report", "*", input, "-o", path, "-q", "--jobs", "2"]
        p.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { _, new in new }
        let err = Pipe()
        p.standardError = err
        try p.run()
        // Wait for the workbook's temporary file, then interrupt.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? FileManager.default.contentsOfDirectory(atPath: tmp))?.isEmpty ?? true, p.isRunning {
            usleep(2_000)
        }
        XCTAssertTrue(p.isRunning, "still writing when interrupted")
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 143, message)
        XCTAssertTrue(message.contains("interrupted by SIGTERM; no report written"), message)
        XCTAssertEqual(contents(path), "old workbook")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), ["report.xlsx"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
    }

    /// `extract | aggregate -o FILE` writes what `report -o FILE` writes (SPEC §12).
    func testAggregateWritesToAFileAsReportDoes() throws {
        let extract = try Smashtag.run(["extract", "-t", "#stanford", "-t", "@nasa", dozen, "-q"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let path = dir + "/aggregated.csv"
        let r = try Smashtag.run(["aggregate", "-o", path, "-q"], stdin: Data(extract.stdout.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(contents(path), try csv())
        let x = try Smashtag.run(["aggregate", "--format", "xlsx"], stdin: Data(extract.stdout.utf8))
        XCTAssertEqual(x.status, 2, "a workbook needs -o")
    }

    /// A file name holding an escape sequence and a carriage return is shown escaped on stderr.
    func testNamesOnStderrAreShownEscaped() throws {
        let name = dir + "/clear\u{1B}[2J\rmissing.jsonl"
        let r = try Smashtag.run(["report", "#stanford", dozen, name, "-q"])
        XCTAssertFalse(r.stderr.contains("\u{1B}"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\r"), r.stderr)
        XCTAssertTrue(r.stderr.contains("clear\\u001b[2J\\rmissing.jsonl"), r.stderr)
        // A usage error quoting an argument, too.
        let u = try Smashtag.run(["report", "#a\u{1B}[2Jb", dozen])
        XCTAssertEqual(u.status, 2)
        XCTAssertFalse(u.stderr.contains("\u{1B}"), u.stderr)
        XCTAssertTrue(u.stderr.contains("'#a\\u001b[2Jb'"), u.stderr)
    }
}
