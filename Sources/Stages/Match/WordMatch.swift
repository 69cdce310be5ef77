/// Whole-word matching of a `word` term against a tweet's full text (SPEC §2).
///
/// The text has `&amp;` `&lt;` `&gt;` unescaped (the APIs HTML-escape them),
/// is normalised like every key, and matches when some occurrence of the word
/// has neither a letter, a digit nor `_` just before or after it — so
/// `stanford` matches `#Stanford` and `Stanford's`, not `Stanfordian`.
public struct WordMatch: Sendable {
    private let word: [Unicode.Scalar]

    /// - Parameter word: the term's normalised key.
    public init(_ word: String) {
        self.word = Array(word.unicodeScalars)
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
