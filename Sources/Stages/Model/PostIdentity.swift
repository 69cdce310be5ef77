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
    static let shardCount = 128
    static let shardShift: UInt64 = 56

    /// One shard's strings, in memory of its own (no array headers): a
    /// string met the first time writes its slot, its record at the end of
    /// the arena and the table's fields beside the shard's lock, and no
    /// other cache line. With workers interning at once, every line a new
    /// string writes may have been the other core's last; fewer lines,
    /// fewer such moves (arrays wrote eight a string).
    ///
    /// Its storage lives as long as the process (the shards never go
    /// away); a table made by a test is small and left to the process too.
    struct Table {
        /// By hash: `check << 40 | (record + 1)` (0: empty), `record` a
        /// string's place in the arena in 8-byte words and `check` 24 bits
        /// of its hash, so a string met again is found by its bytes. Open
        /// addressing, at most half of the slots full, eight bytes a slot:
        /// one cache line read for a string met the first time. Strings
        /// whose hashes agree in those bits (or in all 64) take slots of
        /// their own, further on, told apart by their bytes: exact.
        private var slots: UnsafeMutablePointer<UInt64>?
        private var slotCount = 0
        private var used = 0
        /// The strings one after another, each a record on an 8-byte
        /// boundary: its whole hash (8 bytes, for placing it again when the
        /// slots grow), its length (8 bytes), its UTF-8. A string's index
        /// is where its record starts, in words. No `String` is made until
        /// one is asked for (`text`).
        private var arena: UnsafeMutableRawPointer?
        private var arenaUsed = 0
        private var arenaCapacity = 0
        /// How many strings the table holds.
        private(set) var count = 0

        /// String `i`.
        func text(_ i: Int) -> String {
            withBytes(i) { String(decoding: $0, as: UTF8.self) }
        }

        /// Every string, in the order first met (for tests).
        var texts: [String] {
            var out: [String] = [], i = 0
            while i * 8 < arenaUsed {
                out.append(text(i))
                i += Self.words(of: Int(arena!.load(fromByteOffset: i * 8 + 8, as: UInt64.self)))
            }
            return out
        }

        /// The words a record of a string of `length` bytes takes.
        @inline(__always)
        private static func words(of length: Int) -> Int { 2 + (length + 7) / 8 }

        /// The UTF-8 of string `i`.
        func withBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            let record = arena! + i * 8
            return body(UnsafeRawBufferPointer(start: record + 16, count: Int(record.load(fromByteOffset: 8, as: UInt64.self))))
        }

        /// The index of the string of `bytes` (valid UTF-8) with hash `h`,
        /// appended when it is new.
        mutating func number(hash h: UInt64, bytes text: UnsafeRawBufferPointer) -> Int {
            if used * 2 >= slotCount { grow() }
            let slots = self.slots!
            let mask = slotCount - 1
            let check = Self.check(h)
            var slot = Int(truncatingIfNeeded: h) & mask
            while true {
                let v = slots[slot]
                if v == 0 { break }
                if v >> 40 == check {
                    let known = Int(truncatingIfNeeded: v & (1 << 40 - 1)) - 1
                    if withBytes(known, { Self.same($0, text) }) { return known }
                }
                slot = (slot + 1) & mask
            }
            let index = append(text, hash: h)
            slots[slot] = check << 40 | UInt64(index + 1)
            used += 1
            return index
        }

        /// The bits of a hash a slot keeps: above those that choose the
        /// slot (the low ones), below those that choose the shard (the top seven).
        @inline(__always)
        private static func check(_ h: UInt64) -> UInt64 { h >> 32 & 0xFF_FFFF }

        private mutating func append(_ text: UnsafeRawBufferPointer, hash h: UInt64) -> Int {
            let size = Self.words(of: text.count) * 8
            if arenaUsed + size > arenaCapacity {
                arenaCapacity = max(64 << 10, arenaCapacity * 2, arenaUsed + size)
                guard let grown = realloc(arena, arenaCapacity) else { fatalError("out of memory interning a post's identity") }
                arena = grown
            }
            let record = arena! + arenaUsed
            record.storeBytes(of: h, as: UInt64.self)
            record.storeBytes(of: UInt64(text.count), toByteOffset: 8, as: UInt64.self)
            if !text.isEmpty { (record + 16).copyMemory(from: text.baseAddress!, byteCount: text.count) }
            let index = arenaUsed / 8
            // A slot holds the place in 40 bits: 8 TiB of strings a shard.
            precondition(index < 1 << 40 - 1, "too many post identities for one process")
            arenaUsed += size
            count += 1
            return index
        }

        /// Doubles the slots (1,024 at first), each string placed again by
        /// its hash, the arena read in order.
        private mutating func grow() {
            let size = max(1024, slotCount * 2)
            let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
            grown.initialize(repeating: 0, count: size)
            let mask = size - 1
            var at = 0
            while at < arenaUsed {
                let h = arena!.load(fromByteOffset: at, as: UInt64.self)
                let length = Int(arena!.load(fromByteOffset: at + 8, as: UInt64.self))
                var slot = Int(truncatingIfNeeded: h) & mask
                while grown[slot] != 0 { slot = (slot + 1) & mask }
                grown[slot] = Self.check(h) << 40 | UInt64(at / 8 + 1)
                at += Self.words(of: length) * 8
            }
            slots?.deallocate()
            slots = grown
            slotCount = size
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
    /// two workers locking two shards do not write to one line. A shard is
    /// its lock word, then its table.
    nonisolated(unsafe) private static let shardBase: UnsafeMutableRawPointer = {
        precondition(tableOffset + MemoryLayout<Table>.size <= shardStride)
        let p = UnsafeMutableRawPointer.allocate(byteCount: shardCount * shardStride, alignment: shardStride)
        for k in 0..<shardCount {
            (p + k * shardStride).bindMemory(to: Atomic<UInt32>.self, capacity: 1).initialize(to: Atomic(0))
            (p + k * shardStride + tableOffset).bindMemory(to: Table.self, capacity: 1).initialize(to: Table())
        }
        return p
    }()
    private static let shardStride = 128
    private static let tableOffset = 16

    /// Runs `body` on shard `k`'s table under the shard's lock.
    ///
    /// The lock is a word taken with a compare-and-swap and given back with
    /// a plain releasing store: a locked instruction at the end would wait
    /// for every store of a string just kept (its record's new cache lines)
    /// to leave the core, where the store lets them drain as the decoder
    /// goes on. It is held for one look-up, so a thread that finds it taken
    /// spins a little, then yields the core (the holder may be waiting for
    /// one: the workers and the merge can outnumber the cores).
    @inline(__always)
    private static func withShard<R>(_ k: Int, _ body: (inout Table) -> R) -> R {
        let cell = shardBase + k * shardStride
        let lock = cell.assumingMemoryBound(to: Atomic<UInt32>.self)
        if !lock.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { wait(for: lock) }
        defer { lock.pointee.store(0, ordering: .releasing) }
        return body(&(cell + tableOffset).assumingMemoryBound(to: Table.self).pointee)
    }

    /// Takes a lock another thread holds: spins while it looks taken, yielding now and then.
    private static func wait(for lock: UnsafeMutablePointer<Atomic<UInt32>>) {
        var spins = 0
        while true {
            if lock.pointee.load(ordering: .relaxed) == 0,
               lock.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
            spins += 1
            if spins % 64 == 0 { sched_yield() }
        }
    }

    @inline(__always)
    private static func shard(ofHash h: UInt64) -> Int { Int(truncatingIfNeeded: h >> 57) }

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
        return number(shard: s, index: withShard(s) { $0.number(hash: h, bytes: bytes) })
    }

    /// The identity number `n` stands for, as written out: a tweet's decimal id, or the string.
    public static func text(of n: UInt64) -> String {
        guard n >= internedBase else { return String(n) }
        let (s, i) = place(of: n)
        return withShard(s) { $0.text(i) }
    }

    /// The tweet id number `n` stands for, when it is a tweet's (nil for a URI).
    public static func tweetID(of n: UInt64) -> UInt64? {
        guard n >= internedBase else { return n }
        let (s, i) = place(of: n)
        return withShard(s) { t in
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
        if sa == sb { return withShard(sa) { t in t.withBytes(ia) { x in t.withBytes(ib) { y in order(x, y) } } } }
        // Two locks, always taken in shard order.
        let (lo, hi) = sa < sb ? (sa, sb) : (sb, sa)
        return withShard(lo) { l in
            withShard(hi) { h in
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
