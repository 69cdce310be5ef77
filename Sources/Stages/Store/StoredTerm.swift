/// A term as the store matches it against a stored tweet: its mention ids,
/// its author's mention id and, for a word term, its text — the same
/// decisions `TermMatcher` makes on a decoded tweet (SPEC §2).
///
/// Both the report scan and the ingest writer (for the kept counts of
/// tracked terms) match through this one type.
struct StoredTerm {
    var term: Term
    /// The store's id of the term's mention key (`#tag`, `@name`; `from:name`
    /// → `@name`); nil while the store has not met it (nothing matches then).
    var mention: Int64?
    let word: WordMatch?

    init(_ term: Term, mention: Int64?) {
        self.term = term
        self.mention = mention
        word = term.kind == .word ? WordMatch(term.key) : nil
    }

    /// Whether a tweet matches.
    ///
    /// - Parameters:
    ///   - carries: whether the tweet's mention set holds a mention id.
    ///   - author: the mention id of the tweet's author.
    ///   - text: the tweet's text prepared by `WordMatch.prepare`, asked for
    ///     only by a word term (so a caller can prepare it once for all terms).
    @inline(__always)
    func matches(carries: (Int64) -> Bool, author: Int64?, text: () -> [Unicode.Scalar]?) -> Bool {
        switch term.kind {
        case .all: return true
        case .hashtag, .user: return mention.map(carries) ?? false
        case .author: return mention != nil && author == mention
        case .word: return text().map { word!.matches(prepared: $0) } ?? false
        }
    }
}
