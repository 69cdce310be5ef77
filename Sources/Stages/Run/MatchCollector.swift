/// The report's consumer on a worker: matches each tweet against the terms
/// and keeps the matching ones, with their mentions, in an `Extraction`.
/// Its screen lets the scanner drop most tweets before anything is interned.
final class MatchCollector: TweetConsumer {
    private let matcher: TermMatcher
    let screen: MentionScreen?
    private var result = Extraction()
    private var keys = LocalKeys()

    init(terms: [Term], table: MentionTable) {
        matcher = TermMatcher(terms: terms, table: table)
        screen = MentionScreen(terms: terms)
    }

    @inline(__always)
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet) {
        let mask = matcher.match(tweet, in: record, table: table, mentions: mentions)
        guard mask != 0 else { return }
        result.tweetIDs.append(tweet.id)
        result.termMasks.append(mask)
        for id in mentions.ids { result.mentions.append(keys.local(id, table: table, into: &result.keys)) }
        result.mentionEnds.append(Int32(result.mentions.count))
    }

    /// A piece leaves at a unit's or batch's end; matches are few.
    var isFull: Bool { false }

    /// Work a `ParallelExtractionSink` does on this worker with each piece.
    var prepare: ((Extraction) -> Void)?

    func finish() -> Extraction {
        defer {
            result = Extraction()
            keys.reset()
        }
        prepare?(result)
        return result
    }
}
