import Synchronization

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
/// - Complexity: O(1) for a tweet id below 2^63; a lock and a hash of the
///   string for any other, the first time and every time it is met.
public enum PostIdentity {
    /// Numbers from here on stand for interned strings.
    public static let internedBase: UInt64 = 1 << 63

    private struct Table {
        var numbers: [Written: UInt64] = [:]
        var texts: [String] = []
    }

    /// An identity's string keyed by a hash of its bytes worked out before
    /// the lock (`hashValue` feeds SipHash 8 bytes, not the whole URI).
    private struct Written: Hashable {
        let text: String
        let hash: UInt64
        static func == (a: Written, b: Written) -> Bool { a.hash == b.hash && a.text == b.text }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A 64-bit hash of bytes, eight at a time (FNV-style mixing of words).
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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
        return h ^ (h >> 32)
    }
    private static let table = Mutex(Table())

    /// The number of tweet id `id`.
    @inline(__always)
    public static func of(tweetID id: UInt64) -> UInt64 {
        id < internedBase ? id : interned(String(id))
    }

    /// The number of an identity written as a string (a URI, or a tweet id's decimal digits).
    public static func interned(_ text: String) -> UInt64 {
        var text = text
        let h = text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
        return interned(Written(text: text, hash: h))
    }

    /// The number of an identity given as its UTF-8 bytes (a URI a decoder
    /// put together in a buffer of its own): the string is made only the
    /// first time.
    public static func interned(bytes: UnsafeRawBufferPointer) -> UInt64 {
        interned(Written(text: String(decoding: bytes, as: UTF8.self), hash: hash(bytes)))
    }

    private static func interned(_ key: Written) -> UInt64 {
        table.withLock { t in
            let next = internedBase + UInt64(t.texts.count)
            // One look-up: the entry is made with `next` when the key is new.
            let n = Self.take(&t.numbers[key, default: next])
            if n == next { t.texts.append(key.text) }
            return n
        }
    }

    @inline(__always)
    private static func take(_ value: inout UInt64) -> UInt64 { value }

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
