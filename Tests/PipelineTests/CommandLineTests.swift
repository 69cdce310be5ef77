import Foundation
import XCTest

final class CommandLineTests: XCTestCase {
    static let dozen = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path

    func testHelpAndVersionGoToStdoutAndExitZero() throws {
        for args in [["--help"], ["report", "--help"], ["--version"]] {
            let r = try Smashtag.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.stderr, "")
            XCTAssertFalse(r.stdout.isEmpty)
        }
        XCTAssertTrue(try Smashtag.run(["--version"]).stdout.contains("libarchive 3."))
        XCTAssertTrue(try Smashtag.run(["--version"]).stdout.contains("\nSQLite 3."))
        XCTAssertTrue(try Smashtag.run(["report", "--help"]).stdout.contains("--min-count N"))
    }

    func testUsageErrorsExitTwoAndSayWhatToDo() throws {
        let cases: [([String], String)] = [
            (["report", "#", Self.dozen], "invalid term '#'"),
            (["report", "@", Self.dozen], "invalid term '@'"),
            (["report", "", Self.dozen], "invalid term ''"),
            (["report", "two words", Self.dozen], "whitespace"),
            (["report", "#stanford", Self.dozen, "--format", "xml"], "--format must be"),
            (["report", "#stanford", Self.dozen, "--min-cout", "3"], "did you mean --min-count"),
            (["report", "#stanford", Self.dozen, "--top", "0"], "--top takes a whole number"),
            (["report"], "give a term"),
            (["frobnicate"], "unknown command"),
        ]
        for (args, message) in cases {
            let r = try Smashtag.run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }

    func testTermsAreNormalisedAndGivenOnce() throws {
        let r = try Smashtag.report(["-t", "#Stanford", "-t", "#STANFORD", "-t", "from:NASA", Self.dozen, "--format", "csv", "--top", "1"])
        XCTAssertEqual(r.stdout, """
            term,type,mention,count
            #stanford,hashtag,#stanford,10
            #stanford,user,@stanford,4

            """)
    }

    func testMinCountAndTop() throws {
        let r = try Smashtag.report(["#stanford", Self.dozen, "--format", "csv", "--min-count", "2"])
        XCTAssertEqual(r.stdout, """
            term,type,mention,count
            #stanford,hashtag,#stanford,10
            #stanford,hashtag,#nasa,2
            #stanford,hashtag,#россия,2
            #stanford,user,@stanford,4
            #stanford,user,@nasa,2
            #stanford,user,@space_station,2

            """)
    }

    func testCSVQuotesOnlyWhenNeeded() throws {
        let r = try Smashtag.report(["r&d", Self.dozen, "--format", "csv", "--min-count", "1"])
        XCTAssertTrue(r.stdout.hasPrefix("term,type,mention,count\nr&d,hashtag,"), r.stdout)
        let quoted = try Smashtag.report(["a,b", Self.dozen, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(quoted.stdout, "term,type,mention,count\n")
        let data = Data(#"{"id_str":"1","text":"x","entities":{"hashtags":[{"text":"a,\"b"}],"user_mentions":[]}}"#.utf8)
        let q = try Smashtag.report(["*", "--format", "csv", "--min-count", "1"], stdin: data)
        XCTAssertEqual(q.stdout, "term,type,mention,count\n*,hashtag,\"#a,\"\"b\",1\n")
    }

    func testTableFormatForPeople() throws {
        let r = try Smashtag.report(["#stanford", Self.dozen, "--format", "table"])
        XCTAssertTrue(r.stdout.hasPrefix("#stanford · 10 tweets\n\n  Hashtags"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  #stanford" + String(repeating: " ", count: 16) + "10\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n  Users "), r.stdout)
    }

    func testNDJSONCarriesTheSameObjectsAsJSON() throws {
        let args = ["-t", "#stanford", "-t", "@nasa", Self.dozen, "--min-count", "1"]
        let json = try Smashtag.report(args + ["--format", "json"]).stdout
        let nd = try Smashtag.report(args + ["--format", "ndjson"]).stdout
        XCTAssertEqual(json, "[" + nd.split(separator: "\n").joined(separator: ",") + "]\n")
    }

    /// A big JSON-lines file is cut into byte ranges; the report, and the line
    /// numbers of bad lines, are the same for every --jobs.
    func testJobsGiveByteIdenticalOutput() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var big = Data()
        for name in ["python-twitter/streaming/lines.json", "twarc-csv/flat.jsonl", "twarc-csv/streaming_output_with_error.jsonl"] {
            big.append(try Data(contentsOf: Smashtag.corpus.appendingPathComponent(name)))
            if big.last != 0x0A { big.append(0x0A) }
        }
        // lines.json (72) + flat.jsonl (100) + streaming (7 good, its truncated 8th at line 180), then line 181.
        big.append(Data("{\"broken\": \n".utf8))
        let path = dir.appendingPathComponent("big.jsonl").path
        try big.write(to: URL(fileURLWithPath: path))
        let args = ["report", "-t", "*", "-t", "#bestfanarmy", "-t", "obama", path, "--min-count", "1", "--format", "csv"]
        var outputs: [String] = []
        for jobs in ["1", "4"] {
            let r = try Smashtag.run(args + ["--jobs", jobs], environment: ["SMASHTAG_SPLIT_BYTES": "65536"])
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stderr.contains("line 180: invalid JSON"), r.stderr)
            XCTAssertTrue(r.stderr.contains("line 181: invalid JSON"), r.stderr)
            outputs.append(r.stdout)
        }
        XCTAssertEqual(outputs[0], outputs[1])
        let whole = try Smashtag.run(args + ["--jobs", "2"])
        XCTAssertEqual(whole.stdout, outputs[0], "ranges and a whole file agree")
        // Compressed, the same file is cut into record batches that every worker parses.
        try Smashtag.gzip(["-k", path])
        for jobs in ["1", "3"] {
            let r = try Smashtag.run(["report", "-t", "*", "-t", "#bestfanarmy", "-t", "obama", path + ".gz", "--min-count", "1",
                                      "--format", "csv", "--jobs", jobs], environment: ["SMASHTAG_BATCH_BYTES": "20000"])
            XCTAssertEqual(r.stdout, outputs[0], "batches with --jobs \(jobs)")
            XCTAssertTrue(r.stderr.contains("line 180: invalid JSON"), r.stderr)
            XCTAssertTrue(r.stderr.contains("line 181: invalid JSON"), r.stderr)
        }
        XCTAssertGreaterThan(outputs[0].split(separator: "\n").count, 100)
    }

    /// Several compressed files: a worker parses the stream it reads while
    /// other files wait for the other workers, in pieces of the batch size,
    /// then turns the rest of its stream into batches for every worker once
    /// none is left. Pieces of both kinds of one stream merge in order: the
    /// report and the bad lines' numbers equal --jobs 1's and those of the
    /// same lines read as one plain file.
    func testStreamsParsedWhereReadAndInBatchesAgree() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var all = Data(), files: [String] = []
        let names = ["python-twitter/streaming/lines.json", "twarc-csv/flat.jsonl", "twarc-csv/streaming_output_with_error.jsonl",
                     "twarc-csv/flat.jsonl", "python-twitter/streaming/lines.json"]
        for (i, name) in names.enumerated() {
            var part = try Data(contentsOf: Smashtag.corpus.appendingPathComponent(name))
            if part.last != 0x0A { part.append(0x0A) }
            // Long enough that a worker is still in its stream when the last file is taken, with
            // tweets of their own (a record lost or counted twice changes the counts).
            if i != 2 {
                let tweets = (0..<10_000).map { k in
                    PairsTests.tweet(i * 1_000_000 + k, tags: ["t\(k % 37)", "s\(i)"], users: k % 3 == 0 ? ["u\(k % 23)"] : [],
                                     author: "a\(k % 11)")
                }
                part.append(PairsTests.lines(tweets))
            }
            if i == 3 { part.append(Data("{\"broken\": \n".utf8)) }
            if i == 1 {
                // Bad input by the hundred, more than a piece names (200), and a line too long to read
                // among it: which of it is named must not depend on who read what.
                for k in 0..<400 {
                    part.append(Data("{\"bad\": \(k)\n".utf8))
                    if k == 150 { part.append(Data(("{\"long\": \"" + String(repeating: "x", count: 70_000) + "\"}\n").utf8)) }
                    if k % 10 == 0 { part.append(PairsTests.lines([PairsTests.tweet(5_000_000 + k, tags: ["late"])])) }
                }
            }
            all.append(part)
            let path = dir.appendingPathComponent("part-\(i).jsonl").path
            try part.write(to: URL(fileURLWithPath: path))
            try Smashtag.gzip([path])
            files.append(path + ".gz")
        }
        let plain = dir.appendingPathComponent("all.jsonl").path
        try all.write(to: URL(fileURLWithPath: plain))
        let args = ["report", "-t", "*", "-t", "#bestfanarmy", "-t", "obama", "--min-count", "1", "--format", "csv",
                    "--columns", "term,type,mention,count,originals,retweets,authors", "--max-record", "64K"]
        let whole = try Smashtag.run(args + [plain, "--jobs", "1"])
        XCTAssertEqual(whole.status, 0)
        // 271 of each part's 10,000 tweets carry #t0 (k = 0, 37, … 9,990), in four parts; #s1 all of part 1's.
        XCTAssertTrue(whole.stdout.contains("\n*,hashtag,#t0,1084,1084,0,11\n"), whole.stdout)
        XCTAssertTrue(whole.stdout.contains("\n*,hashtag,#s1,10000,10000,0,11\n"), whole.stdout)
        // flat.jsonl has 100 lines: the broken line is the 10,101st of part 3.
        XCTAssertTrue(whole.stdout.contains("\n*,hashtag,#late,40,40,0,1\n"), "the 40 tweets among the bad lines")
        for batch in ["3000", "2097152"] {
            var named: String?
            for jobs in ["1", "2", "3", "2", "3"] {
                let r = try Smashtag.run(args + files + ["--jobs", jobs], environment: ["SMASHTAG_BATCH_BYTES": batch])
                XCTAssertEqual(r.status, 0)
                XCTAssertEqual(r.stdout, whole.stdout, "--jobs \(jobs), batches of \(batch) bytes")
                XCTAssertTrue(r.stderr.contains("part-1.jsonl.gz: 401 skipped\n"), r.stderr)
                XCTAssertEqual(r.stderr, named ?? r.stderr, "the same bad input named, --jobs \(jobs), batches of \(batch) bytes")
                named = r.stderr
                XCTAssertTrue(r.stderr.contains("part-2.jsonl.gz: 1 skipped\n    line 8: invalid JSON"), r.stderr)
                XCTAssertTrue(r.stderr.contains("part-3.jsonl.gz: 1 skipped\n    line 10101: invalid JSON"), r.stderr)
            }
        }
    }
}

/// An uncompressed tar is read member by member on every core: the report
/// is the same as reading it whole, with long (GNU) and PAX member names too.
final class TarMemberTests: XCTestCase {
    func testTarMembersReadApartEqualTheWholeTar() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        let tree = dir.appendingPathComponent("tree")
        let longFolder = tree.appendingPathComponent(String(repeating: "minute-archive-", count: 9))
        try FileManager.default.createDirectory(at: longFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dozen = ShapesTests.dozen
        for (i, shape) in ["dozen.jsonl.bz2", "dozen.jsonl.gz", "dozen-v2-stream.jsonl", "dozen.jsonl.zst"].enumerated() {
            try FileManager.default.copyItem(at: dozen.appendingPathComponent(shape),
                                             to: longFolder.appendingPathComponent("\(i)-\(shape)"))
        }
        try Data("not tweets\n".utf8).write(to: tree.appendingPathComponent("README.md"))
        for format in ["gnu", "pax", "ustar"] {
            let tar = dir.appendingPathComponent("\(format).tar").path
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/tar")
            // ustar cannot hold the long names: it gets the short README alone plus a short copy.
            p.arguments = format == "ustar" ? ["--format=ustar", "-cf", tar, "-C", tree.path, "README.md"]
                : ["--format=\(format)", "-cf", tar, "-C", tree.path, "."]
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
            let args = ["report", "-t", "#stanford", "-t", "*", tar, "--format", "csv", "--min-count", "1"]
            let apart = try Smashtag.run(args + ["--jobs", "2"], environment: ["SMASHTAG_SPLIT_BYTES": "1024"])
            let whole = try Smashtag.run(args + ["--jobs", "2"], environment: ["SMASHTAG_SPLIT_BYTES": "1000000000"])
            XCTAssertEqual(apart.status, 0, apart.stderr)
            XCTAssertEqual(apart.stdout, whole.stdout, format)
            XCTAssertEqual(apart.stderr, whole.stderr, format)
            if format != "ustar" {
                XCTAssertEqual(apart.stdout.components(separatedBy: "\n").first { $0.hasPrefix("#stanford,hashtag,#stanford,") },
                               "#stanford,hashtag,#stanford,10", format)
            }
        }
    }
}
