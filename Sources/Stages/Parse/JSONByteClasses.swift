// The byte classes of JSON escapes, for the scanner's `\u` decoding.

/// Whether all four bytes of `w` are hex digits, with no branch per byte:
/// a byte is one when it lies strictly between 0x2F and 0x3A, or (with the
/// case bit set) strictly between 0x60 and 0x67 (Hacker's Delight's
/// "has byte between" test, exact for bytes below 0x80).
@inline(__always) func areHexDigits(_ w: UInt32) -> Bool {
    let ones: UInt32 = 0x0101_0101, low7: UInt32 = 0x7F7F_7F7F, high: UInt32 = 0x8080_8080
    @inline(__always) func between(_ x: UInt32, _ m: UInt32, _ n: UInt32) -> UInt32 {
        (ones &* (127 &+ n) &- (x & low7)) & ~x & ((x & low7) &+ ones &* (127 &- m)) & high
    }
    let lower = w | 0x2020_2020
    return w & high == 0 && (between(w, 0x2F, 0x3A) | between(lower, 0x60, 0x67)) == high
}

@inline(__always) func isHexDigit(_ c: UInt8) -> Bool {
    c &- 0x30 < 10 || (c | 0x20) &- 0x61 < 6
}
