import Foundation
import XCTest
@testable import Stages

/// The store end to end, through the binary: ingest, report --store,
/// crashes, a second writer, prune, export/import, an old store.
final class StoreTests: StoreTestCase {
    // MARK: Batches

    /// Every corpus case of the Python reference, ingested in two runs: the
    /// store's report is the reference's, byte for byte.
    func testIngestInTwoRunsGivesTheReferenceReportOfAllFiles() throws {
        struct Case: Decodable {
            var name: String, paths: [String], terms: [String], min_count: Int, top: Int?
            var expected: String, expected_json: String
        }
        let reference = Smashtag.root.appendingPathComponent("Tests/Reference")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: reference.appendingPathComponent("corpus_cases.json")))
        XCTAssertGreaterThanOrEqual(cases.count, 24)
        for (n, c) in cases.enumerated() {
            let store = path("case\(n).db")
            let paths = c.paths.map { Smashtag.corpus.appendingPathComponent($0).path }
            let half = max(1, paths.count / 2)
            for batch in [Array(paths.prefix(half)), Array(paths.dropFirst(half))] where !batch.isEmpty {
                try smashtag(["ingest"] + batch + ["--store", store, "--keep-text", "-q"])
            }
            var args = ["report"] + c.terms.flatMap { ["-t", $0] } + ["--store", store, "--min-count", String(c.min_count), "-q"]
            if let top = c.top { args += ["--top", String(top)] }
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try smashtag(args + ["--format", format])
                XCTAssertEqual(r.stdout, try fixtureText(reference.appendingPathComponent(expected)), "\(c.name) as \(format)")
            }
        }
    }

    func testSamplesInTwoRunsEqualOneStatelessReportAndTrackedTermsAgree() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples).filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".py") }
            .sorted().map { Self.samples + "/" + $0 }
        let store = path("s.db")
        try smashtag(["ingest"] + files.prefix(2) + ["--store", store])
        try smashtag(["track", "#stanford", "from:stanford", "--store", store])
        let second = try smashtag(["ingest"] + files.dropFirst(2) + ["--store", store])
        XCTAssertTrue(second.stderr.contains("already known"), second.stderr)
        XCTAssertEqual(try storeReport(store), try statelessReport(files))
        for format in ["csv", "table", "ndjson"] {
            XCTAssertEqual(try smashtag(["report", "#stanford", "@stanford", "--store", store, "--format", format, "-q"]).stdout,
                           try smashtag(["report", "-t", "#stanford", "-t", "@stanford"] + files + ["--format", format, "-q"]).stdout, format)
        }
        let terms = try smashtag(["terms", "--store", store, "--format", "csv"]).stdout
        XCTAssertEqual(terms, "term,tweets\n#stanford,483\nfrom:stanford,2\n")
    }

    /// More tracked terms than a run's 64 (a store tracks any number): each
    /// keeps the counts a stateless report gives. Worked out by hand: tweet i
    /// of 1...700 carries #t(i % 70) and #all, and is written by @u(i % 3);
    /// so each #tN has 10 tweets, from:u1 234 (from:u0 and from:u2 233).
    func testMoreThanSixtyFourTrackedTermsKeepTheirCounts() throws {
        let store = path("many.db")
        let lines = (1...700).map { i in
            #"{"id_str":"\#(i)","text":"a word","user":{"screen_name":"u\#(i % 3)"},"entities":{"hashtags":[{"text":"t\#(i % 70)"},{"text":"all"}],"user_mentions":[]}}"#
        }
        // The first 100 tweets are in the store before the terms are tracked, the rest come after.
        let first = path("first.jsonl"), rest = path("rest.jsonl"), file = path("many.jsonl")
        try Data((lines.prefix(100).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: first))
        try Data((lines.dropFirst(100).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: rest))
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        try smashtag(["ingest", first, "--store", store, "--keep-text", "-q"])
        let tracked = (0..<70).map { "#t\($0)" } + ["from:u1", "#all", "word"]
        try smashtag(["track"] + tracked + ["--store", store, "-q"])
        try smashtag(["ingest", rest, "--store", store, "-q"])
        let terms = try smashtag(["terms", "--store", store, "--format", "csv"]).stdout
        let expected = "term,tweets\n" + (0..<70).map { "#t\($0),10\n" }.joined() + "from:u1,234\n#all,700\nword,700\n"
        XCTAssertEqual(terms, expected)
        for term in ["#t0", "#t65", "#t69", "from:u1", "word"] {
            XCTAssertEqual(try smashtag(["report", term, "--store", store, "--format", "csv", "--min-count", "1", "-q"]).stdout,
                           try smashtag(["report", term, file, "--format", "csv", "--min-count", "1", "-q"]).stdout, term)
        }
    }

    func testFilesIngestedUnchangedAreNotReadAgain() throws {
        let store = path("s.db")
        try smashtag(["ingest", Self.samples, "--store", store])
        let again = try smashtag(["ingest", Self.samples, "--store", store])
        XCTAssertTrue(again.stderr.contains("0 tweets read"), again.stderr)
        XCTAssertTrue(again.stderr.contains("5 unchanged files not read again"), again.stderr)
        let history = try smashtag(["history", "--store", store, "--format", "json"]).stdout
        let runs = try JSONSerialization.jsonObject(with: Data(history.utf8)) as! [[String: Any]]
        XCTAssertEqual(runs.map { $0["unchanged"] as! Int }, [0, 5])
        XCTAssertEqual(runs.map { $0["tweets_new"] as! Int }, [1006, 0])
        XCTAssertEqual(runs.map { $0["outcome"] as! String }, ["ok", "ok"])
    }

    // MARK: Crashes and a second writer

    /// kill -9 with batches committed and a file half read, then the same
    /// ingest again: the report a single clean run gives, and a history
    /// that lists both runs.
    func testKillDuringAnIngestThenTheSameIngestGivesTheCleanResult() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.stream))
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let store = path("killed.db")
        let (ingest, input) = try startIngest(["-", "--store", store, "--batch", "40"])
        input.write(Data(lines.prefix(200).joined(separator: [0x0A])) + Data([0x0A]))
        try waitFor("a committed batch") { (try runs(store).first?["tweets_new"] as? Int ?? 0) >= 120 }
        kill(ingest.processIdentifier, SIGKILL)
        ingest.waitUntilExit()
        XCTAssertEqual(ingest.terminationReason, .uncaughtSignal)
        let killed = try runs(store)
        XCTAssertEqual(killed.first?["outcome"] as? String, "interrupted", "no run holds the store: the killed one was cut off")

        try smashtag(["ingest", "-", "--store", store, "--batch", "40"], stdin: data)
        try smashtag(["ingest", "-", "--store", path("clean.db")], stdin: data)
        XCTAssertEqual(try storeReport(store), try storeReport(path("clean.db")))
        XCTAssertEqual(try storeReport(store), try statelessReport([Self.stream]))
        let history = try runs(store)
        XCTAssertEqual(history.map { $0["outcome"] as! String }, ["interrupted", "ok"])
        XCTAssertEqual(history.map { $0["tweets_new"] as! Int }.reduce(0, +), 313, "nothing counted twice")
    }

    /// kill -9 at moments spread over a run of many files (batches of 20),
    /// then the same ingest: always the clean result.
    func testKillAtAnyMomentOfAFileIngestThenTheSameIngestGivesTheCleanResult() throws {
        let inputs = [Self.samples, Smashtag.corpus.appendingPathComponent("twarc-csv").path,
                      Smashtag.corpus.appendingPathComponent("python-twitter").path]
        let args = inputs + ["--batch", "20", "--jobs", "2", "-q"]
        let started = Date()
        try smashtag(["ingest"] + args + ["--store", path("clean.db")])
        let clean = try storeReport(path("clean.db"))
        var duration = Date().timeIntervalSince(started)
        var midRun = 0, kills = 0
        // Kills spread over a run; a kill that came too late (the run had
        // ended) makes the next ones come sooner, so some fall mid-run on a
        // slow machine and a fast one alike.
        for (n, fraction) in [0.15, 0.4, 0.65, 0.9, 0.3, 0.5].enumerated() where kills < 4 || midRun == 0 {
            let store = path("killed\(n).db")
            let p = Process()
            p.executableURL = Smashtag.binary
            p.arguments = ["ingest"] + args + ["--store", store]
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(duration * fraction * 1_000_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .exit { duration /= 2 } else { kills += 1 }
            if let killed = try runs(store).last, killed["outcome"] as? String == "interrupted", killed["tweets_new"] as? Int ?? 0 > 0 {
                midRun += 1
            }
            try smashtag(["ingest"] + args + ["--store", store])
            XCTAssertEqual(try storeReport(store), clean, "killed at \(fraction) of a run")
            let history = try runs(store)
            XCTAssertEqual(history.last?["outcome"] as? String, "ok")
            XCTAssertEqual(history.map { $0["tweets_new"] as! Int }.reduce(0, +),
                           try runs(path("clean.db")).first?["tweets_new"] as? Int, "nothing counted twice")
        }
        XCTAssertGreaterThan(midRun, 0, "some kill fell between committed batches")
    }

    func testASecondIngestWaitsThenExitsThreeNamingTheStore() throws {
        let store = path("busy.db")
        let (first, input) = try startIngest(["-", "--store", store])
        try waitFor("the first ingest to hold the store") { try runs(store).count == 1 }
        let started = Date()
        let second = try smashtag(["ingest", Self.stream, "--store", store, "--wait", "1"], status: 3)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.0, "it waited")
        XCTAssertTrue(second.stderr.contains(store), second.stderr)
        XCTAssertTrue(second.stderr.contains("busy"), second.stderr)
        XCTAssertTrue(second.stderr.contains("pid \(first.processIdentifier)"), second.stderr)
        // Reports are not kept waiting by a writer.
        try smashtag(["report", "*", "--store", store, "-q"])
        input.write(try Data(contentsOf: URL(fileURLWithPath: Self.stream)))
        try input.close()
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        XCTAssertEqual(try runs(store).count, 1, "the run that gave up is not in the history")
        // Once the first is done, the second gets in.
        try smashtag(["ingest", Self.stream, "--store", store, "--wait", "1", "-q"])
    }

    func testAFullDiskExitsThreeAndLeavesTheStoreAsItWas() throws {
        let store = path("full.db")
        try smashtag(["ingest", ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path, "--store", store, "-q"])
        let before = try storeReport(store)
        // A file size limit makes the store's writes fail as a full disk does.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -f 120; exec \"$0\" \"$@\"", Smashtag.binary.path, "ingest", Self.samples, "--store", store]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 3, stderr)
        XCTAssertTrue(stderr.contains("store \(store): cannot"), stderr)
        XCTAssertEqual(try storeReport(store), before)
        // The run says it failed (unless even that could not be written: then it shows as interrupted later).
        let outcome = try runs(store).last?["outcome"] as? String
        XCTAssertTrue(["failed", "interrupted"].contains(outcome), outcome ?? "no run")
    }

    // MARK: Prune, export, import

    func testPruneShrinksTheFileAndReportsAreThoseOfTheTweetsKept() throws {
        let store = path("s.db")
        try smashtag(["ingest", Self.samples, "--store", store, "--keep-text", "-q"])
        try smashtag(["track", "#stanford", "--store", store, "-q"])
        let size = { (try FileManager.default.attributesOfItem(atPath: store)[.size] as! NSNumber).intValue }
        let before = try size()
        try smashtag(["prune", "--keep-tweets", "200", "--store", store])
        XCTAssertLessThan(try size(), before)
        let snapshot = path("kept.ndjson")
        try Data(try smashtag(["export", "--store", store]).stdout.utf8).write(to: URL(fileURLWithPath: snapshot))
        let terms = Self.terms + ["stanford"]
        XCTAssertEqual(try storeReport(store, terms), try statelessReport([snapshot], terms))
        XCTAssertTrue(try storeReport(store, ["*"]).hasPrefix(#"[{"term":"*","tweets":200,"#))
        try smashtag(["prune", "--older-than", "2020-01-01", "--store", store])
        XCTAssertTrue(try storeReport(store, ["*"]).hasPrefix(#"[{"term":"*","tweets":100,"#), "the v2 page is of 2021")
        XCTAssertEqual(try runs(store).map { $0["command"] as! String }, ["ingest", "prune", "prune"])
    }

    func testExportThenImportIntoANewStoreGivesIdenticalReports() throws {
        let store = path("s.db")
        try smashtag(["ingest", Self.samples, Smashtag.corpus.appendingPathComponent("twarc-csv").path,
                      "--store", store, "--keep-text", "-q"])
        let snapshot = path("snapshot.ndjson")
        let export = try smashtag(["export", "--store", store])
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: snapshot))
        try smashtag(["import", snapshot, "--store", path("copy.db"), "--keep-text", "-q"])
        let terms = Self.terms + ["stanford", "#bestfanarmy", "obama"]
        XCTAssertEqual(try storeReport(path("copy.db"), terms), try storeReport(store, terms))
        XCTAssertEqual(try smashtag(["export", "--store", path("copy.db")]).stdout, export.stdout)
        XCTAssertEqual(try runs(path("copy.db")).map { $0["command"] as! String }, ["import"])
    }

    // MARK: Versions and errors

    func testAnOldSchemaStoreIsMigratedAndUsable() throws {
        let store = path("old.db")
        let db = try Database(path: store, create: true, busyTimeout: 0)
        try db.execute(try String(contentsOf: Smashtag.fixtures.appendingPathComponent("store/v1.sql"), encoding: .utf8))
        db.close()
        let r = try smashtag(["report", "-t", "#old", "-t", "from:writer", "-t", "*", "--store", store, "--format", "csv", "-q"])
        XCTAssertEqual(r.stdout, """
            term,type,mention,count
            #old,hashtag,#old,2
            from:writer,hashtag,#old,2
            *,hashtag,#old,2
            *,user,@someone,2

            """)
        try smashtag(["ingest", Self.stream, "--store", store, "-q"])
        XCTAssertEqual(try runs(store).count, 2)
        // An older smashtag meets a newer store: refused, with a message.
        let newer = try Database(path: store, create: false, busyTimeout: 0)
        try newer.execute("PRAGMA user_version = 99")
        newer.close()
        let refused = try smashtag(["report", "*", "--store", store], status: 3)
        XCTAssertTrue(refused.stderr.contains("schema version 99"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("newer smashtag"), refused.stderr)
    }

    func testStoreProblemsExitThreeAndUsageProblemsTwo() throws {
        let missing = try smashtag(["report", "*", "--store", path("missing.db")], status: 3)
        XCTAssertTrue(missing.stderr.contains("smashtag ingest"), missing.stderr)
        try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: URL(fileURLWithPath: path("garbage.db")))
        try smashtag(["ingest", Self.stream, "--store", path("garbage.db")], status: 3)
        try smashtag(["history", "--store", path("garbage.db")], status: 3)

        let store = path("s.db")
        try smashtag(["ingest", Self.stream, "--store", store, "-q"])
        let word = try smashtag(["report", "stanford", "--store", store], status: 2)
        XCTAssertTrue(word.stderr.contains("--keep-text"), word.stderr)
        let keep = try smashtag(["ingest", Self.stream, "--store", store, "--keep-text"], status: 2)
        XCTAssertTrue(keep.stderr.contains("without their text"), keep.stderr)
        let withPath = try smashtag(["report", "#stanford", Self.stream, "--store", store], status: 2)
        XCTAssertTrue(withPath.stderr.contains("ingest it first"), withPath.stderr)
        try smashtag(["ingest", Self.stream], status: 2, environment: ["SMASHTAG_STORE": ""])
        try smashtag(["prune", "--store", store], status: 2)
        try smashtag(["prune", "--older-than", "soon", "--store", store], status: 2)
        try smashtag(["track", "--store", store], status: 2)
        try smashtag(["history", "extra", "--store", store], status: 2)
    }

    func testTheStoreFromTheEnvironment() throws {
        let env = ["SMASHTAG_STORE": path("env.db")]
        try smashtag(["ingest", Self.stream, "-q"], environment: env)
        let fromStore = try smashtag(["report", "#stanford", "--format", "csv", "-q"], environment: env)
        XCTAssertEqual(fromStore.stdout, try smashtag(["report", "#stanford", Self.stream, "--format", "csv", "-q"]).stdout)
        // With a path the report reads the path, store or not.
        let fromPath = try smashtag(["report", "#stanford", Self.stream, "--format", "csv", "-q"], environment: env)
        XCTAssertEqual(fromPath.stdout, fromStore.stdout)
        XCTAssertEqual(try runs(path("env.db")).count, 1)
    }

    func testEveryStoreCommandHasItsHelp() throws {
        for (command, words) in [("ingest", "--keep-text"), ("import", "snapshot"), ("track", "untrack"), ("untrack", "untrack"),
                                 ("terms", "--format"), ("history", "interrupted"), ("prune", "--older-than"), ("export", "NDJSON")] {
            let r = try smashtag([command, "--help"])
            XCTAssertTrue(r.stdout.hasPrefix("smashtag "), command)
            XCTAssertTrue(r.stdout.contains(words), "\(command): \(r.stdout)")
            XCTAssertEqual(r.stderr, "")
        }
        XCTAssertTrue(try smashtag(["--help"]).stdout.contains("ingest      Read dumps into a store"))
        XCTAssertTrue(try smashtag(["report", "--help"]).stdout.contains("--store FILE"))
    }
}
