/// The extract stage: which mentions a tweet carries (SPEC §4).
///
/// One protocol, one implementation per source of mentions: the API's
/// entities (`EntitiesExtractor`, the default for JSON) and, for tweets
/// without entities, their text by twitter-text's rules.
public protocol MentionExtractor {
    /// Adds the hashtags and user mentions of `tweet` of the decoded record
    /// to `mentions`, interned in `table`.
    func extract(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, into mentions: inout MentionSet)
}

/// Mentions from the API's `entities` (v1.1, v2 and the account archive):
/// the tweet's own (its long form's when it has one), and for a retweet also
/// the retweeted tweet's and the retweeted tweet's author.
public struct EntitiesExtractor: MentionExtractor {
    public init() {}

    public func extract(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, into mentions: inout MentionSet) {
        add(tweet.hashtags, tweet.users, record, table, &mentions)
        if let rt = tweet.retweeted {
            add(rt.hashtags, rt.users, record, table, &mentions)
            if let author = record.name(rt.author) {
                mentions.insert(table.id(raw: record.bytes(author), escaped: author.escaped, kind: .user))
            }
        }
    }

    private func add(_ hashtags: Range<Int>, _ users: Range<Int>, _ record: DecodedRecord, _ table: MentionTable,
                     _ mentions: inout MentionSet) {
        for i in hashtags {
            let s = record.spans[i]
            mentions.insert(table.id(raw: record.bytes(s), escaped: s.escaped, kind: .hashtag))
        }
        for i in users {
            let s = record.spans[i]
            mentions.insert(table.id(raw: record.bytes(s), escaped: s.escaped, kind: .user))
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
