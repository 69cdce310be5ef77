// A seeded PRNG (xoshiro256**, seeded through SplitMix64) and a Zipf sampler:
// the generator's output depends on the seed alone, on every machine.

struct Rng {
    private var s0, s1, s2, s3: UInt64

    init(seed: UInt64) {
        var x = seed
        func splitmix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitmix(); s1 = splitmix(); s2 = splitmix(); s3 = splitmix()
    }

    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// Uniform in 0..<n (n > 0), by the multiply-high method.
    mutating func below(_ n: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform in lo...hi.
    mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + below(hi - lo + 1) }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
}

/// Ranks 0..<n drawn with probability proportional to 1 / (rank + 1)^s.
struct Zipf {
    private let cumulative: [Double]

    init(count n: Int, exponent s: Double) {
        var c = [Double](repeating: 0, count: n)
        var total = 0.0
        for k in 0..<n {
            total += 1.0 / pow(Double(k + 1), s)
            c[k] = total
        }
        cumulative = c.map { $0 / total }
    }

    func sample(_ r: inout Rng) -> Int {
        let u = r.unit()
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FNV-1a, 64 bits: the fingerprint `generate` prints for its output.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var h = value
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        value = h
    }
}
