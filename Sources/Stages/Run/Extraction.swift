/// What one work unit yields, in input order: every tweet that matched a
/// term with its mentions, and what was skipped. The seam between the
/// parallel stages (read, parse, extract, match) and the ordered ones
/// (dedup, aggregate): units are extracted on any core and merged in order.
///
/// - Complexity: memory O(matching tweets × their mentions) of the unit;
///   keys are stored once per unit.
public struct Extraction: Sendable {
    /// Matching tweets, in the order read.
    public internal(set) var tweetIDs: [UInt64] = []
    /// Terms each tweet matched (bit i for term i).
    public internal(set) var termMasks: [UInt64] = []
    /// End of tweet i's mentions in `mentions` (its start is the previous end).
    public internal(set) var mentionEnds: [Int32] = []
    /// Indices into `keys`.
    public internal(set) var mentions: [Int32] = []
    /// Signed, normalised keys (`#swift`, `@nasa`) used by this unit.
    public internal(set) var keys: [String] = []

    public internal(set) var stats = RunStats()
    /// Bad input, in order (at most `problemLimit` kept; all are counted).
    public internal(set) var problems: [InputProblem] = []
    /// Bad input counted by file or member, in order: every problem, also those past the limit.
    public internal(set) var problemCounts: [(origin: Origin, count: Int)] = []
    /// Members and files passed over on purpose.
    public internal(set) var skipped: [(origin: Origin, reason: String)] = []
    /// Lines the unit spans (to number the lines of the next range of a file).
    public internal(set) var lines = 0

    static let problemLimit = 200

    public init() {}

    /// The mentions of matching tweet `i`.
    public func mentions(of i: Int) -> ArraySlice<Int32> {
        let start = i == 0 ? 0 : Int(mentionEnds[i - 1])
        return mentions[start..<Int(mentionEnds[i])]
    }

    mutating func addProblem(_ p: InputProblem) {
        stats.badRecords += 1
        stats.badByKind[p.kind, default: 0] += 1
        if let last = problemCounts.indices.last, problemCounts[last].origin == p.origin {
            problemCounts[last].count += 1
        } else {
            problemCounts.append((p.origin, 1))
        }
        // Damage to a whole stream or container is always kept: it says why the records stop.
        if problems.count < Extraction.problemLimit || p.kind == .corrupt || p.kind == .unreadable { problems.append(p) }
    }
}

/// Counters of a run, summed over units.
public struct RunStats: Sendable, Equatable {
    public var inputs = 0
    public var bytes: Int64 = 0
    public var records = 0
    public var tweets = 0
    public var notices = 0
    public var badRecords = 0
    /// `badRecords` by kind.
    public var badByKind: [InputProblem.Kind: Int] = [:]
    public var skippedMembers = 0

    public init() {}

    /// Bad input that means something could not be read (an empty input does not).
    public var failures: Int { badRecords - (badByKind[.empty] ?? 0) }

    mutating func add(_ o: RunStats) {
        inputs += o.inputs; bytes += o.bytes; records += o.records; tweets += o.tweets
        notices += o.notices; badRecords += o.badRecords; skippedMembers += o.skippedMembers
        badByKind.merge(o.badByKind, uniquingKeysWith: +)
    }
}
