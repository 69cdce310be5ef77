/// Jetstream's events that are no post, recognised in one short walk.
///
/// Most lines of a Jetstream dump are commits of likes, follows, blocks and
/// other records (SPEC §16: notices, skipped). The full walk reaches that
/// answer through every member's dispatch, the platform's fields and
/// `finishSocial`; this one knows the four keys of a commit event and the six
/// of its `commit`, validates every byte with the same scanner, and says
/// only whether the record is such a notice.
///
/// It answers yes only where the full walk would find exactly one notice:
/// any other shape (a top-level key beyond `did`, `time_us`, `kind` and
/// `commit`, a key met twice, an escaped key or name, a value of another
/// type, a `record` before its `collection`, a post or repost created, bad
/// JSON) answers no, and the full walk decodes the record, naming what is
/// wrong. So what a record counts for never depends on this.
extension TweetDecoder {
    /// `{"did":"`, the first bytes of every Jetstream event, as a little-endian word.
    static let jetstreamStart: UInt64 = 0x223A_2264_6964_227B

    /// Whether `record` is a Jetstream commit event that SPEC §16 makes a
    /// notice: a collection other than posts and reposts, or a post or
    /// repost not created (a delete).
    static func isJetstreamNotice(_ record: UnsafeRawBufferPointer) -> Bool {
        guard record.count > 16, let base = record.baseAddress,
              base.loadUnaligned(as: UInt64.self) == jetstreamStart else { return false }
        do {
            if let answer = try canonicalNotice(base.assumingMemoryBound(to: UInt8.self), count: record.count) { return answer }
            var s = JSONScanner(record)
            return try jetstreamNotice(&s)
        } catch {
            return false
        }
    }

    /// Whether the bytes at `i` are `literal`'s.
    @inline(__always)
    private static func has(_ b: UnsafePointer<UInt8>, _ n: Int, at i: Int, _ literal: StaticString) -> Bool {
        let k = literal.utf8CodeUnitCount
        return i &+ k <= n && JSONScanner.sameBytes(b + i, literal.utf8Start, k)
    }

    /// The event as Jetstream writes it, in one straight pass: `did`,
    /// `time_us`, `"kind":"commit"`, then `commit` with `rev`, `operation` and
    /// `collection` first, without white space. Nil where the bytes are laid
    /// out otherwise (before anything is concluded): `jetstreamNotice` then
    /// walks them. A post or repost created is known at its collection,
    /// before its record, so the full walk repeats little.
    private static func canonicalNotice(_ b: UnsafePointer<UInt8>, count n: Int) throws(JSONError) -> Bool? {
        var i = try JSONScanner.scanString(b, from: 8, count: n).end &+ 1  // the DID
        guard has(b, n, at: i, #","time_us":"#), i &+ 11 < n, (b[i &+ 11] &- 0x30) < 10 else { return nil }
        i = try JSONScanner.skipNumber(b, from: i &+ 11, count: n)
        guard has(b, n, at: i, #","kind":"commit""#), has(b, n, at: i &+ 16, #","commit":{"#),
              has(b, n, at: i &+ 27, #""rev":""#) else { return nil }
        i = try JSONScanner.scanString(b, from: i &+ 34, count: n).end &+ 1
        guard has(b, n, at: i, #","operation":""#) else { return nil }
        let op = try JSONScanner.scanString(b, from: i &+ 14, count: n)
        guard !op.escaped else { return false }
        let created = op.end &- (i &+ 14) == 6 && has(b, n, at: i &+ 14, "create")
        i = op.end &+ 1
        guard has(b, n, at: i, #","collection":""#) else { return nil }
        let c = try JSONScanner.scanString(b, from: i &+ 15, count: n)
        guard !c.escaped else { return false }
        let length = c.end &- (i &+ 15)
        let postOrRepost = (length == 18 && has(b, n, at: i &+ 15, "app.bsky.feed.post"))
            || (length == 20 && has(b, n, at: i &+ 15, "app.bsky.feed.repost"))
        if postOrRepost && created { return false }
        i = c.end &+ 1
        // The rest of `commit`: `rkey`, `record` (no post's), `cid`, any other member but those read above.
        var s = JSONScanner(UnsafeRawBufferPointer(start: b, count: n))
        var sawRecord = false
        while true {
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { return false }
            if b[i] == UInt8(ascii: "}") { i &+= 1; break }
            guard b[i] == UInt8(ascii: ",") else { return false }
            i &+= 1
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n, b[i] == UInt8(ascii: "\"") else { return false }
            let key = try JSONScanner.scanString(b, from: i &+ 1, count: n)
            guard !key.escaped else { return false }
            let k = ByteSpan(start: i &+ 1, end: key.end, escaped: false)
            i = key.end &+ 1
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n, b[i] == UInt8(ascii: ":") else { return false }
            s.pos = i &+ 1
            if s.key(k, is: "operation") || s.key(k, is: "collection") { return false }
            if s.key(k, is: "record") {
                guard !postOrRepost, !sawRecord else { return false }
                sawRecord = true
            }
            try s.skipValue()
            i = s.pos
        }
        // Then the event's end.
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "}") else { return false }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        return i == n
    }

    /// Thrown to leave the walk: the full one decides.
    private static var notThisShape: JSONError { JSONError(offset: 0, reason: .unexpectedEnd) }

    private static func jetstreamNotice(_ s: inout JSONScanner) throws(JSONError) -> Bool {
        // Bits of the keys met: did 1, time_us 2, kind 4, commit 8.
        var seen = 0
        var postOrRepost = false, created = false
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            guard !key.escaped else { throw notThisShape }
            let bit: Int
            if s.key(key, is: "did") {
                bit = 1
                guard try s.peek() == UInt8(ascii: "\"") else { throw notThisShape }
                _ = try s.readString()
            } else if s.key(key, is: "time_us") {
                bit = 2
                try s.skipValue()
            } else if s.key(key, is: "kind") {
                bit = 4
                guard try s.peek() == UInt8(ascii: "\"") else { throw notThisShape }
                let kind = try s.readString()
                guard !kind.escaped, s.key(kind, is: "commit") else { throw notThisShape }
            } else if s.key(key, is: "commit") {
                bit = 8
                guard try s.peek() == UInt8(ascii: "{") else { throw notThisShape }
                (postOrRepost, created) = try commit(&s)
            } else {
                throw notThisShape
            }
            guard seen & bit == 0 else { throw notThisShape }
            seen |= bit
        }
        s.skipWhitespace()
        guard s.pos == s.count, seen == 15 else { return false }
        // A post or repost created is a post: the full walk reads it.
        return !(postOrRepost && created)
    }

    /// The `commit` object: whether its collection is posts' or reposts',
    /// and whether its operation is `create`.
    private static func commit(_ s: inout JSONScanner) throws(JSONError) -> (postOrRepost: Bool, created: Bool) {
        // Bits of the keys met: operation 1, collection 2, record 4.
        var seen = 0
        var postOrRepost = false, created = false
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            guard !key.escaped else { throw notThisShape }
            if s.key(key, is: "operation") {
                guard seen & 1 == 0 else { throw notThisShape }
                seen |= 1
                if try s.peek() == UInt8(ascii: "\"") {
                    let op = try s.readString()
                    guard !op.escaped else { throw notThisShape }
                    created = s.key(op, is: "create")
                } else {
                    try s.skipValue()
                }
            } else if s.key(key, is: "collection") {
                guard seen & 2 == 0, try s.peek() == UInt8(ascii: "\"") else { throw notThisShape }
                seen |= 2
                let c = try s.readString()
                guard !c.escaped else { throw notThisShape }
                postOrRepost = s.key(c, is: "app.bsky.feed.post") || s.key(c, is: "app.bsky.feed.repost")
                // A post created goes to the full walk now, not after its record.
                if postOrRepost && created { throw notThisShape }
            } else if s.key(key, is: "record") {
                // Validated and skipped only when its collection, read before it, makes it no post.
                guard seen & 6 == 2, !postOrRepost else { throw notThisShape }
                seen |= 4
                try s.skipValue()
            } else {
                // `rev`, `rkey`, `cid` and any other member: the full walk reads nothing of them for a notice.
                try s.skipValue()
            }
        }
        return (postOrRepost, created)
    }
}
