/// Text from the data made safe to show a person: on a terminal, in a page.
///
/// Hashtags, screen names, file and member names come from the input, and
/// the input may hold anything: an escape sequence that clears the screen,
/// a carriage return that overwrites a table row, a right-to-left override
/// that makes `@evil‮moc.ppa` read as another name. Such characters are
/// never written as they are; they are shown as escapes:
///
///     "@x\u{1B}[2J"   →  @x\u001b[2J
///     "#a\rb"         →  #a\rb
///     "@a\u{202E}b"   →  @a\u202eb
///
/// Escaped are the C0 and C1 controls and DEL (`\n`, `\r`, `\t` by their
/// short names), the line and paragraph separators U+2028 and U+2029, and
/// the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069); a backslash is doubled, so that an escape in the output
/// always means an escaped character. Everything else is kept.
public enum VisibleText {
    /// `s` with every character above shown as an escape.
    ///
    /// - Complexity: O(n) time and memory in the length of `s`.
    public static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count + 8)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Whether `scalar` is shown as an escape (or is the backslash).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x5C: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Terminal columns of `s` as terminals count them, code point by code
    /// point (`wcwidth`): East Asian wide and fullwidth characters (CJK,
    /// most emoji) take two, combining marks, format characters and Hangul
    /// medial vowels and final consonants none, everything else one.
    /// Meant for escaped text: controls are counted as one.
    ///
    /// - Complexity: O(n) in the length of `s`, O(log k) per code point for
    ///   the k ranges of wide characters.
    public static func columns(_ s: String) -> Int {
        var n = 0
        for scalar in s.unicodeScalars { n += columns(scalar) }
        return n
    }

    /// Terminal columns of one code point (see `columns(_:)`).
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        return isWide(v) ? 2 : 1
    }

    /// East Asian Width W or F (Unicode 14, assigned code points; runs
    /// separated only by unassigned ones joined), and planes 2 and 3 whole.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB, 0x1F004...0x1F004,
        0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E,
        0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x3FFFD,
    ]

    private static func isWide(_ v: UInt32) -> Bool {
        var lo = 0, hi = wide.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if v < wide[mid].lowerBound { hi = mid - 1 } else if v > wide[mid].upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }
}
