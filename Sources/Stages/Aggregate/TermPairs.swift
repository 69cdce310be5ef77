extension TermPairs {
    /// The pairs of a term from its weights, however they were counted
    /// (a run over dumps, the store, extract lines).
    ///
    /// Rows are sorted on integers: the mentions in rows get ranks in UTF-8
    /// byte order first (one sort of the distinct mentions), so a big
    /// table is not sorted by comparing strings, and strings are made for
    /// the rows kept (after `top`) alone.
    ///
    /// - Parameters:
    ///   - keys: the signed keys the ids of `weights` and `count` stand for.
    ///   - weights: every pair of distinct mention ids (either order) with
    ///     its weight; pairs under `minCount` may be in it or not.
    ///   - count: a mention's count among the term's matching tweets.
    /// - Complexity: O(p log p) for the p pairs of `minCount` or more, plus
    ///   O(keys) for the ranks' table.
    init<Weights: Sequence>(term: Term, tweets: Int, keys: [String], weights: Weights, count: (Int) -> Int,
                            minCount: Int, top: Int?, withoutTerm: Bool)
    where Weights.Element == (Int, Int, Int) {
        let own = (withoutTerm ? TermPairs.ownMention(of: term) : nil).flatMap { o in keys.firstIndex(of: o) } ?? -1
        var rows: [(weight: Int, a: Int, b: Int)] = []
        var rank = [Int32](repeating: -1, count: keys.count)
        for (a, b, weight) in weights where weight >= minCount && a != own && b != own && a != b {
            rows.append((weight, a, b))
            rank[a] = 0
            rank[b] = 0
        }
        // By the bytes of the keys as printed (SPEC §13: `+example.com/a` sorts as `example.com/a`),
        // a user before a poster of the same name.
        var used = keys.indices.filter { rank[$0] == 0 }
        var printed = [String](repeating: "", count: keys.count)
        for id in used { printed[id] = HandleBook.shared.printed(keys[id]).printedKey }
        used.sort { a, b in
            if printed[a] == printed[b] { return keys[a].precedesInUTF8(keys[b]) }
            return printed[a].precedesInUTF8(printed[b])
        }
        for (r, id) in used.enumerated() { rank[id] = Int32(r) }
        // Each row as (weight, source rank, target rank).
        var ranked = rows.map { row -> (weight: Int, s: Int32, t: Int32) in
            let (x, y) = (rank[row.a], rank[row.b])
            return (row.weight, min(x, y), max(x, y))
        }
        ranked.sort { l, r in
            if l.weight != r.weight { return l.weight > r.weight }
            if l.s != r.s { return l.s < r.s }
            return l.t < r.t
        }
        if let top, ranked.count > top { ranked.removeSubrange(top...) }
        var inRows = [Bool](repeating: false, count: used.count)
        for row in ranked {
            inRows[Int(row.s)] = true
            inRows[Int(row.t)] = true
        }
        self.term = term
        self.tweets = tweets
        pairs = ranked.map {
            let (s, t) = (used[Int($0.s)], used[Int($0.t)])
            var pair = MentionPair(source: printed[s], target: printed[t], weight: $0.weight)
            pair.sourceKind = keys[s].signedKind ?? .hashtag
            pair.targetKind = keys[t].signedKind ?? .hashtag
            return pair
        }
        let nodeIDs = used.indices.filter { inRows[$0] }.map { used[$0] }
        nodes = nodeIDs.map { (printed[$0], count($0)) }
        nodeKinds = nodeIDs.map { keys[$0].signedKind ?? .hashtag }
    }
}

/// A matching tweet that carries more than `--max-pair-mentions` distinct
/// mentions (SPEC §12.5): it adds no pairs, and the run says so. Where it
/// was read: a file (or member) and line for a dump or an extract line, the
/// tweet's id alone for a store.
public struct OverLimitTweet: Sendable {
    /// Its identity (`PostIdentity`).
    public var id: UInt64
    /// Its distinct mentions.
    public var mentions: Int
    public var origin: Origin?
    public var line: Int?
    /// For an element of a one-line array: its index and first byte.
    public var element: (index: Int, offset: Int64)?

    public init(id: UInt64, mentions: Int, origin: Origin? = nil, line: Int? = nil) {
        self.id = id
        self.mentions = mentions
        self.origin = origin
        self.line = line
    }

    /// `dumps/a.jsonl, line 3: tweet 123 carries 20000 distinct mentions` (names as read: escape them to print).
    public var description: String {
        var place = origin?.description ?? ""
        if let line { place += (place.isEmpty ? "" : ", ") + "line \(line)" }
        if let element { place += ", element \(element.index) (byte \(element.offset))" }
        return (place.isEmpty ? "" : place + ": ") + "tweet \(PostIdentity.text(of: id)) carries \(mentions) distinct mentions"
    }
}

/// The matching tweets that added no pairs for carrying too many mentions
/// (SPEC §12.5), counted once each however often they were read, the first
/// few kept with where they were read: the same account from dumps, a store
/// and extract lines.
///
/// - Complexity: memory O(distinct such tweets) (their ids) plus `namesKept` places.
public struct OverLimitTweets: Sendable {
    /// `--max-pair-mentions`: a tweet with more distinct mentions adds no pairs.
    public let limit: Int
    /// The first few such tweets, each once, in input order.
    public private(set) var named: [OverLimitTweet] = []
    private var ids = Set<UInt64>()

    /// Tweets named with their place; the rest are counted.
    public static let namesKept = 5
    /// A real tweet holds well under 100 distinct mentions.
    public static let defaultLimit = 200

    public init(limit: Int = OverLimitTweets.defaultLimit) { self.limit = limit }

    /// Distinct tweets over the limit.
    public var count: Int { ids.count }

    /// Notes `t`, a matching tweet over the limit: counted once by its id.
    public mutating func note(_ t: OverLimitTweet) {
        guard ids.insert(t.id).inserted else { return }
        if named.count < Self.namesKept { named.append(t) }
    }
}
