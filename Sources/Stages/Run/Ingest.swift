#if canImport(Glibc)
import Glibc
#endif

/// How an ingest runs; each default is what a nightly job wants.
public struct IngestOptions: Sendable {
    /// Worker threads reading and decoding [default: all cores].
    public var jobs: Int
    /// Longest record read [default: 16 MiB].
    public var maxRecord = 16 << 20
    /// Tweets per committed batch [default: 50,000]: bigger batches write
    /// faster; a killed run redoes at most one batch.
    public var batchSize = 50_000
    /// What the history calls the run: `ingest` or `import`.
    public var command = "ingest"
    /// Where mentions come from, one extractor per worker [default: the API's entities].
    public var extractor: @Sendable (MentionKinds) -> MentionExtractor = { EntitiesExtractor(kinds: $0) }
    /// The columns that make a file a CSV export [default: as for a report].
    public var csvColumns = CSVColumns()
    /// Size of the record batches cut from compressed input.
    public var batchBytes = RecordBatch.defaultTargetBytes
    /// What is read besides live tweets, and the bounds of one input's work.
    public var policy = ReadPolicy()

    public init(jobs: Int) { self.jobs = max(1, jobs) }
}

/// What an ingest did.
public struct IngestOutcome {
    /// The run's number in the history.
    public var run: Int64
    /// What was read and skipped, with the plan's problems.
    public var ledger: ProblemLedger
    /// What was committed: files, tweets new and already known.
    public var totals = RunTotals()
    /// Files skipped because they were ingested before, unchanged.
    public var unchanged = 0
    /// Whether the store kept the tweets' text.
    public var keptText = false

    /// Counters of what was read (inputs, bytes, records, tweets, notices, bad records).
    public var stats: RunStats { ledger.stats }
    /// Bad input in input order, lines made absolute.
    public var problems: [InputProblem] { ledger.problems }
    /// Members and files passed over on purpose.
    public var skipped: [(origin: Origin, reason: String)] { ledger.skipped }
}

extension Store {
    /// Reads the plan's inputs into the store (SPEC §10): every tweet not
    /// already there, with its mention set; files ingested before unchanged
    /// are not read again.
    ///
    /// The run is in the history from its start; a run stopped by `--strict`
    /// or a store error keeps its committed batches and says how it ended.
    ///
    /// - Parameters:
    ///   - inputs: the paths as given, for the history.
    /// - Throws: `StoreError` when the store cannot be written; what was
    ///   committed before stays.
    /// - Complexity: one existence query per 500 tweets, one transaction per
    ///   `batchSize` tweets; memory O(batch) plus bounded read-ahead.
    public func ingest(_ plan: InputPlan, inputs: [String], options: IngestOptions, control: RunControl,
                       ledger: ProblemLedger = ProblemLedger()) throws(StoreError) -> IngestOutcome {
        let keepText = try keepsText
        let run = try startRun(options.command, inputs: inputs)
        var outcome = IngestOutcome(run: run, ledger: ledger)
        outcome.keptText = keepText

        // Whole files already ingested, unchanged, are not read again.
        let files = FileGroups(plan.units)
        var units: [WorkUnit] = []
        var states: [FileState?] = []
        var fileOf: [Int] = []  // unit (of `units`) → file (of `states`)
        for file in files.groups {
            let state = file.path.flatMap(FileState.init(path:))
            if let state, try isIngested(state) {
                outcome.unchanged += 1
                continue
            }
            states.append(state)
            for u in file.units {
                fileOf.append(states.count - 1)
                units.append(plan.units[u])
            }
        }
        if outcome.unchanged > 0 { try setUnchanged(run, outcome.unchanged) }
        let lastUnitOfFile = Dictionary(fileOf.enumerated().map { ($1, $0) }, uniquingKeysWith: max)

        let writer = IngestWriter(db: db, run: run, batchSize: options.batchSize, keepText: keepText,
                                  tracked: try trackedTerms())
        // The writer is the one stage that cannot be split: it keeps a core of its own.
        var engine = ScanEngine(jobs: options.jobs, maxRecord: options.maxRecord, csvColumns: options.csvColumns,
                                extractor: options.extractor)
        engine.batchBytes = options.batchBytes
        engine.policy = options.policy
        // The store keeps every kind of mention (SPEC §13, schema v6); a report picks its kinds.
        engine.kinds = .every
        let chunkSize = min(options.batchSize, 8192)
        engine.batchRecords = chunkSize
        engine.capacity = 16
        engine.workerNice = Store.workerNice
        do {
            try engine.run(units, control: control, ledger: ledger,
                           consumer: { StoreCollector(table: $0, keepText: keepText, chunkSize: chunkSize) }) { (piece) throws(StoreError) in
                // Under --strict nothing from the bad record on is written.
                if control.isStopped { return }
                try writer.add(piece.part, bytes: piece.tally.stats.bytes, skipped: piece.tally.stats.badRecords)
                guard piece.last else { return }
                let file = fileOf[piece.unit]
                if !piece.cutShort && lastUnitOfFile[file] == piece.unit {
                    writer.fileDone(states[file], path: units[piece.unit].displayPath)
                }
            }
            if control.interruptingSignal != 0 {
                // SIGINT or SIGTERM: the batches committed stay; the one being filled is dropped.
                writer.abandon()
                let name = control.interruptingSignal == SIGINT ? "SIGINT" : "SIGTERM"
                try endRun(run, outcome: "interrupted", message: "interrupted by \(name); the batches committed before it are kept")
            } else if control.isStopped {
                // --strict stopped the run at a bad record: nothing after the last commit counts.
                writer.abandon()
                try endRun(run, outcome: "stopped", message: control.stoppingProblem.map { "--strict: \($0)" })
            } else {
                try writer.commit(outcome: "ok")
            }
        } catch {
            writer.abandon()
            // Best effort: a full disk may refuse this too; the run then shows as interrupted.
            try? endRun(run, outcome: "failed", message: error.message)
            throw error
        }
        outcome.totals = writer.totals
        try checkpoint()
        return outcome
    }

    /// How much nicer the ingest's reading threads are than its writer.
    static let workerNice: Int32 = 10
}

/// A plan's work units grouped by the file they read: a big JSON-lines file
/// is several byte ranges, and is ingested whole only when its last range is.
struct FileGroups {
    struct Group {
        /// The file's path; nil for standard input (never skipped).
        var path: String?
        var units: [Int]
    }

    private(set) var groups: [Group] = []

    init(_ units: [WorkUnit]) {
        for (i, unit) in units.enumerated() {
            // Ranges of a big file and members of a big tar belong to their file.
            if unit.continuesPrevious || !unit.startsInput, !groups.isEmpty {
                groups[groups.count - 1].units.append(i)
                continue
            }
            switch unit.kind {
            case .file(let p), .range(let p, _), .tarMember(let p, _, _): groups.append(Group(path: p, units: [i]))
            case .standardInput: groups.append(Group(path: nil, units: [i]))
            }
        }
    }
}
