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
    private let ids: [Int32]
    private let words: [WordMatch?]
    private let needsAuthor: Bool
    private let needsText: Bool

    public init(terms: [Term], table: MentionTable) {
        precondition(terms.count <= TermMatcher.maxTerms)
        self.terms = terms
        ids = terms.map { $0.mentionKey.map(table.id(forKey:)) ?? -1 }
        words = terms.map { $0.kind == .word ? WordMatch($0.key) : nil }
        needsAuthor = terms.contains { $0.kind == .author }
        needsText = terms.contains { $0.kind == .word }
    }

    /// The mask of terms `tweet` matches, given its extracted mentions.
    public func match(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet) -> UInt64 {
        var author: Int32?
        if needsAuthor, let a = record.author(of: tweet) {
            author = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user)
        }
        // The text is decoded and normalised once, and only when a word's
        // look at its raw bytes cannot rule the word out.
        var text: [Unicode.Scalar]?
        let span = needsText ? record.fullText(of: tweet) : nil
        var mask: UInt64 = 0
        for (i, term) in terms.enumerated() {
            let hit: Bool
            switch term.kind {
            case .all: hit = true
            case .hashtag, .user: hit = mentions.contains(ids[i])
            case .author: hit = author == ids[i]
            case .word:
                guard let span else { hit = false; break }
                if !words[i]!.mayMatch(raw: record.bytes(span), escaped: span.escaped) { hit = false; break }
                if text == nil { text = WordMatch.prepare(record.string(span)) }
                hit = words[i]!.matches(prepared: text!)
            }
            if hit { mask |= 1 << UInt64(i) }
        }
        return mask
    }
}
