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
        var numbers: [String: UInt64] = [:]
        var texts: [String] = []
    }
    private static let table = Mutex(Table())

    /// The number of tweet id `id`.
    @inline(__always)
    public static func of(tweetID id: UInt64) -> UInt64 {
        id < internedBase ? id : interned(String(id))
    }

    /// The number of an identity written as a string (a URI, or a tweet id's decimal digits).
    public static func interned(_ text: String) -> UInt64 {
        table.withLock { t in
            if let n = t.numbers[text] { return n }
            let n = internedBase + UInt64(t.texts.count)
            t.texts.append(text)
            t.numbers[text] = n
            return n
        }
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

    /// Whether `s` can be a post's URI identity: `scheme://…` without white
    /// space, so that extract lines carry it and `parse` reads it back.
    public static func isURI<S: StringProtocol>(_ s: S) -> Bool {
        s.contains("://") && !s.contains(where: { $0.isWhitespace })
    }
}
