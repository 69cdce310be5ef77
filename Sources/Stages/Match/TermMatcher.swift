/// The match stage: which of the run's terms a tweet matches, as a bit mask
/// (bit `i` for term `i`; at most 64 terms a run).
///
/// One matcher per worker: it resolves each term to an id of the worker's
/// `MentionTable` once, so matching a hashtag or user term is a scan of the
/// tweet's handful of mention ids. Text is decoded and normalised only when
/// a word term asks for it.
public struct TermMatcher {
    public static let maxTerms = 64

    public let terms: [Term]
    private let words: [WordMatch?]
    private let needsText: Bool
    /// The mention and author terms, by the ids of the worker's table.
    private let masks: TermMasks

    public init(terms: [Term], table: MentionTable) {
        precondition(terms.count <= TermMatcher.maxTerms)
        self.terms = terms
        words = terms.map { $0.kind == .word ? WordMatch($0.key) : nil }
        needsText = terms.contains { $0.kind == .word }
        // The terms' keys are interned first, so their ids are small: a mask
        // per id makes matching one look-up per mention, however many terms.
        masks = TermMasks(terms: terms) { Int(table.id(forKey: $0)) }
        domains = masks.domainTerms.isEmpty ? nil : DomainMatches()
    }

    /// The `domain:` terms each host id of the worker's table matches, worked out once per id.
    private let domains: DomainMatches?

    /// The mask of terms `tweet` matches, given its extracted mentions.
    public func match(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet) -> UInt64 {
        var author: Int?
        if masks.asksAuthor, let a = record.author(of: tweet) {
            author = Int(table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) ?? -1)
        }
        // The text is decoded and normalised once, and only when a word's
        // look at its raw bytes cannot rule the word out.
        var text: [Unicode.Scalar]?
        let span = needsText ? record.fullText(of: tweet) : nil
        var mask = masks.mask(mentions: mentions.ids, author: author)
        if let domains { mask |= domains.mask(mentions.ids, table: table, masks: masks) }
        for i in masks.wordTerms {
            guard let span else { break }
            if let quick = words[i]!.quickMatch(raw: record.bytes(span), escaped: span.escaped) {
                if quick { mask |= 1 << UInt64(i) }
                continue
            }
            if text == nil { text = WordMatch.prepare(record.string(span)) }
            if words[i]!.matches(prepared: text!) { mask |= 1 << UInt64(i) }
        }
        return mask
    }
}

/// Per mention id of a worker's table: the `domain:` terms it matches (0 for
/// any mention but a host), worked out the first time the id is met.
final class DomainMatches {
    private var known: [Bool] = []
    private var masks: [UInt64] = []

    func mask(_ ids: [Int32], table: MentionTable, masks termMasks: TermMasks) -> UInt64 {
        var mask: UInt64 = 0
        for id in ids {
            let i = Int(id)
            if i >= known.count {
                known += repeatElement(false, count: i + 1024 - known.count)
                masks += repeatElement(0, count: i + 1024 - masks.count)
            }
            if !known[i] {
                let key = table.key(i)
                masks[i] = key.signedKind == .host ? termMasks.domainMask(host: key.unsigned) : 0
                known[i] = true
            }
            mask |= masks[i]
        }
        return mask
    }
}
