#if canImport(Glibc)
import Glibc
#endif

/// Turns the raw bytes of JSON strings and numbers into values.
///
/// Decoding happens only for the few strings a report needs (mention keys the
/// first time they are seen, ids, texts for word terms), never for every field.
enum JSONText {
    /// Decodes a string span: resolves escapes, joins `\uD83D\uDE00` surrogate
    /// pairs, and replaces lone surrogates and invalid UTF-8 with U+FFFD.
    static func decode(_ span: ByteSpan, in base: UnsafePointer<UInt8>) -> String {
        let raw = UnsafeBufferPointer(start: base + span.start, count: span.end - span.start)
        if !span.escaped { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: unescape(raw), as: UTF8.self)
    }

    /// The UTF-8 bytes a string span stands for.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        let n = raw.count
        while i < n {
            if raw[i] != 0x5C {
                // The run up to the next escape, as it is, at once.
                let j = memchr(raw.baseAddress! + i, 0x5C, n - i).map { UnsafeRawPointer($0) - UnsafeRawPointer(raw.baseAddress!) } ?? n
                out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[i..<j]))
                i = j
                continue
            }
            guard i + 1 < n else { out.append(0x5C); i += 1; continue }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(raw, i) else { appendScalar(0xFFFD, to: &out); continue }
                i += 4
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate joins the low surrogate right after it.
                    if i + 6 <= n, raw[i] == 0x5C, raw[i + 1] == UInt8(ascii: "u"),
                       let low = hex4(raw, i + 2), (0xDC00...0xDFFF).contains(low) {
                        i += 6
                        appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &out)
                    } else {
                        appendScalar(0xFFFD, to: &out)
                    }
                } else if (0xDC00...0xDFFF).contains(unit) {
                    appendScalar(0xFFFD, to: &out)
                } else {
                    appendScalar(unit, to: &out)
                }
            default: out.append(e)  // \" \\ \/
            }
        }
        return out
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= raw.count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = raw[at + k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    private static func appendScalar(_ v: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// Reads an unsigned 64-bit integer written as plain decimal digits.
    ///
    /// - Returns: nil for an empty span, a sign, a fraction, an exponent,
    ///   any other character, or a value beyond `UInt64.max`. No floating
    ///   point is involved, so 19-digit ids keep every digit.
    static func uint64(_ span: ByteSpan, in base: UnsafePointer<UInt8>) -> UInt64? {
        if span.escaped {
            // Digits written as escapes (`"\u0031\u0032"`) are digits: the id is what the string says.
            let digits = unescape(UnsafeBufferPointer(start: base + span.start, count: span.end - span.start))
            return digits.withUnsafeBufferPointer { d in
                d.baseAddress.flatMap { uint64(ByteSpan(start: 0, end: d.count, escaped: false), in: $0) }
            }
        }
        guard span.end > span.start else { return nil }
        var value: UInt64 = 0
        if span.end &- span.start <= 19 {
            // Nineteen digits or fewer cannot overflow: eight at a time, then one by one.
            var i = span.start
            while i &+ 8 <= span.end {
                guard let eight = eightDigits(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) else { return nil }
                value = value &* 100_000_000 &+ eight
                i &+= 8
            }
            while i < span.end {
                let d = base[i] &- 0x30
                guard d < 10 else { return nil }
                value = value &* 10 &+ UInt64(d)
                i &+= 1
            }
            return value
        }
        for i in span.start..<span.end {
            let d = base[i] &- 0x30
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(d))
            guard !o1, !o2 else { return nil }
            value = s
        }
        return value
    }
}

extension JSONText {
    /// The value of eight ASCII digits read as a little-endian word (the
    /// first digit in the low byte), or nil when a byte is not a digit.
    ///
    /// Pairs, then quads, then the two halves are joined by multiplies
    /// (three steps instead of eight multiply-adds).
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> UInt64? {
        let w = UInt64(littleEndian: word)
        let notDigit = ((w &- 0x3030_3030_3030_3030) | (w &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
        guard notDigit == 0 else { return nil }
        var v = w &- 0x3030_3030_3030_3030
        v = (v &* 10 &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
        v = (v &* 100 &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
        v = (v &* 10000 &+ (v >> 32)) & 0x0000_0000_FFFF_FFFF
        return v
    }

    /// A JSON string: UTF-8 as is, with `"`, `\` and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
