import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one engine every reading command runs on: reads a plan's work units
/// on `jobs` worker threads and hands each piece, in input order, to one
/// consumer on the calling thread.
///
///     units ─▶ [worker: read ▶ frame ─┬─▶ TweetScanner ▶ TweetConsumer]        plain files, parsed in place
///                                    └─▶ RecordBatch ─▶ WorkQueue ─▶ [any worker: TweetScanner ▶ TweetConsumer]
///                        │ ScanPiece (tally + part) per unit, batch or full part, any order
///                        ▼
///              OrderedHandoff (input order, bounded) ─▶ ProblemLedger ─▶ consume: aggregate · write lines · store
///
/// Each worker takes work from a shared queue: batches to parse first, then
/// units to read. A plain file (or byte range of one) is memory-mapped and
/// parsed in place by the worker that reads it; anything that must be
/// decompressed is cut into batches of whole records that every worker
/// parses, so one core can inflate a single `.zst` while the others parse
/// it. Pieces wait in the handoff until everything before them is consumed,
/// which makes the output byte-identical for every `jobs` value.
///
/// Back-pressure: a worker reading a unit ahead of the one being consumed
/// waits (parsing queued batches meanwhile) while `capacity` pieces are
/// held; the reader of the unit being consumed waits only on its own
/// pieces. Parsing never waits, so the consumer always gets to move on.
///
/// A consumer that needs a core of its own (the store's writer) asks for
/// `workerNice`: the workers then run at a lower priority (per thread, as
/// Linux allows) and use every cycle the consumer leaves.
struct ScanEngine {
    var jobs: Int
    var maxRecord: Int
    var csvColumns: CSVColumns
    var extractor: @Sendable (MentionKinds) -> MentionExtractor
    /// The kinds each worker's extractor adds (SPEC §13): what is counted and what the terms match.
    var kinds = MentionKinds.standard
    /// The filters of SPEC §12.2 every worker's scanner applies (none for an ingest).
    var filter: TweetFilter?
    /// Size of the record batches cut from compressed input.
    var batchBytes = RecordBatch.defaultTargetBytes
    /// Records a batch holds at most, so that a slow stream (a pipe a
    /// collector writes) reaches the consumer in pieces it can commit.
    var batchRecords = Int.max
    /// Pieces held ahead of the consumer before readers wait.
    var capacity = 64
    /// How much nicer the worker threads are than the consumer's (0: as nice).
    var workerNice: Int32 = 0
    /// What is read besides live tweets, and the bounds of one input's work.
    var policy = ReadPolicy()
    /// A pairs run's `--max-pair-mentions`: kept tweets over it are noted in the tallies.
    var pairLimit = Int.max

    /// One piece in input order: what the ledger made of its tally (line
    /// numbers absolute) and the consumer's part.
    struct Piece<Part> {
        var unit: Int
        var part: Part
        var tally: ScanTally
        /// The unit's last piece.
        var last: Bool
        /// Set on a last piece when the run stopped before the unit was read to its end.
        var cutShort: Bool
    }

    /// Runs the units; `consume` gets every piece in input order, after the
    /// ledger has taken its tally.
    ///
    /// - Parameter consumer: a worker's consumer, made for its scanner's mention table.
    /// - Throws: the first error `consume` throws; the workers stop then.
    func run<C: TweetConsumer, E: Error>(
        _ units: [WorkUnit], control: RunControl, ledger: ProblemLedger,
        consumer makeConsumer: @escaping @Sendable (MentionTable) -> C,
        consume: (Piece<C.Part>) throws(E) -> Void
    ) throws(E) {
        typealias Item = (tally: ScanTally, part: C.Part, cutShort: Bool)
        let handoff = OrderedHandoff<UncheckedBox<Item>>(units: units.count, capacity: capacity)
        let queue = WorkQueue(units: units.count, workers: jobs, control: control)
        let pool = BufferPool(keep: queue.limit + jobs + 2)
        let (maxRecord, columns, makeExtractor, nice, kinds) = (self.maxRecord, self.csvColumns, self.extractor, self.workerNice, self.kinds)
        let (batchBytes, batchRecords, filter, policy) = (self.batchBytes, self.batchRecords, self.filter, self.policy)
        let pairLimit = self.pairLimit
        let done = DispatchGroup()
        for _ in 0..<jobs {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                if nice > 0 { ScanEngine.lowerPriority(by: nice) }
                let reader = InputReader(maxRecord: maxRecord, csvColumns: columns)
                reader.progress = control
                reader.policy = policy
                let scanner = TweetScanner(extractor: makeExtractor(kinds), control: control, filter: filter, consumer: makeConsumer)
                scanner.pairLimit = pairLimit
                let builder = BatchBuilder(scanner: scanner, queue: queue, control: control, batchBytes: batchBytes,
                                           batchRecords: batchRecords, pool: pool, handoff: handoff)
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
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.notify(queue: .global()) { handoff.close() }
        defer { done.wait() }
        do {
            while let (unit, box, last) = handoff.next() {
                let tally = ledger.add(box.value.tally, unit: unit, of: units[unit], last: last)
                try consume(Piece(unit: unit, part: box.value.part, tally: tally, last: last, cutShort: box.value.cutShort))
            }
        } catch {
            control.stop()
            handoff.cancel()
            throw error
        }
    }

    /// Makes the calling thread `by` nicer (19 at most); only ever lowers
    /// its priority, which needs no privilege.
    static func lowerPriority(by nice: Int32) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        setpriority(which, 0, min(19, current + nice))
    }
}

/// The `RecordHandler` a worker reads with. A memory-mapped stream is parsed
/// on the spot by the worker's `TweetScanner`; any other is copied into
/// `RecordBatch`es for the queue, and when too many are waiting the reader
/// parses one itself, which bounds memory.
final class BatchBuilder<C: TweetConsumer>: RecordHandler {
    typealias Item = (tally: ScanTally, part: C.Part, cutShort: Bool)

    private let scanner: TweetScanner<C>
    private let queue: WorkQueue
    private let control: RunControl
    private let handoff: OrderedHandoff<UncheckedBox<Item>>
    private var unit = 0
    private var direct = false
    /// Whether a stream (not a mapping) is parsed here as it is read, and
    /// what its current piece holds, counted as a batch counts (`RecordBatch`).
    private var streamDirect = false
    private var pieceBytes = 0
    private var pieceRecords = 0
    private var pieceNotes = 0
    private var started = false
    private var batch: RecordBatch?
    /// Pieces of the unit handed on so far (batches, or parts of a mapped unit).
    private var pieces = 0
    /// The header of the CSV stream being read, if it is one.
    private var csvHeader: CSVHeader?
    private let batchBytes: Int
    private let batchRecords: Int
    private let pool: BufferPool

    init(scanner: TweetScanner<C>, queue: WorkQueue, control: RunControl, batchBytes: Int, batchRecords: Int,
         pool: BufferPool, handoff: OrderedHandoff<UncheckedBox<Item>>) {
        self.batchBytes = batchBytes
        self.batchRecords = batchRecords
        self.pool = pool
        self.scanner = scanner
        self.queue = queue
        self.control = control
        self.handoff = handoff
    }

    func begin(unit: Int) {
        self.unit = unit
        direct = false
        started = false
        batch = nil
        pieces = 0
        csvHeader = nil
    }

    /// A mapped unit is parsed by the worker that reads it. So is a stream
    /// while other units are left for the other workers (no copy into
    /// batches: 6–9% of the CPU time of 8 gzip files); once none is, the rest
    /// of the stream goes in batches that every worker parses. A stream's
    /// pieces parsed here end exactly where its batches would, with its bad
    /// input in input order as a batch's is, so each piece, and so what the
    /// run names of bad input, is the same either way: the output does not
    /// depend on which worker read what when.
    func beginStream(mapped: Bool) {
        guard !started else { return }
        started = true
        // Bad input met before the first record is already in a batch: the stream stays in batches.
        direct = mapped || (batch == nil && queue.hasUnitsToRead)
        streamDirect = direct && !mapped
        (pieceBytes, pieceRecords, pieceNotes) = (0, 0, 0)
        if direct { scanner.begin() }
    }

    /// After a record parsed here.
    @inline(__always)
    private func parsedDirect(_ count: Int) {
        guard streamDirect else {
            if scanner.isFull { submitDirect(last: false, lines: 0) }
            return
        }
        pieceBytes &+= count
        pieceRecords &+= 1
        if pieceBytes >= max(1, batchBytes) || pieceRecords >= batchRecords { endDirectPiece() }
    }

    /// After bad input or a member passed over, met here in a stream.
    private func notedDirect() {
        guard streamDirect else { return }
        pieceNotes += 1
        if pieceNotes >= BatchBuilder.notesPerBatch { endDirectPiece() }
    }

    /// Hands on the stream's piece where its batch would have ended; the
    /// stream turns to batches when no unit is left for the others.
    private func endDirectPiece() {
        (pieceBytes, pieceRecords, pieceNotes) = (0, 0, 0)
        submitDirect(last: false, lines: 0)
        if !queue.hasUnitsToRead {
            direct = false
            streamDirect = false
        }
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        if !started { beginStream(mapped: false) }
        if direct {
            scanner.record(bytes, line: line, origin: origin)
            parsedDirect(bytes.count)
            return
        }
        let b = currentBatch()
        b.append(bytes, line: line, origin: origin)
        if b.isFull || b.count >= batchRecords { flush() }
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        if !started { beginStream(mapped: false) }
        if direct {
            scanner.record(bytes, line: line, element: element, offset: offset, origin: origin)
            parsedDirect(bytes.count)
            return
        }
        let b = currentBatch()
        b.append(bytes, line: line, origin: origin)
        b.elements[b.count - 1] = (element, offset)
        if b.isFull || b.count >= batchRecords { flush() }
    }

    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        if !started { beginStream(mapped: false) }
        csvHeader = header
        if direct { scanner.beginCSV(header, line: line, origin: origin) }
    }

    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        if direct {
            scanner.csvRow(bytes, line: line, origin: origin)
            parsedDirect(bytes.count)
            return
        }
        let b = currentBatch()
        b.append(bytes, line: line, origin: origin, csv: csvHeader)
        if b.isFull || b.count >= batchRecords { flush() }
    }

    func problem(_ p: InputProblem) {
        if direct {
            scanner.problem(p)
            notedDirect()
            return
        }
        let b = currentBatch()
        b.problems.append(p)
        b.problemPositions.append(b.count)
        control.problemSeen(p)
        // A stream of nothing but problems (empty members by the million) hands them on in bounded pieces.
        if b.problems.count + b.skipped.count >= BatchBuilder.notesPerBatch { flush() }
    }

    func skipped(_ origin: Origin, reason: String) {
        if direct {
            scanner.skipped(origin, reason: reason)
            notedDirect()
            return
        }
        let b = currentBatch()
        b.skipped.append((origin, reason))
        if b.problems.count + b.skipped.count >= BatchBuilder.notesPerBatch { flush() }
    }

    /// Problems and passed-over members a batch holds at most.
    static var notesPerBatch: Int { 1024 }

    var shouldStop: Bool { control.isStopped }

    /// The unit is read: hand over what is left, marked as its last.
    func end(lines: Int, bytes: Int64, startsInput: Bool) {
        if direct {
            submitDirect(last: true, lines: lines, inputs: startsInput ? 1 : 0, bytes: bytes)
            return
        }
        let b = currentBatch()
        b.isLast = true
        b.unitLines = lines
        b.unitBytes = bytes
        b.startsInput = startsInput
        flush()
    }

    /// Hands on what the scanner holds of the mapped unit being read.
    private func submitDirect(last: Bool, lines: Int, inputs: Int = 0, bytes: Int64 = 0) {
        var (tally, part) = scanner.finish(lines: lines)
        if last {
            tally.stats.inputs = inputs
            tally.stats.bytes = bytes
        }
        waitForRoom()
        handoff.submit(UncheckedBox((tally, part, last && control.isStopped)), unit: unit, index: pieces, last: last)
        pieces += 1
        scanner.begin()
    }

    /// Parses a batch with this worker's scanner and hands the piece on.
    func parse(_ b: RecordBatch) {
        scanner.begin()
        for s in b.skipped { scanner.skipped(s.origin, reason: s.reason) }
        // Bad input met while reading goes in among the records, where it was met.
        var problem = 0
        var header = -1
        for i in 0..<b.count {
            if control.isStopped { break }
            while problem < b.problems.count && b.problemPositions[problem] <= i {
                scanner.absorb(b.problems[problem])
                problem += 1
            }
            let origin = b.origins[b.originIndex[i]]
            let h = b.csvHeaderIndex[i]
            if h < 0 {
                if !b.elements.isEmpty, let e = b.elements[i] {
                    scanner.record(b.record(i), line: b.lines[i], element: e.index, offset: e.offset, origin: origin)
                } else {
                    scanner.record(b.record(i), line: b.lines[i], origin: origin)
                }
                continue
            }
            if h != header {
                scanner.beginCSV(b.csvHeaders[h], line: b.lines[i], origin: origin)
                header = h
            }
            scanner.csvRow(b.record(i), line: b.lines[i], origin: origin)
        }
        for p in b.problems[problem...] { scanner.absorb(p) }
        var (tally, part) = scanner.finish(lines: b.isLast ? b.unitLines : 0)
        if b.isLast {
            tally.stats.inputs = b.startsInput ? 1 : 0
            tally.stats.bytes = b.unitBytes
        }
        handoff.submit(UncheckedBox((tally, part, b.isLast && control.isStopped)), unit: b.unit, index: b.index, last: b.isLast)
    }

    private func currentBatch() -> RecordBatch {
        if let b = batch { return b }
        let b = RecordBatch(unit: unit, index: pieces, targetBytes: batchBytes, pool: pool)
        pieces += 1
        batch = b
        return b
    }

    private func flush() {
        guard let b = batch else { return }
        batch = nil
        waitForRoom()
        queue.push(b)
        while let waiting = queue.overflow() { parse(waiting) }
    }

    /// Back-pressure on reading: while the consumer is too far behind, this
    /// reader parses queued batches, or waits.
    private func waitForRoom() {
        while !handoff.hasRoom(for: unit) && !control.isStopped {
            if let b = queue.take() { parse(b) } else { handoff.waitForRoom(for: unit) }
        }
    }
}
