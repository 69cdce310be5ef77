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
        // The terms' keys are interned first, so their ids are small: a mask
        // per id makes matching one look-up per mention, however many terms.
        var byMention: [UInt64] = [], byAuthor: [UInt64] = []
        var everyTweet: UInt64 = 0
        for (i, term) in terms.enumerated() {
            let bit: UInt64 = 1 << UInt64(i)
            switch term.kind {
            case .all: everyTweet |= bit
            case .hashtag, .user, .author:
                let id = Int(ids[i])
                guard id >= 0 else { continue }
                if term.kind == .author {
                    if byAuthor.count <= id { byAuthor += repeatElement(0, count: id + 1 - byAuthor.count) }
                    byAuthor[id] |= bit
                } else {
                    if byMention.count <= id { byMention += repeatElement(0, count: id + 1 - byMention.count) }
                    byMention[id] |= bit
                }
            case .word: break
            }
        }
        mentionMasks = byMention
        authorMasks = byAuthor
        allMask = everyTweet
        wordTerms = terms.indices.filter { terms[$0].kind == .word }
    }

    /// Terms by the mention id they look for (bit i for term i), and by author id.
    private let mentionMasks: [UInt64]
    private let authorMasks: [UInt64]
    /// The `*` terms' bits, and the indices of the word terms.
    private let allMask: UInt64
    private let wordTerms: [Int]

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
        var mask = allMask
        let count = mentionMasks.count
        for id in mentions.ids where Int(id) < count { mask |= mentionMasks[Int(id)] }
        if let author, author >= 0, Int(author) < authorMasks.count { mask |= authorMasks[Int(author)] }
        for i in wordTerms {
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
