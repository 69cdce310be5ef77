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

    public init() {}

    @inline(__always)
    public mutating func insert(_ id: Int32?) {
        guard let id, !ids.contains(id) else { return }
        ids.append(id)
    }

    public func contains(_ id: Int32) -> Bool { ids.contains(id) }

    public mutating func removeAll() { ids.removeAll(keepingCapacity: true) }
}

extension TweetDecoder {
    /// The bytes of a span of the current record.
    func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
    }

    /// A string span of the current record, decoded.
    func string(_ span: ByteSpan) -> String { JSONText.decode(span, in: base) }
}
