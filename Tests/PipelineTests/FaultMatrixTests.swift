import Foundation
import XCTest

/// Bad input never hurts (SPEC §8, §9): one test per kind of damage, each
/// fixture made here and read after the good dozen (`Tests/Fixtures/dozen`).
/// Every run must exit 0, print exactly the dozen's report (the damaged
/// inputs hold only the dozen's own tweets, or none), name the damaged file
/// (and member, and line) on stderr; and `--strict` must exit 1.
final class FaultMatrixTests: XCTestCase {
    static let good = ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path
    static let expected = try! fixtureText(ShapesTests.dozen.appendingPathComponent("expected-all.csv"))
    /// The dozen's lines (the file has CRLF line ends).
    static let dozenLines = try! fixtureText(URL(fileURLWithPath: good)).split(whereSeparator: \.isNewline).map(String.init)

    private var dir = URL(fileURLWithPath: "/")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
    }

    // MARK: Compressed streams cut short

    func testTruncatedGzip() throws { try truncated("gzip -c", "day.jsonl.gz") }
    func testTruncatedBzip2() throws { try truncated("bzip2 -c", "day.jsonl.bz2") }
    func testTruncatedXz() throws { try truncated("xz -c", "day.jsonl.xz") }
    func testTruncatedZstd() throws {
        try require("zstd")
        try truncated("zstd -q -c", "day.jsonl.zst")
    }

    /// A collector died midway: the stream stops 60% of the way in. What
    /// came before the cut is read, the rest is reported with its line.
    private func truncated(_ compress: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let plain = write("plain.jsonl", Self.padded(copies: 150))
        try shell("\(compress) '\(plain)' > '\(dir.path)/full'")
        let full = try Data(contentsOf: dir.appendingPathComponent("full"))
        let bad = write(name, full.prefix(full.count * 6 / 10))
        let r = try assertSkipped([bad], naming: [bad, "line ", "corrupt or truncated"], file: file, line: line)
        XCTAssertGreaterThan(try records(r), 13 + 500, "the part before the cut is read", file: file, line: line)
    }

    // MARK: Containers with one bad member among good ones

    func testTarWithOneCorruptMember() throws {
        try members()
        let gz = dir.appendingPathComponent("m/b.jsonl.gz")
        try flipBytes(in: gz, at: try Data(contentsOf: gz).count / 2, count: 40)
        try shell("cd '\(dir.path)/m' && tar cf ../day.tar a.jsonl b.jsonl.gz c.jsonl")
        let tar = dir.appendingPathComponent("day.tar").path
        let r = try assertSkipped([tar], naming: ["day.tar (member b.jsonl.gz)", "line "])
        XCTAssertGreaterThanOrEqual(try records(r), 13 + 13 + 13 * 40, "a.jsonl and c.jsonl are read whole")

        // A damaged header: that member is lost, the next ones are read.
        try shell("cd '\(dir.path)/m' && cp a.jsonl b.jsonl && tar cf ../headers.tar a.jsonl b.jsonl c.jsonl")
        let headers = dir.appendingPathComponent("headers.tar")
        var bytes = try Data(contentsOf: headers)
        let at = try XCTUnwrap(bytes.range(of: Data("b.jsonl\0".utf8))).lowerBound
        bytes.replaceSubrange(at + 100..<at + 108, with: Data("garbage!".utf8))  // the mode field: checksum fails
        try bytes.write(to: headers)
        let h = try assertSkipped([headers.path], naming: ["headers.tar", "damaged tar header"])
        XCTAssertEqual(try records(h), 13 + 13 + 13 * 40, "a.jsonl and c.jsonl are read")
    }

    func testZipWithOneCorruptMember() throws {
        try require("zip")
        try members()
        try shell("cd '\(dir.path)/m' && gunzip -c b.jsonl.gz > b.jsonl && zip -q ../day.zip a.jsonl b.jsonl c.jsonl")
        let zip = dir.appendingPathComponent("day.zip")
        // Damage the middle of b.jsonl's deflated data (its local header says where it is).
        let bytes = try Data(contentsOf: zip)
        let header = try XCTUnwrap(bytes.range(of: Data("b.jsonl".utf8))).lowerBound - 30  // the first is in the local header
        XCTAssertEqual(Array(bytes[header..<header + 4]), [0x50, 0x4B, 3, 4])
        let size = Int(bytes[header + 18]) | Int(bytes[header + 19]) << 8 | Int(bytes[header + 20]) << 16
        let start = header + 30 + Int(bytes[header + 26]) + Int(bytes[header + 28])
        try flipBytes(in: zip, at: start + size / 2, count: 40)
        let r = try assertSkipped([zip.path], naming: ["day.zip (member b.jsonl)", "line "])
        XCTAssertGreaterThanOrEqual(try records(r), 13 + 13 + 13 * 40, "a.jsonl and c.jsonl are read whole")
    }

    /// `m/a.jsonl` (the dozen), `m/b.jsonl.gz` (the dozen, padded, 80 times) and `m/c.jsonl` (40 times).
    private func members() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("m"), withIntermediateDirectories: true)
        _ = write("m/a.jsonl", try Data(contentsOf: URL(fileURLWithPath: Self.good)))
        let b = write("m/b.jsonl", Self.padded(copies: 80))
        try shell("gzip '\(b)'")
        _ = write("m/c.jsonl", Self.padded(copies: 40))
    }

    // MARK: Not JSON at all

    func testRandomBytesNamedJSON() throws {
        var state: UInt64 = 0x5EED
        let noise = (0..<65536).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let bad = write("dump.json", Data(noise))
        try assertSkipped([bad], naming: [bad, "line 1: invalid JSON"])
    }

    func testHTMLErrorPageNamedJSON() throws {
        let page = """
            <!DOCTYPE html>
            <html><head><title>503 Service Unavailable</title></head>
            <body><h1>Service Unavailable</h1>
            <p>The server is temporarily unable to service your request.</p>
            </body></html>

            """
        let bad = write("search.json", Data(page.utf8))
        try assertSkipped([bad], naming: [bad, "line 1: invalid JSON", "line 4: invalid JSON"])
    }

    func testNULBytes() throws {
        // A NUL inside a line, a line of NULs, and the NUL-filled tail a crash leaves in a preallocated file.
        var lines = Self.dozenLines
        lines[1] = lines[1].replacingOccurrences(of: #""text":"#, with: "\"te\0xt\":")
        lines.insert(String(repeating: "\0", count: 300), at: 5)
        let bad = write("crashed.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8) + Data(repeating: 0, count: 8192))
        try assertSkipped([bad], naming: [bad, "line 2: invalid JSON", "line 6: invalid JSON", "line 15: invalid JSON"])
    }

    func testNonTweetJSON() throws {
        let lines = [
            #"{"foo":1,"entities":{"hashtags":[{"text":"evil"}]}}"#,
            #"[1,2,3]"#,
            #""a string""#,
            #"42"#,
            #"null"#,
            #"{"data":{"text":"no id","entities":{"hashtags":[{"tag":"evil"}]}}}"#,
            #"{"statuses":[1,{"text":"no id"}]}"#,
            ##"{"direct_message":{"id_str":"5","text":"#evil"}}"##,
            #"{"delete":{"status":{"id":1,"id_str":"1"}}}"#,  // a stream notice: skipped, not bad
        ]
        let bad = write("other.jsonl", Data(lines.joined(separator: "\n").utf8))
        // The first five lines are shown, then a count; the report says none of them counted.
        // Each value where a tweet belongs counts (`[1,2,3]` is three); the first five are shown.
        let r = try assertSkipped([bad], naming: ["other.jsonl: 11 skipped", "line 1: not a tweet", "line 2: not a tweet",
                                                  "… and 6 more"])
        XCTAssertEqual(lastStats["bad_records_by_reason"] as? [String: Int], ["not a tweet": 11], r.stderr)
        XCTAssertEqual(lastStats["notices_skipped"] as? Int, 1 + 1, "the dozen's notice and this one")
    }

    func testIDsOutOfRangeNegativeOrNotNumbers() throws {
        let ids = [#""id_str":"18446744073709551616""#, #""id":18446744073709551616"#, #""id":-5"#, #""id_str":"-5""#,
                   #""id_str":"abc""#, #""id":1.5"#, #""id":1e3"#, #""id":"12a""#, #""id":true"#, #""id_str":"""#]
        let lines = ids.map { ##"{\##($0),"text":"#evil","entities":{"hashtags":[{"text":"evil"}],"user_mentions":[]}}"## }
        let bad = write("ids.jsonl", Data(lines.joined(separator: "\n").utf8))
        try assertSkipped([bad], naming: ["ids.jsonl: 10 skipped"] + (1...5).map { "line \($0): not a tweet" } + ["… and 5 more"])
        XCTAssertEqual(lastStats["bad_records_by_reason"] as? [String: Int], ["bad tweet id": 10])
    }

    // MARK: Text that is almost right

    /// Choice (README): JSON text is UTF-8, so a record holding invalid UTF-8
    /// (here inside a hashtag) is not JSON: skipped and named, as a JSON reader
    /// that decodes its input first skips it; `--strict` stops on it.
    func testInvalidUTF8InsideAHashtag() throws {
        var lines = Self.dozenLines.map { Data($0.utf8) }
        let at = try XCTUnwrap(lines[0].range(of: Data(#""text":"Stanford""#.utf8))).lowerBound + 12
        lines[0].replaceSubrange(at..<at, with: [0xFF, 0xC3])  // "Stan\xFF\xC3ford"
        let bad = write("latin1.jsonl", lines.reduce(Data()) { $0 + $1 + Data("\n".utf8) })
        try assertSkipped([bad], naming: [bad, "line 1: invalid JSON: not UTF-8"])
        // Alone, the other eleven tweets still count; the damaged one does not.
        let alone = try Smashtag.run(["report", "*", bad, "--format", "json", "--min-count", "1"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stdout.hasPrefix(#"[{"term":"*","tweets":11,"#), alone.stdout)
    }

    func testEmptyFile() throws {
        let bad = write("empty.json", Data())
        try assertSkipped([bad], naming: [bad, "empty"])
        let alone = try Smashtag.run(["report", "*", bad])
        XCTAssertEqual(alone.status, 0, "an empty file alone is an empty report")
    }

    // MARK: Shapes that could exhaust the stack, memory or time

    func testMillionDeepArrayAndObject() throws {
        let n = 1_000_000
        let array = write("deep.json", Data((String(repeating: "[", count: n) + String(repeating: "]", count: n)).utf8))
        let object = write("deep.jsonl", Data((#"{"text":"no id","entities":{"hashtags":"#
            + String(repeating: #"{"a":["#, count: n / 2) + String(repeating: "]}", count: n / 2) + "}}\n").utf8))
        try assertSkipped([array, object], naming: [array, object, "line 1: "], args: ["--max-record", "64M"])
    }

    /// A 50 MB line that never ends: skipped under the 16 MB default cap, named, and the cap reported;
    /// on a pipe too, where a line that trickles in used to be scanned again at every read.
    func testFiftyMegabyteLineThatNeverEnds() throws {
        var line = Data(#"{"id_str":"1","text":""#.utf8)
        line.append(Data(repeating: UInt8(ascii: "a"), count: 50 << 20))
        let bad = write("endless.jsonl", line)
        try assertSkipped([bad], naming: [bad, "line 1: record longer than --max-record (16777216 bytes)"])
        let piped = try Smashtag.run(["report", "*", Self.good, "-", "--format", "csv", "--min-count", "1"], stdin: line)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, Self.expected)
        XCTAssertTrue(piped.stderr.contains("<stdin>: 1 skipped\n    line 1: record longer than --max-record"), piped.stderr)
    }

    /// Tens of GB from 20 MB of gzip: one line with no end. Reading gives up
    /// after 64 × --max-record bytes (1 GiB); memory stays flat.
    func testDecompressionBomb() throws {
        try shell("head -c 64M /dev/zero | tr '\\0' 'A' | gzip -9 > '\(dir.path)/member.gz'"
                  + " && for i in $(seq 320); do cat '\(dir.path)/member.gz'; done > '\(dir.path)/bomb.json.gz'")  // 20 GiB
        let bomb = dir.appendingPathComponent("bomb.json.gz").path
        let run = try measured(["report", "*", Self.good, bomb, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(run.result.stdout, Self.expected)
        XCTAssertTrue(run.result.stderr.contains("bomb.json.gz: 2 skipped\n    line 1: record longer than --max-record"),
                      run.result.stderr)
        XCTAssertTrue(run.result.stderr.contains("decompression bomb; the rest of the stream is skipped"), run.result.stderr)
        XCTAssertLessThan(run.peakKiB, 256 << 10, "peak RSS \(run.peakKiB) KiB")
        let strict = try measured(["report", "*", Self.good, bomb, "--strict"])
        XCTAssertEqual(strict.result.status, 1, "--strict stops at the over-long record, not 1 GiB later")
        XCTAssertLessThan(strict.peakKiB, 256 << 10)

        // A bomb of newlines (no record at all) is given up the same way; a smaller cap keeps it quick.
        try shell("head -c 64M /dev/zero | tr '\\0' '\\n' | gzip -9 > '\(dir.path)/blank.gz'"
                  + " && for i in $(seq 16); do cat '\(dir.path)/blank.gz'; done > '\(dir.path)/blank.jsonl.gz'")  // 1 GiB
        let blank = dir.appendingPathComponent("blank.jsonl.gz").path
        let b = try measured(["report", "*", Self.good, blank, "--format", "csv", "--min-count", "1", "--max-record", "256K"])
        XCTAssertEqual(b.result.status, 0, b.result.stderr)
        XCTAssertEqual(b.result.stdout, Self.expected)
        XCTAssertTrue(b.result.stderr.contains("blank.jsonl.gz: 1 skipped\n    line 1: no record in the 16777216 bytes"),
                      b.result.stderr)
        XCTAssertLessThan(b.peakKiB, 256 << 10)
    }

    // MARK: Bombs: bounded by input, the bound named (issue 17, item 16)

    /// Nested zips whose leaves expand a thousand times: the nesting stays
    /// within the depth, so only the ratio of expanded to stored bytes
    /// (200 from 1 GiB on) stops it, named with the option that lifts it.
    func testNestedZipBombStopsAtTheExpansionRatio() throws {
        try require("zip")
        let d = dir.path
        try shell("cd '\(d)' && python3 -c \"import sys; l=b'{\\\"id\\\":1,\\\"text\\\":\\\"'+b'a'*(32<<20)+b'\\\"}\\n'; "
                  + "sys.stdout.buffer.write(l*2)\" > leaf.json && zip -q9 leaf.zip leaf.json && rm leaf.json"
                  + " && for i in 1 2 3 4 5 6 7 8; do cp leaf.zip l$i.zip; done && zip -q0 mid.zip l?.zip"
                  + " && for i in 1 2 3 4 5 6 7 8; do cp mid.zip m$i.zip; done && zip -q0 bomb.zip m?.zip")  // 4 GiB in ~4 MB
        let bomb = dir.appendingPathComponent("bomb.zip").path
        let run = try measured(["report", "*", Self.good, bomb, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(run.result.stdout, Self.expected)
        XCTAssertTrue(run.result.stderr.contains("more than 200 times: a decompression bomb; the rest of the input is skipped "
                                                 + "(--no-input-limits reads on)"), run.result.stderr)
        XCTAssertLessThan(run.peakKiB, 256 << 10, "peak RSS \(run.peakKiB) KiB")
        let strict = try Smashtag.run(["report", "*", Self.good, bomb, "--strict"])
        XCTAssertEqual(strict.status, 1, "--strict stops at the first over-long record: \(strict.stderr)")
    }

    /// 4 GB of `{}` lines in an 18 MB zip took 255 s and 654 MB; `/dev/urandom`
    /// was read for ever. Records from an input's start none of which could
    /// be a tweet end it at 100,000; `--no-input-limits` reads on.
    func testRecordsThatAreNeverTweetsEndTheInput() throws {
        try require("zip")
        try shell("cd '\(dir.path)' && yes '{}' | head -c 300M > empty-objects.jsonl && zip -q empty-objects.zip empty-objects.jsonl"
                  + " && rm empty-objects.jsonl && yes '{}' | head -n 150000 > some.jsonl")
        let zip = dir.appendingPathComponent("empty-objects.zip").path
        let run = try measured(["report", "*", Self.good, zip, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(run.result.stdout, Self.expected)
        let bound = "none of the first 100000 records could be a tweet (none is JSON holding an id): not tweet data; "
            + "the rest of the input is skipped (--no-input-limits reads on)"
        XCTAssertTrue(run.result.stderr.contains(bound), run.result.stderr)
        XCTAssertLessThan(run.peakKiB, 128 << 10, "peak RSS \(run.peakKiB) KiB")

        let random = try measured(["report", "*", Self.good, "/dev/urandom", "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(random.result.status, 0, random.result.stderr)
        XCTAssertEqual(random.result.stdout, Self.expected)
        XCTAssertTrue(random.result.stderr.contains("/dev/urandom: "), random.result.stderr)
        // About once in 10,000 runs the random bytes open with a compressor's magic (`.Z`'s is two
        // bytes) and the input is refused at once as a corrupt stream: right too, and still bounded.
        let refusedAsCompressed = random.result.stderr.contains("corrupt or truncated")
        XCTAssertTrue(random.result.stderr.contains(bound) || refusedAsCompressed, random.result.stderr)
        XCTAssertLessThan(random.peakKiB, 128 << 10, "peak RSS \(random.peakKiB) KiB")

        let some = dir.appendingPathComponent("some.jsonl").path
        let limited = try Smashtag.run(["report", "*", some, "--stats", some + ".json"])
        XCTAssertTrue(limited.stderr.contains(bound), limited.stderr)
        let lifted = try Smashtag.run(["report", "*", some, "--no-input-limits", "--stats", some + ".json"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertFalse(lifted.stderr.contains("could be a tweet"), lifted.stderr)
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: some + ".json"))) as! [String: Any]
        XCTAssertEqual(stats["bad_records_by_reason"] as? [String: Int], ["not a tweet": 150_000], "every line read and counted")
    }

    /// A member budget per input (1,000,000 by default; SMASHTAG_MAX_MEMBERS
    /// makes it small here): the members after it are not read, and it says so.
    func testMemberBudgetPerInput() throws {
        try shell("cd '\(dir.path)' && mkdir m && for i in $(seq 40); do echo '{\"x\":1}' > m/$i.json; done"
                  + " && cp '\(Self.good)' m/zz.jsonl && tar cf members.tar -C m $(cd m && ls | sort)")
        let tar = dir.appendingPathComponent("members.tar").path
        let r = try Smashtag.run(["report", "*", tar, "--format", "csv", "--min-count", "1"], environment: ["SMASHTAG_MAX_MEMBERS": "30"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "term,type,mention,count\n", "the dozen is the 41st member, past the budget")
        XCTAssertTrue(r.stderr.contains("more than 30 archive members in one input (nested archives, a zip bomb?): the rest is "
                                        + "skipped (--no-input-limits reads on)"), r.stderr)
        let lifted = try Smashtag.run(["report", "*", tar, "--format", "csv", "--min-count", "1", "--no-input-limits"],
                                      environment: ["SMASHTAG_MAX_MEMBERS": "30"])
        XCTAssertEqual(lifted.stdout, Self.expected, lifted.stderr)
    }

    // MARK: Memory stays bounded however much is bad (issue 17, item 22)

    /// 3M empty tar members took 1.06 GB and wrote 82 MB to stderr. Here
    /// 50,000 (each a work unit of its own): memory and stderr stay bounded (the first problems named, the rest counted).
    func testManyEmptyTarMembersKeepMemoryAndStderrBounded() throws {
        let tar = dir.appendingPathComponent("empties.tar")
        FileManager.default.createFile(atPath: tar.path, contents: nil)
        let handle = try FileHandle(forWritingTo: tar)
        var block = Data()
        for i in 0..<50_000 {
            var h = [UInt8](repeating: 0, count: 512)
            let name = Array("e\(i).json".utf8)
            h.replaceSubrange(0..<name.count, with: name)
            for (at, field) in [(100, "0000644\0"), (108, "0000000\0"), (116, "0000000\0"), (124, "00000000000\0"),
                                (136, "14712345670\0")] {
                h.replaceSubrange(at..<at + field.utf8.count, with: Array(field.utf8))
            }
            h[156] = UInt8(ascii: "0")
            h.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
            h.replaceSubrange(263..<265, with: Array("00".utf8))
            h.replaceSubrange(148..<156, with: Array(repeating: UInt8(ascii: " "), count: 8))
            let sum = h.reduce(0) { $0 + Int($1) }
            h.replaceSubrange(148..<156, with: Array((String(sum, radix: 8).leftPad(6) + "\0 ").utf8))
            block.append(contentsOf: h)
            if block.count >= 1 << 22 { handle.write(block); block.removeAll(keepingCapacity: true) }
        }
        block.append(Data(count: 1024))
        handle.write(block)
        try handle.close()
        let run = try measured(["report", "*", Self.good, tar.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(run.result.stdout, Self.expected)
        XCTAssertTrue(run.result.stderr.contains("(member e0.json): 1 skipped\n    empty, nothing to read"), String(run.result.stderr.prefix(2000)))
        XCTAssertTrue(run.result.stderr.contains("counted but not named"), String(run.result.stderr.suffix(2000)))
        XCTAssertLessThan(run.result.stderr.utf8.count, 2 << 20, "stderr stays bounded")
        XCTAssertLessThan(run.peakKiB, 128 << 10, "peak RSS \(run.peakKiB) KiB")
    }

    /// A million missing paths took 833 MB: the first thousand are named, the rest counted.
    func testMillionMissingPathsKeepMemoryBounded() throws {
        let list = dir.appendingPathComponent("paths.txt")
        try shell("seq 1000000 | sed 's|^|\(dir.path)/gone/|; s|$|.jsonl|' > '\(list.path)'")
        let run = try measured(["extract", "*", "--paths-from-stdin", "-q"], stdin: list.path)
        XCTAssertEqual(run.result.status, 1, "nothing could be read")
        XCTAssertTrue(run.result.stderr.contains("… and 999000 more paths that cannot be read (the first 1000 are named)"),
                      String(run.result.stderr.suffix(3000)))
        XCTAssertLessThan(run.peakKiB, 384 << 10, "peak RSS \(run.peakKiB) KiB")
    }

    /// Tiny bad lines on stdin took 650–700 MB; a 1 GB over-long line in a
    /// plain file kept 1 GB resident (its pages were held until it ended).
    func testBadLinesOnStdinAndAGigabyteLineKeepMemoryBounded() throws {
        try shell("cd '\(dir.path)' && yes '{\"id\":\"x\"}' | head -n 600000 > bad.txt"
                  + " && { head -c 900M /dev/zero | tr '\\0' 'a'; echo; } > long.jsonl")
        let bad = try measured(["report", "*", "-", Self.good, "--format", "csv", "--min-count", "1"],
                               stdin: dir.appendingPathComponent("bad.txt").path)
        XCTAssertEqual(bad.result.status, 0, bad.result.stderr)
        XCTAssertEqual(bad.result.stdout, Self.expected)
        XCTAssertTrue(bad.result.stderr.contains("<stdin>: 600000 skipped"), String(bad.result.stderr.prefix(500)))
        XCTAssertLessThan(bad.peakKiB, 128 << 10, "peak RSS \(bad.peakKiB) KiB")
        let long = try measured(["report", "*", dir.appendingPathComponent("long.jsonl").path, Self.good, "--format", "csv",
                                 "--min-count", "1"])
        XCTAssertEqual(long.result.status, 0, long.result.stderr)
        XCTAssertTrue(long.result.stderr.contains("line 1: record longer than --max-record"), long.result.stderr)
        XCTAssertEqual(long.result.stdout, Self.expected)
        XCTAssertLessThan(long.peakKiB, 256 << 10, "peak RSS \(long.peakKiB) KiB")
    }

    // MARK: Paths that are not plain files

    func testMissingPath() throws {
        let missing = dir.appendingPathComponent("gone/day.jsonl.gz").path
        try assertSkipped([missing], naming: [missing, "No such file or directory"])
    }

    func testFolderWithSymlinkLoops() throws {
        let root = dir.appendingPathComponent("dumps")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("2019/03"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.good, toPath: root.appendingPathComponent("2019/03/day.jsonl").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("2019/03/up").path, withDestinationPath: "../..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("self").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("b").path, withDestinationPath: "a")
        try assertSkipped([root.path], naming: ["dumps/2019/03/up: a symbolic link back to a folder that holds it",
                                                "dumps/self: a symbolic link back", "dumps/a: cannot read: Too many levels"])
    }

    func testFIFOs() throws {
        // Inside a folder a FIFO is not opened (nobody may ever write to it): named, and the rest read.
        let folder = dir.appendingPathComponent("dumps")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("stream.json").path, 0o600), 0)
        try assertSkipped([folder.path], naming: ["dumps/stream.json: a FIFO inside a folder is not read"])

        // Named on the command line it is read as a stream: its bad line is named like any file's.
        let fifo = dir.appendingPathComponent("live").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let feed = "(cat '\(Self.good)'; echo '<html>oops</html>'; cat '\(Self.good)') > '\(fifo)' &"
        let out = try shellOutput("\(feed) '\(Smashtag.binary.path)' report '*' '\(Self.good)' '\(fifo)' --format csv --min-count 1 2>'\(dir.path)/err'")
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout, Self.expected)
        let err = try String(contentsOfFile: dir.appendingPathComponent("err").path, encoding: .utf8)
        XCTAssertTrue(err.contains("live: 1 skipped\n    line 14: invalid JSON"), err)
    }

    /// A FIFO named to `ingest` is opened once: looking at it first (to see whether it was
    /// ingested before) and opening it again let its writer start between the two and lose
    /// its bytes (0 tweets read, or the second open waiting for a writer that had gone).
    /// Three runs, as the loss depended on timing.
    func testFIFOIngestedWhole() throws {
        for run in 1...3 {
            let fifo = dir.appendingPathComponent("feed\(run)").path, store = dir.appendingPathComponent("fifo\(run).db").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let out = try shellOutput("cat '\(Self.good)' > '\(fifo)' & timeout 60 '\(Smashtag.binary.path)' ingest '\(fifo)' --store '\(store)' -q"
                                      + " && '\(Smashtag.binary.path)' report '*' --store '\(store)' --format csv --min-count 1")
            XCTAssertEqual(out.status, 0, "run \(run)")
            XCTAssertEqual(out.stdout, Self.expected, "run \(run): every tweet the FIFO carried is in the store")
        }
    }

    // MARK: The run itself cut short

    /// `smashtag report … | head -1` exits 0 and says nothing, bad input in the run or not:
    /// the report (5,000 rows, more than a pipe holds) meets a closed pipe and the run ends there.
    func testStdoutClosedEarly() throws {
        let many = write("many.jsonl", Data((1...5000).map {
            #"{"id_str":"\#($0)","text":"t","entities":{"hashtags":[{"text":"tag\#($0)"}],"user_mentions":[]}}"#
        }.joined(separator: "\n").utf8))
        let bad = write("page.json", Data("<html>\n".utf8))
        let out = try shellOutput("'\(Smashtag.binary.path)' report '*' '\(Self.good)' '\(bad)' '\(many)' --min-count 1"
                                  + " 2>'\(dir.path)/err' | head -1; exit ${PIPESTATUS[0]}")
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout, "term,type,mention,count\n")
        XCTAssertEqual(try String(contentsOfFile: dir.appendingPathComponent("err").path, encoding: .utf8), "")
    }

    /// SIGINT in the middle of a bomb (a stream that yields no records): gone within a
    /// second with status 130, no report and no --stats file half-written. The bomb is
    /// read for seconds (8 GiB, no limit but 64 × --max-record): ISA-L inflates the
    /// 1 GiB of the default limits in about half a second, before the signal.
    func testInterruptMidStream() throws {
        try shell("head -c 64M /dev/zero | tr '\\0' 'A' | gzip -9 > '\(dir.path)/member.gz'"
                  + " && for i in $(seq 128); do cat '\(dir.path)/member.gz'; done > '\(dir.path)/bomb.json.gz'")
        let stats = dir.appendingPathComponent("stats.json").path
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = ["report", "*", Self.good, dir.appendingPathComponent("bomb.json.gz").path, "--stats", stats,
                       "--no-input-limits", "--max-record", "128M"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        Thread.sleep(forTimeInterval: 0.5)
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0)
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertEqual(out.fileHandleForReading.readDataToEndOfFile().count, 0, "no report")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stats), "no --stats")
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.contains("interrupted by SIGINT"), message)
    }

    // MARK: Helpers

    /// Runs `report * good bad…`: exit 0, the dozen's exact report, and every
    /// string of `naming` on stderr; then with `--strict`: exit 1, no report,
    /// the first problem named. Returns the first run, made with `--stats`.
    @discardableResult
    private func assertSkipped(_ bad: [String], naming: [String], args: [String] = [],
                               file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let stats = dir.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let r = try Smashtag.run(["report", "*", Self.good] + bad + ["--format", "csv", "--min-count", "1", "--stats", stats] + args)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stdout, Self.expected, "the good dump's report, exactly", file: file, line: line)
        for s in naming {
            XCTAssertTrue(r.stderr.contains(s), "stderr does not name '\(s)':\n\(r.stderr)", file: file, line: line)
        }
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        let byInput = summary["bad_records_by_input"] as! [String: Int]
        XCTAssertTrue(bad.allSatisfy { b in byInput.keys.contains { $0.hasPrefix(b) } }, "\(byInput)", file: file, line: line)
        lastStats = summary

        let strict = try Smashtag.run(["report", "*", Self.good] + bad + ["--strict"] + args)
        XCTAssertEqual(strict.status, 1, "--strict: \(strict.stderr)", file: file, line: line)
        XCTAssertEqual(strict.stdout, "", file: file, line: line)
        XCTAssertTrue(bad.contains { strict.stderr.contains($0) }, strict.stderr, file: file, line: line)
        try assertIngestedAlike(bad, args: args, report: r, reportStats: summary, file: file, line: line)
        return r
    }

    /// The same inputs through `ingest`: exit 0; the same bad inputs,
    /// members and lines on stderr, byte for byte (`-q` leaves the problems
    /// alone there, as a report on a pipe does); the same counts in
    /// `--stats`; a report from the store equal to the stateless one; and
    /// `--strict` exits 1 naming the damage.
    private func assertIngestedAlike(_ bad: [String], args: [String], report r: Smashtag.Result, reportStats: [String: Any],
                                     file: StaticString, line: UInt) throws {
        let store = dir.appendingPathComponent("store-\(UUID().uuidString).db").path
        let stats = store + ".json"
        let i = try Smashtag.run(["ingest", Self.good] + bad + ["--store", store, "-q", "--stats", stats] + args)
        XCTAssertEqual(i.status, 0, "ingest: \(i.stderr)", file: file, line: line)
        XCTAssertEqual(i.stderr, r.stderr, "ingest names what report names", file: file, line: line)
        let ingested = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        for key in ["records", "tweets", "bad_records", "notices_skipped"] {
            XCTAssertEqual(ingested[key] as? Int, reportStats[key] as? Int, "--stats \(key)", file: file, line: line)
        }
        for key in ["bad_records_by_reason", "bad_records_by_input"] {
            XCTAssertEqual(ingested[key] as? [String: Int], reportStats[key] as? [String: Int], "--stats \(key)", file: file, line: line)
        }
        let fromStore = try Smashtag.run(["report", "*", "--store", store, "--format", "csv", "--min-count", "1", "-q"])
        XCTAssertEqual(fromStore.status, 0, fromStore.stderr, file: file, line: line)
        XCTAssertEqual(fromStore.stdout, Self.expected, "the store's report is the good dump's", file: file, line: line)

        let strict = try Smashtag.run(["ingest", Self.good] + bad + ["--store", store + "-strict", "--strict", "-q"] + args)
        XCTAssertEqual(strict.status, 1, "ingest --strict: \(strict.stderr)", file: file, line: line)
        XCTAssertTrue(bad.contains { strict.stderr.contains($0) }, strict.stderr, file: file, line: line)
    }

    private var lastStats: [String: Any] = [:]

    /// Records read in the last `assertSkipped` run (good and bad).
    private func records(_ r: Smashtag.Result) throws -> Int { lastStats["records"] as! Int }

    /// The dozen `copies` times, each line with a random `pad` field: the same
    /// tweets (ids), so they add nothing after the dozen, yet they do not compress away.
    static func padded(copies: Int) -> Data {
        var rng = SystemRandomNumberGenerator()
        var out = ""
        for _ in 0..<copies {
            for line in dozenLines {
                let pad = (0..<4).map { _ in String(rng.next() as UInt64, radix: 36) }.joined()
                out += "{\"pad\":\"\(pad)\"," + line.dropFirst() + "\n"
            }
        }
        return Data(out.utf8)
    }

    private func write(_ name: String, _ data: Data) -> String {
        let url = dir.appendingPathComponent(name)
        try! data.write(to: url)
        return url.path
    }

    private func flipBytes(in url: URL, at offset: Int, count: Int) throws {
        var bytes = try Data(contentsOf: url)
        for i in offset..<offset + count { bytes[i] ^= 0xA5 }
        try bytes.write(to: url)
    }

    /// `make deps` installs zstd and zip; without them the row fails and says so.
    private func require(_ tool: String) throws {
        guard try shellOutput("command -v \(tool)").status == 0 else {
            struct MissingTool: Error, CustomStringConvertible { let description: String }
            throw MissingTool(description: "\(tool) is not installed: run `make deps` (it installs zstd, zip and lz4)")
        }
    }

    private func shell(_ command: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try shellOutput(command)
        XCTAssertEqual(r.status, 0, command, file: file, line: line)
    }

    private func shellOutput(_ command: String) throws -> (status: Int32, stdout: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs smashtag with its output in files and returns, besides, its peak
    /// resident memory, as `/usr/bin/time` reads it from `wait4`'s
    /// `ru_maxrss` (a child spawned by this test process would inherit its
    /// high-water mark, which the time process, small, does not have);
    /// killed after five minutes.
    private func measured(_ args: [String], stdin: String = "/dev/null") throws -> (result: Smashtag.Result, peakKiB: Int) {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
        let err = out + ".err", peak = out + ".peak"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let time = "/usr/bin/time"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: time), "GNU time (Debian's `time` package) measures peak memory")
        let argv = ([time, "-f", "%M", "-o", peak, Smashtag.binary.path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        XCTAssertEqual(posix_spawn(&pid, time, &actions, &attributes, argv, environ), 0)
        let watchdog = DispatchWorkItem { kill(-pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        watchdog.cancel()
        XCTAssertEqual(status & 0x7F, 0, "ended by signal \(status & 0x7F) (killed as hung?)")
        let report = try String(contentsOfFile: peak, encoding: .utf8)
        XCTAssertFalse(report.contains("signal"), "smashtag \(report) (killed as hung?)")
        let kib = report.split(whereSeparator: \.isNewline).last.flatMap { Int($0) }
        XCTAssertNotNil(kib, report)
        let result = Smashtag.Result(status: (status >> 8) & 0xFF,
                                     stdout: try String(contentsOfFile: out, encoding: .utf8),
                                     stderr: try String(contentsOfFile: err, encoding: .utf8))
        return (result, kib ?? .max)
    }
}

private extension String {
    func leftPad(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
