/// A term with the store's id of its mention key: what `StoredTerms`
/// matches stored posts by.
struct StoredTerm {
    var term: Term
    /// The store's id of the term's mention key (`#tag`, `@name`; `from:name`
    /// → `@name`); nil while the store has not met it (nothing matches then).
    var mention: Int64?
    /// For `domain:NAME`: the store's ids of the hosts under NAME (SPEC §13).
    var hosts: [Int64] = []
    let word: WordMatch?

    init(_ term: Term, mention: Int64?) {
        self.term = term
        self.mention = mention
        word = term.kind == .word ? WordMatch(term.key) : nil
    }
}

/// A run's terms as the store matches a stored post against them (SPEC §2),
/// all at once, as a bit mask: mention and author terms through the one
/// matcher, `TermMasks`, by the store's mention ids; word terms on the post's
/// text, prepared once per post and only when a word term asks. Every store
/// scan (`StoredPosts`) and ingest's tracked terms match
/// through it.
struct StoredTerms {
    let targets: [StoredTerm]
    let masks: TermMasks
    private let words: [(index: Int, word: WordMatch)]

    init(_ targets: [StoredTerm]) {
        self.targets = targets
        var ids: [String: Int] = [:]
        for t in targets { if let key = t.term.mentionKey, let m = t.mention { ids[key] = Int(m) } }
        masks = TermMasks(terms: targets.map(\.term), id: { ids[$0] }, hosts: { targets[$0].hosts.map(Int.init) })
        words = targets.indices.compactMap { i in targets[i].word.map { (i, $0) } }
    }

    /// Whether a word term needs the posts' texts.
    var needsText: Bool { !words.isEmpty }

    /// The terms a stored post matches.
    ///
    /// - Parameters:
    ///   - mentions: its mention ids; `author`: its author's mention id.
    ///   - text: its text prepared by `WordMatch.prepare`, asked for only by
    ///     a word term (so a caller can prepare it once for all terms).
    @inline(__always)
    func mask<IDs: Sequence>(mentions: IDs, author: Int64?, text: () -> [Unicode.Scalar]?) -> UInt64 where IDs.Element: BinaryInteger {
        var mask = masks.mask(mentions: mentions, author: author.map(Int.init))
        if !words.isEmpty, let prepared = text() {
            for (i, word) in words where word.matches(prepared: prepared) { mask |= 1 << UInt64(i) }
        }
        return mask
    }
}
