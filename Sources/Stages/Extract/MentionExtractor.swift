/// The extract stage: which mentions a tweet carries (SPEC §4).
///
/// One protocol, one implementation per source of mentions: the API's
/// entities (`EntitiesExtractor`, the default for JSON) and, for tweets
/// without entities, their text by twitter-text's rules.
public protocol MentionExtractor {
    /// Adds the hashtags and user mentions of `tweet` of the decoded record
    /// to `mentions`, interned in `table`.
    func extract(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, into mentions: inout MentionSet)
    /// The kinds it adds (SPEC §13).
    var kinds: MentionKinds { get }
}

/// Mentions from the API's `entities` (v1.1, v2 and the account archive):
/// the tweet's own (its long form's when it has one), and for a retweet also
/// the retweeted tweet's and the retweeted tweet's author; of the kinds it
/// is made for (SPEC §13): symbols, links (with their hosts and domains)
/// and the poster besides hashtags and users.
public struct EntitiesExtractor: MentionExtractor {
    public let kinds: MentionKinds
    /// Whether the spans it reads are those `TweetSpellings` visits (hashtags and users both read; no
    /// links or poster, which it reads otherwise), so that `MentionSet.keyedKinds` can say what it says.
    private let readsSpellingSpans: Bool

    public init(kinds: MentionKinds = .standard) {
        self.kinds = kinds
        readsSpellingSpans = kinds.isSuperset(of: .standard) && !kinds.hasLinks && !kinds.has(.poster)
    }

    public func extract(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, into mentions: inout MentionSet) {
        // Whether every span read is known to be written as its key.
        var keyed = readsSpellingSpans
        defer { if keyed { mentions.keyedKinds = kinds } }
        add(tweet.hashtags, tweet.users, record, table, &mentions, &keyed)
        if kinds.has(.symbol) { add(tweet.symbols, .symbol, record, table, &mentions, &keyed) }
        // A retweet's own entities repeat its retweeted tweet's: the permalink of the tweet that one quotes is no link either.
        if kinds.hasLinks {
            MentionLinks.add(tweet.links, quoted: tweet.quoted, also: tweet.retweeted?.quoted, kinds, record, table, &mentions)
        }
        if let rt = tweet.retweeted {
            add(rt.hashtags, rt.users, record, table, &mentions, &keyed)
            if kinds.has(.symbol) { add(rt.symbols, .symbol, record, table, &mentions, &keyed) }
            if kinds.hasLinks { MentionLinks.add(rt.links, quoted: rt.quoted, also: tweet.quoted, kinds, record, table, &mentions) }
            if kinds.has(.user), let author = record.name(rt.author) {
                let (id, asKey) = table.keyedID(raw: record.bytes(author), escaped: author.escaped, kind: .user)
                mentions.insert(id)
                keyed = keyed && asKey
            }
        }
        if kinds.has(.poster) { MentionLinks.addPoster(tweet, record, table, &mentions) }
    }

    @inline(__always)
    private func add(_ hashtags: Range<Int>, _ users: Range<Int>, _ record: DecodedRecord, _ table: MentionTable,
                     _ mentions: inout MentionSet, _ keyed: inout Bool) {
        if kinds.has(.hashtag) {
            for i in hashtags {
                let s = record.spans[i]
                let (id, asKey) = table.keyedID(raw: record.bytes(s), escaped: s.escaped, kind: .hashtag)
                mentions.insert(id)
                keyed = keyed && asKey
            }
        }
        guard kinds.has(.user) else { return }
        for i in users {
            let s = record.spans[i]
            let (id, asKey) = table.keyedID(raw: record.bytes(s), escaped: s.escaped, kind: .user)
            mentions.insert(id)
            keyed = keyed && asKey
        }
    }

    private func add(_ spans: Range<Int>, _ kind: MentionKind, _ record: DecodedRecord, _ table: MentionTable,
                     _ mentions: inout MentionSet, _ keyed: inout Bool) {
        for i in spans {
            let s = record.spans[i]
            let (id, asKey) = table.keyedID(raw: record.bytes(s), escaped: s.escaped, kind: kind)
            mentions.insert(id)
            keyed = keyed && asKey
        }
    }
}

extension MentionKinds {
    /// Whether any kind comes from links (url, host, domain).
    @inline(__always)
    public var hasLinks: Bool { !intersection(.links).isEmpty }
}

/// The link kinds and the poster (SPEC §13), the same for every extractor.
enum MentionLinks {
    /// Adds the url, host and domain (as `kinds` asks) of each link string
    /// of `spans`, but for links that are no link (another scheme) and the
    /// permalink of the tweet `quoted`, the one the tweet quotes.
    static func add(_ spans: Range<Int>, quoted: UInt64?, also other: UInt64? = nil, _ kinds: MentionKinds, _ record: DecodedRecord,
                    _ table: MentionTable, _ mentions: inout MentionSet) {
        for i in spans {
            let s = record.spans[i]
            guard let id = table.id(raw: record.bytes(s), escaped: s.escaped, kind: .url) else { continue }
            if let other, LinkKey.isQuotePermalink(table.key(Int(id)).unsigned, quotedID: other) { continue }
            add(link: id, quoted: quoted, kinds, table, &mentions)
        }
    }

    /// Adds the kinds of one link, by its url id.
    @inline(__always)
    static func add(link id: Int32?, quoted: UInt64?, _ kinds: MentionKinds, _ table: MentionTable,
                    _ mentions: inout MentionSet) {
        guard let id else { return }
        if let quoted, LinkKey.isQuotePermalink(table.key(Int(id)).unsigned, quotedID: quoted) { return }
        if kinds.has(.url) { mentions.insert(id) }
        if kinds.has(.host) { mentions.insert(table.hostID(ofURL: id)) }
        if kinds.has(.domain) { mentions.insert(table.domainID(ofURL: id)) }
    }

    /// Adds the tweet's author as its poster (a retweet's: who retweeted).
    static func addPoster(_ tweet: DecodedTweet, _ record: DecodedRecord, _ table: MentionTable, _ mentions: inout MentionSet) {
        if let a = record.author(of: tweet) {
            mentions.insert(table.id(raw: record.bytes(a), escaped: a.escaped, kind: .poster))
        }
    }
}

/// The distinct mentions of one tweet, as ids of a `MentionTable`.
///
/// A tweet has a handful of mentions, so a linear scan beats hashing.
public struct MentionSet {
    public private(set) var ids: [Int32] = []
    /// The kinds `EntitiesExtractor` read, when every span it read is known
    /// to be written as its key and they are the spans `TweetSpellings`
    /// visits: then the tweet's spellings are its mentions, each as its key,
    /// in `ids`' order. Nil otherwise (and after `removeAll`).
    public internal(set) var keyedKinds: MentionKinds?
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

    @inline(__always)
    public mutating func removeAll() {
        Array.clear(&ids)
        if keyedKinds != nil { keyedKinds = nil }
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
