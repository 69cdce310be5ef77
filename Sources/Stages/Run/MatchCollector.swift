/// The report's consumer on a worker: matches each tweet against the terms
/// and keeps the matching ones, with their mentions and what the columns
/// and `--by` ask, in a `PostPart` (through the one `PartBuilder`). Its
/// screen lets the scanner drop most tweets before anything is interned.
final class MatchCollector: TweetConsumer {
    private let matcher: TermMatcher
    let screen: MentionScreen?
    private var builder: PartBuilder<TableNumbering>

    /// - Parameters:
    ///   - facts: what each matching tweet carries besides its mentions (SPEC §12.3's columns).
    ///   - times: whether it carries its creation time (`--by`; the scanner's filter has left out tweets without one).
    /// Whether a word term asks for the texts of reposts' subjects.
    private let wordTerms: Bool
    /// Whether a `from:` term matches a repost by its author.
    private let authorTerms: Bool
    private var seen = SeenSpellings()

    init(terms: [Term], table: MentionTable, facts: PostFields = .init(), times: Bool = false) {
        let extracted = facts.mentionKinds.union(Term.kinds(matching: terms))
        wordTerms = terms.contains { $0.kind == .word }
        authorTerms = terms.contains { $0.kind == .author }
        matcher = TermMatcher(terms: terms, table: table)
        screen = MentionScreen(terms: terms, table: table)
        var fields = facts
        fields.times = times
        builder = PartBuilder(fields: fields, table: table, extracted: extracted)
    }

    @inline(__always)
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) -> Bool {
        let mask = matcher.match(tweet, in: record, table: table, mentions: mentions)
        guard mask != 0 else { return false }
        builder.append(tweet, in: record, table: table, mentions: mentions, reading: reading, mask: mask)
        return true
    }

    /// False where the sink shows no account: a report or pairs whose kinds
    /// hold neither users nor posters, without authors or references.
    var namesAccounts = true

    /// Whether a sink of parts built with `fields` can show an account (a
    /// DID's handle): users or posters among the kinds, authors, references.
    static func namesAccounts(_ fields: PostFields) -> Bool {
        fields.authors || fields.references || fields.mentionKinds.has(.user) || fields.mentionKinds.has(.poster)
    }

    /// `posts` (SPEC §15) hears what every tweet read says of posts, matching or not.
    var seesEveryTweet: Bool { builder.fields.references }

    func see(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        builder.appendCopies(of: tweet, in: record, table: table)
    }

    /// SPEC §16: Bluesky reposts wait for their subjects, matched at the run's end (`RepostJoin`).
    var joinsReposts: Bool { true }

    /// What Bluesky post `tweet` (not a repost) says a repost of it carries:
    /// its mentions of every kind extracted but the poster (a repost's poster
    /// is who reposted), their spellings, and its text when a word term asks.
    func noteSubject(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                     reading: TweetReading) {
        var keys: [String] = []
        for id in mentions.ids {
            let key = table.key(Int(id))
            if key.signedKind != .poster { keys.append(key) }
        }
        let text = wordTerms ? record.fullText(of: tweet).map(record.string) : nil
        guard !keys.isEmpty || text != nil else { return }
        var spellings: [(key: String, spelling: String)] = []
        if builder.fields.spellings {
            TweetSpellings.forEach(tweet, in: record, table: table, mentions: mentions, reading: reading,
                                   kinds: builder.fields.mentionKinds, seen: &seen) { id, written, _ in
                let key = table.key(Int(id))
                if key.signedKind != .poster { spellings.append((key, written ?? key)) }
            }
        }
        builder.add(subject: RepostJoins.Subject(id: tweet.identity, keys: keys, spellings: spellings, text: text))
    }

    /// Bluesky repost `tweet`, kept by the filters: it waits for its subject.
    func pend(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        var author: String?, spelling: String?
        // Its author counts where the sink shows accounts (a poster, an author, extract lines) or a `from:` term
        // matches it; elsewhere (a report of hashtags) it is never read, so not looked up.
        if namesAccounts || authorTerms, let a = record.author(of: tweet),
           let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) {
            let key = table.key(Int(id))
            author = key
            // Nearly every author (a DID) is written as its key: no string is made for that spelling.
            spelling = MatchCollector.isKey(key, spelledAs: a, in: record) ? nil : "@" + record.spelling(a)
        }
        builder.add(repost: RepostJoins.Repost(id: tweet.identity, subject: tweet.retweetedIdentity ?? PostPart.noPost,
                                               author: author, authorSpelling: spelling,
                                               time: record.createdAt(of: tweet) ?? PostPart.unknownTime))
    }

    /// Whether user key `key` is `@` and the bytes of `span` as written
    /// (unescaped, visible ASCII: their own NFC), so that the spelling is
    /// the key itself.
    static func isKey(_ key: String, spelledAs span: ByteSpan, in record: DecodedRecord) -> Bool {
        guard !span.escaped else { return false }
        let raw = record.bytes(span)
        guard !raw.isEmpty, TweetDecoder.isVisibleASCII(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count) else { return false }
        var k = key
        return k.withUTF8 { u in
            u.count == raw.count &+ 1 && u[0] == UInt8(ascii: "@")
                && JSONScanner.sameBytes(u.baseAddress! + 1, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count)
        }
    }

    /// A piece leaves at a unit's or batch's end; matches are few.
    var isFull: Bool { false }

    /// Work a `ParallelPartSink` does on this worker with each piece.
    var prepare: ((PostPart) -> Void)?

    func finish() -> PostPart {
        let part = builder.finish()
        prepare?(part)
        return part
    }
}
