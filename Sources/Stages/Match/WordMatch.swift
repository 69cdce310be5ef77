/// Whole-word matching of a `word` term against a tweet's full text (SPEC §2).
///
/// The text has `&amp;` `&lt;` `&gt;` unescaped (the APIs HTML-escape them),
/// is normalised like every key, and matches when some occurrence of the word
/// has neither a letter, a digit nor `_` just before or after it — so
/// `stanford` matches `#Stanford` and `Stanford's`, not `Stanfordian`.
public struct WordMatch: Sendable {
    private let word: [Unicode.Scalar]
    /// The word's bytes, when a look at a text's raw bytes can rule it out
    /// (see `mayMatch`): an ASCII word without `&`, `<` or `>`.
    private let needle: [UInt8]?

    /// - Parameter word: the term's normalised key.
    public init(_ word: String) {
        self.word = Array(word.unicodeScalars)
        let bytes = Array(word.utf8)
        needle = !bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E } ? bytes : nil
    }

    /// Whether a text whose raw JSON string bytes are `raw` (`escaped`:
    /// holding backslash escapes) may hold the word; false only when it
    /// cannot, so the text need not be decoded and normalised at all.
    ///
    /// Normalising (NFC, then full lowercasing) makes an ASCII letter out of
    /// a non-ASCII character in exactly two cases, U+212A KELVIN SIGN (`k`)
    /// and U+0130 (`i` and a combining dot; the Unicode tables were checked
    /// code point by code point); HTML unescaping makes only `&`, `<` and
    /// `>`, which the needle never holds; and a JSON escape makes an ASCII
    /// letter only as `\u00XX` with XX below 80. Every other ASCII letter of
    /// the normalised text is a letter of the raw bytes, in either case, and
    /// letters next to each other there are next to each other in the raw
    /// bytes. So raw bytes without the word (ASCII case folded), without
    /// those two characters and without such an escape cannot match.
    ///
    /// - Complexity: O(raw) time, no allocation.
    @inline(__always)
    public func mayMatch(raw: UnsafeRawBufferPointer, escaped: Bool) -> Bool {
        guard let needle else { return true }
        let n = raw.count, m = needle.count
        guard n >= m else { return WordMatch.hasFoldingLetter(raw, escaped: escaped) }
        let first = needle[0]
        let firstUpper = first &- 0x61 < 26 ? first &- 0x20 : first
        var i = 0
        while i <= n - m {
            let b = raw[i]
            if b == first || b == firstUpper {
                var k = 1
                while k < m {
                    let c = raw[i + k]
                    let folded = c &- 0x41 < 26 ? c | 0x20 : c
                    if folded != needle[k] { break }
                    k += 1
                }
                if k == m { return true }
            }
            i += 1
        }
        return WordMatch.hasFoldingLetter(raw, escaped: escaped)
    }

    /// The answer from a text's raw JSON string bytes alone, when they give
    /// it: false when `mayMatch` rules the text out; true when an occurrence
    /// of the word (ASCII case folded) stands between bytes that are, for
    /// certain, neither letters, digits nor `_` once decoded; nil when only
    /// the full match can tell (a `&` that may start an HTML entity, a
    /// character that normalises to an ASCII letter, an escape or a
    /// non-ASCII byte next to an occurrence).
    ///
    /// Away from escapes and non-ASCII bytes, the raw bytes of a text are its
    /// characters, and normalising leaves ASCII alone but for case; an ASCII
    /// byte next to an occurrence is what it looks like unless it belongs to
    /// an escape (`\n`, `\u0041`: then nil). So a definite answer is the
    /// full match's answer.
    ///
    /// - Complexity: O(raw) time, no allocation.
    public func quickMatch(raw: UnsafeRawBufferPointer, escaped: Bool) -> Bool? {
        guard let needle else { return nil }
        guard mayMatch(raw: raw, escaped: escaped) else { return false }
        if WordMatch.hasFoldingLetter(raw, escaped: escaped) { return nil }
        let n = raw.count, m = needle.count
        guard n >= m else { return false }
        var i = 0
        while i <= n - m {
            var k = 0
            while k < m {
                let c = raw[i + k]
                if (c &- 0x41 < 26 ? c | 0x20 : c) != needle[k] { break }
                k += 1
            }
            if k == m && WordMatch.insideEntity(raw, at: i) { return nil }
            if k == m {
                // Before the occurrence: nothing, or a byte whose meaning is certain.
                var left: Bool?  // true: a boundary; false: a word character; nil: unsure
                if i == 0 {
                    left = true
                } else {
                    let b = raw[i - 1]
                    if b >= 0x80 || b == 0x5C {
                        left = nil
                    } else if escaped && (i >= 2 && raw[i - 2] == 0x5C || i >= 6 && raw[i - 6] == 0x5C && raw[i - 5] == 0x75) {
                        left = nil  // the end of an escape
                    } else {
                        left = !WordMatch.isWordByte(b)
                    }
                }
                var right: Bool?
                if i + m == n {
                    right = true
                } else {
                    let b = raw[i + m]
                    right = b >= 0x80 || b == 0x5C ? nil : !WordMatch.isWordByte(b)
                }
                if left == nil || right == nil {
                    // Unsure here, unless the other side rules this occurrence out for certain.
                    if left != false && right != false { return nil }
                } else if left! && right! {
                    return true
                }
            }
            i += 1
        }
        return false
    }

    /// Whether position `i` of `raw` is inside `&amp;`, `&lt;` or `&gt;`,
    /// which unescaping turns into one character: an occurrence there is not
    /// in the text. (An entity elsewhere becomes `&`, `<` or `>`, which is no
    /// word character, as its raw `&` and `;` are not.)
    private static func insideEntity(_ raw: UnsafeRawBufferPointer, at i: Int) -> Bool {
        var j = i - 1
        while j >= 0 && j >= i - 4 {
            if raw[j] == 0x26 {
                for entity in entities where j + entity.count > i && j + entity.count <= raw.count {
                    var same = true
                    for (k, b) in entity.enumerated() where raw[j + k] != b { same = false; break }
                    if same { return true }
                }
                return false
            }
            j -= 1
        }
        return false
    }

    private static let entities: [[UInt8]] = [Array("&amp;".utf8), Array("&lt;".utf8), Array("&gt;".utf8)]

    @inline(__always)
    private static func isWordByte(_ b: UInt8) -> Bool {
        (b &- 0x30 < 10) || (b | 0x20) &- 0x61 < 26 || b == 0x5F
    }

    /// Whether `raw` holds U+212A or U+0130, as UTF-8 (E2 84 AA, C4 B0) or,
    /// in an escaped string, as `\u212a` or `\u0130`; or an escape of an
    /// ASCII character (`\u0000` to `\u007f`).
    private static func hasFoldingLetter(_ raw: UnsafeRawBufferPointer, escaped: Bool) -> Bool {
        let n = raw.count
        var i = 0
        while i + 1 < n {
            let b = raw[i]
            if b == 0xC4 && raw[i + 1] == 0xB0 { return true }
            if b == 0xE2 && i + 2 < n && raw[i + 1] == 0x84 && raw[i + 2] == 0xAA { return true }
            if escaped && b == 0x5C {
                // `\\` is one escape: its second backslash starts nothing.
                if raw[i + 1] != 0x75 { i += 2; continue }
                guard i + 5 < n else { return true }
                let h = (raw[i + 2] | 0x20, raw[i + 3] | 0x20, raw[i + 4] | 0x20, raw[i + 5] | 0x20)
                if h.0 == 0x30 && h.1 == 0x30 && h.2 &- 0x30 < 8 { return true }        // \u0000-\u007f
                if h.0 == 0x32 && h.1 == 0x31 && h.2 == 0x32 && h.3 == 0x61 { return true } // \u212a
                if h.0 == 0x30 && h.1 == 0x31 && h.2 == 0x33 && h.3 == 0x30 { return true } // \u0130
                i += 6
                continue
            }
            i += 1
        }
        return false
    }

    /// Whether `text` (raw, as the tweet has it) holds the word.
    ///
    /// - Complexity: O(text × word) time, O(text) memory.
    public func matches(_ text: String) -> Bool {
        let prepared = WordMatch.prepare(text)
        return matches(prepared: prepared)
    }

    /// Whether already-prepared text (see `prepare`) holds the word.
    public func matches(prepared scalars: [Unicode.Scalar]) -> Bool {
        let n = scalars.count, m = word.count
        guard m > 0, n >= m else { return false }
        var i = 0
        while i <= n - m {
            if scalars[i] == word[0] {
                var k = 1
                while k < m && scalars[i + k] == word[k] { k += 1 }
                if k == m
                    && (i == 0 || !WordMatch.isWordScalar(scalars[i - 1]))
                    && (i + m == n || !WordMatch.isWordScalar(scalars[i + m])) {
                    return true
                }
            }
            i += 1
        }
        return false
    }

    /// Unescapes the three HTML entities, then normalises (NFC, lowercase).
    public static func prepare(_ text: String) -> [Unicode.Scalar] {
        var t = text
        if t.contains("&") {
            t = t.replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return Array(MentionKey.normalize(t).unicodeScalars)
    }

    /// Letters, digits (any script: general categories L* and N*) and `_`.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 0x30 && v <= 0x39) || (v | 0x20 >= 0x61 && v | 0x20 <= 0x7A) || v == 0x5F
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}

import Foundation
