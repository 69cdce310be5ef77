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
/// - Complexity: O(1) for a tweet id below 2^63; a lock, a hash of the
///   bytes and a compare with the string kept for any other, the first
///   time and every time it is met (a `String` made the first time only).
public enum PostIdentity {
    /// Numbers from here on stand for interned strings.
    public static let internedBase: UInt64 = 1 << 63

    struct Table {
        /// By hash: the number of the first string met with that hash, so a
        /// string met again is found by its bytes, no `String` made. Open
        /// addressing: a slot holds a hash beside its string's index + 1
        /// (0: empty), at most half of the slots full.
        private var slotHashes: [UInt64] = []
        private var slotIndexes: [UInt32] = []
        private var used = 0
        /// Strings whose hash an earlier, different string has (a 64-bit collision: rare, still exact).
        var collided: [String: UInt64] = [:]
        var texts: [String] = []

        /// The number of the string of `bytes` with hash `h`; `make` gives
        /// the string when it is new.
        mutating func number(hash h: UInt64, bytes: UnsafeRawBufferPointer, make: () -> String) -> UInt64 {
            if used * 2 >= slotHashes.count { grow() }
            let mask = slotHashes.count - 1
            var slot = Int(truncatingIfNeeded: h) & mask
            while slotIndexes[slot] != 0 {
                if slotHashes[slot] == h {
                    let first = Int(slotIndexes[slot]) - 1
                    if Self.same(texts[first], bytes) { return internedBase + UInt64(first) }
                    let next = internedBase + UInt64(texts.count)
                    let text = make()
                    let n = Self.take(&collided[text, default: next])
                    if n == next { texts.append(text) }
                    return n
                }
                slot = (slot + 1) & mask
            }
            slotHashes[slot] = h
            slotIndexes[slot] = UInt32(texts.count + 1)
            used += 1
            texts.append(make())
            return internedBase + UInt64(texts.count - 1)
        }

        /// Doubles the slots (4,096 at first), each hash placed again.
        private mutating func grow() {
            let size = max(4096, slotHashes.count * 2)
            var hashes = [UInt64](repeating: 0, count: size), indexes = [UInt32](repeating: 0, count: size)
            let mask = size - 1
            for k in slotIndexes.indices where slotIndexes[k] != 0 {
                var slot = Int(truncatingIfNeeded: slotHashes[k]) & mask
                while indexes[slot] != 0 { slot = (slot + 1) & mask }
                hashes[slot] = slotHashes[k]
                indexes[slot] = slotIndexes[k]
            }
            slotHashes = hashes
            slotIndexes = indexes
        }

        @inline(__always)
        private static func take(_ value: inout UInt64) -> UInt64 { value }

        private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool { text.hasUTF8(bytes) }
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
    private static let table = Mutex(Table())

    /// The number of tweet id `id`.
    @inline(__always)
    public static func of(tweetID id: UInt64) -> UInt64 {
        id < internedBase ? id : interned(String(id))
    }

    /// The number of an identity written as a string (a URI, or a tweet id's decimal digits).
    public static func interned(_ text: String) -> UInt64 {
        var native = text
        return native.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let h = hash(bytes)
            return table.withLock { $0.number(hash: h, bytes: bytes, make: { text }) }
        }
    }

    /// The number of an identity given as its UTF-8 bytes (a URI a decoder
    /// put together in a buffer of its own): the string is made only the
    /// first time. The bytes must be valid UTF-8 (a validated record's, or a
    /// string's: every caller's are), so that the string kept is the bytes.
    public static func interned(bytes: UnsafeRawBufferPointer) -> UInt64 {
        let h = hash(bytes)
        return table.withLock { $0.number(hash: h, bytes: bytes, make: { String(decoding: bytes, as: UTF8.self) }) }
    }

    /// The identity number `n` stands for, as written out: a tweet's decimal id, or the string.
    public static func text(of n: UInt64) -> String {
        guard n >= internedBase else { return String(n) }
        return table.withLock { $0.texts[Int(n - internedBase)] }
    }

    /// The tweet id number `n` stands for, when it is a tweet's (nil for a URI).
    public static func tweetID(of n: UInt64) -> UInt64? {
        n < internedBase ? n : UInt64(text(of: n))
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
