import Foundation
import XCTest

/// Inputs made to hurt: each ends in the good input's exact report, within
/// bounds of time and memory that a quadratic or unbounded path would break.
final class HostileInputTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Runs smashtag, killing it after `limit` seconds; fails the test then.
    private func bounded(_ args: [String], limit: Double, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        XCTAssertEqual(p.terminationReason, .exit, "smashtag \(args.prefix(3).joined(separator: " ")) ran past \(limit) s", file: file, line: line)
        XCTAssertEqual(p.terminationStatus, 0, file: file, line: line)
        return String(decoding: data, as: UTF8.self)
    }

    /// Two tweet lines: tweet 1 (by `authors.0`) with hashtags `prefix`0 …
    /// `prefix`(n-1) and then `then`, tweet 2 (by `authors.1`) with `other`.
    static func manyTags(_ n: Int, prefix: String, then: String, other: String, authors: (String, String)) -> Data {
        var tags = (0..<n).map { #"{"text":"\#(prefix)\#($0)"}"# }
        tags.append(#"{"text":"\#(then)"}"#)
        let text = #"{"id_str":"1","text":"x","user":{"screen_name":"\#(authors.0)"},"entities":{"hashtags":["#
            + tags.joined(separator: ",") + #"],"user_mentions":[]}}"# + "\n"
            + #"{"id_str":"2","text":"x","user":{"screen_name":"\#(authors.1)"},"entities":{"hashtags":[{"text":"\#(other)"}],"user_mentions":[]}}"#
            + "\n"
        return Data(text.utf8)
    }

    /// One tweet with 300,000 distinct hashtags (and one repeated), from
    /// entities and from text: each counts once, and the cost grows with
    /// their number, not its square (which took minutes).
    func testOneTweetWithManyDistinctMentionsIsLinear() throws {
        let dir = try temporaryFolder()
        let n = 300_000
        let entityFile = dir.appendingPathComponent("entities.jsonl")
        try Self.manyTags(n, prefix: "h", then: "H0", other: "h5", authors: ("a", "a")).write(to: entityFile)
        let fromEntities = try bounded(["report", "*", entityFile.path, "--min-count", "1", "--top", "3", "--format", "csv", "-q"], limit: 90)
        XCTAssertEqual(fromEntities, "term,type,mention,count\n*,hashtag,#h5,2\n*,hashtag,#h0,1\n*,hashtag,#h1,1\n")

        let text = (0..<n).map { "#t\($0)" }.joined(separator: " ") + " #T1"
        let textFile = dir.appendingPathComponent("text.jsonl")
        try Data((#"{"id_str":"3","text":""# + text + #"","user":{"screen_name":"b"}}"# + "\n").utf8).write(to: textFile)
        let fromText = try bounded(["report", "*", textFile.path, "--mentions-from", "text", "--min-count", "1",
                                    "--format", "csv", "-q"], limit: 90)
        let rows = fromText.split(separator: "\n").dropFirst()
        XCTAssertEqual(Array(rows.prefix(3)), ["*,hashtag,#t0,1", "*,hashtag,#t1,1", "*,hashtag,#t10,1"])
        // Every one of them is a row: 300,000 hashtags, no more (#T1 is #t1).
        XCTAssertEqual(rows.count, n)
    }

    /// One tweet of 50,000 distinct hashtags, on the paths that pair each
    /// mention with something of the tweet's: the display spelling (report
    /// and `aggregate --columns`), the store's links (ingest, then a report
    /// from the store), and `pairs` (SPEC §12.5's bound). Each gives the
    /// exact rows and stays linear in the mentions: the store's links took
    /// 48 s at 20,000 hashtags, the display 15 s, `aggregate --pairs` 10 s.
    func testOneTweetWithManyMentionsIsLinearOnEveryPath() throws {
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("many.jsonl")
        try Self.manyTags(50_000, prefix: "H", then: "h0", other: "h7", authors: ("a", "b")).write(to: file)
        let columns = ["--columns", "term,type,mention,display,count,authors", "--min-count", "1", "--top", "3", "--format", "csv", "-q"]
        // #h7: two tweets, spelt H7 and h7 (a tie, so the smaller bytes: H7); #h0 spelt H0 and h0 in one tweet.
        let expected = "term,type,mention,display,count,authors\n*,hashtag,#h7,#H7,2,2\n*,hashtag,#h0,#H0,1,1\n*,hashtag,#h1,#H1,1,1\n"
        XCTAssertEqual(try bounded(["report", "*", file.path] + columns, limit: 60), expected)
        let store = dir.appendingPathComponent("many.db").path
        _ = try bounded(["ingest", file.path, "--store", store, "-q"], limit: 60)
        XCTAssertEqual(try bounded(["report", "*", "--store", store] + columns, limit: 60), expected)
        let extract = dir.appendingPathComponent("many.tsv")
        let lines2 = try bounded(["extract", "*", file.path, "--columns", "term,type,mention,display,count,authors", "-q"], limit: 60)
        try Data(lines2.utf8).write(to: extract)
        XCTAssertEqual(try bounded(["aggregate", extract.path] + columns, limit: 60), expected)
        let pairs = "term,source,target,weight\n"
        XCTAssertEqual(try bounded(["pairs", "*", file.path, "--min-count", "1", "--format", "csv", "-q"], limit: 60), pairs)
        XCTAssertEqual(try bounded(["pairs", "*", "--store", store, "--min-count", "1", "--format", "csv", "-q"], limit: 60), pairs)
        let plain = dir.appendingPathComponent("many-plain.tsv")
        try Data(try bounded(["extract", "*", file.path, "-q"], limit: 60).utf8).write(to: plain)
        XCTAssertEqual(try bounded(["aggregate", "--pairs", plain.path, "--min-count", "1", "--format", "csv", "-q"], limit: 60), pairs)
    }

    /// `extract | aggregate` of more than 100,000 lines: extract lines are
    /// not tweets, so the bound on records that cannot be one (which gave up
    /// the rest of the input at line 100,000) is not theirs. Counts worked
    /// out by hand: 60,000 tweets each with #all and one of 7 others.
    func testAggregateReadsExtractsOfMoreThanAHundredThousandLines() throws {
        let dir = try temporaryFolder()
        let tweets = (1...60_000).map { i in
            #"{"id_str":"\#(i)","text":"x","user":{"screen_name":"u"},"entities":{"hashtags":[{"text":"all"},{"text":"k\#(i % 7)"}],"user_mentions":[]}}"#
        }
        let file = dir.appendingPathComponent("many.jsonl")
        try Data((tweets.joined(separator: "\n") + "\n").utf8).write(to: file)
        let lines = try bounded(["extract", "*", file.path, "-q"], limit: 120)
        XCTAssertGreaterThan(lines.split(separator: "\n").count, 100_000)
        let extract = dir.appendingPathComponent("many.tsv")
        try Data(lines.utf8).write(to: extract)
        let r = try Smashtag.run(["aggregate", extract.path, "--min-count", "1", "--top", "2", "--format", "csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "nothing skipped")
        // i % 7 is 1, 2 or 3 for 8,572 of 1...60,000 each, 0, 4, 5 or 6 for 8,571: #k1 wins the tie by its bytes.
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#all,60000\n*,hashtag,#k1,8572\n")
    }

    /// Runs smashtag on `data` written to a file named `name`; (status, stdout, stderr).
    private func report(_ data: Data, name: String, _ args: [String] = []) throws -> Smashtag.Result {
        let file = try temporaryFolder().appendingPathComponent(name)
        try data.write(to: file)
        return try Smashtag.run(["report", "*", file.path, "--min-count", "1", "--format", "csv", "-q"] + args)
    }

    private func python(_ script: String, _ input: Data) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let out = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardInput = inp
        try p.run()
        inp.fileHandleForWriting.write(input)
        try inp.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return data
    }

    /// gzip's CRC-32 is checked: a bit flipped inside a stored block (which
    /// no decompressor notices before the trailer) is named as damage, and
    /// stops a --strict run; bytes after the last member are named, not
    /// dropped; NUL padding between members is passed over.
    func testGzipDamageAndTrailingBytesAreNamed() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path))
        let expected = try Smashtag.report(["*", ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path,
                                           "--min-count", "1", "--format", "csv", "-q"]).stdout
        // Level 0: stored blocks, so a flipped bit changes one letter and nothing else.
        let stored = try python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read(), compresslevel=0))", good)
        XCTAssertEqual(try report(stored, name: "stored.jsonl.gz").stdout, expected)
        var flipped = stored
        let at = flipped.range(of: Data("stanford".utf8))!.lowerBound + 2
        flipped[at] ^= 0x04
        let damaged = try report(flipped, name: "flipped.jsonl.gz")
        XCTAssertTrue(damaged.stderr.contains("flipped.jsonl.gz") && damaged.stderr.contains("fails its CRC-32 check"), damaged.stderr)
        XCTAssertEqual(try report(flipped, name: "flipped.jsonl.gz", ["--strict"]).status, 1)

        let gz = try python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", good)
        for (tail, name) in [(Data("garbage!".utf8), "garbage"), (Data(##"{"id_str":"9","text":"#late"}"##.utf8 + [0x0A]), "json")] {
            let r = try report(gz + tail, name: "\(name).jsonl.gz")
            XCTAssertEqual(r.stdout, expected, name)
            XCTAssertTrue(r.stderr.contains("\(tail.count) bytes after the gzip data (from byte \(gz.count) on) are not gzip: not read"),
                          "\(name): \(r.stderr)")
        }
        // NUL padding (as tape and block writers leave), then another member: both members read.
        let padded = try report(gz + Data(count: 4096) + gz, name: "padded.jsonl.gz", ["--format", "json"])
        XCTAssertEqual(padded.stderr, "")
        let twice = try report(gz + gz, name: "twice.jsonl.gz", ["--format", "json"])
        XCTAssertEqual(padded.stdout, twice.stdout)
        XCTAssertEqual(try report(gz + Data(count: 100), name: "tail-nul.jsonl.gz").stderr, "", "NUL padding at the end is quiet")
    }

    /// A zstd file made by pzstd (a skippable frame before each frame) is zstd.
    func testZstdWithASkippableFrameFirstIsRead() throws {
        let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path
        let dir = try temporaryFolder()
        let out = dir.appendingPathComponent("p.jsonl.zst").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["pzstd", "-q", "-p", "2", dozen, "-o", out]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x50, 0x2A, 0x4D, 0x18], "pzstd writes a skippable frame first")
        let r = try Smashtag.run(["report", "*", out, "--min-count", "1", "--format", "csv", "-q"])
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, try Smashtag.report(["*", dozen, "--min-count", "1", "--format", "csv", "-q"]).stdout)
    }

    /// Waits (up to 30 s) until process `pid` has `path` open or mapped; false if it never does.
    static func waitUntilReading(_ path: String, pid: Int32) -> Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for _ in 0..<3000 {
            if let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8), maps.contains(resolved) { return true }
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for fd in fds where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == resolved {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    /// A file truncated while it is read (logrotate's copytruncate) does
    /// not kill the run with SIGBUS: report and ingest exit 0, name the file
    /// as changed, and count what they read, at least every tweet before the
    /// new end and never one past what the file held.
    func testAFileThatShrinksWhileReadIsNamedNotACrash() throws {
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("growing.jsonl")
        let lineCount = 1_500_000
        let keptBytes = 1 << 20
        // Lines of one length, so the lines within the first MiB are known.
        func line(_ i: Int) -> String {
            let id = String(1_000_000_000 + i)
            return ##"{"id_str":""## + id + ##"","text":"#keep","user":{"screen_name":"u"},"entities":{"hashtags":[{"text":"keep"}],"user_mentions":[]}}"## + "\n"
        }
        let length = line(0).utf8.count
        let handle = try FileHandle(forWritingTo: { FileManager.default.createFile(atPath: file.path, contents: nil); return file }())
        var chunk = ""
        for i in 0..<lineCount {
            chunk += line(i)
            if i % 20_000 == 19_999 { handle.write(Data(chunk.utf8)); chunk = "" }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
        let keptLines = keptBytes / length
        let store = dir.appendingPathComponent("s.db").path
        for command in [["report", "#keep", file.path, "--format", "json", "-q", "--jobs", "1"],
                        ["ingest", file.path, "--store", store, "-q", "--jobs", "1"]] {
            let p = Process()
            p.executableURL = Smashtag.binary
            p.arguments = command
            p.environment = ProcessInfo.processInfo.environment.merging(["SMASHTAG_SPLIT_BYTES": String(64 << 20)]) { $1 }
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            // Cut the file once the run reads it (it has it open or mapped), not
            // after a fixed time: a cold start under load can take longer than
            // any fixed wait, and a file cut before the run plans is no change.
            XCTAssertTrue(Self.waitUntilReading(file.path, pid: p.processIdentifier), "\(command[0]) never opened the file")
            usleep(100_000)
            XCTAssertTrue(p.isRunning, "\(command[0]) is still reading when the file is cut")
            XCTAssertEqual(truncate(file.path, off_t(keptLines * length)), 0)
            let errBox = DataBox()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            p.waitUntilExit()
            let stderr = String(decoding: errBox.data, as: UTF8.self)
            XCTAssertEqual(p.terminationReason, .exit, "\(command[0]) died of a signal: \(stderr)")
            XCTAssertEqual(p.terminationStatus, 0, "\(command[0]): \(stderr)")
            XCTAssertTrue(stderr.contains("growing.jsonl") && stderr.contains("the file changed while it was read"), "\(command[0]): \(stderr)")
            let counted: Int
            if command[0] == "report" {
                let report = try JSONSerialization.jsonObject(with: stdout) as! [[String: Any]]
                counted = report[0]["tweets"] as! Int
            } else {
                let r = try Smashtag.run(["report", "#keep", "--store", store, "--format", "json", "-q"])
                counted = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]])[0]["tweets"] as! Int
            }
            XCTAssertGreaterThanOrEqual(counted, keptLines, command[0])
            XCTAssertLessThan(counted, lineCount, command[0])
            // Put the file back for the next command.
            if command[0] == "report" {
                let h = try FileHandle(forWritingTo: file)
                try h.seekToEnd()
                var rest = ""
                for i in keptLines..<lineCount {
                    rest += line(i)
                    if i % 20_000 == 0 { h.write(Data(rest.utf8)); rest = "" }
                }
                h.write(Data(rest.utf8))
                try h.close()
            }
        }
    }
}
