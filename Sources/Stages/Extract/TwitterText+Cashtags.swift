/// Cashtags (`$AAPL`), by twitter-text's rule (`extractCashtags`), checked
/// against the conformance suite's `cashtags` sections:
///
///     (start | white space) $ [a-z]{1,6} ([._][a-z]{1,2})?  then (end | white space | ASCII punctuation)
///
/// letters ASCII only, in any case; no digits (`$123`, `$test123`), never
/// glued to what stands before (`text$NO`, `$$NG`, `$OK$NG` keeps `OK` only);
/// a trailing `.` or `_` is not part of the tag (`$TEST.` → `TEST`), and a
/// suffix that does not end well is given back as a regex would
/// (`$ab.cde` → `ab`). The white space is twitter-text's set of Unicode
/// spaces (`isURLSpace`), before the `$` and after the tag alike.
extension TwitterText {
    /// The cashtags of `text`, in order (repeats included), without their
    /// `$`; `range` runs from the `$` to the end of the tag, in Unicode scalars.
    public static func cashtags(in text: String) -> [Entity] {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return [] }
        let s = Array(text.unicodeScalars)
        let n = s.count
        var found: [Entity] = []
        for i in 0..<n where s[i] == "$" {
            if i > 0 && !isURLSpace(s[i - 1]) { continue }
            // The letters: 1 to 6, and not followed by a 7th (no way to end well then).
            var e = i + 1
            while e < n && isASCIILetter(s[e]) { e += 1 }
            let letters = e - (i + 1)
            guard letters >= 1 && letters <= 6 else { continue }
            // An optional `.x`/`_x`/`.xy`/`_xy`, kept only when it ends well.
            if e + 1 < n && (s[e] == "." || s[e] == "_") && isASCIILetter(s[e + 1]) {
                var f = e + 2
                if f < n && isASCIILetter(s[f]) { f += 1 }
                if endsCashtag(s, at: f) {
                    found.append(Entity(text: string(s[(i + 1)..<f]), range: i..<f))
                    continue
                }
            }
            if endsCashtag(s, at: e) { found.append(Entity(text: string(s[(i + 1)..<e]), range: i..<e)) }
        }
        return found
    }

    /// Whether a cashtag may end before `i`: the end, white space or ASCII punctuation.
    private static func endsCashtag(_ s: [Unicode.Scalar], at i: Int) -> Bool {
        guard i < s.count else { return true }
        let c = s[i]
        if isURLSpace(c) { return true }
        switch c.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }
}
