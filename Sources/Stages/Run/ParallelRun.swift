import Dispatch
import Synchronization

/// Runs the stages over a plan's work units on `jobs` cores and merges the
/// results in input order:
///
///     units ─▶ [worker: read ▶ frame ▶ decode ▶ extract ▶ match] × jobs
///                        │ Extraction per unit, any order
///                        ▼
///              ordered merge ▶ dedup ▶ aggregate ▶ reports
///
/// `DispatchQueue.concurrentPerform` starts one iteration per job; each
/// pulls unit indices from a shared counter, so a big file split into ranges
/// and many small files balance alike. A finished unit waits until all units
/// before it are merged, which makes the output byte-identical for every
/// `jobs` value.
public struct ParallelRun {
    public var terms: [Term]
    public var jobs: Int
    public var maxRecord: Int
    public var extractor: @Sendable () -> MentionExtractor
    /// The columns that make a file a CSV export.
    public var csvColumns: CSVColumns

    public init(terms: [Term], jobs: Int, maxRecord: Int = 16 << 20,
                extractor: @escaping @Sendable () -> MentionExtractor = { EntitiesExtractor() },
                csvColumns: CSVColumns = CSVColumns()) {
        self.terms = terms
        self.jobs = max(1, jobs)
        self.maxRecord = maxRecord
        self.extractor = extractor
        self.csvColumns = csvColumns
    }

    /// What a run produced.
    public struct Outcome {
        public var aggregator: Aggregator
        public var stats: RunStats
        /// Bad input in input order (the first few per unit), with line numbers made absolute.
        public var problems: [InputProblem]
        /// Members and files passed over on purpose.
        public var skipped: [(origin: Origin, reason: String)]
    }

    /// Runs the plan; `onUnitDone` is called (under a lock) as units finish, for progress.
    public func run(_ units: [WorkUnit], control: RunControl,
                    onUnitDone: (@Sendable (WorkUnit, Extraction) -> Void)? = nil) -> Outcome {
        let merger = Mutex(OrderedMerge(terms: terms))
        let next = Atomic<Int>(0)
        let workers = min(jobs, max(1, units.count))
        let terms = self.terms, maxRecord = self.maxRecord, makeExtractor = self.extractor, columns = self.csvColumns
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let reader = InputReader(maxRecord: maxRecord, csvColumns: columns)
            let scanner = UnitScanner(terms: terms, extractor: makeExtractor(), control: control)
            while !control.isStopped {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < units.count else { break }
                scanner.begin()
                let lines = reader.read(units[i], handler: scanner)
                var extraction = scanner.finish(lines: lines)
                extraction.stats.inputs = units[i].continuesPrevious ? 0 : 1
                extraction.stats.bytes = units[i].size ?? 0
                onUnitDone?(units[i], extraction)
                merger.withLock { $0.submit(i, unit: units[i], extraction) }
            }
        }
        return merger.withLock { m in
            Outcome(aggregator: m.aggregator, stats: m.stats, problems: m.problems, skipped: m.skipped)
        }
    }
}

/// Merges extractions strictly in unit order, holding early finishers back.
struct OrderedMerge: ~Copyable {
    let aggregator: Aggregator
    var stats = RunStats()
    var problems: [InputProblem] = []
    var skipped: [(origin: Origin, reason: String)] = []
    private var nextIndex = 0
    private var pending: [Int: (WorkUnit, Extraction)] = [:]
    private var lineOffset = 0

    init(terms: [Term]) { aggregator = Aggregator(terms: terms) }

    mutating func submit(_ index: Int, unit: WorkUnit, _ e: Extraction) {
        pending[index] = (unit, e)
        while let (unit, e) = pending.removeValue(forKey: nextIndex) {
            merge(unit, e)
            nextIndex += 1
        }
    }

    private mutating func merge(_ unit: WorkUnit, _ e: Extraction) {
        aggregator.add(e)
        stats.add(e.stats)
        // Ranges of one file number their lines from 1; make them absolute.
        if !unit.continuesPrevious { lineOffset = 0 }
        for var p in e.problems {
            if let l = p.line { p.line = l + lineOffset }
            problems.append(p)
        }
        lineOffset += e.lines
        skipped.append(contentsOf: e.skipped)
    }
}
