/// An exact non-negative fraction, for `smashtag trend`'s numbers (SPEC §14):
/// a baseline may be a mean or scaled, so `b`, `e`, the score and the ratio
/// are fractions, and they are rounded (half to even, 4 decimals) from
/// their exact values, never from a `Double`'s approximation.
///
/// 128-bit integers hold every value a run can make: counts stay under
/// 2^40, a window's length in seconds under 2^40, `K` under 2^14.
public struct Fraction: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let numerator: Int128
    public let denominator: Int128

    /// `n/d`, reduced; `d` > 0.
    public init(_ n: Int128, _ d: Int128 = 1) {
        precondition(d != 0, "a fraction with denominator 0")
        let g = Fraction.gcd(n < 0 ? -n : n, d < 0 ? -d : d)
        let sign: Int128 = d < 0 ? -1 : 1
        if g == 1 {
            numerator = sign * n
            denominator = sign * d
        } else if n.magnitude <= UInt64.max, d.magnitude <= UInt64.max {
            // A run's counts: a 64-bit division, not a 128-bit one.
            let (nm, dm, gm) = (UInt64(n.magnitude), UInt64(d.magnitude), UInt64(g))
            numerator = (n < 0) != (d < 0) ? -Int128(nm / gm) : Int128(nm / gm)
            denominator = Int128(dm / gm)
        } else {
            numerator = sign * n / g
            denominator = sign * d / g
        }
    }

    public init(_ n: Int) { self.init(Int128(n), 1) }

    /// Of non-negative `a` and `b`; 1 when both are 0.
    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        if a <= Int128(UInt64.max), b <= Int128(UInt64.max) { return Int128(gcd(UInt64(a), UInt64(b))) }
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    /// Binary (Stein's) gcd: shifts and subtractions, no division; 1 when both are 0.
    @inline(__always)
    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        if a == 0 { return b == 0 ? 1 : b }
        if b == 0 { return a }
        let shift = (a | b).trailingZeroBitCount
        var u = a >> a.trailingZeroBitCount, v = b
        repeat {
            v >>= v.trailingZeroBitCount
            if u > v { swap(&u, &v) }
            v -= u
        } while v != 0
        return u << shift
    }

    public static let zero = Fraction(0, 1)
    public static let one = Fraction(1, 1)

    public static func + (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }
    public static func - (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator)
    }
    public static func * (a: Fraction, b: Fraction) -> Fraction {
        if a.numerator.magnitude <= UInt64.max, b.numerator.magnitude <= UInt64.max,
           a.denominator <= Int128(UInt64.max), b.denominator <= Int128(UInt64.max) {
            // A run's counts: cross-reduced and divided in 64 bits, multiplied in 128 (no 128-bit division).
            let (an, bn) = (UInt64(a.numerator.magnitude), UInt64(b.numerator.magnitude))
            let (ad, bd) = (UInt64(a.denominator), UInt64(b.denominator))
            let g1 = gcd(an, bd), g2 = gcd(bn, ad)
            let n = Int128(an / g1) * Int128(bn / g2)
            return Fraction((a.numerator < 0) != (b.numerator < 0) ? -n : n, Int128(ad / g2) * Int128(bd / g1))
        }
        // Cross-reduced first, so the products stay small.
        let g1 = gcd(abs(a.numerator), b.denominator), g2 = gcd(abs(b.numerator), a.denominator)
        return Fraction((a.numerator / g1) * (b.numerator / g2), (a.denominator / g2) * (b.denominator / g1))
    }
    public static func / (a: Fraction, b: Fraction) -> Fraction {
        precondition(b.numerator != 0, "division by zero")
        return a * Fraction(b.denominator, b.numerator)
    }
    public static func < (a: Fraction, b: Fraction) -> Bool {
        let small = Int128(Int64.max)
        if a.numerator.magnitude <= small.magnitude, b.numerator.magnitude <= small.magnitude,
           a.denominator <= small, b.denominator <= small {
            // Products of values under 2^63 fit in 128 bits: no overflow check.
            return a.numerator &* b.denominator < b.numerator &* a.denominator
        }
        return a.numerator * b.denominator < b.numerator * a.denominator
    }

    public var isZero: Bool { numerator == 0 }

    /// The value rounded half to even to 4 decimals, trailing zeros (and a
    /// bare point) dropped: `3`, `0.1667`, `24.5`, `0.0001`.
    public var description: String {
        let made = String(unsafeUninitializedCapacity: Fraction.digitsCapacity) { digits(into: $0) }
        return made.isEmpty ? Fraction.wide(self) : made
    }

    /// Appends `description`'s bytes to `out` (a CSV's rows: no string made).
    public func write(into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Fraction.digitsCapacity) { buffer in
            let count = digits(into: buffer)
            if count > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count])) }
            else { out.append(contentsOf: Fraction.wide(self).utf8) }
        }
    }

    private static let digitsCapacity = 48

    /// `description`'s bytes written into `out` (room for `digitsCapacity`);
    /// 0 for a value past 64 bits once scaled by 10^4 (never made by a run: `wide`).
    private func digits(into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let negative = numerator < 0
        let n = negative ? -numerator : numerator
        // A row prints five of these: in 64 bits when the scaled value fits (every count a run makes).
        let q: UInt64
        if n <= Int128(UInt64.max / 20_000), denominator <= Int128(UInt64.max / 2) {
            q = Fraction.rounded(UInt64(n) * 10_000, UInt64(denominator))
        } else {
            guard let r = Fraction.scaledRounded(n, denominator), r <= Int128(UInt64.max) else { return 0 }
            q = UInt64(r)
        }
        var count = 0
        func put(_ b: UInt8) { out[count] = b; count += 1 }
        if q == 0 { put(UInt8(ascii: "0")); return count }
        var whole = q / 10_000, frac = q % 10_000
        // Written backwards (decimals without trailing zeros, the point, the whole part, the sign), then turned round.
        var decimals = 4
        while decimals > 0 && frac % 10 == 0 { frac /= 10; decimals -= 1 }
        for _ in 0..<decimals { put(UInt8(ascii: "0") + UInt8(frac % 10)); frac /= 10 }
        if decimals > 0 { put(UInt8(ascii: ".")) }
        repeat { put(UInt8(ascii: "0") + UInt8(whole % 10)); whole /= 10 } while whole > 0
        if negative { put(UInt8(ascii: "-")) }
        out[0..<count].reverse()
        return count
    }

    /// `n / d` scaled by 10^4, rounded half to even, in 128 bits (nil past them).
    private static func scaledRounded(_ n: Int128, _ d: Int128) -> Int128? {
        let (scaled, overflow) = n.multipliedReportingOverflow(by: 10_000)
        guard !overflow else { return nil }
        var r = scaled / d
        let rest = scaled % d
        if 2 * rest > d || (2 * rest == d && r % 2 == 1) { r += 1 }
        return r
    }

    /// `scaled / d` rounded half to even.
    @inline(__always)
    private static func rounded(_ scaled: UInt64, _ d: UInt64) -> UInt64 {
        var q = scaled / d
        let r = scaled % d
        if r > d - r || (r == d - r && q % 2 == 1) { q += 1 }
        return q
    }

    /// A value past 64 bits once scaled by 10^4 (never made by a run), printed by 128-bit division.
    private static func wide(_ f: Fraction) -> String {
        let negative = f.numerator < 0
        let n = negative ? -f.numerator : f.numerator
        let scaled = n * 10_000
        var q = scaled / f.denominator
        let rest = scaled % f.denominator
        if 2 * rest > f.denominator || (2 * rest == f.denominator && q % 2 == 1) { q += 1 }
        let whole = q / 10_000
        var frac = String(q % 10_000)
        frac = String(repeating: "0", count: 4 - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        return (negative ? "-" : "") + String(whole) + (frac.isEmpty ? "" : "." + frac)
    }

    /// The nearest `Double` (for a chart's bar, never for a printed number).
    public var approximate: Double { Double(numerator) / Double(denominator) }
}

/// The score Mastodon gives a trending tag (`app/models/trends/tags.rb`),
/// as SPEC §14 states it, and what explains it: from `o`, a mention's
/// distinct authors (or tweets) in the current window, and `b`, in the
/// baseline:
///
///     e = b, or 1 when b < 1
///     score = 0 when e > o or o < N, else (o − e)² / e
///     ratio = (o + 1) / (b + 1)
///     status: new (b = 0, o ≥ N), rising (score > 0), falling (o < b), steady
public struct TrendScore: Sendable, Equatable {
    public enum Status: String, Sendable {
        case new, rising, falling, steady
    }

    public let expected: Fraction
    public let score: Fraction
    public let ratio: Fraction
    public let status: Status

    /// - Parameters:
    ///   - current: `o`.
    ///   - baseline: `b` (a mean or scaled count may be a fraction).
    ///   - minimum: `N`, `--min-authors`.
    /// The parts as given (a test's row).
    init(expected: Fraction, score: Fraction, ratio: Fraction, status: Status) {
        self.expected = expected
        self.score = score
        self.ratio = ratio
        self.status = status
    }

    public init(current o: Int, baseline b: Fraction, minimum n: Int) {
        let oo = Fraction(o)
        let e = b < .one ? Fraction.one : b
        expected = e
        if oo < e || o < n {
            score = .zero
        } else {
            let d = oo - e
            score = d * d / e
        }
        ratio = (oo + .one) / (b + .one)
        if b.isZero && o >= n {
            status = .new
        } else if !score.isZero {
            status = .rising
        } else if oo < b {
            status = .falling
        } else {
            status = .steady
        }
    }
}
