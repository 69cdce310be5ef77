// Byte classes the framers and the parsers share (ASCII; one compare or two each).

/// JSON white space: space, LF, CR, tab (one compare for the usual byte above 0x20).
@inline(__always) func isSpace(_ c: UInt8) -> Bool {
    c <= 0x20 && (UInt64(0x1_0000_2600) >> UInt64(c)) & 1 == 1
}

/// `0` to `9`.
@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
