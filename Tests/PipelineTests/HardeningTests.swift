import Foundation
import XCTest

/// Regression tests for issue 17 ("what real archives, hostile inputs and
/// new users found"), one per item, each named after what broke. The
/// hostile ones that need a bound on time or memory are in `FaultMatrixTests`.
final class HardeningTests: XCTestCase {
    static let expected = FaultMatrixTests.expected
    private var dir = URL(fileURLWithPath: "/")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-harden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
    }

    /// The dozen's array written on one line, with one broken element
    /// (`{"id":1,"text":"x",}`) as the fourth; returns the file and the
    /// broken element's byte offset.
    private func oneLineArray() throws -> (path: String, offset: Int) {
        let array = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen-array.json"))) as? [Any])
        var parts = try array.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let broken = #"{"id":1,"text":"x",}"#
        parts.insert(broken, at: 3)
        let text = "[" + parts.joined(separator: ",") + "]\n"
        let url = dir.appendingPathComponent("one-line.json")
        try Data(text.utf8).write(to: url)
        let offset = try XCTUnwrap(Data(text.utf8).range(of: Data(broken.utf8))).lowerBound
        return (url.path, offset)
    }

    /// Item 3: a broken element of a one-line JSON array was "line 1"; it is
    /// named by its index in the array and its byte offset, read in place,
    /// from a gzip, and in tiny batches alike.
    func testBrokenElementOfAOneLineArrayIsNamedByIndexAndOffset() throws {
        let (path, offset) = try oneLineArray()
        let gz = path + ".gz"
        let g = Process()
        g.executableURL = URL(fileURLWithPath: "/bin/sh")
        g.arguments = ["-c", "gzip -c '\(path)' > '\(gz)'"]
        try g.run()
        g.waitUntilExit()
        for (input, env) in [(path, [:]), (gz, [:]), (gz, ["SMASHTAG_BATCH_BYTES": "100"])] {
            let r = try Smashtag.run(["report", "*", input, "--format", "csv", "--min-count", "1"], environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, Self.expected, "the other eleven elements count: \(input)")
            XCTAssertTrue(r.stderr.contains("line 1, element 3 (byte \(offset)): invalid JSON"), "\(input) \(env): \(r.stderr)")
        }
        // A pretty-printed array's elements start their own lines: their line says where they are.
        let pretty = try Smashtag.run(["report", "*", ShapesTests.dozen.appendingPathComponent("dozen-array.json").path, "-q"])
        XCTAssertFalse(pretty.stderr.contains("element"), pretty.stderr)
    }

    /// Item 6: a dump without entities (v2 fetched without
    /// `tweet.fields=entities`, a stripped v1.1 dump) gave an empty report
    /// and no hint; now stderr says to try `--mentions-from text`.
    func testDumpWithoutEntitiesSaysTryMentionsFromText() throws {
        func strip(_ value: Any) -> Any {
            if let o = value as? [String: Any] {
                return o.filter { $0.key != "entities" }.mapValues(strip)
            }
            if let a = value as? [Any] { return a.map(strip) }
            return value
        }
        let lines = FaultMatrixTests.dozenLines.filter { !$0.isEmpty }
        var out = ""
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            out += String(decoding: try JSONSerialization.data(withJSONObject: strip(object)), as: UTF8.self) + "\n"
        }
        XCTAssertFalse(out.contains("\"entities\""))
        let bare = dir.appendingPathComponent("no-entities.jsonl")
        try Data(out.utf8).write(to: bare)
        let hint = "so their hashtags and mentions are not seen: try --mentions-from text"
        let r = try Smashtag.run(["report", "*", bare.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains(",hashtag,"), "only retweeted authors, which need no entities: \(r.stdout)")
        XCTAssertTrue(r.stderr.contains("none of the 12 tweets read has entities"), r.stderr)
        XCTAssertTrue(r.stderr.contains(hint), r.stderr)
        let text = try Smashtag.run(["report", "*", bare.path, "--format", "csv", "--min-count", "1", "--mentions-from", "text"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("#stanford"), text.stdout)
        XCTAssertFalse(text.stderr.contains(hint), text.stderr)
        // One tweet with entities among them: the mentions are there, no hint.
        let mixed = try Smashtag.run(["report", "*", FaultMatrixTests.good, bare.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(mixed.stdout, Self.expected)
        XCTAssertFalse(mixed.stderr.contains(hint), mixed.stderr)
    }

    /// Item 24: ingest had no signal handler. SIGTERM on an ingest reading a
    /// stalled pipe: exit 143 within a second, the batches committed stay,
    /// the history says interrupted.
    func testIngestInterruptedKeepsCommittedBatchesAndSaysSo() throws {
        let store = dir.appendingPathComponent("tweets.db").path
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = ["ingest", "-", "--store", store, "--batch", "5", "--jobs", "2"]
        let err = Pipe(), input = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        p.standardInput = input
        try p.run()
        let writer = input.fileHandleForWriting
        writer.write(try Data(contentsOf: URL(fileURLWithPath: FaultMatrixTests.good)))
        Thread.sleep(forTimeInterval: 1.5)
        let sent = Date()
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        try? writer.close()
        XCTAssertEqual(p.terminationStatus, 143)
        XCTAssertLessThan(took, 1.0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.contains("interrupted by SIGTERM; the batches committed so far are kept"), message)
        let history = try Smashtag.run(["history", "--store", store])
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stdout.contains("interrupted"), history.stdout)
        let kept = try Smashtag.run(["report", "*", "--store", store, "--format", "json", "--min-count", "1"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(kept.stdout.utf8)) as? [[String: Any]])
        let tweets = try XCTUnwrap(json.first?["tweets"] as? Int)
        XCTAssertTrue(tweets >= 5 && tweets < 12, "whole batches of five committed, not the stalled rest: \(kept.stdout)")
    }

    /// Item 24: `--list-inputs` left out a path with a line break that a
    /// report reads; `--null` lists it and `--paths-from-stdin --null` reads it back.
    func testListInputsWithNullKeepsPathsWithLineBreaks() throws {
        let odd = dir.appendingPathComponent("day\none.jsonl")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: FaultMatrixTests.good), to: odd)
        let plain = try Smashtag.run(["extract", "--list-inputs", dir.path])
        XCTAssertEqual(plain.stdout, "")
        XCTAssertTrue(plain.stderr.contains("(--null lists it)"), plain.stderr)
        let listed = try Smashtag.run(["extract", "--list-inputs", "--null", dir.path])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stdout, odd.path + "\0")
        let back = try Smashtag.run(["extract", "*", "--paths-from-stdin", "--null"], stdin: Data(listed.stdout.utf8))
        let direct = try Smashtag.run(["extract", "*", odd.path])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertFalse(direct.stdout.isEmpty)
        XCTAssertEqual(back.stdout, direct.stdout)
    }

    /// Item 24: `"id_str":""` beside a valid `id`, an id written with escapes,
    /// and duplicated keys. The rule: an empty `id_str` is no id (the `id`
    /// counts; alone it is a bad id); escapes in an id are undone; a key
    /// given twice takes its last value, whole (`entities` and
    /// `extended_tweet` alike).
    func testEmptyAndEscapedIDsAndDuplicateKeysFollowOneRule() throws {
        let lines = [
            ##"{"id_str":"","id":101,"text":"#a","entities":{"hashtags":[{"text":"a"}],"user_mentions":[]}}"##,
            ##"{"id":102,"id_str":"","text":"#b","entities":{"hashtags":[{"text":"b"}],"user_mentions":[]}}"##,
            ##"{"id_str":"\u0031\u00303","text":"#c","entities":{"hashtags":[{"text":"c"}],"user_mentions":[]}}"##,
            ##"{"id":104,"text":"x","entities":{"hashtags":[{"text":"first"}]},"entities":{"hashtags":[{"text":"last"}]}}"##,
            ##"{"id":105,"text":"x","entities":{"hashtags":[{"text":"plain"}]},"extended_tweet":{"entities":{"hashtags":"##
                + ##"[{"text":"xfirst"}]}},"extended_tweet":{"entities":{"hashtags":[{"text":"xlast"}]}}}"##,
            ##"{"id_str":"","text":"#bad","entities":{"hashtags":[{"text":"bad"}]}}"##,
        ]
        let r = try Smashtag.run(["report", "*", "-", "--format", "csv", "--min-count", "1", "--stats", dir.path + "/s.json"],
                                 stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#a,1\n*,hashtag,#b,1\n*,hashtag,#c,1\n"
                       + "*,hashtag,#last,1\n*,hashtag,#xlast,1\n")
        XCTAssertTrue(r.stderr.contains("line 6: not a tweet: its id is not an unsigned 64-bit decimal integer"), r.stderr)
        let extract = try Smashtag.run(["extract", "*", "-"], stdin: Data(lines[2].utf8))
        XCTAssertTrue(extract.stdout.contains("103"), "the escaped id is 103: \(extract.stdout)")
    }

    /// Item 24: a v7 tar (no `ustar` magic) and an ISO 9660 image were read
    /// as text; a tar's hard-link member was called empty.
    func testV7TarISOImageAndHardLinksAreContainers() throws {
        let d = dir.path
        let iso = d + "/dozen.iso"
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/bin/sh")
        make.arguments = ["-c", "cd '\(d)' && mkdir t && cp '\(FaultMatrixTests.good)' t/dozen.jsonl && ln t/dozen.jsonl t/again.jsonl"
                          + " && tar --format=v7 -cf v7.tar -C t dozen.jsonl && tar -cf links.tar -C t dozen.jsonl again.jsonl"
                          + " && python3 '\(Smashtag.fixtures.path)/make_iso.py' t/dozen.jsonl dozen.jsonl '\(iso)'"
                          + " && gzip -c '\(iso)' > '\(iso).gz'"
                          // A hybrid image: boot code in its first sector (as isohybrid writes), read from a stream.
                          + " && python3 -c \"import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[0:512] = bytes(range(1, 256)) * 2 + bytes([0x55, 0xAA]); open(sys.argv[2], 'wb').write(b)\" '\(iso)' hybrid.iso"
                          + " && gzip -c hybrid.iso > hybrid.iso.gz"]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0)
        for input in [d + "/v7.tar", iso, iso + ".gz", d + "/hybrid.iso", d + "/hybrid.iso.gz", d + "/links.tar"] {
            let r = try Smashtag.run(["report", "*", input, "--format", "csv", "--min-count", "1", "--strict", "--progress=plain"])
            XCTAssertEqual(r.status, 0, "\(input): \(r.stderr)")
            XCTAssertEqual(r.stdout, Self.expected, input)
            XCTAssertFalse(r.stderr.contains("bad"), "\(input): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("empty"), "\(input): \(r.stderr)")
        }
        let links = try Smashtag.run(["report", "*", d + "/links.tar", "--progress=plain"])
        XCTAssertTrue(links.stderr.contains("(member again.jsonl): a hard link to dozen.jsonl, whose tweets are read there"),
                      links.stderr)
    }
}
