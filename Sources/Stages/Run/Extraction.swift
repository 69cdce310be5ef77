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

    /// Creation time of matching tweet i, seconds since 1970 UTC (with `--by`, SPEC §12.4; else empty).
    public internal(set) var times: [Int64] = []

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
    /// Whether each matching tweet's creation time is kept (`--by`); the
    /// scanner's filter has left out tweets without one.
    private let times: Bool
    private var result = Extraction()
    private var keys = LocalKeys()
    private var spellingIndex: [String: Int32] = [:]

    init(terms: [Term], table: MentionTable, facts: ReportColumns.Facts = .init(), times: Bool = false) {
        matcher = TermMatcher(terms: terms, table: table)
        screen = MentionScreen(terms: terms)
        self.facts = facts
        self.times = times
    }

    @inline(__always)
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) {
        let mask = matcher.match(tweet, in: record, table: table, mentions: mentions)
        guard mask != 0 else { return }
        result.tweetIDs.append(tweet.id)
        result.termMasks.append(mask)
        for id in mentions.ids { result.mentions.append(keys.local(id, table: table, into: &result.keys)) }
        result.mentionEnds.append(Int32(result.mentions.count))
        if times { result.times.append(record.createdAt(of: tweet) ?? 0) }
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
            let start = result.spellingMentions.count
            let written = reading.mentionsFromText ? TextExtractor.spellings(of: tweet, in: record) : record.spellings(of: tweet)
            for spelling in written {
                guard let sign = spelling.first else { continue }
                let key = String(sign) + MentionKey.normalize(String(spelling.dropFirst()))
                guard let id = table.existingID(forKey: key), mentions.contains(id) else { continue }
                let m = keys.local(id, table: table, into: &result.keys)
                let s: Int32
                if let known = spellingIndex[spelling] { s = known } else {
                    s = Int32(result.spellingStrings.count)
                    result.spellingStrings.append(spelling)
                    spellingIndex[spelling] = s
                }
                // Each distinct spelling once per tweet.
                var seen = false
                for j in start..<result.spellingMentions.count where result.spellingMentions[j] == m && result.spellingTexts[j] == s {
                    seen = true
                }
                if !seen {
                    result.spellingMentions.append(m)
                    result.spellingTexts.append(s)
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
        }
        return result
    }
}
