/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlongs, no
/// surrogates, nothing past U+10FFFF). JSON text is UTF-8 (RFC 8259), so a
/// record that is not is not JSON: it is skipped as bad input, as a JSON
/// reader that decodes its input first would skip it.
///
/// - Complexity: O(n); ASCII runs go eight bytes at a time.
enum UTF8Check {
    /// The offset of the first ill-formed byte, or nil when all is well-formed.
    static func firstInvalid(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let b = base.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        while i < n {
            while i &+ 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i &+= 8
            }
            guard i < n else { return nil }
            let c = b[i]
            if c < 0x80 { i &+= 1; continue }
            let need: Int, low: UInt8, high: UInt8
            switch c {
            case 0xC2...0xDF: need = 1; low = 0x80; high = 0xBF
            case 0xE0: need = 2; low = 0xA0; high = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: need = 2; low = 0x80; high = 0xBF
            case 0xED: need = 2; low = 0x80; high = 0x9F
            case 0xF0: need = 3; low = 0x90; high = 0xBF
            case 0xF1...0xF3: need = 3; low = 0x80; high = 0xBF
            case 0xF4: need = 3; low = 0x80; high = 0x8F
            default: return i
            }
            guard i &+ need < n, (low...high).contains(b[i &+ 1]) else { return i }
            for k in stride(from: 2, through: need, by: 1) where b[i &+ k] & 0xC0 != 0x80 { return i }
            i &+= need &+ 1
        }
        return nil
    }
}
