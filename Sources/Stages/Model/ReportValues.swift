/// The values a report is made of, whatever path counted it: a term
/// (SPEC §2), the report of a term (SPEC §7, with §12.3's columns), and the
/// pairs of a term (§12.5). The stages that count build them (`Aggregate`,
/// `Store`, in extensions there); the formats write them (`Report`).

/// A search term of SPEC §2, normalised.
///
///     #tag       hashtag set contains tag
///     @name      user-mention set contains name
///     from:name  author's screen name is name
///     $sym       symbol set contains sym (SPEC §13)
///     domain:N   a link's host is N or ends with .N
///     url:S      link keys hold the key of S
///     word       full text holds word as a whole word
///     *          every tweet
public struct Term: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case hashtag, user, author, symbol, domain, url, word, all
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
        case .symbol: return "$" + key
        case .domain: return "domain:" + key
        case .url: return "url:" + key
        case .word: return key
        case .all: return "*"
        }
    }

    /// The signed mention key this term looks up in a `MentionTable`, if any.
    var mentionKey: String? {
        switch kind {
        case .hashtag: return "#" + key
        case .user, .author: return "@" + key
        case .symbol: return "$" + key
        case .url: return "+" + key
        case .domain, .word, .all: return nil
        }
    }

    /// The kinds of mention a post must carry for the terms to be matched
    /// on it (SPEC §13): hashtags for `#tag`, users for `@name`, symbols for
    /// `$sym`, hosts for `domain:`, links for `url:`.
    public static func kinds(matching terms: [Term]) -> MentionKinds {
        var k = MentionKinds()
        for t in terms {
            switch t.kind {
            case .hashtag: k.insert(MentionKinds(.hashtag))
            case .user: k.insert(MentionKinds(.user))
            case .symbol: k.insert(MentionKinds(.symbol))
            case .domain: k.insert(MentionKinds(.host))
            case .url: k.insert(MentionKinds(.url))
            default: break
            }
        }
        return k
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
    /// The rows of each kind the run counts (`--kinds`, SPEC §13), in report order.
    public var sections: [KindRows]
    /// Of all `tweets`, how many are originals and retweets, and how many distinct authors wrote them (0 unless counted).
    public var originals = 0
    public var retweets = 0
    public var authors = 0

    init(term: Term, tweets: Int, sections: [KindRows]) {
        self.term = term
        self.tweets = tweets
        self.sections = sections
    }

    /// A report of SPEC §7's two kinds.
    init(term: Term, tweets: Int, hashtags: [MentionCount], users: [MentionCount]) {
        self.init(term: term, tweets: tweets, sections: [KindRows(kind: .hashtag, rows: hashtags), KindRows(kind: .user, rows: users)])
    }

    /// The section of `kind`, empty when the run does not count it.
    public func rows(_ kind: MentionKind) -> [MentionCount] {
        sections.first { $0.kind == kind }?.rows ?? []
    }

    public var hashtags: [MentionCount] { rows(.hashtag) }
    public var users: [MentionCount] { rows(.user) }

    /// Every row of every section, in order.
    public var allRows: [MentionCount] { sections.flatMap(\.rows) }
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// The rows of one kind of a term's report, with SPEC §12.3's columns of
/// each row (in their order; empty unless the run counted them).
public struct KindRows: Equatable, Sendable {
    public var kind: MentionKind
    public var rows: [MentionCount]
    public var columns: [RowColumns] = []

    public init(kind: MentionKind, rows: [MentionCount], columns: [RowColumns] = []) {
        self.kind = kind
        self.rows = rows
        self.columns = columns
    }
}

/// One row of `smashtag pairs`: two distinct mentions, as printed, and
/// how many of a term's distinct matching tweets carry both.
public struct MentionPair: Equatable, Sendable {
    /// The mention that sorts first in UTF-8 bytes as printed (`#x` before `@x`).
    public var source: String
    public var target: String
    public var weight: Int
    /// The two mentions' kinds (a poster prints as a user does); not compared by `==`.
    public var sourceKind = MentionKind.hashtag
    public var targetKind = MentionKind.hashtag

    public static func == (a: MentionPair, b: MentionPair) -> Bool {
        a.source == b.source && a.target == b.target && a.weight == b.weight
    }

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
    /// The kind of each of `nodes` (SPEC §13: a poster prints as a user does).
    public var nodeKinds: [MentionKind] = []

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
        case .symbol: return "$" + term.key
        case .url: return "+" + term.key
        case .author, .domain, .word, .all: return nil
        }
    }
}
