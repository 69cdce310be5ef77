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
    init(terms: [Term], table: MentionTable, facts: PostFields = .init(), times: Bool = false) {
        let extracted = facts.mentionKinds.union(Term.kinds(matching: terms))
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

    /// `posts` (SPEC §15) hears what every tweet read says of posts, matching or not.
    var seesEveryTweet: Bool { builder.fields.references }

    func see(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        builder.appendCopies(of: tweet, in: record, table: table)
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
