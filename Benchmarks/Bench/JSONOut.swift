// A byte buffer that JSON is written into the way the v1.1 stream wrote it:
// ASCII only (every other scalar as \uXXXX, astral ones as surrogate pairs),
// `/` as `\/`, `<` and `>` as \u003c and \u003e.

struct JSONOut {
    var bytes: [UInt8] = []

    init(capacity: Int = 16_384) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func int<T: BinaryInteger>(_ v: T) {
        if v == 0 { bytes.append(UInt8(ascii: "0")); return }
        var x = v
        if x < 0 { bytes.append(UInt8(ascii: "-")); x = 0 - x }
        var digits: [UInt8] = []
        while x > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(x % 10))
            x /= 10
        }
        bytes.append(contentsOf: digits.reversed())
    }

    mutating func bool(_ b: Bool) { if b { raw("true") } else { raw("false") } }

    /// A quoted, escaped JSON string.
    mutating func str(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for u in s.unicodeScalars {
            let v = u.value
            switch v {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x2F: raw("\\/")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x3C, 0x3E, 0..<0x20: hex4(v)
            case 0x20..<0x7F: bytes.append(UInt8(v))
            case 0x10000...:
                let w = v - 0x10000
                hex4(0xD800 + (w >> 10))
                hex4(0xDC00 + (w & 0x3FF))
            default: hex4(v)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string value as Go's encoder writes it (Jetstream): UTF-8 as is,
    /// `/` unescaped, `<`, `>` and `&` as \u escapes.
    mutating func utf8Str(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for u in s.unicodeScalars {
            let v = u.value
            switch v {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x3C, 0x3E, 0x26, 0..<0x20: hex4(v)
            default: UTF8.encode(u) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string value from decimal digits (id_str and the like).
    mutating func strInt<T: BinaryInteger>(_ v: T) {
        bytes.append(UInt8(ascii: "\""))
        int(v)
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func hex4(_ v: UInt32) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(JSONOut.hexDigits[Int((v >> UInt32(shift)) & 0xF)])
        }
    }
}
