/// The values a report is made of, whatever path counted it: a term
/// (SPEC §2), the report of a term (SPEC §7, with §12.3's columns), and the
/// pairs of a term (§12.5). The stages that count build them (`Aggregate`,
/// `Store`, in extensions there); the formats write them (`Report`).

/// A search term of SPEC §2, normalised.
///
///     #tag       hashtag set contains tag
///     @name      user-mention set contains name
///     from:name  author's screen name is name
///     word       full text holds word as a whole word
///     *          every tweet
public struct Term: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case hashtag, user, author, word, all
    }

    public let kind: Kind
    /// The normalised key compared against mentions, authors or text
    /// (`stanford` for `#Stanford`, `from:Jack` and `Stanford` alike).
    public let key: String
    /// How reports print the term: `#stanford`, `@nasa`, `from:jack`, `stanford`, `*`.
    public var description: String {
        switch kind {
        case .hashtag: return "#" + key
        case .user: return "@" + key
        case .author: return "from:" + key
        case .word: return key
        case .all: return "*"
        }
    }

    /// The signed mention key this term looks up in a `MentionTable`, if any.
    var mentionKey: String? {
        switch kind {
        case .hashtag: return "#" + key
        case .user, .author: return "@" + key
        case .word, .all: return nil
        }
    }

    public init(kind: Kind, key: String) {
        self.kind = kind
        self.key = key
    }
}

/// One row of a report.
public struct MentionCount: Equatable, Sendable {
    public var mention: String
    public var count: Int

    public init(mention: String, count: Int) {
        self.mention = mention
        self.count = count
    }
}

/// SPEC §12.3's columns of one row, when the run counted them: the most
/// frequent spelling (nil when none was seen), how many of the row's tweets
/// are originals and retweets, how many distinct authors wrote them.
///
/// Kept beside the rows (`TermReport.hashtagColumns`), not in them: rows are
/// sorted, and a plain report's rows stay as small as they were.
public struct RowColumns: Equatable, Sendable {
    public var display: String?
    public var originals = 0
    public var retweets = 0
    public var authors = 0

    public init() {}
}

/// The report of one term (SPEC §7).
public struct TermReport: Equatable, Sendable {
    public var term: Term
    /// With `--by` (SPEC §12.4), the time bucket this report counts (`2020-03-01`); nil for a whole report.
    public var bucket: String?
    /// Distinct matching tweets.
    public var tweets: Int
    public var hashtags: [MentionCount]
    public var users: [MentionCount]
    /// SPEC §12.3's columns of each row of `hashtags` and `users`, in their
    /// order; empty unless the run counted them.
    public var hashtagColumns: [RowColumns] = []
    public var userColumns: [RowColumns] = []
    /// Of all `tweets`, how many are originals and retweets, and how many distinct authors wrote them (0 unless counted).
    public var originals = 0
    public var retweets = 0
    public var authors = 0

    init(term: Term, tweets: Int, hashtags: [MentionCount], users: [MentionCount]) {
        self.term = term
        self.tweets = tweets
        self.hashtags = hashtags
        self.users = users
    }
}

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
}

/// The pairs of one term (SPEC §12.5), with what a graph of them needs.
public struct TermPairs: Equatable, Sendable {
    public var term: Term
    /// Distinct matching tweets.
    public var tweets: Int
    /// After `--min-count`, `--without-term` and `--top`, by weight (heaviest
    /// first), then source, then target in ascending UTF-8 bytes.
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
}
