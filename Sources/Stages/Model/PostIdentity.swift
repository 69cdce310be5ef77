import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A post's identity as every path carries it (SPEC §6, §16): one 64-bit
/// number, exact for every kind of id.
///
/// A tweet id below 2^63 (every id Twitter ever gave) is its own number, so
/// tweets cost what they always did: the dedup sets, the parts and the
/// merge see plain integers. Every other identity — an AT-URI
/// (`at://did:plc:…/app.bsky.feed.post/…`), a Mastodon status URI, or a
/// tweet id of 2^63 or more — is interned once per process into a number
/// of 2^63 or more, one per distinct string, so dedup on the numbers is
/// dedup on the strings, exactly. The numbers mean nothing outside the
/// process: what leaves it (extract lines, the store, a report's ids) is
/// the string, `text(of:)`.
///
/// - Complexity: O(1) for a tweet id below 2^63; for any other, a hash
///   of the bytes, one shard's lock and a compare with the bytes kept, the
///   first time and every time it is met (no `String` made: `text(of:)`
///   makes one from the bytes when asked).
public enum PostIdentity {
    /// Numbers from here on stand for interned strings.
    public static let internedBase: UInt64 = 1 << 63

    /// The interned strings are spread over `shardCount` tables by their
    /// hash's top bits, each under a lock of its own, so that two workers
    /// interning at once seldom wait for each other. A number is
    /// `internedBase | shard << shardShift | index in that shard`.
    static let shardCount = 16
    static let shardShift: UInt64 = 56

    /// One shard's strings.
    struct Table {
        /// By hash: a string's index + 1 (0: empty) beside 32 bits of its
        /// hash, so a string met again is found by its bytes. Open
        /// addressing, at most half of the slots full, eight bytes a slot:
        /// one cache line read for a string met the first time, and the
        /// slots of 300,000 AT-URIs in a few megabytes. Strings whose hashes
        /// agree in those bits (or in all 64) take slots of their own,
        /// further on, told apart by their bytes: exact.
        private var slots: [Slot] = []
        private var used = 0
        /// The strings' UTF-8, one after another: string `i` is
        /// `bytes[ends[i - 1] ..< ends[i]]` (from 0 for the first). No
        /// `String` is made until one is asked for (`text`).
        private var bytes: [UInt8] = []
        private var ends: [Int] = []
        /// String `i`'s whole hash, for placing it again when the slots grow.
        private var hashes: [UInt64] = []

        struct Slot {
            var check: UInt32 = 0
            var index: UInt32 = 0
        }

        /// How many strings the table holds.
        var count: Int { ends.count }

        /// String `i`.
        func text(_ i: Int) -> String {
            withBytes(i) { String(decoding: $0, as: UTF8.self) }
        }

        /// Every string, in the order first met (for tests).
        var texts: [String] { (0..<count).map(text) }

        /// The UTF-8 of string `i`.
        func withBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            let start = i == 0 ? 0 : ends[i - 1]
            return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[i]])) }
        }

        /// The index of the string of `bytes` (valid UTF-8) with hash `h`,
        /// appended when it is new.
        mutating func number(hash h: UInt64, bytes text: UnsafeRawBufferPointer) -> Int {
            if used * 2 >= slots.count { grow() }
            let mask = slots.count - 1
            let check = Self.check(h)
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot].index != 0 {
                if slots[slot].check == check {
                    let known = Int(slots[slot].index) - 1
                    if withBytes(known, { Self.same($0, text) }) { return known }
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = Slot(check: check, index: UInt32(count + 1))
            used += 1
            hashes.append(h)
            return append(text)
        }

        /// The bits of a hash a slot keeps: above those that choose the
        /// slot (the low ones) and the shard (the top four).
        @inline(__always)
        private static func check(_ h: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: h >> 28) }

        private mutating func append(_ text: UnsafeRawBufferPointer) -> Int {
            bytes.append(contentsOf: text)
            ends.append(bytes.count)
            return ends.count - 1
        }

        /// Doubles the slots (4,096 at first), each string placed again by its hash.
        private mutating func grow() {
            let size = max(4096, slots.count * 2)
            var grown = [Slot](repeating: Slot(), count: size)
            let mask = size - 1
            for (i, h) in hashes.enumerated() {
                var slot = Int(truncatingIfNeeded: h) & mask
                while grown[slot].index != 0 { slot = (slot + 1) & mask }
                grown[slot] = Slot(check: Self.check(h), index: UInt32(i + 1))
            }
            slots = grown
        }

        @inline(__always)
        private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
    }

    /// A 64-bit hash of bytes, eight at a time (FNV-style mixing of words).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
        h = (h ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        // A full final mix: the table takes a slot from the low bits, which AT-URIs that differ
        // only in their record keys left alike (two thirds of the slots met, `HashSpreadTests`).
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ h >> 33
    }
    /// The shards, allocated once and never freed (they live as long as the
    /// process), each on cache lines of its own (`shardStride` bytes apart):
    /// two workers locking two shards do not write to one line.
    nonisolated(unsafe) private static let shardBase: UnsafeMutableRawPointer = {
        precondition(MemoryLayout<Mutex<Table>>.size <= shardStride)
        let p = UnsafeMutableRawPointer.allocate(byteCount: shardCount * shardStride, alignment: shardStride)
        for k in 0..<shardCount {
            (p + k * shardStride).bindMemory(to: Mutex<Table>.self, capacity: 1).initialize(to: Mutex(Table()))
        }
        return p
    }()
    private static let shardStride = 128

    /// Shard `k`'s table under its lock.
    @inline(__always)
    private static func shards(_ k: Int) -> UnsafeMutablePointer<Mutex<Table>> {
        (shardBase + k * shardStride).assumingMemoryBound(to: Mutex<Table>.self)
    }

    @inline(__always)
    private static func shard(ofHash h: UInt64) -> Int { Int(truncatingIfNeeded: h >> 60) }

    @inline(__always)
    private static func number(shard: Int, index: Int) -> UInt64 {
        internedBase | UInt64(shard) << shardShift | UInt64(index)
    }

    /// The shard and index of interned number `n` (n ≥ `internedBase`).
    @inline(__always)
    private static func place(of n: UInt64) -> (shard: Int, index: Int) {
        let local = n & ~internedBase
        return (Int(truncatingIfNeeded: local >> shardShift), Int(truncatingIfNeeded: local & (1 << shardShift - 1)))
    }

    /// The number of tweet id `id`.
    @inline(__always)
    public static func of(tweetID id: UInt64) -> UInt64 {
        id < internedBase ? id : interned(String(id))
    }

    /// The number of an identity written as a string (a URI, or a tweet id's decimal digits).
    public static func interned(_ text: String) -> UInt64 {
        var native = text
        return native.withUTF8 { interned(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The number of an identity given as its UTF-8 bytes (a URI a decoder
    /// put together in a buffer of its own): the bytes are kept the first
    /// time, no string made. The bytes must be valid UTF-8 (a validated
    /// record's, or a string's: every caller's are), so that the string
    /// given back is the bytes.
    public static func interned(bytes: UnsafeRawBufferPointer) -> UInt64 {
        let h = hash(bytes)
        let s = shard(ofHash: h)
        return number(shard: s, index: shards(s).pointee.withLock { $0.number(hash: h, bytes: bytes) })
    }

    /// The identity number `n` stands for, as written out: a tweet's decimal id, or the string.
    public static func text(of n: UInt64) -> String {
        guard n >= internedBase else { return String(n) }
        let (s, i) = place(of: n)
        return shards(s).pointee.withLock { $0.text(i) }
    }

    /// The tweet id number `n` stands for, when it is a tweet's (nil for a URI).
    public static func tweetID(of n: UInt64) -> UInt64? {
        guard n >= internedBase else { return n }
        let (s, i) = place(of: n)
        return shards(s).pointee.withLock { t in
            t.withBytes(i) { b -> UInt64? in
                // Decimal digits only (a URI holds `://`), as `UInt64(String)` reads them.
                guard !b.isEmpty, b.count <= 20, b.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
                return UInt64(String(decoding: b, as: UTF8.self))
            }
        }
    }

    /// Whether interned identity `a`'s bytes come before `b`'s (both ≥ `internedBase`), no string made.
    public static func bytesPrecede(_ a: UInt64, _ b: UInt64) -> Bool {
        let (sa, ia) = place(of: a), (sb, ib) = place(of: b)
        func order(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
            let n = min(x.count, y.count)
            let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
            return c != 0 ? c < 0 : x.count < y.count
        }
        if sa == sb { return shards(sa).pointee.withLock { t in t.withBytes(ia) { x in t.withBytes(ib) { y in order(x, y) } } } }
        // Two locks, always taken in shard order.
        let (lo, hi) = sa < sb ? (sa, sb) : (sb, sa)
        return shards(lo).pointee.withLock { l in
            shards(hi).pointee.withLock { h in
                let (ta, tb) = sa < sb ? (l, h) : (h, l)
                return ta.withBytes(ia) { x in tb.withBytes(ib) { y in order(x, y) } }
            }
        }
    }

    /// The number of an identity as extract lines write it: decimal digits
    /// (a tweet id of up to 64 bits) or a URI (`scheme://…`); nil for anything else.
    public static func parse(_ s: Substring) -> UInt64? {
        if let id = UInt64(s) { return of(tweetID: id) }
        guard isURI(s) else { return nil }
        return interned(String(s))
    }

    /// `isURI` of text given as bytes, when they are ASCII (nil otherwise:
    /// ask `isURI` of the string, which knows white space beyond ASCII).
    public static func isASCIIURI(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        for b in bytes where b <= 0x20 || b >= 0x80 {
            if b >= 0x80 { return nil }
            if b == 0x20 || b &- 0x09 < 5 { return false }
        }
        // `scheme://`: a `:` and two `/` anywhere.
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/") { return true }
            i += 1
        }
        return false
    }

    /// Whether `s` can be a post's URI identity: `scheme://…` without white
    /// space, so that extract lines carry it and `parse` reads it back.
    ///
    /// - Complexity: one pass over the bytes; text beyond ASCII (rare in a
    ///   URI) asks Swift's `Character.isWhitespace` (NBSP, U+2028, …).
    public static func isURI<S: StringProtocol>(_ s: S) -> Bool {
        var scheme = false, ascii = true
        var last: (UInt8, UInt8) = (0, 0)
        for b in s.utf8 {
            if b >= 0x80 { ascii = false } else if b == 0x20 || (0x09...0x0D).contains(b) { return false }
            if b == UInt8(ascii: "/") && last == (UInt8(ascii: ":"), UInt8(ascii: "/")) { scheme = true }
            last = (last.1, b)
        }
        return scheme && (ascii || !s.contains(where: { $0.isWhitespace }))
    }
}

extension String {
    /// Whether this string's UTF-8 is `bytes`.
    func hasUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var text = self
        return text.withUTF8 { t in
            t.count == bytes.count && (t.isEmpty || memcmp(t.baseAddress!, bytes.baseAddress!, t.count) == 0)
        }
    }
}
