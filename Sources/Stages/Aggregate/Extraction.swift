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
    /// The `MentionTable.serial` of the worker's table that numbered `keys`
    /// (0: none), and each key's number there: a merge then looks a key up
    /// by its text once per worker, not once per piece.
    public internal(set) var keySource = 0
    public internal(set) var keyNumbers: [Int32] = []

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

/// A sink that does part of its work on the workers, in parallel, before
/// the ordered merge (`PairAggregator` counts pairs there): what depends on
/// input order stays in `add`, what is a plain sum moves to `prepare`.
public protocol ParallelExtractionSink: ExtractionSink, Sendable {
    /// Called once, before the workers start.
    func begin(workers: Int)
    /// Called by worker `worker` (in `0..<workers`) with each extraction it
    /// made, before that extraction reaches `add`; concurrently for
    /// different workers, never twice at once for one.
    func prepare(_ e: Extraction, worker: Int)
}
