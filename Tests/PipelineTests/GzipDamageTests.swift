import Foundation
import XCTest

/// gzip is inflated by ISA-L, and damage is still told as zlib told it
/// (issue 29): each damaged `.gz` below gives the words, the line, the
/// records counted before the damage and the exit status that zlib alone
/// gave (pinned from the zlib-only reader), read from a file and from a pipe.
final class GzipDamageTests: XCTestCase {
    static let gz = [UInt8](try! Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen.jsonl.gz")))

    private var dir = URL(fileURLWithPath: "/")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
    }

    private static func flipped(_ at: Int, bit: Int) -> [UInt8] {
        var b = gz
        b[at] ^= UInt8(1 << bit)
        return b
    }

    /// One damaged stream: its bytes, what stderr says after the name, the
    /// records and tweets counted, and the exit status.
    private struct Case {
        var name: String
        var bytes: [UInt8]
        var says: String
        var records: Int
        var tweets: Int
        var status: Int32 = 0
    }

    private static let cases: [Case] = [
        Case(name: "truncated", bytes: Array(gz.prefix(gz.count / 2)),
             says: "line 8: corrupt or truncated data, the rest is skipped: the gzip data ends in the middle of a member (truncated)",
             records: 7, tweets: 6),
        Case(name: "crc", bytes: flipped(gz.count - 6, bit: 3),
             says: "line 5: corrupt or truncated data, the rest is skipped: the gzip data fails its CRC-32 check "
                + "(damaged; what was read of this member may carry the damage)",
             records: 4, tweets: 4),
        Case(name: "length", bytes: flipped(gz.count - 2, bit: 0),
             says: "line 5: corrupt or truncated data, the rest is skipped: the gzip data fails its length check (damaged)",
             records: 4, tweets: 4),
        Case(name: "distance", bytes: flipped(117, bit: 4),
             says: "line 1: corrupt or truncated data, nothing could be read: damaged gzip data: invalid distance too far back",
             records: 0, tweets: 0, status: 1),
        Case(name: "blocktype", bytes: flipped(10, bit: 1),
             says: "line 1: corrupt or truncated data, nothing could be read: damaged gzip data: invalid block type",
             records: 0, tweets: 0, status: 1),
        Case(name: "method", bytes: flipped(2, bit: 0),
             says: "line 1: corrupt or truncated data, nothing could be read: damaged gzip data: unknown compression method",
             records: 0, tweets: 0, status: 1),
        Case(name: "second-truncated", bytes: gz + gz.prefix(2000),
             says: "line 22: corrupt or truncated data, the rest is skipped: the gzip data ends in the middle of a member (truncated)",
             records: 21, tweets: 19),
        Case(name: "second-codes", bytes: gz + flipped(11, bit: 5),
             says: "line 14: corrupt or truncated data, the rest is skipped: damaged gzip data: invalid code lengths set",
             records: 13, tweets: 12),
        // ISA-L takes this distance code set and finds a missing code only
        // kilobytes on, past the first 4 KiB read from a pipe: it looks ahead
        // before handing out the member's first bytes (it gave two lines
        // that zlib never gave, without).
        Case(name: "second-distances", bytes: gz + flipped(107, bit: 2),
             says: "line 14: corrupt or truncated data, the rest is skipped: damaged gzip data: invalid distances set",
             records: 13, tweets: 12),
    ]

    private func run(_ c: Case, stdin: Bool) throws -> (result: Smashtag.Result, records: Int, tweets: Int) {
        let path = dir.appendingPathComponent("\(c.name).jsonl.gz")
        try Data(c.bytes).write(to: path)
        let stats = dir.appendingPathComponent("stats.json")
        let r = try Smashtag.run(["report", "*", stdin ? "-" : path.path, "--format", "csv", "--min-count", "1",
                                  "--stats", stats.path], stdin: stdin ? Data(c.bytes) : nil)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as! [String: Any]
        return (r, json["records"] as! Int, json["tweets"] as! Int)
    }

    func testDamagedGzipIsToldAsBefore() throws {
        for c in Self.cases {
            for stdin in [false, true] {
                let (r, records, tweets) = try run(c, stdin: stdin)
                let name = stdin ? "<stdin>" : dir.appendingPathComponent("\(c.name).jsonl.gz").path
                XCTAssertEqual(r.stderr, "smashtag: skipped 1 bad input:\n  \(name): 1 skipped\n    \(c.says)\n", "\(c.name), stdin \(stdin)")
                XCTAssertEqual(records, c.records, "\(c.name), stdin \(stdin)")
                XCTAssertEqual(tweets, c.tweets, "\(c.name), stdin \(stdin)")
                XCTAssertEqual(r.status, c.status, "\(c.name), stdin \(stdin)")
            }
        }
    }

    /// Members one after another (NUL padding between) are all read; bytes
    /// after the last member are named with their offset, as before.
    func testMembersAndTrailingBytesAsBefore() throws {
        let gz = Self.gz
        let twice = Case(name: "twice", bytes: gz + gz, says: "", records: 26, tweets: 24)
        let padded = Case(name: "padded", bytes: gz + [UInt8](repeating: 0, count: 4096) + gz, says: "", records: 26, tweets: 24)
        let trailing = Case(name: "trailing", bytes: gz + gz + Array("garbage!".utf8), says: "", records: 26, tweets: 24)
        let expected = try run(twice, stdin: false)
        XCTAssertEqual(expected.result.stderr, "")
        XCTAssertEqual([expected.records, expected.tweets], [26, 24])
        for stdin in [false, true] {
            let p = try run(padded, stdin: stdin)
            XCTAssertEqual(p.result.stdout, expected.result.stdout)
            XCTAssertEqual(p.result.stderr, "")
            XCTAssertEqual([p.records, p.tweets], [26, 24])
            let t = try run(trailing, stdin: stdin)
            let name = stdin ? "<stdin>" : dir.appendingPathComponent("trailing.jsonl.gz").path
            XCTAssertEqual(t.result.stdout, expected.result.stdout)
            XCTAssertEqual(t.result.stderr, "smashtag: skipped 1 bad input:\n  \(name): 1 skipped\n"
                           + "    8 bytes after the gzip data (from byte \(2 * Self.gz.count) on) are not gzip: not read\n")
            XCTAssertEqual([t.records, t.tweets], [26, 24])
            XCTAssertEqual(t.result.status, 0)
        }
    }
}
