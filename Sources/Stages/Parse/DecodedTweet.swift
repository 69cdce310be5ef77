import Foundation

/// One tweet as parsing hands it on: what every later stage (screen,
/// extract, match, the consumers) reads, whichever decoder filled it — the
/// JSON decoder for every API shape, the CSV decoder for an export's row.
///
/// Strings stay where the record holds them (`ByteSpan`s into the record's
/// bytes, or into the CSV decoder's buffer) until a stage asks for them
/// through the `DecodedRecord`: a report that screens a tweet out never
/// builds a string of it. What SPEC §12.1 asks of a tweet is here: id,
/// author, full text, retweet (with the retweeted author), the mentions as
/// written, creation time and language.
public struct DecodedTweet {
    /// A tweet's id; for a post of another platform (`platform`), the
    /// `PostIdentity` number of its URI, interned by the decoder (SPEC §16).
    var id: UInt64
    /// The platform it comes from (SPEC §16).
    var platform = Platform.twitter

    /// Its `PostIdentity` number: a tweet's id, or the URI's number the decoder interned.
    @inline(__always)
    var identity: UInt64 { platform == .twitter ? PostIdentity.of(tweetID: id) : id }
    /// Its creation time when no `createdAt` says it (a Jetstream event's
    /// `time_us`), seconds since 1970 UTC.
    var fallbackTime: Int64?
    /// The tweet's own hashtags and user mentions as written (without the
    /// sign, escapes undone on demand): ranges into `DecodedRecord.spans`;
    /// the long form's when the tweet has one (SPEC §4).
    var hashtags: Range<Int> = 0..<0
    var users: Range<Int> = 0..<0
    /// Its symbols and link strings (SPEC §13), when the decoder read them.
    var symbols: Range<Int> = 0..<0
    var links: Range<Int> = 0..<0
    /// The id of the tweet it quotes, when the record says.
    var quoted: UInt64?
    /// The author's screen name as written, or (v2) the id to find it by in the page's `includes.users`.
    var author = AuthorRef()
    /// The full text: the long form, else `full_text`, else `text`.
    var text: ByteSpan?
    /// `created_at` as written (v1.1, archive, v2 or a CSV column).
    var createdAt: ByteSpan?
    /// `lang`, as written.
    var lang: ByteSpan?
    /// The retweeted tweet, when the record holds it (inline, in `includes`, or a CSV column).
    var retweeted: Retweeted?
    /// Whether the record marks the tweet a retweet (`retweeted_status`, a
    /// `retweeted` reference, a CSV retweet column); nil when the record
    /// cannot say (a CSV without retweet columns).
    var markedRetweet: Bool? = false
    /// Whether the record gave the tweet an `entities` object (a CSV row: entity columns).
    /// A v2 page fetched without `tweet.fields=entities` or a stripped v1.1 dump has none.
    var hasEntities = false
    /// The posts it retweets and replies to, and the copies of the posts it
    /// names, when the decoder reads references (`posts`, SPEC §15).
    var references = References()
    /// The `PostIdentity` of the post a Bluesky repost or a Mastodon reblog
    /// retweets (its `subject.uri`, its reblogged status's `uri`), whatever the
    /// decoder reads (SPEC §16).
    var retweetedIdentity: UInt64?

    /// Whether it is a Bluesky repost: a retweet of `retweetedIdentity` whose
    /// mentions are its subject's, joined at the end of a run (SPEC §16).
    @inline(__always)
    var joinsSubject: Bool { platform == .bluesky && retweetedIdentity != nil }

    /// What SPEC §15 reads of a tweet besides `quoted`.
    struct References {
        /// The retweeted post's id (`retweeted_status`, a `retweeted` reference, a CSV retweeted-id column).
        var retweeted: UInt64?
        /// The id of the post it replies to (`in_reply_to_status_id_str`, a `replied_to` reference, a CSV column).
        var repliedTo: UInt64?
        /// A Bluesky or Mastodon post's quoted and replied-to posts, as `PostIdentity`s (SPEC §16).
        var quotedIdentity: UInt64?
        var repliedIdentity: UInt64?
        /// What the record says of the retweeted, quoted and replied-to posts.
        var retweetedCopy: Copy?
        var quotedCopy: Copy?
        var repliedCopy: Copy?
    }

    /// What one record says of a post it names: each field when it says it.
    struct Copy {
        var id: UInt64
        var author = AuthorRef()
        var createdAt: ByteSpan?
        var text: ByteSpan?
        /// Whether `id` is a `PostIdentity` already (a reblogged status's URI), not a tweet id.
        var isIdentity = false
    }

    /// What a retweet carries of the tweet it retweets (SPEC §4).
    struct Retweeted {
        var hashtags: Range<Int> = 0..<0
        var users: Range<Int> = 0..<0
        var author = AuthorRef()
        var text: ByteSpan?
        var symbols: Range<Int> = 0..<0
        var links: Range<Int> = 0..<0
        var quoted: UInt64?
    }

    /// A screen name, directly or through a v2 page's `includes.users`.
    struct AuthorRef {
        var name: ByteSpan?
        var id: ByteSpan?
    }
}

/// The tweets one record (a JSON line or document, a CSV row) decoded to,
/// with the bytes their spans point into: the parse stage's output.
///
/// - Complexity: memory O(tweets + mentions) of the record, reused from one
///   record to the next; the bytes are the caller's (valid until the next record).
public final class DecodedRecord {
    /// The tweets the record stands for, in order.
    private(set) var tweets: [DecodedTweet] = []
    /// Mention strings of all tweets; `DecodedTweet` holds ranges into it.
    var spans: [ByteSpan] = []
    /// A v2 page's `includes.users`: (id, username).
    private(set) var includedUsers: [(id: ByteSpan, name: ByteSpan)] = []
    private(set) var base: UnsafePointer<UInt8> = UnsafePointer(bitPattern: 1)!

    // MARK: Filling (the decoders)

    /// Forgets the previous record; keeps the buffers' capacity.
    func reset(base: UnsafePointer<UInt8>) {
        Array.clear(&tweets)
        Array.clear(&spans)
        Array.clear(&includedUsers)
        self.base = base
        arenaUsed = 0
        arenaChunk = 0
        timeSpan = ByteSpan(start: -1, end: -1, escaped: false)
    }

    /// The last `created_at` span read by `createdAt(of:)`, and its time (spans of one record name fixed bytes).
    private var timeSpan = ByteSpan(start: -1, end: -1, escaped: false)
    private var timeOfSpan: Int64?
    /// The dates read, from record to record (a dump's posts fall on few days).
    private var dates = CreatedAt.DateMemo()

    // MARK: Composed strings

    /// Strings the record does not hold as written (SPEC §16: a Mastodon
    /// author `user@host`, a status's text without its HTML, a tag trimmed
    /// of white space), kept until the next record in chunks that never
    /// move, and addressed by spans relative to `base` like the record's
    /// own strings, so every stage reads them as it reads those.
    private var arena: [UnsafeMutableRawBufferPointer] = []
    private var arenaChunk = 0
    private var arenaUsed = 0
    private static let arenaChunkSize = 1 << 16

    deinit { for chunk in arena { chunk.deallocate() } }

    /// A span of the record standing for `bytes` (no escapes).
    func composed(_ bytes: UnsafeRawBufferPointer) -> ByteSpan {
        let n = bytes.count
        if arenaChunk < arena.count && arena[arenaChunk].count - arenaUsed < n {
            arenaChunk += 1
            arenaUsed = 0
        }
        while arenaChunk < arena.count && arena[arenaChunk].count < n { arenaChunk += 1 }
        if arenaChunk == arena.count {
            arena.append(UnsafeMutableRawBufferPointer.allocate(byteCount: max(n, Self.arenaChunkSize), alignment: 8))
            arenaUsed = 0
        }
        let at = arena[arenaChunk].baseAddress! + arenaUsed
        if n > 0 { at.copyMemory(from: bytes.baseAddress!, byteCount: n) }
        arenaUsed += n
        let start = Int(bitPattern: at) &- Int(bitPattern: base)
        return ByteSpan(start: start, end: start &+ n, escaped: false)
    }

    func composed(_ string: String) -> ByteSpan {
        var s = string
        return s.withUTF8 { composed(UnsafeRawBufferPointer($0)) }
    }

    func composed(_ bytes: [UInt8]) -> ByteSpan { bytes.withUnsafeBytes { composed($0) } }

    func appendSpan(_ span: ByteSpan) { spans.append(span) }
    var spanCount: Int { spans.count }
    func appendIncludedUser(id: ByteSpan, name: ByteSpan) { includedUsers.append((id, name)) }
    func append(_ tweet: DecodedTweet) { tweets.append(tweet) }

    // MARK: Reading (every stage after parsing)

    /// The bytes of a span of the record.
    @inline(__always)
    func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
    }

    /// A string span of the record, decoded.
    func string(_ span: ByteSpan) -> String { JSONText.decode(span, in: base) }

    /// The screen name of `author`, direct or through `includes.users`.
    func name(_ author: DecodedTweet.AuthorRef) -> ByteSpan? {
        if let a = author.name { return a }
        guard let id = author.id else { return nil }
        let n = id.end - id.start
        for u in includedUsers where u.id.end - u.id.start == n {
            if memcmp(base + u.id.start, base + id.start, n) == 0 { return u.name }
        }
        return nil
    }

    /// The tweet's author's screen name.
    @inline(__always)
    func author(of tweet: DecodedTweet) -> ByteSpan? { name(tweet.author) }

    /// The retweeted tweet's author's screen name.
    func retweetedAuthor(of tweet: DecodedTweet) -> ByteSpan? { tweet.retweeted.flatMap { name($0.author) } }

    /// The text a word term or text extraction reads: the retweeted tweet's
    /// full text for a retweet whose record holds it, else the tweet's own.
    func fullText(of tweet: DecodedTweet) -> ByteSpan? { tweet.retweeted?.text ?? tweet.text }

    /// A mention or name as the tweet writes it (SPEC §12.1): escapes undone,
    /// NFC, case kept, without its sign.
    func spelling(_ span: ByteSpan) -> String {
        KeyNormalization.nfc(string(span))
    }

    /// Spellings of the tweet's own hashtags and user mentions (the retweeted
    /// tweet's follow for a retweet), each with its sign, in the order written.
    func spellings(of tweet: DecodedTweet) -> [String] {
        var out: [String] = []
        func add(_ hashtags: Range<Int>, _ users: Range<Int>) {
            for i in hashtags { out.append("#" + spelling(spans[i])) }
            for i in users { out.append("@" + spelling(spans[i])) }
        }
        add(tweet.hashtags, tweet.users)
        if let rt = tweet.retweeted {
            add(rt.hashtags, rt.users)
            if let a = name(rt.author) { out.append("@" + spelling(a)) }
        }
        return out
    }

    /// Seconds since 1970 UTC the tweet was created (SPEC §12.1): its
    /// `created_at` (v1.1 or ISO 8601, no offset meaning UTC), else the time
    /// in its snowflake id, else nil.
    func createdAt(of tweet: DecodedTweet) -> Int64? {
        if let span = tweet.createdAt {
            // A filter and then the post's facts ask for the same time: read once per record's span.
            if span.start != timeSpan.start || span.end != timeSpan.end || span.escaped != timeSpan.escaped {
                timeSpan = span
                timeOfSpan = span.escaped ? CreatedAt.parse(string(span), noOffsetIsUTC: true)
                    : CreatedAt.parse(bytes(span), noOffsetIsUTC: true, memo: &dates)
            }
            if let t = timeOfSpan { return t }
        }
        guard tweet.platform == .twitter else { return tweet.fallbackTime }
        return CreatedAt.fromSnowflake(tweet.id)
    }

    /// Seconds since 1970 UTC of a `created_at` as written, or nil when absent or unreadable.
    func time(_ span: ByteSpan?) -> Int64? {
        guard let span else { return nil }
        return span.escaped ? CreatedAt.parse(string(span), noOffsetIsUTC: true)
            : CreatedAt.parse(bytes(span), noOffsetIsUTC: true, memo: &dates)
    }

    /// The tweet's `lang`, or nil (a Bluesky post's `langs`, joined by `,`).
    func language(of tweet: DecodedTweet) -> String? {
        guard let span = tweet.lang, !span.isEmpty else { return nil }
        return string(span)
    }

    /// Whether the tweet is a retweet (SPEC §12.1): as its record marks it;
    /// when the record cannot say, or in text mode, also a text that begins
    /// with `RT @name:`.
    func isRetweet(_ tweet: DecodedTweet, textMode: Bool) -> Bool {
        if tweet.markedRetweet == true { return true }
        guard textMode || tweet.markedRetweet == nil, let text = tweet.text else { return false }
        return DecodedRecord.startsWithRetweetMark(bytes(text))
    }

    /// `RT @name:` at the start of a text, `name` 1–20 of `[A-Za-z0-9_]`.
    static func startsWithRetweetMark(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 6, b[0] == UInt8(ascii: "R"), b[1] == UInt8(ascii: "T"), b[2] == 0x20, b[3] == UInt8(ascii: "@")
        else { return false }
        var i = 4
        while i < b.count, i - 4 < 21 {
            let c = b[i]
            let word = (c &- 0x30) < 10 || ((c | 0x20) &- 0x61) < 26 || c == UInt8(ascii: "_")
            if !word { break }
            i += 1
        }
        return i > 4 && i - 4 <= 20 && i < b.count && b[i] == UInt8(ascii: ":")
    }
}
