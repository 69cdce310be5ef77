/// The report's consumer on a worker: matches each tweet against the terms
/// and keeps the matching ones, with their mentions, in an `Extraction`.
/// Its screen lets the scanner drop most tweets before anything is interned.
final class MatchCollector: TweetConsumer {
    private let matcher: TermMatcher
    let screen: MentionScreen?
    private let facts: ReportColumns.Facts
    /// Whether each matching tweet's creation time is kept (`--by`); the
    /// scanner's filter has left out tweets without one.
    private let times: Bool
    private var result = Extraction()
    private var keys = LocalKeys()
    private var spellingIndex: [String: Int32] = [:]
    /// Per table entry (raw spelling): the piece that last numbered it, and its number there.
    private var entryStamp: [Int32] = []
    private var entryLocal: [Int32] = []
    private var piece: Int32 = 0
    private var seen = SeenSpellings()
    private let tableSerial: Int

    init(terms: [Term], table: MentionTable, facts: ReportColumns.Facts = .init(), times: Bool = false) {
        matcher = TermMatcher(terms: terms, table: table)
        tableSerial = table.serial
        screen = MentionScreen(terms: terms, table: table)
        self.facts = facts
        self.times = times
    }

    @inline(__always)
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) -> Bool {
        let mask = matcher.match(tweet, in: record, table: table, mentions: mentions)
        guard mask != 0 else { return false }
        result.tweetIDs.append(tweet.id)
        result.termMasks.append(mask)
        for id in mentions.ids { result.mentions.append(keys.local(id, table: table, into: &result.keys)) }
        result.mentionEnds.append(Int32(result.mentions.count))
        if times { result.times.append(record.createdAt(of: tweet) ?? 0) }
        if facts.any { gather(tweet, in: record, table: table, mentions: mentions, reading: reading) }
        return true
    }

    /// Records what SPEC §12.3's columns need of a matching tweet: its kind,
    /// its author, and each distinct spelling of each of its mentions.
    private func gather(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                        reading: TweetReading) {
        if facts.kinds { result.retweets.append(record.isRetweet(tweet, textMode: reading.textMode)) }
        if facts.authors {
            var author: Int32 = -1
            if let a = record.author(of: tweet), let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) {
                author = keys.local(id, table: table, into: &result.keys)
            }
            result.authors.append(author)
        }
        if facts.spellings {
            TweetSpellings.forEach(tweet, in: record, table: table, mentions: mentions, reading: reading,
                                   seen: &seen) { id, written, entry in
                result.spellingMentions.append(keys.local(id, table: table, into: &result.keys))
                // The piece's index of the spelling: by its table entry (an array, no hashing) when it has one.
                if entry >= 0, entry < entryStamp.count, entryStamp[entry] == piece {
                    result.spellingTexts.append(entryLocal[entry])
                    return
                }
                let spelling = written ?? table.key(Int(id))
                let s: Int32
                if let known = spellingIndex[spelling] {
                    s = known
                } else {
                    s = Int32(result.spellingStrings.count)
                    result.spellingStrings.append(spelling)
                    spellingIndex[spelling] = s
                }
                result.spellingTexts.append(s)
                if entry >= 0 {
                    if entry >= entryStamp.count {
                        entryStamp += Array(repeating: -1, count: entry + 1024 - entryStamp.count)
                        entryLocal += Array(repeating: 0, count: entry + 1024 - entryLocal.count)
                    }
                    entryStamp[entry] = piece
                    entryLocal[entry] = s
                }
            }
            result.spellingEnds.append(Int32(result.spellingMentions.count))
        }
    }

    /// A piece leaves at a unit's or batch's end; matches are few.
    var isFull: Bool { false }

    /// Work a `ParallelExtractionSink` does on this worker with each piece.
    var prepare: ((Extraction) -> Void)?

    func finish() -> Extraction {
        defer {
            result = Extraction()
            keys.reset()
            spellingIndex.removeAll(keepingCapacity: true)
            piece += 1
        }
        result.keySource = tableSerial
        result.keyNumbers = keys.numbers
        prepare?(result)
        return result
    }
}
