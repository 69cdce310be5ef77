import Dispatch
import Synchronization

/// Runs the stages over a plan's work units on `jobs` cores and merges the
/// results in input order:
///
///     units ─▶ [worker: read ▶ frame ─┬─▶ decode ▶ extract ▶ match]   plain files, in place
///                                    └─▶ RecordBatch ─▶ WorkQueue ─▶ [any worker: decode ▶ extract ▶ match]
///                        │ Extraction per unit or batch, any order
///                        ▼
///              ordered merge ▶ dedup ▶ aggregate ▶ reports
///
/// `DispatchQueue.concurrentPerform` starts one iteration per job. Each takes
/// work from a shared queue: batches to parse first, then units to read. A
/// plain file (or byte range of one) is memory-mapped and parsed in place by
/// the worker that reads it; anything that must be decompressed is cut into
/// batches of whole records that every worker parses, so one core can inflate
/// a single `.zst` while the others parse it. Results wait until everything
/// before them is merged, which makes the output byte-identical for every
/// `jobs` value.
public struct ParallelRun {
    public var terms: [Term]
    public var jobs: Int
    public var maxRecord: Int
    public var extractor: @Sendable () -> MentionExtractor
    /// Size of the record batches cut from compressed input.
    public var batchBytes = RecordBatch.defaultTargetBytes
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

    /// What a run produced (its matches went to the sink).
    public struct Outcome {
        public var stats: RunStats
        /// Bad input in input order (the first few per unit), with line numbers made absolute.
        public var problems: [InputProblem]
        /// Members and files passed over on purpose.
        public var skipped: [(origin: Origin, reason: String)]
        /// Bad input counted by file or member (all of it, not only the problems kept).
        public var problemCounts: [(origin: Origin, count: Int)] = []
    }

    /// Runs the plan's units; every unit's matches reach `sink` in input order.
    public func run(_ units: [WorkUnit], control: RunControl, into sink: ExtractionSink) -> Outcome {
        // The sink is only touched under the merge lock.
        let merger = Mutex(OrderedMerge(sink: UncheckedSink(sink), units: units))
        let workers = min(jobs, max(1, units.count))
        let queue = WorkQueue(units: units.count, workers: workers, control: control)
        let pool = BufferPool(keep: queue.limit + jobs + 2)
        let terms = self.terms, maxRecord = self.maxRecord, makeExtractor = self.extractor, batchBytes = self.batchBytes
        let columns = self.csvColumns
        let parallelSink = sink as? ParallelExtractionSink
        parallelSink?.begin(workers: jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            let reader = InputReader(maxRecord: maxRecord, csvColumns: columns)
            reader.progress = control
            let scanner = UnitScanner(terms: terms, extractor: makeExtractor(), control: control)
            let builder = BatchBuilder(scanner: scanner, queue: queue, control: control, batchBytes: batchBytes, pool: pool) { unit, batch, last, e in
                parallelSink?.prepare(e, worker: worker)
                merger.withLock { $0.submit(unit: unit, batch: batch, last: last, e) }
            }
            while true {
                switch queue.next() {
                case .parse(let batch):
                    builder.parse(batch)
                case .read(let i):
                    builder.begin(unit: i)
                    let lines = reader.read(units[i], handler: builder)
                    builder.end(lines: lines, bytes: reader.lastUnitBytes, startsInput: units[i].startsInput)
                    control.unitDone()
                    queue.readerDone()
                case .done:
                    return
                }
            }
        }
        return merger.withLock { m in
            Outcome(stats: m.stats, problems: m.problems, skipped: m.skipped, problemCounts: m.problemCounts)
        }
    }
}

/// The `RecordHandler` a worker reads with. A memory-mapped stream is parsed
/// on the spot by the worker's `UnitScanner`; any other is copied into
/// `RecordBatch`es for the queue, and when too many are waiting the reader
/// parses one itself, which bounds memory.
final class BatchBuilder: RecordHandler {
    typealias Submit = (_ unit: Int, _ batch: Int, _ last: Bool, _ extraction: Extraction) -> Void

    private let scanner: UnitScanner
    private let queue: WorkQueue
    private let control: RunControl
    private let submit: Submit
    private var unit = 0
    private var direct = false
    private var started = false
    private var batch: RecordBatch?
    private var batchCount = 0
    /// The header of the CSV stream being read, if it is one.
    private var csvHeader: CSVHeader?
    private let batchBytes: Int
    private let pool: BufferPool

    init(scanner: UnitScanner, queue: WorkQueue, control: RunControl, batchBytes: Int, pool: BufferPool,
         submit: @escaping Submit) {
        self.batchBytes = batchBytes
        self.pool = pool
        self.scanner = scanner
        self.queue = queue
        self.control = control
        self.submit = submit
    }

    func begin(unit: Int) {
        self.unit = unit
        direct = false
        started = false
        batch = nil
        batchCount = 0
        csvHeader = nil
    }

    func beginStream(mapped: Bool) {
        guard !started else { return }
        started = true
        direct = mapped
        if direct { scanner.begin() }
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        if !started { beginStream(mapped: false) }
        if direct {
            scanner.record(bytes, line: line, origin: origin)
            return
        }
        let b = currentBatch()
        b.append(bytes, line: line, origin: origin)
        if b.isFull { flush() }
    }

    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        if !started { beginStream(mapped: false) }
        csvHeader = header
        if direct { scanner.beginCSV(header, line: line, origin: origin) }
    }

    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        if direct {
            scanner.csvRow(bytes, line: line, origin: origin)
            return
        }
        let b = currentBatch()
        b.append(bytes, line: line, origin: origin, csv: csvHeader)
        if b.isFull { flush() }
    }

    func problem(_ p: InputProblem) {
        if direct { scanner.problem(p); return }
        currentBatch().problems.append(p)
        control.problemSeen(p)
    }

    func skipped(_ origin: Origin, reason: String) {
        if direct { scanner.skipped(origin, reason: reason); return }
        currentBatch().skipped.append((origin, reason))
    }

    var shouldStop: Bool { control.isStopped }

    /// The unit is read: hand over what is left, marked as its last.
    func end(lines: Int, bytes: Int64, startsInput: Bool) {
        if direct {
            var e = scanner.finish(lines: lines)
            e.stats.inputs = startsInput ? 1 : 0
            e.stats.bytes = bytes
            submit(unit, 0, true, e)
            return
        }
        let b = currentBatch()
        b.isLast = true
        b.unitLines = lines
        b.unitBytes = bytes
        b.startsInput = startsInput
        flush()
    }

    /// Parses a batch with this worker's scanner and submits the result.
    func parse(_ b: RecordBatch) {
        scanner.begin()
        for p in b.problems { scanner.absorb(p) }
        for s in b.skipped { scanner.skipped(s.origin, reason: s.reason) }
        var header = -1
        for i in 0..<b.count {
            if control.isStopped { break }
            let origin = b.origins[b.originIndex[i]]
            let h = b.csvHeaderIndex[i]
            if h < 0 {
                scanner.record(b.record(i), line: b.lines[i], origin: origin)
                continue
            }
            if h != header {
                scanner.beginCSV(b.csvHeaders[h], line: b.lines[i], origin: origin)
                header = h
            }
            scanner.csvRow(b.record(i), line: b.lines[i], origin: origin)
        }
        var e = scanner.finish(lines: b.isLast ? b.unitLines : 0)
        if b.isLast {
            e.stats.inputs = b.startsInput ? 1 : 0
            e.stats.bytes = b.unitBytes
        }
        submit(b.unit, b.index, b.isLast, e)
    }

    private func currentBatch() -> RecordBatch {
        if let b = batch { return b }
        let b = RecordBatch(unit: unit, index: batchCount, targetBytes: batchBytes, pool: pool)
        batchCount += 1
        batch = b
        return b
    }

    private func flush() {
        guard let b = batch else { return }
        batch = nil
        queue.push(b)
        while let waiting = queue.overflow() { parse(waiting) }
    }
}

/// Merges extractions strictly in input order (unit, then batch), holding
/// early finishers back.
/// Hands a sink to the merge lock, which is its only user.
final class UncheckedSink: @unchecked Sendable {
    let sink: ExtractionSink
    init(_ sink: ExtractionSink) { self.sink = sink }
}

struct OrderedMerge: ~Copyable {
    let sink: UncheckedSink
    let units: [WorkUnit]
    var stats = RunStats()
    var problems: [InputProblem] = []
    var skipped: [(origin: Origin, reason: String)] = []
    var problemCounts: [(origin: Origin, count: Int)] = []
    private var nextUnit = 0
    private var nextBatch = 0
    private var pending: [Int: [Int: (Extraction, Bool)]] = [:]
    private var lineOffset = 0

    init(sink: UncheckedSink, units: [WorkUnit]) {
        self.sink = sink
        self.units = units
    }

    mutating func submit(unit: Int, batch: Int, last: Bool, _ e: Extraction) {
        pending[unit, default: [:]][batch] = (e, last)
        while let (e, last) = pending[nextUnit]?.removeValue(forKey: nextBatch) {
            merge(e, unit: units[nextUnit], first: nextBatch == 0, last: last)
            if last {
                pending[nextUnit] = nil
                nextUnit += 1
                nextBatch = 0
            } else {
                nextBatch += 1
            }
        }
    }

    private mutating func merge(_ e: Extraction, unit: WorkUnit, first: Bool, last: Bool) {
        sink.sink.add(e)
        stats.add(e.stats)
        // Ranges of one file number their lines from 1; make them absolute.
        if first && !unit.continuesPrevious { lineOffset = 0 }
        for var p in e.problems {
            if let l = p.line, case .range = unit.kind { p.line = l + lineOffset }
            problems.append(p)
        }
        for c in e.problemCounts {
            if let l = problemCounts.indices.last, problemCounts[l].origin == c.origin { problemCounts[l].count += c.count }
            else { problemCounts.append(c) }
        }
        if last, case .range = unit.kind { lineOffset += e.lines }
        skipped.append(contentsOf: e.skipped)
    }
}
