/// The character classes of twitter-text's extraction rules, written from
/// the rules (Unicode general categories plus the few explicit lists the
/// rules name). Every function looks at one Unicode scalar.
extension TwitterText {
    /// Hashtag letters: general categories L* and M* (marks, so that Thai,
    /// Devanagari or a decomposed `é` stay inside the tag).
    @inline(__always)
    static func isHashtagLetter(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// What a hashtag is made of: its letters, decimal digits of any script
    /// (Nd), and the joiners and punctuation the rules allow inside a word:
    /// `_`, ZWNJ, ZWJ, the middle dot, Hebrew geresh/gershayim/maqaf, Tibetan
    /// tsheg, Japanese iteration and sound marks, wave dash and full-width tilde.
    @inline(__always)
    static func isHashtagCharacter(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 || v &- 0x30 < 10 || v == 0x5F }
        if isHashtagLetter(s) || s.properties.generalCategory == .decimalNumber { return true }
        switch v {
        case 0x200C, 0x200D, 0xA67E, 0x05BE, 0x05F3, 0x05F4, 0xFF5E, 0x301C, 0x309B, 0x309C,
             0x30A0, 0x30FB, 0x3003, 0x0F0B, 0x0F0C, 0x00B7:
            return true
        default:
            return false
        }
    }

    @inline(__always)
    static func isHashSign(_ s: Unicode.Scalar) -> Bool { s == "#" || s == "\u{FF03}" }

    @inline(__always)
    static func isAtSign(_ s: Unicode.Scalar) -> Bool { s == "@" || s == "\u{FF20}" }

    /// `[A-Za-z0-9_]`: what a screen name is made of.
    @inline(__always)
    static func isScreenNameCharacter(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x80 && ((v | 0x20) &- 0x61 < 26 || v &- 0x30 < 10 || v == 0x5F)
    }

    @inline(__always)
    static func isASCIILetter(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x80 && (s.value | 0x20) &- 0x61 < 26
    }

    @inline(__always)
    static func isASCIIAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x80 && ((s.value | 0x20) &- 0x61 < 26 || s.value &- 0x30 < 10)
    }

    /// Accented Latin letters and combining diacritics: a screen name glued
    /// to one of them (`@aliceìnheiro`) is a word, not a mention.
    static func isLatinAccent(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x0100...0x024F,
             0x0253, 0x0254, 0x0256, 0x0257, 0x0259, 0x025B, 0x0263, 0x0268, 0x026F, 0x0272,
             0x0289, 0x028B, 0x02BB, 0x0300...0x036F, 0x1E00...0x1EFF:
            return true
        default:
            return false
        }
    }

    /// A character that may stand right before `@name`: not a letter, digit
    /// or `_`, and none of `! # $ % & * @ ＠` (`f!@kn`, `a@b` are no mentions).
    @inline(__always)
    static func mayPrecedeMention(_ s: Unicode.Scalar) -> Bool {
        if isScreenNameCharacter(s) { return false }
        switch s {
        case "!", "#", "$", "%", "&", "*", "@", "\u{FF20}": return false
        default: return true
        }
    }

    /// A character that may stand before `RT` in `RT@name` / `RT:@name`.
    @inline(__always)
    static func mayPrecedeRetweetMark(_ s: Unicode.Scalar) -> Bool {
        if isScreenNameCharacter(s) { return false }
        switch s {
        case "+", "~", ".", "-": return false
        default: return true
        }
    }

    // MARK: URLs

    /// White space as the URL rules see it.
    static func isURLSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200A, 0x2028, 0x2029,
             0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    static func isInvalidCharacter(_ s: Unicode.Scalar) -> Bool {
        s.value == 0xFFFE || s.value == 0xFEFF || s.value == 0xFFFF
    }

    static func isDirectionalMarker(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x202A...0x202E, 0x061C, 0x200E, 0x200F, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A character of a domain label: anything but ASCII punctuation, white
    /// space, the invalid characters and directional marks (so `例え.jp` is
    /// a domain too).
    static func isDomainCharacter(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 {
            if (v | 0x20) &- 0x61 < 26 || v &- 0x30 < 10 { return true }
            if (0x09...0x0D).contains(v) || v == 0x20 { return false }
            // ASCII punctuation is not, but for `"` and `` ` ``, which the rules leave out.
            if (0x21...0x2F).contains(v) || (0x3A...0x40).contains(v) || (0x5B...0x60).contains(v)
                || (0x7B...0x7E).contains(v) {
                return v == 0x22 || v == 0x60
            }
            return true
        }
        return !isURLSpace(s) && !isInvalidCharacter(s) && !isDirectionalMarker(s)
    }

    /// What may stand right before a URL: not a letter or digit, `@`, `$` or `#`.
    static func mayPrecedeURL(_ s: Unicode.Scalar) -> Bool {
        if isDirectionalMarker(s) { return true }
        if isASCIIAlphanumeric(s) || isInvalidCharacter(s) { return false }
        switch s {
        case "@", "\u{FF20}", "$", "#", "\u{FF03}": return false
        default: return true
        }
    }

    /// Letters of a URL path: ASCII and Cyrillic letters, digits, accented Latin.
    @inline(__always)
    private static func isPathLetter(_ s: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(s) || (0x0400...0x04FF).contains(s.value) || isLatinAccent(s)
    }

    /// A character of a URL path.
    static func isPathCharacter(_ s: Unicode.Scalar) -> Bool {
        if isPathLetter(s) { return true }
        switch s {
        case "!", "*", "'", ";", ":", "=", "+", ",", ".", "$", "/", "%", "#", "[", "]", "-",
             "\u{2013}", "_", "~", "&", "|", "@":
            return true
        default:
            return false
        }
    }

    /// A character a URL path may end with (so `site.com/page.` ends before the dot).
    static func isPathEnd(_ s: Unicode.Scalar) -> Bool {
        if isPathLetter(s) { return true }
        switch s {
        case "+", "-", "=", "_", "#", "/": return true
        default: return false
        }
    }

    static func isQueryCharacter(_ s: Unicode.Scalar) -> Bool {
        if isASCIIAlphanumeric(s) { return true }
        switch s {
        case "!", "?", "*", "'", "@", "(", ")", ";", ":", "&", "=", "+", "$", "/", "%", "#", "[", "]",
             "-", "_", ".", ",", "~", "|":
            return true
        default:
            return false
        }
    }

    static func isQueryEnd(_ s: Unicode.Scalar) -> Bool {
        if isASCIIAlphanumeric(s) { return true }
        switch s {
        case "-", "_", "&", "=", "#", "/": return true
        default: return false
        }
    }

    /// `[-a-z0-9]` plus accented Latin: the labels of a domain written
    /// without `http://` must be made of these.
    static func isASCIIDomainCharacter(_ s: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(s) || s == "-" || isLatinAccent(s)
    }
}
