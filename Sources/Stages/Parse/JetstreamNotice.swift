/// Jetstream's events, the many that are no post recognised in one short
/// walk, and a post's first members read once.
///
/// Most lines of a Jetstream dump are commits of likes, follows, blocks and
/// other records (SPEC §16: notices, skipped). The full walk reaches that
/// answer through every member's dispatch, the platform's fields and
/// `finishSocial`; this one knows the four keys of a commit event and the six
/// of its `commit`, validates every byte with the same scanner, and says
/// whether the record is such a notice.
///
/// It answers yes only where the full walk would find exactly one notice:
/// any other shape (a top-level key beyond `did`, `time_us`, `kind` and
/// `commit`, a key met twice, an escaped key or name, a value of another
/// type, a `record` before its `collection`, bad JSON) answers no, and the
/// full walk decodes the record, naming what is wrong. So what a record
/// counts for never depends on this.
///
/// A post or repost created, laid out as Jetstream writes it, is known at
/// its collection: what was read up to there (the DID, the time, the kind,
/// the operation and the collection) is handed to `jetstreamPost`, which
/// reads the rest of `commit` as the full walk does, member by member, and
/// falls back to the full walk on any error or any member after `commit`.
extension TweetDecoder {
    /// `{"did":"`, the first bytes of every Jetstream event, as a little-endian word.
    static let jetstreamStart: UInt64 = 0x223A_2264_6964_227B

    /// What the first members of a post or repost created hold, as the full
    /// walk would have kept them, and where the rest of its `commit` begins.
    struct JetstreamPostStart {
        var did = ByteSpan(start: 0, end: 0, escaped: false)
        var time = ByteSpan(start: 0, end: 0, escaped: false)
        var kind = ByteSpan(start: 0, end: 0, escaped: false)
        var operation = ByteSpan(start: 0, end: 0, escaped: false)
        var collection = ByteSpan(start: 0, end: 0, escaped: false)
        var next = 0
        /// An identity event's `identity.did` and `identity.handle` (nil: none, or not a string).
        var identityDID: ByteSpan?
        var identityHandle: ByteSpan?
        /// `identity.spelled`: how often texts spelled the handle (`spelledCount`).
        var identitySpelled: Int?
    }

    enum JetstreamEvent {
        /// A commit that SPEC §16 makes a notice.
        case notice
        /// A post or repost created, as Jetstream writes it: its first members are in the `start` given.
        case post
        /// An identity event as Jetstream writes it (a notice that names a handle): its DID, time and
        /// `identity` members are in the `start` given.
        case identity
        /// Anything else: the full walk reads it.
        case other
    }

    /// What `record` is, as far as the short walk can tell; for a post,
    /// what its first members hold, in `start`.
    static func jetstreamEvent(_ record: UnsafeRawBufferPointer, start: inout JetstreamPostStart) -> JetstreamEvent {
        guard record.count > 16, let base = record.baseAddress,
              base.loadUnaligned(as: UInt64.self) == jetstreamStart else { return .other }
        do {
            if let event = try canonicalEvent(base.assumingMemoryBound(to: UInt8.self), count: record.count, start: &start) { return event }
            var s = JSONScanner(record)
            return try jetstreamNotice(&s) ? .notice : .other
        } catch {
            return .other
        }
    }

    /// Whether `record` is a Jetstream commit event that SPEC §16 makes a
    /// notice: a collection other than posts and reposts, or a post or
    /// repost not created (a delete).
    static func isJetstreamNotice(_ record: UnsafeRawBufferPointer) -> Bool {
        var start = JetstreamPostStart()
        return jetstreamEvent(record, start: &start) == .notice
    }

    /// Decodes the rest of a post or repost created whose first members
    /// `start` holds, into `objects` and `outputs` as the full walk would;
    /// false (and the decoder's state to be reset) on any error, for the
    /// full walk to name it.
    func jetstreamPost(_ start: JetstreamPostStart, in record: UnsafeRawBufferPointer) -> Bool {
        var s = JSONScanner(record)
        s.pos = start.next
        // Its fields are built in place, the post's object appended first
        // (nothing of a Jetstream commit appends an object of its own on the
        // way), where building them aside cost two copies of half a kilobyte a post.
        let index = objects.count
        objects.append(TweetFields())
        let i = social(&objects[index])
        socials[i].did = start.did
        socials[i].timeUS = start.time
        socials[i].eventKind = start.kind
        socials[i].operation = start.operation
        socials[i].collection = start.collection
        do {
            // The rest of `commit`, each member as the full walk reads it.
            try s.forEachRemainingMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                try self.commitMember(&s, key: k, social: i)
            }
        } catch {
            return false
        }
        // Then the event's end (a member after `commit`, which Jetstream never writes: the full walk).
        s.skipWhitespace()
        guard s.pos < s.count, s.base[s.pos] == UInt8(ascii: "}") else { return false }
        s.pos &+= 1
        s.skipWhitespace()
        guard s.pos == s.count else { return false }
        // A commit event's fields read no other object (`finishSocial`'s feed items do).
        finishSocial(&objects[index])
        guard objects.count == index + 1 else { return false }
        conclude(index)
        return true
    }

    /// An identity object's `spelled` member (smashtag's own, which a store's
    /// snapshot writes: `HandleBook.identity`): a count of 1 to 2^31 − 1,
    /// else nil (the event names its handle, as any identity event does).
    static func spelledCount(_ s: inout JSONScanner) throws(JSONError) -> Int? {
        guard let c = try? s.peek(), c &- 0x30 < 10 else { try s.skipValue(); return nil }
        let n = try s.readNumber()
        guard let v = JSONText.uint64(n, in: s.base), v >= 1, v < 1 << 31 else { return nil }
        return Int(v)
    }

    /// Thrown to leave the walk: the full one decides.
    private static var notThisShape: JSONError { JSONError(offset: 0, reason: .unexpectedEnd) }

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
    /// before its record: `.post`, with what was read.
    private static func canonicalEvent(_ b: UnsafePointer<UInt8>, count n: Int,
                                       start: inout JetstreamPostStart) throws(JSONError) -> JetstreamEvent? {
        let didEnd = try JSONScanner.scanString(b, from: 8, count: n)
        var i = didEnd.end &+ 1
        guard has(b, n, at: i, #","time_us":"#), i &+ 11 < n, (b[i &+ 11] &- 0x30) < 10 else { return nil }
        let timeStart = i &+ 11
        i = try JSONScanner.skipNumber(b, from: timeStart, count: n)
        let time = ByteSpan(start: timeStart, end: i, escaped: false)
        if has(b, n, at: i, #","kind":"identity","identity":{"#) {
            start.did = ByteSpan(start: 8, end: didEnd.end, escaped: didEnd.escaped)
            start.time = time
            return try canonicalIdentity(b, count: n, object: i &+ 30, start: &start)
        }
        guard has(b, n, at: i, #","kind":"commit""#), has(b, n, at: i &+ 16, #","commit":{"#),
              has(b, n, at: i &+ 27, #""rev":""#) else { return nil }
        let kind = ByteSpan(start: i &+ 9, end: i &+ 15, escaped: false)
        i = try JSONScanner.scanString(b, from: i &+ 34, count: n).end &+ 1
        guard has(b, n, at: i, #","operation":""#) else { return nil }
        let op = try JSONScanner.scanString(b, from: i &+ 14, count: n)
        guard !op.escaped else { return .other }
        let created = op.end &- (i &+ 14) == 6 && has(b, n, at: i &+ 14, "create")
        let operation = ByteSpan(start: i &+ 14, end: op.end, escaped: false)
        i = op.end &+ 1
        guard has(b, n, at: i, #","collection":""#) else { return nil }
        let c = try JSONScanner.scanString(b, from: i &+ 15, count: n)
        guard !c.escaped else { return .other }
        let length = c.end &- (i &+ 15)
        let postOrRepost = (length == 18 && has(b, n, at: i &+ 15, "app.bsky.feed.post"))
            || (length == 20 && has(b, n, at: i &+ 15, "app.bsky.feed.repost"))
        if postOrRepost && created {
            start.did = ByteSpan(start: 8, end: didEnd.end, escaped: didEnd.escaped)
            start.time = time
            start.kind = kind
            start.operation = operation
            start.collection = ByteSpan(start: i &+ 15, end: c.end, escaped: false)
            start.next = c.end &+ 1
            return .post
        }
        i = c.end &+ 1
        // The rest of `commit`: `rkey`, `record` (no post's), `cid`, any other member but those read above.
        var s = JSONScanner(UnsafeRawBufferPointer(start: b, count: n))
        var sawRecord = false
        while true {
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { return .other }
            if b[i] == UInt8(ascii: "}") { i &+= 1; break }
            guard b[i] == UInt8(ascii: ",") else { return .other }
            i &+= 1
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n, b[i] == UInt8(ascii: "\"") else { return .other }
            let key = try JSONScanner.scanString(b, from: i &+ 1, count: n)
            guard !key.escaped else { return .other }
            let k = ByteSpan(start: i &+ 1, end: key.end, escaped: false)
            i = key.end &+ 1
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n, b[i] == UInt8(ascii: ":") else { return .other }
            s.pos = i &+ 1
            if s.key(k, is: "operation") || s.key(k, is: "collection") { return .other }
            if s.key(k, is: "record") {
                guard !postOrRepost, !sawRecord else { return .other }
                sawRecord = true
            }
            try s.skipValue()
            i = s.pos
        }
        // Then the event's end.
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "}") else { return .other }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        return i == n ? .notice : .other
    }

    /// The `identity` object at `object` (its `{`), its members read as the
    /// full walk reads them (`did` and `handle` strings, the last of each met;
    /// any other member skipped), then the event's end: `.identity`, or
    /// `.other` for anything after the object but white space.
    private static func canonicalIdentity(_ b: UnsafePointer<UInt8>, count n: Int, object: Int,
                                          start: inout JetstreamPostStart) throws(JSONError) -> JetstreamEvent {
        var s = JSONScanner(UnsafeRawBufferPointer(start: b, count: n))
        s.pos = object
        var did: ByteSpan?, handle: ByteSpan?, spelled: Int?
        try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
            if s.key(k, is: "did") { did = try s.stringOrSkip() }
            else if s.key(k, is: "handle") { handle = try s.stringOrSkip() }
            else if s.key(k, is: "spelled") { spelled = try TweetDecoder.spelledCount(&s) }
            else { try s.skipValue() }
        }
        var i = s.pos
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "}") else { return .other }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i == n else { return .other }
        start.identityDID = did
        start.identityHandle = handle
        start.identitySpelled = spelled
        return .identity
    }

    private static func jetstreamNotice(_ s: inout JSONScanner) throws(JSONError) -> Bool {
        // Bits of the keys met: did 1, time_us 2, kind 4, commit 8, account 16.
        var seen = 0
        var account = false
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
                guard !kind.escaped else { throw notThisShape }
                // An `account` event (an account's status changed) is a notice whatever else it holds.
                if s.key(kind, is: "account") { account = true } else if !s.key(kind, is: "commit") { throw notThisShape }
            } else if s.key(key, is: "commit") {
                bit = 8
                guard try s.peek() == UInt8(ascii: "{") else { throw notThisShape }
                (postOrRepost, created) = try commit(&s)
            } else if s.key(key, is: "account") {
                // Read as a Mastodon account's fields by the full walk, but a Jetstream event's kind decides first.
                bit = 16
                try s.skipValue()
            } else {
                throw notThisShape
            }
            guard seen & bit == 0 else { throw notThisShape }
            seen |= bit
        }
        s.skipWhitespace()
        guard s.pos == s.count else { return false }
        if account { return seen & 5 == 5 }
        guard seen == 15 else { return false }
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
