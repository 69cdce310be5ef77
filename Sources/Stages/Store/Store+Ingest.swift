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
    public var extractor: @Sendable () -> MentionExtractor = { EntitiesExtractor() }

    public init(jobs: Int) { self.jobs = max(1, jobs) }
}

/// What an ingest did.
public struct IngestOutcome: Sendable {
    /// The run's number in the history.
    public var run: Int64
    /// Counters of what was read (inputs, bytes, records, tweets, notices, bad records).
    public var stats = RunStats()
    /// What was committed: files, tweets new and already known.
    public var totals = RunTotals()
    /// Files skipped because they were ingested before, unchanged.
    public var unchanged = 0
    /// Bad input in input order (the first few per chunk), lines made absolute.
    public var problems: [InputProblem] = []
    /// Members and files passed over on purpose.
    public var skipped: [(origin: Origin, reason: String)] = []
    /// Whether the store kept the tweets' text.
    public var keptText = false
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
    public func ingest(_ plan: InputPlan, inputs: [String], options: IngestOptions,
                       control: RunControl) throws(StoreError) -> IngestOutcome {
        let keepText = try keepsText
        let run = try startRun(options.command, inputs: inputs)
        var outcome = IngestOutcome(run: run)
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
        var current = -1
        var lineOffset = 0
        let reader = ParallelIngest(jobs: options.jobs, maxRecord: options.maxRecord, keepText: keepText,
                                    chunkSize: min(options.batchSize, 8192), extractor: options.extractor)
        do {
            try reader.run(units, control: control) { (u, chunk, last) throws(StoreError) in
                if u != current {
                    // Byte ranges of one file number their lines from 1: make them absolute.
                    if !units[u].continuesPrevious { lineOffset = 0 }
                    current = u
                }
                outcome.stats.add(chunk.stats)
                for var p in chunk.problems {
                    if let l = p.line { p.line = l + lineOffset }
                    outcome.problems.append(p)
                }
                outcome.skipped.append(contentsOf: chunk.skipped)
                // Under --strict nothing from the bad record on is written.
                if control.isStopped { return }
                try writer.add(chunk)
                guard last else { return }
                lineOffset += chunk.lines
                let file = fileOf[u]
                if !chunk.cutShort && lastUnitOfFile[file] == u {
                    writer.fileDone(states[file], path: units[u].displayPath)
                }
            }
            if control.isStopped {
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

    /// Whether a file with this state was ingested whole before.
    func isIngested(_ state: FileState) throws(StoreError) -> Bool {
        let s = try db.statement("SELECT 1 FROM source WHERE size = ?1 AND mtime_ns = ?2 AND fingerprint = ?3")
        try s.bind(1, state.size)
        try s.bind(2, state.mtimeNanoseconds)
        try s.bind(3, state.fingerprint)
        return try s.first { _ in true } ?? false
    }

    /// Writes the WAL back into the database file and empties it, so the
    /// store is one file at rest (skipped quietly when readers are in the way).
    func checkpoint() throws(StoreError) {
        let s = try db.statement("PRAGMA wal_checkpoint(TRUNCATE)")
        while try s.step() {}
    }
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
