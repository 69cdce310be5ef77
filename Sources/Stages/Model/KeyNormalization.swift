/// SPEC §5's normalisation of a mention key's text: Unicode NFC, then full
/// lowercasing. Here, beneath every stage, so that what keys an account
/// (`HandleBook`'s DIDs and handles) and what keys a mention
/// (`MentionKey`, the interner, the screen) are one rule.
enum KeyNormalization {
    /// `Stanford` → `stanford`, `ＲＯＳＳＩＹＡ` → itself lowercased, `Cafe\u{301}` → `café`.
    static func normalize(_ s: String) -> String {
        var capital = false
        if s.utf8.allSatisfy({ b in capital = capital || b &- 0x41 < 26; return b < 0x80 }) {
            // ASCII without a capital (a key already, as most given again are) is its own normalisation.
            return capital ? String(decoding: s.utf8.map(lowercasedASCII), as: UTF8.self) : s
        }
        return nfc(s).lowercased()
    }

    /// `s` in Unicode NFC, by the standard library's own tables (those its
    /// string comparison uses): a few hundred instructions where Foundation's
    /// `precomposedStringWithCanonicalMapping` takes thousands. ASCII is its own NFC.
    static func nfc(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        return String(decoding: s._nfcCodeUnits, as: UTF8.self)
    }

    /// An ASCII byte as the normalisation leaves it: A to Z lowercased, the
    /// rest as it is (NFC leaves ASCII alone).
    @inline(__always)
    static func lowercasedASCII(_ b: UInt8) -> UInt8 { (b &- 0x41) < 26 ? b | 0x20 : b }
}
