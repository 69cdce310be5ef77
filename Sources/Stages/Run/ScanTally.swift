/// What one piece of a scan (a work unit, a record batch, or a stretch of a
/// unit) counted and met besides its tweets: records, notices, bad input
/// with its provenance, members passed over. Filled by one worker's
/// `TweetScanner`; summed in input order by the `ProblemLedger`.
///
/// - Complexity: memory O(problems kept); at most `problemLimit` problems
///   a piece are kept, except damage to a whole stream, which always is.
public struct ScanTally: Sendable {
    public internal(set) var stats = RunStats()
    /// Bad input, in order (at most `problemLimit` kept; all are counted).
    public internal(set) var problems: [InputProblem] = []
    /// Bad input counted by file or member, in order: every problem, also those past the limit.
    public internal(set) var problemCounts: [(origin: Origin, count: Int)] = []
    /// Members and files passed over on purpose.
    public internal(set) var skipped: [(origin: Origin, reason: String)] = []
    /// Bad input past the first `originLimit` files or members of the piece: counted, not named.
    public internal(set) var unnamedProblems = 0
    /// Matching tweets over a pairs run's `--max-pair-mentions`, in order,
    /// each with where it was read (SPEC §12.5; empty in any other run).
    public internal(set) var overLimit: [OverLimitTweet] = []
    /// Lines the unit spans (to number the lines of the next range of a file); set on a unit's last piece.
    public internal(set) var lines = 0

    /// Problems a piece keeps with their lines.
    public static let problemLimit = 200
    /// Problems a piece keeps that stop a whole stream (always shown, but not without end).
    public static let streamProblemLimit = 1000
    /// Files or members a piece counts bad input of by name.
    public static let originLimit = 1000
    /// Members passed over a piece names.
    public static let skippedLimit = 1000

    public init() {}

    mutating func addProblem(_ p: InputProblem) {
        stats.badRecords += 1
        stats.badByKind[p.kind, default: 0] += 1
        if let last = problemCounts.indices.last, problemCounts[last].origin == p.origin {
            problemCounts[last].count += 1
        } else if problemCounts.count < ScanTally.originLimit {
            problemCounts.append((p.origin, 1))
        } else {
            unnamedProblems += 1
            return
        }
        // Damage to a whole stream or container is kept past the limit: it says why the records stop.
        if problems.count < ScanTally.problemLimit
            || (p.kind.stopsStream && problems.count < ScanTally.streamProblemLimit) {
            problems.append(p)
        }
    }

    mutating func addSkipped(_ origin: Origin, reason: String) {
        stats.skippedMembers += 1
        if skipped.count < ScanTally.skippedLimit { skipped.append((origin, reason)) }
    }
}

/// Counters of a run, summed over units.
public struct RunStats: Sendable, Equatable {
    public var inputs = 0
    public var bytes: Int64 = 0
    public var records = 0
    public var tweets = 0
    /// Of `tweets`, the posts of Bluesky and Mastodon (SPEC §16).
    public var blueskyPosts = 0
    public var mastodonPosts = 0
    /// Tweets that came with entities (or from a CSV row, which needs none).
    public var tweetsWithEntities = 0
    public var notices = 0
    public var badRecords = 0
    /// `badRecords` by kind.
    public var badByKind: [InputProblem.Kind: Int] = [:]
    public var skippedMembers = 0
    /// Tweets the filters of SPEC §12.2 left out, of unknown time among them.
    public var filteredOut = 0
    public var unknownTime = 0

    public init() {}

    /// Bad input that means something could not be read (an empty input does not).
    public var failures: Int { badRecords - (badByKind[.empty] ?? 0) }

    mutating func add(_ o: RunStats) {
        inputs += o.inputs; bytes += o.bytes; records += o.records; tweets += o.tweets
        tweetsWithEntities += o.tweetsWithEntities
        blueskyPosts += o.blueskyPosts; mastodonPosts += o.mastodonPosts
        notices += o.notices; badRecords += o.badRecords; skippedMembers += o.skippedMembers
        filteredOut += o.filteredOut; unknownTime += o.unknownTime
        badByKind.merge(o.badByKind, uniquingKeysWith: +)
    }
}
