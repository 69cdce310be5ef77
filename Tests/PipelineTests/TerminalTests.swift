import Foundation
import XCTest

/// smashtag as a terminal, a pipe and a cron job see it.
final class TerminalTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Runs a shell command line; returns its status and output.
    private func shell(_ command: String, environment: [String: String] = [:]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testHelpTextMatchesTheSavedCopy() throws {
        let snapshots = Smashtag.root.appendingPathComponent("Tests/PipelineTests/Snapshots")
        XCTAssertEqual(try Smashtag.run(["--help"]).stdout, try fixtureText(snapshots.appendingPathComponent("help.txt")))
        XCTAssertEqual(try Smashtag.run(["report", "--help"]).stdout,
                       try fixtureText(snapshots.appendingPathComponent("report-help.txt")))
    }

    func testStatsFileHasTheRunsNumbers() throws {
        let dir = try temporaryFolder()
        let stats = dir.appendingPathComponent("stats.json")
        let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path
        let truncated = DefectTests.defects.appendingPathComponent("truncated_last_line.jsonl").path
        _ = try Smashtag.report(["-t", "#stanford", "-t", "@nasa", dozen, dozen, truncated, "--stats", stats.path])
        let s = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as! [String: Any]
        XCTAssertEqual(s["inputs"] as? Int, 3)
        XCTAssertEqual(s["tweets"] as? Int, 12 + 12 + 3)
        XCTAssertEqual(s["notices_skipped"] as? Int, 2)
        XCTAssertEqual(s["matched"] as? [String: Int], ["#stanford": 10 + 3, "@nasa": 3])
        XCTAssertEqual(s["duplicates_dropped"] as? Int, 10 + 3, "the second dozen.jsonl adds nothing")
        XCTAssertEqual(s["bad_records"] as? Int, 1)
        XCTAssertEqual(s["bad_records_by_reason"] as? [String: Int], ["invalid JSON": 1])
        let bytes = try FileManager.default.attributesOfItem(atPath: dozen)[.size] as! Int
            + (try FileManager.default.attributesOfItem(atPath: truncated)[.size] as! Int) / 2 * 0
        XCTAssertGreaterThan(s["bytes"] as! Int, 2 * bytes)
    }

    /// `| head -1`: exit 0 and nothing on stderr, however big the report.
    func testClosedPipeEndsQuietly() throws {
        let corpus = Smashtag.corpus.path
        let (status, output) = try shell(
            "'\(Smashtag.binary.path)' report '*' '\(corpus)/twarc-csv/flat.jsonl' '\(corpus)/twarc-csv/kpop.jsonl' '\(corpus)/python-twitter' --min-count 1 --jobs 2"
                + " 2>/tmp/smashtag-pipe-err-$$ | head -1; s=${PIPESTATUS[0]}; cat /tmp/smashtag-pipe-err-$$; rm -f /tmp/smashtag-pipe-err-$$; exit $s")
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, "term,type,mention,count\n")
    }

    /// SIGINT while reading a stream that never ends: gone within a second, status 130.
    func testInterruptStopsWithinASecond() throws {
        let dir = try temporaryFolder()
        let fifo = dir.appendingPathComponent("endless").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = ["report", "*", fifo, "--format", "csv"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        // Keep the FIFO open and feeding, as a collector would.
        let writer = FileHandle(forWritingAtPath: fifo)!
        let line = try String(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen.jsonl"), encoding: .utf8)
        writer.write(Data(line.utf8))
        Thread.sleep(forTimeInterval: 0.3)
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        try? writer.close()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertLessThan(took, 1.0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.contains("interrupted by SIGINT"), message)
    }

    /// Under a real pseudo-terminal: a live progress line, erased, then a coloured table.
    func testProgressAndTableOnATerminal() throws {
        let dir = try temporaryFolder()
        let fifo = dir.appendingPathComponent("slow").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path
        // Feed the FIFO slowly so the run lasts long enough for a few redraws.
        let feeder = "(for i in 1 2 3 4 5 6; do cat '\(dozen)'; sleep 0.1; done) > '\(fifo)' &"
        let command = "\(feeder) script -qfec \"'\(Smashtag.binary.path)' report '#stanford' '\(fifo)' --min-count 2\" /dev/null"
        let (status, screen) = try shell(command, environment: ["TERM": "xterm-256color", "NO_COLOR": "", "COLUMNS": "100"])
        XCTAssertEqual(status, 0, screen)
        XCTAssertTrue(screen.contains(" MB/s · "), screen)
        XCTAssertTrue(screen.contains("tweets"), screen)
        XCTAssertTrue(screen.contains("\r\u{1B}[K"), "the progress line is erased")
        XCTAssertTrue(screen.contains("\u{1B}[1m#stanford\u{1B}[0m · 10 tweets"), screen)
        XCTAssertTrue(screen.contains("smashtag: read 1 input"), "summary on a terminal")
        let plain = try shell("script -qfec \"'\(Smashtag.binary.path)' report '#stanford' '\(dozen)'\" /dev/null",
                              environment: ["TERM": "xterm", "NO_COLOR": "1"])
        XCTAssertFalse(plain.1.contains("\u{1B}[1m"), "NO_COLOR turns colour off")
        XCTAssertTrue(plain.1.contains("#stanford · 10 tweets"), plain.1)
        let unknown = try shell("script -qfec \"'\(Smashtag.binary.path)' report '#stanford' '\(dozen)'\" /dev/null",
                                environment: ["TERM": "#stanford"])
        XCTAssertFalse(unknown.1.contains("\u{1B}[1m"), "an unknown terminal type is plain")
    }

    func testLongMentionsAreCutToTheTerminalWidth() throws {
        let long = String(repeating: "x", count: 200)
        let data = Data((1...2).map { #"{"id":\#($0),"text":"t","entities":{"hashtags":[{"text":"\#(long)"}]}}"# }.joined(separator: "\n").utf8)
        let r = try Smashtag.run(["report", "*", "--format", "table"], stdin: data, environment: ["COLUMNS": "60"])
        let row = r.stdout.split(separator: "\n").first { $0.contains("#xxx") }!
        XCTAssertTrue(row.contains("…"), String(row))
        XCTAssertLessThanOrEqual(row.count, 60)
        XCTAssertTrue(row.hasSuffix(" 2"), String(row))
    }
}

/// `make install` / `make uninstall` put and remove the binary, man page and completions.
final class InstallTests: XCTestCase {
    func testInstallAndUninstall() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let config = Smashtag.binary.deletingLastPathComponent().lastPathComponent  // "debug" (or a triple dir)
        func make(_ target: String) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/make")
            p.arguments = ["-s", "-C", Smashtag.root.path, target, "PREFIX=\(prefix.path)", "INSTALL_CONFIG=\(config)"]
            p.standardOutput = Pipe()
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: Smashtag.root.appendingPathComponent(".build/\(config)/smashtag").path))
        XCTAssertEqual(try make("install-files"), 0)
        let files = ["bin/smashtag", "share/man/man1/smashtag.1", "share/bash-completion/completions/smashtag",
                     "share/zsh/site-functions/_smashtag"]
        for f in files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(f).path), f)
        }
        let installed = Process()
        installed.executableURL = prefix.appendingPathComponent("bin/smashtag")
        installed.arguments = ["--version"]
        let out = Pipe()
        installed.standardOutput = out
        try installed.run()
        installed.waitUntilExit()
        XCTAssertTrue(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).hasPrefix("smashtag "))
        XCTAssertEqual(try make("uninstall"), 0)
        for f in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(f).path), f)
        }
    }
}
