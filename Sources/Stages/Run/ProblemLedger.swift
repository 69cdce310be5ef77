/// The one account of a run's input: what was read (inputs, bytes, records,
/// tweets, notices), every bad input with its provenance (path, archive
/// member, line) and its count by file or member, the members passed over,
/// and what it all means for the exit status (SPEC §8, §9).
///
/// Filled in input order on the consumer's thread: first the plan's path
/// problems, then each piece's `ScanTally` as the ordered merge hands it on,
/// with the line numbers of a file's later byte ranges made absolute.
/// Commands only print it (`Console`, `RunSummary`).
///
/// - Complexity: memory O(problems kept): at most `ScanTally.problemLimit`
///   a piece, plus every problem that stops a whole stream.
public final class ProblemLedger {
    /// Counters of what was read, summed over pieces (the plan's problems are not in them).
    public private(set) var stats = RunStats()
    /// Bad input in input order: the plan's, then the first few of each piece.
    public private(set) var problems: [InputProblem] = []
    /// Bad input counted by file or member, in input order: all of it, not only the problems kept.
    public private(set) var problemCounts: [(origin: Origin, count: Int)] = []
    /// Members and files passed over on purpose.
    public private(set) var skipped: [(origin: Origin, reason: String)] = []
    /// Paths the plan could not take (missing, unreadable, loops).
    public let planProblems: Int
    /// Bad input in files or members past the first `originLimit`: counted, not named.
    public private(set) var unnamedProblems = 0

    /// Problems the ledger keeps with their provenance (the rest are counted):
    /// memory stays bounded however much of the input is bad.
    public static let problemLimit = 1000
    /// Problems that stop a whole stream the ledger keeps besides.
    public static let streamProblemLimit = 1000
    /// Files or members the ledger counts bad input of by name.
    public static let originLimit = 1000
    /// Members passed over the ledger names.
    public static let skippedLimit = 1000
    private var streamProblems = 0
    /// A pairs run's matching tweets over `--max-pair-mentions`, each once, the first few with their place.
    public internal(set) var overLimit = OverLimitTweets()

    private var lineOffset = 0
    private var unit = -1

    public init(plan: InputPlan? = nil) {
        let early = plan?.problems ?? []
        planProblems = early.count + (plan?.unlistedProblems ?? 0)
        problems = early
        problemCounts = early.map { ($0.origin, 1) }
        unnamedProblems = plan?.unlistedProblems ?? 0
    }

    /// Every bad record or input, the plan's included.
    public var badRecords: Int { stats.badRecords + planProblems }

    /// Bad input that means something could not be read (an empty input does not).
    public var failures: Int { stats.failures + planProblems }

    /// Bad records by kind, the plan's problems included.
    public var badByKind: [InputProblem.Kind: Int] {
        var kinds = stats.badByKind
        for p in problems.prefix(planProblems) { kinds[p.kind, default: 0] += 1 }
        if planProblems > min(planProblems, problems.count) {
            kinds[.unreadable, default: 0] += planProblems - problems.prefix(planProblems).count  // the plan's unlisted paths
        }
        return kinds
    }

    /// Nothing at all could be read: no record, and some input failed (exit 1).
    /// An empty file alone is an empty report, not a failure.
    public var nothingRead: Bool { stats.records == 0 && failures > 0 }

    /// Takes piece `tally` of work unit `index` (`unit`); returns it with
    /// its problems' line numbers made absolute.
    func add(_ tally: ScanTally, unit index: Int, of unit: WorkUnit, last: Bool) -> ScanTally {
        // Ranges of one file number their lines from 1; make them absolute.
        if index != self.unit {
            if !unit.continuesPrevious { lineOffset = 0 }
            self.unit = index
        }
        var t = tally
        if case .range = unit.kind, lineOffset > 0 {
            for k in t.problems.indices { if let l = t.problems[k].line { t.problems[k].line = l + lineOffset } }
            for k in t.overLimit.indices { if let l = t.overLimit[k].line { t.overLimit[k].line = l + lineOffset } }
        }
        stats.add(t.stats)
        for p in t.problems { keep(p) }
        for c in t.problemCounts { count(c.count, in: c.origin) }
        unnamedProblems += t.unnamedProblems
        for s in t.skipped { keepSkipped(s.origin, reason: s.reason) }
        for o in t.overLimit { overLimit.note(o) }
        if last, case .range = unit.kind { lineOffset += t.lines }
        return t
    }

    /// Keeps `p` with its provenance while there is room: the first
    /// `problemLimit`, and besides them damage that stops a whole stream.
    private func keep(_ p: InputProblem) {
        if problems.count - streamProblems < ProblemLedger.problemLimit {
            problems.append(p)
        } else if p.kind.stopsStream && streamProblems < ProblemLedger.streamProblemLimit {
            problems.append(p)
            streamProblems += 1
        }
    }

    /// Counts `n` problems of `origin`: by name for the first `originLimit` files or members, else unnamed.
    private func count(_ n: Int, in origin: Origin) {
        if let l = problemCounts.indices.last, problemCounts[l].origin == origin { problemCounts[l].count += n }
        else if problemCounts.count < ProblemLedger.originLimit { problemCounts.append((origin, n)) }
        else { unnamedProblems += n }
    }

    private func keepSkipped(_ origin: Origin, reason: String) {
        if skipped.count < ProblemLedger.skippedLimit { skipped.append((origin, reason)) }
    }
}

/// A reader that is its own consumer (`aggregate`'s `ExtractReader`) hands
/// the ledger its bad input one problem at a time, in input order, with the
/// same bounds as a scan's pieces: every problem counted (in all, by kind,
/// by file or member), the first `problemLimit` kept with their lines.
extension ProblemLedger: ProblemSink {
    public func problem(_ p: InputProblem) {
        stats.badRecords += 1
        stats.badByKind[p.kind, default: 0] += 1
        let unnamed = unnamedProblems
        count(1, in: p.origin)
        // Past the files or members counted by name, a problem is not kept either (as a scan's piece does).
        if unnamedProblems == unnamed { keep(p) }
    }

    public func skipped(_ origin: Origin, reason: String) {
        stats.skippedMembers += 1
        keepSkipped(origin, reason: reason)
    }
}
