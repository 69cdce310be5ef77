/// One row of `smashtag pairs`: two distinct mentions and how many of a
/// term's distinct matching tweets carry both.
public struct MentionPair: Equatable, Sendable {
    /// The mention that sorts first in UTF-8 bytes (`#x` before `@x`).
    public var source: String
    public var target: String
    public var weight: Int

    public init(source: String, target: String, weight: Int) {
        self.source = source
        self.target = target
        self.weight = weight
    }

    /// Weight, heaviest first; ties by source, then target, in ascending UTF-8 bytes.
    static func order(_ a: MentionPair, _ b: MentionPair) -> Bool {
        if a.weight != b.weight { return a.weight > b.weight }
        if a.source != b.source { return a.source.utf8.lexicographicallyPrecedes(b.source.utf8) }
        return a.target.utf8.lexicographicallyPrecedes(b.target.utf8)
    }
}

/// The pairs of one term (SPEC §12.5), with what a graph of them needs.
public struct TermPairs: Equatable, Sendable {
    public var term: Term
    /// Distinct matching tweets.
    public var tweets: Int
    /// In pairs order, after `--min-count`, `--without-term` and `--top`.
    public var pairs: [MentionPair]
    /// The mentions of `pairs`, each once, in ascending UTF-8 bytes, with its
    /// count among the term's matching tweets (the report's count, SPEC §7).
    public var nodes: [(mention: String, count: Int)]

    public static func == (a: TermPairs, b: TermPairs) -> Bool {
        a.term == b.term && a.tweets == b.tweets && a.pairs == b.pairs
            && a.nodes.map(\.mention) == b.nodes.map(\.mention) && a.nodes.map(\.count) == b.nodes.map(\.count)
    }

    /// The mention a pair must not hold under `--without-term`: `#tag` and
    /// `@name` terms have one; `from:`, word and `*` terms none.
    public static func ownMention(of term: Term) -> String? {
        switch term.kind {
        case .hashtag: return "#" + term.key
        case .user: return "@" + term.key
        case .author, .word, .all: return nil
        }
    }

    /// The pairs of a term from its weights, however they were counted
    /// (a run over dumps, the store, extract lines).
    ///
    /// - Parameters:
    ///   - weights: every pair of distinct mentions (either order) with its
    ///     weight; pairs under `minCount` may be in it or not.
    ///   - count: a mention's count among the term's matching tweets.
    init<Weights: Sequence>(term: Term, tweets: Int, weights: Weights, count: (String) -> Int,
                            minCount: Int, top: Int?, withoutTerm: Bool)
    where Weights.Element == (String, String, Int) {
        let own = withoutTerm ? TermPairs.ownMention(of: term) : nil
        var rows: [MentionPair] = []
        for (a, b, weight) in weights where weight >= minCount && a != own && b != own {
            let first = a.utf8.lexicographicallyPrecedes(b.utf8)
            rows.append(MentionPair(source: first ? a : b, target: first ? b : a, weight: weight))
        }
        rows.sort(by: MentionPair.order)
        if let top, rows.count > top { rows.removeSubrange(top...) }
        var mentions = Set<String>()
        for r in rows {
            mentions.insert(r.source)
            mentions.insert(r.target)
        }
        self.term = term
        self.tweets = tweets
        pairs = rows
        nodes = mentions.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, count($0)) }
    }
}
