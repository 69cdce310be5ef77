/// The matches of one piece of a scan, in input order: every tweet that
/// matched a term with its mentions. What the report's consumer
/// (`MatchCollector`) makes on a worker and the `Aggregator` or an
/// `ExtractWriter` takes, in order, on the calling thread.
///
/// - Complexity: memory O(matching tweets × their mentions) of the piece;
///   keys are stored once per piece.
public struct Extraction: Sendable {
    /// Matching tweets, in the order read.
    public internal(set) var tweetIDs: [UInt64] = []
    /// Terms each tweet matched (bit i for term i).
    public internal(set) var termMasks: [UInt64] = []
    /// End of tweet i's mentions in `mentions` (its start is the previous end).
    public internal(set) var mentionEnds: [Int32] = []
    /// Indices into `keys`.
    public internal(set) var mentions: [Int32] = []
    /// Signed, normalised keys (`#swift`, `@nasa`) used by this piece.
    public internal(set) var keys: [String] = []

    // What a run gathers for SPEC §12.3's columns (`ReportColumns.Facts`);
    // empty unless asked for.

    /// Whether matching tweet i is a retweet (`facts.kinds`).
    public internal(set) var retweets: [Bool] = []
    /// Tweet i's author as an index into `keys` (`@name`), or -1 when unknown (`facts.authors`).
    public internal(set) var authors: [Int32] = []
    /// End of tweet i's spellings in `spellingMentions` and `spellingTexts` (`facts.spellings`).
    public internal(set) var spellingEnds: [Int32] = []
    /// Each distinct (mention, spelling) a tweet carries: the mention as an index into `keys` …
    public internal(set) var spellingMentions: [Int32] = []
    /// … and its spelling (`#Stanford`) as an index into `spellingStrings`.
    public internal(set) var spellingTexts: [Int32] = []
    public internal(set) var spellingStrings: [String] = []
    /// Whether tweet i's kind and spellings are unknown (a stored tweet
    /// ingested before schema version 4); empty when none is.
    public internal(set) var unknownFacts: [Bool] = []

    public init() {}

    /// The (mention, spelling) indices of matching tweet `i`.
    public func spellings(of i: Int) -> Range<Int> {
        (i == 0 ? 0 : Int(spellingEnds[i - 1]))..<Int(spellingEnds[i])
    }

    /// The mentions of matching tweet `i`.
    public func mentions(of i: Int) -> ArraySlice<Int32> {
        let start = i == 0 ? 0 : Int(mentionEnds[i - 1])
        return mentions[start..<Int(mentionEnds[i])]
    }
}

/// Where the ordered merge hands each piece's matches, in input order: the
/// `Aggregator` for a report, an `ExtractWriter` for `smashtag extract`.
public protocol ExtractionSink: AnyObject {
    func add(_ e: Extraction)
}

extension Aggregator: ExtractionSink {}

/// The report's consumer on a worker: matches each tweet against the terms
/// and keeps the matching ones, with their mentions, in an `Extraction`.
/// Its screen lets the scanner drop most tweets before anything is interned.
final class MatchCollector: TweetConsumer {
    private let matcher: TermMatcher
    let screen: MentionScreen?
    private let facts: ReportColumns.Facts
    private var result = Extraction()
    private var keys = LocalKeys()
    private var spellingIndex: [String: Int32] = [:]
    /// Per table entry (raw spelling): the piece that last numbered it, and its number there.
    private var entryStamp: [Int32] = []
    private var entryLocal: [Int32] = []
    private var piece: Int32 = 0
    private var seen: [(Int32, String?)] = []

    init(terms: [Term], table: MentionTable, facts: ReportColumns.Facts = .init()) {
        matcher = TermMatcher(terms: terms, table: table)
        screen = MentionScreen(terms: terms)
        self.facts = facts
    }

    @inline(__always)
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) {
        let mask = matcher.match(tweet, in: record, table: table, mentions: mentions)
        guard mask != 0 else { return }
        result.tweetIDs.append(tweet.id)
        result.termMasks.append(mask)
        for id in mentions.ids { result.mentions.append(keys.local(id, table: table, into: &result.keys)) }
        result.mentionEnds.append(Int32(result.mentions.count))
        if facts.any { gather(tweet, in: record, table: table, mentions: mentions, reading: reading) }
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
                let spelling = written ?? table.keys[Int(id)]
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

    func finish() -> Extraction {
        defer {
            result = Extraction()
            keys.reset()
            spellingIndex.removeAll(keepingCapacity: true)
            piece += 1
        }
        return result
    }
}
