/// The extract stage: which mentions a tweet carries (SPEC §4).
///
/// One protocol, one implementation per source of mentions: the API's
/// entities (`EntitiesExtractor`, the default for JSON) and, for tweets
/// without entities, their text by twitter-text's rules.
public protocol MentionExtractor {
    /// Adds the hashtags and user mentions of tweet `index` of the decoded
    /// record to `mentions`, interned in `table`.
    func extract(_ index: Int, from decoder: TweetDecoder, table: MentionTable, into mentions: inout MentionSet)
}

/// Mentions from the API's `entities` (v1.1, v2 and the account archive):
/// the tweet's own (its long form's when it has one), and for a retweet also
/// the retweeted tweet's and the retweeted tweet's author.
public struct EntitiesExtractor: MentionExtractor {
    public init() {}

    public func extract(_ index: Int, from decoder: TweetDecoder, table: MentionTable, into mentions: inout MentionSet) {
        add(decoder.objects[index], decoder, table, &mentions)
        if let rt = decoder.retweet(of: index) {
            add(decoder.objects[rt], decoder, table, &mentions)
            if let author = decoder.author(of: rt) {
                mentions.insert(table.id(raw: decoder.bytes(author), escaped: author.escaped, kind: .user))
            }
        }
    }

    /// False when tweet `index` can match none of the screened terms, told
    /// from its raw mention bytes alone; true when it may (then `extract`
    /// and the match stage decide). It looks at the mentions `extract`
    /// takes, and for author terms at the tweet's own author.
    static func mayMatch(_ index: Int, from decoder: TweetDecoder, screen: MentionScreen) -> Bool {
        if screen.screensAuthors, let author = decoder.author(of: index), screen.mayBeAuthor(author, in: decoder) { return true }
        if mayMatch(decoder.objects[index], decoder, screen) { return true }
        if let rt = decoder.retweet(of: index) {
            if mayMatch(decoder.objects[rt], decoder, screen) { return true }
            if let author = decoder.author(of: rt), screen.mayBeUser(author, in: decoder) { return true }
        }
        return false
    }

    private static func mayMatch(_ f: TweetFields, _ decoder: TweetDecoder, _ screen: MentionScreen) -> Bool {
        for i in f.ownHashtags where screen.mayBeHashtag(decoder.spans[i], in: decoder) { return true }
        for i in f.ownUsers where screen.mayBeUser(decoder.spans[i], in: decoder) { return true }
        return false
    }

    private func add(_ f: TweetFields, _ decoder: TweetDecoder, _ table: MentionTable, _ mentions: inout MentionSet) {
        for i in f.ownHashtags {
            let s = decoder.spans[i]
            mentions.insert(table.id(raw: decoder.bytes(s), escaped: s.escaped, kind: .hashtag))
        }
        for i in f.ownUsers {
            let s = decoder.spans[i]
            mentions.insert(table.id(raw: decoder.bytes(s), escaped: s.escaped, kind: .user))
        }
    }
}

/// The distinct mentions of one tweet, as ids of a `MentionTable`.
///
/// A tweet has a handful of mentions, so a linear scan beats hashing.
public struct MentionSet {
    public private(set) var ids: [Int32] = []
    /// Past `linearLimit` mentions, `stamps[id] == generation` says that
    /// `id` is in the set: a tweet with a million distinct hashtags costs a
    /// million steps, not half a million million.
    private var stamps: [UInt32] = []
    private var generation: UInt32 = 1
    private var stamped = false

    /// Up to this many mentions a look along `ids` is cheapest (most tweets have a handful).
    static let linearLimit = 16

    public init() {}

    @inline(__always)
    public mutating func insert(_ id: Int32?) {
        guard let id else { return }
        if !stamped {
            if ids.contains(id) { return }
            ids.append(id)
            if ids.count > Self.linearLimit { stampAll() }
            return
        }
        if Int(id) >= stamps.count { stamps.append(contentsOf: repeatElement(0, count: Int(id) + 1 - stamps.count)) }
        if stamps[Int(id)] == generation { return }
        stamps[Int(id)] = generation
        ids.append(id)
    }

    public func contains(_ id: Int32) -> Bool {
        guard stamped else { return ids.contains(id) }
        return Int(id) < stamps.count && stamps[Int(id)] == generation
    }

    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        if stamped {
            stamped = false
            generation &+= 1
            if generation == 0 {
                // After 2^32 big sets the stamps wrap: start them again.
                stamps = [UInt32](repeating: 0, count: stamps.count)
                generation = 1
            }
        }
    }

    private mutating func stampAll() {
        stamped = true
        let top = Int(ids.max() ?? 0) + 1
        if top > stamps.count { stamps.append(contentsOf: repeatElement(0, count: top - stamps.count)) }
        for id in ids { stamps[Int(id)] = generation }
    }
}

extension TweetDecoder {
    /// The bytes of a span of the current record.
    func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
    }

    /// A string span of the current record, decoded.
    func string(_ span: ByteSpan) -> String { JSONText.decode(span, in: base) }
}
