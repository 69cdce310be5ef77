import XCTest
@testable import Stages

/// `GzipSource`: ISA-L inflates, zlib reads headers and names damage. Reads
/// split anywhere give the same bytes; each kind of damage gets zlib's words.
final class GzipSourceTests: XCTestCase {
    static let dozen = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dozen")
    static let gz = [UInt8](try! Data(contentsOf: dozen.appendingPathComponent("dozen.jsonl.gz")))
    /// What `dozen.jsonl.gz` holds (the dozen with LF line ends: 16,429 bytes), read in one go.
    static let plain: [UInt8] = {
        let source = GzipSource(MemorySource(gz))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        let n = try! source.read(into: buffer)
        return Array(buffer[..<n])
    }()

    /// Everything `gz` inflates to, `chunk` bytes from upstream and `read` bytes out at a time.
    private func inflated(_ gz: [UInt8], chunk: Int = .max, read: Int = 1 << 20,
                          keptLimit: Int = 64 << 20) -> (bytes: [UInt8], error: String?, trailing: String?) {
        let source = GzipSource(MemorySource(gz, chunk: chunk), keptLimit: keptLimit)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: read, alignment: 1)
        defer { buffer.deallocate() }
        var out: [UInt8] = []
        while true {
            do {
                let n = try source.read(into: buffer)
                if n == 0 { return (out, nil, source.trailing) }
                out += buffer[..<n]
            } catch {
                return (out, error.message, source.trailing)
            }
        }
    }

    private func flipped(_ at: Int, bit: Int, in bytes: [UInt8] = gz) -> [UInt8] {
        var b = bytes
        b[at] ^= UInt8(1 << bit)
        return b
    }

    /// The member's CRC-32 and length are checked, so bytes that pass are the dozen.
    func testMembersReadSplitAnywhere() {
        XCTAssertEqual(Self.plain.count, 16429)
        XCTAssertTrue(Self.plain.starts(with: Array(#"{"created_at":"Fri Mar 01 12:00:05 +0000 2019","id":1101452040074326118,"#.utf8)))
        for chunk in [1, 7, 4096, .max] {
            for read in [1, 7, 4096, 1 << 20] {
                let r = inflated(Self.gz, chunk: chunk, read: read)
                XCTAssertTrue(r.bytes == Self.plain, "chunk \(chunk), read \(read)")
                XCTAssertNil(r.error)
                XCTAssertNil(r.trailing)
            }
        }
    }

    /// Members one after another, NUL padding between, garbage after: every
    /// member read, the padding passed over, the garbage named with its offset.
    func testMembersPaddingAndTrailingBytes() {
        let stream = Self.gz + [UInt8](repeating: 0, count: 5000) + Self.gz + Self.gz + Array("garbage!".utf8)
        for chunk in [7, 4096, .max] {
            let r = inflated(stream, chunk: chunk, read: 4096)
            XCTAssertTrue(r.bytes == Self.plain + Self.plain + Self.plain, "chunk \(chunk)")
            XCTAssertNil(r.error)
            XCTAssertEqual(r.trailing, "8 bytes after the gzip data (from byte \(5000 + 3 * Self.gz.count) on) are not gzip: not read")
        }
        XCTAssertNil(inflated(Self.gz + [UInt8](repeating: 0, count: 100)).trailing, "NUL padding at the end is quiet")
    }

    /// Each kind of damage in `dozen.jsonl.gz`, named in zlib's words, after
    /// bytes that are the start of the dozen, however the reads are split.
    func testDamageIsNamedInZlibsWords() {
        let cases: [(bytes: [UInt8], message: String)] = [
            (Array(Self.gz.prefix(Self.gz.count / 2)), "the gzip data ends in the middle of a member (truncated)"),
            (Array(Self.gz.prefix(Self.gz.count - 4)), "the gzip data ends in the middle of a member (truncated)"),
            (Array(Self.gz.prefix(7)), "the gzip data ends in the middle of a member (truncated)"),
            (flipped(Self.gz.count - 6, bit: 3),
             "the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)"),
            (flipped(Self.gz.count - 2, bit: 0), "the gzip data fails its length check (damaged)"),
            (flipped(2, bit: 0), "damaged gzip data: unknown compression method"),
            (flipped(3, bit: 6), "damaged gzip data: unknown header flags set"),
            (flipped(10, bit: 0), "damaged gzip data: invalid stored block lengths"),
            (flipped(10, bit: 1), "damaged gzip data: invalid block type"),
            (flipped(10, bit: 3), "damaged gzip data: invalid literal/lengths set"),
            (flipped(10, bit: 4), "damaged gzip data: too many length or distance symbols"),
            (flipped(11, bit: 0), "damaged gzip data: invalid distances set"),
            (flipped(11, bit: 1), "damaged gzip data: invalid bit length repeat"),
            (flipped(11, bit: 5), "damaged gzip data: invalid code lengths set"),
            (flipped(19, bit: 4), "damaged gzip data: invalid code -- missing end-of-block"),
            (flipped(117, bit: 4), "damaged gzip data: invalid distance too far back"),
            (flipped(118, bit: 1),
             "the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)"),
        ]
        for (i, c) in cases.enumerated() {
            for chunk in [1, 7, .max] {
                for read in [7, 4096, 1 << 20] {
                    let r = inflated(Self.gz + c.bytes, chunk: chunk, read: read)
                    XCTAssertEqual(r.error, c.message, "case \(i), chunk \(chunk), read \(read)")
                    XCTAssertTrue(r.bytes.starts(with: Self.plain), "case \(i): the good first member is read whole")
                }
            }
        }
    }

    /// A distance code set zlib refuses, which ISA-L finds only kilobytes on:
    /// whatever the reads, nothing of the damaged member is handed out (zlib
    /// refuses it before its first byte).
    func testDamageISALFindsLateGivesNothingZlibDidNot() {
        for chunk in [4096, 7, .max] {
            for read in [4096, 1 << 20] {
                let r = inflated(Self.gz + flipped(107, bit: 2), chunk: chunk, read: read)
                XCTAssertEqual(r.error, "damaged gzip data: invalid distances set", "chunk \(chunk), read \(read)")
                XCTAssertTrue(r.bytes == Self.plain, "chunk \(chunk), read \(read): \(r.bytes.count) bytes")
            }
        }
    }

    /// A member too big to keep (from a pipe, an archive) is named in ISA-L's
    /// words; the header's damage is still zlib's.
    func testDamageInAMemberTooBigToKeep() {
        let truncated = inflated(Array(Self.gz.prefix(Self.gz.count / 2)), chunk: 512, keptLimit: 1000)
        XCTAssertEqual(truncated.error, "the gzip data ends in the middle of a member (truncated)")
        XCTAssertTrue(Self.plain.starts(with: truncated.bytes))
        XCTAssertEqual(inflated(flipped(Self.gz.count - 6, bit: 3), chunk: 512, keptLimit: 1000).error,
                       "the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)")
        XCTAssertEqual(inflated(flipped(10, bit: 1), chunk: 512, keptLimit: 100).error.map { $0.hasPrefix("damaged gzip data: ") }, true)
        XCTAssertEqual(inflated(flipped(3, bit: 6), chunk: 512, keptLimit: 100).error, "damaged gzip data: unknown header flags set")
        // Kept whole (1000 bytes would not be, 4000 are): zlib's words again.
        XCTAssertEqual(inflated(flipped(117, bit: 4), chunk: 512, keptLimit: 4000).error,
                       "damaged gzip data: invalid distance too far back")
    }
}
