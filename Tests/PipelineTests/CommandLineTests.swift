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
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gz.arguments = ["-k", path]
        try gz.run()
        gz.waitUntilExit()
        for jobs in ["1", "3"] {
            let r = try Smashtag.run(["report", "-t", "*", "-t", "#bestfanarmy", "-t", "obama", path + ".gz", "--min-count", "1",
                                      "--format", "csv", "--jobs", jobs], environment: ["SMASHTAG_BATCH_BYTES": "20000"])
            XCTAssertEqual(r.stdout, outputs[0], "batches with --jobs \(jobs)")
            XCTAssertTrue(r.stderr.contains("line 180: invalid JSON"), r.stderr)
            XCTAssertTrue(r.stderr.contains("line 181: invalid JSON"), r.stderr)
        }
        XCTAssertGreaterThan(outputs[0].split(separator: "\n").count, 100)
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
