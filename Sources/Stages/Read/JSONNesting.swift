/// Where a byte scan stands in a JSON value's nesting: how deep in `{` and
/// `[` it is, and whether it is inside a string (and just after one of its
/// backslashes). The one brace scan that both the layout decision (does the
/// first object close before its line does?) and the document layout (where
/// does this value end?) run; neither parses, both only find ends.
///
/// Brackets are not matched against each other (`{]` closes): the decoder
/// reports a malformed value, framing only has to find where it stops.
struct JSONNesting {
    /// What one byte did.
    enum Step {
        /// Nothing that ends anything.
        case within
        /// The outermost value ended with this byte: a bracket back to depth 0,
        /// or the closing quote of a string scalar.
        case closed
        /// A line feed that no backslash escapes, in a string (see `inString`) or between tokens.
        case lineFeed
    }

    private(set) var depth = 0
    private(set) var inString = false
    private var escapeNext = false

    /// A scan from before a value's first byte, or (`inString`) from just after the opening quote of a string scalar.
    init(inString: Bool = false) {
        self.inString = inString
    }

    /// Takes the next byte of the value.
    ///
    /// - Parameter lineFeeds: whether to tell line feeds (`.lineFeed`);
    ///   without, they are `.within`, and the document layout's per-byte
    ///   loop (which counts them itself) pays no compare for them: a
    ///   constant once inlined.
    @inline(__always)
    mutating func take(_ ch: UInt8, lineFeeds: Bool = true) -> Step {
        if inString {
            if escapeNext { escapeNext = false }
            else if ch == 0x5C { escapeNext = true }
            else if ch == 0x22 {
                inString = false
                if depth == 0 { return .closed }
            } else if lineFeeds && ch == 0x0A { return .lineFeed }
            return .within
        }
        switch ch {
        case 0x22: inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { return .closed }
        case 0x0A: if lineFeeds { return .lineFeed }
        default: break
        }
        return .within
    }
}
