/// What the first bytes of a stream say it is (SPEC §3: detection from the
/// bytes, not the name).
public enum Magic: Equatable, Sendable {
    /// Compressed with one of libarchive's filters (gzip, bzip2, xz, zstd, lz4, …).
    case compressed(String)
    /// An uncompressed container libarchive reads (tar, zip, 7z, cpio).
    case container(String)
    /// Anything else: read as text.
    case plain

    /// Whether libarchive must read it.
    public var needsArchive: Bool { self != .plain }

    /// Classifies a stream by its first bytes (512 are enough for tar).
    public static func detect(_ b: [UInt8]) -> Magic {
        func starts(_ sig: [UInt8]) -> Bool { b.count >= sig.count && Array(b.prefix(sig.count)) == sig }
        if starts([0x1F, 0x8B]) { return .compressed("gzip") }
        if starts([0x42, 0x5A, 0x68]) && b.count > 3 && (0x31...0x39).contains(b[3]) { return .compressed("bzip2") }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .compressed("xz") }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .compressed("zstd") }
        // A zstd skippable frame (0x184D2A50-5F) first, as pzstd writes one before each frame.
        if b.count >= 8, b[0] & 0xF0 == 0x50, b[1] == 0x2A, b[2] == 0x4D, b[3] == 0x18 { return .compressed("zstd") }
        if starts([0x04, 0x22, 0x4D, 0x18]) || starts([0x02, 0x21, 0x4C, 0x18]) { return .compressed("lz4") }
        if starts([0x1F, 0x9D]) { return .compressed("compress") }
        if starts([0x5D, 0x00, 0x00]) && b.count >= 13 { return .compressed("lzma") }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) || starts([0x50, 0x4B, 0x07, 0x08]) {
            return .container("zip")
        }
        if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return .container("7z") }
        if b.count >= 262 && Array(b[257..<262]) == Array("ustar".utf8) { return .container("tar") }
        if isV7TarHeader(b) { return .container("tar") }
        if starts(Array("070707".utf8)) || starts(Array("070701".utf8)) || starts(Array("070702".utf8)) {
            return .container("cpio")
        }
        return .plain
    }

    /// A tar header without the `ustar` magic (Unix v7 tar, `tar --format=v7`):
    /// a name, octal mode and size fields, and a header checksum that adds up.
    static func isV7TarHeader(_ b: [UInt8]) -> Bool {
        guard b.count >= 512, b[0] != 0 else { return false }
        func octal(_ r: Range<Int>) -> Int? {
            var v = 0, digits = 0
            for c in b[r] {
                if c == 0 || c == 0x20 { if digits > 0 { break } else { continue } }
                guard (0x30...0x37).contains(c) else { return nil }
                v = v * 8 + Int(c - 0x30)
                digits += 1
            }
            return digits > 0 ? v : nil
        }
        guard octal(100..<108) != nil, octal(124..<136) != nil, let stored = octal(148..<156) else { return false }
        var sum = 0
        for i in 0..<512 { sum += (148..<156).contains(i) ? 0x20 : Int(b[i]) }
        return sum == stored
    }

    /// An ISO 9660 image: `CD001` at byte 32769, after a system area of
    /// 32 KiB (zeros, unless the image boots). Needs that many bytes.
    public static let isoMagicEnd = 32774

    static func isISO9660(_ b: some RandomAccessCollection<UInt8>) -> Bool {
        guard b.count >= isoMagicEnd else { return false }
        let start = b.index(b.startIndex, offsetBy: 32769)
        return b[start..<b.index(start, offsetBy: 5)].elementsEqual("CD001".utf8)
    }
}
