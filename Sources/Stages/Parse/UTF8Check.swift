/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlongs, no
/// surrogates, nothing past U+10FFFF). JSON text is UTF-8 (RFC 8259), so a
/// record that is not is not JSON: it is skipped as bad input, as a JSON
/// reader that decodes its input first would skip it.
///
/// The JSON scanner checks each string's non-ASCII bytes as it scans them
/// (outside strings such bytes are syntax errors), so a record's UTF-8 is
/// checked without a pass of its own.
enum UTF8Check {
    /// The length of the well-formed sequence whose lead byte (0x80 or more)
    /// is at `i`, or nil when it is ill-formed or cut short by `count`.
    ///
    /// The JSON scanner calls it for each non-ASCII byte it meets in a
    /// string, which validates a record's UTF-8 in the same pass.
    @inline(__always)
    static func sequenceLength(_ b: UnsafePointer<UInt8>, at i: Int, count n: Int) -> Int? {
        let c = b[i]
        // Two bytes (Latin, Greek, Cyrillic, Hebrew, Arabic): the lead 0xC2–0xDF, one continuation byte.
        if c &- 0xC2 < 0x1E {
            guard i &+ 1 < n, b[i &+ 1] & 0xC0 == 0x80 else { return nil }
            return 2
        }
        // Three bytes with any continuation (most of CJK, kana, hangul, punctuation): the lead 0xE1–0xEF but 0xED.
        if c &- 0xE1 < 0x0F && c != 0xED {
            guard i &+ 2 < n, b[i &+ 1] & 0xC0 == 0x80, b[i &+ 2] & 0xC0 == 0x80 else { return nil }
            return 3
        }
        return sequenceLength(lead: c, b, at: i, count: n)
    }

    /// `sequenceLength` of three and four bytes (and of bytes that lead no sequence).
    @inline(never)
    static func sequenceLength(lead c: UInt8, _ b: UnsafePointer<UInt8>, at i: Int, count n: Int) -> Int? {
        let need: Int, low: UInt8, high: UInt8
        switch c {
        case 0xC2...0xDF: need = 1; low = 0x80; high = 0xBF
        case 0xE0: need = 2; low = 0xA0; high = 0xBF
        case 0xE1...0xEC, 0xEE...0xEF: need = 2; low = 0x80; high = 0xBF
        case 0xED: need = 2; low = 0x80; high = 0x9F
        case 0xF0: need = 3; low = 0x90; high = 0xBF
        case 0xF1...0xF3: need = 3; low = 0x80; high = 0xBF
        case 0xF4: need = 3; low = 0x80; high = 0x8F
        default: return nil
        }
        guard i &+ need < n, (low...high).contains(b[i &+ 1]) else { return nil }
        for k in stride(from: 2, through: need, by: 1) where b[i &+ k] & 0xC0 != 0x80 { return nil }
        return need &+ 1
    }
}
