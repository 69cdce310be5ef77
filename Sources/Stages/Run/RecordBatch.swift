import Synchronization
import Foundation

/// Complete records copied out of a work unit that cannot be read in place
/// (compressed streams, archive members, standard input): the parse stage's
/// unit of work, so one reader decompressing can keep every core parsing.
///
/// - Complexity: memory O(bytes of its records); batches are capped at
///   `targetBytes` (plus one record) and only a few are queued.
final class RecordBatch: @unchecked Sendable {
    /// Batches hold about this many bytes (SMASHTAG_BATCH_BYTES lets tests make them tiny).
    static let defaultTargetBytes = 2 << 20
    let targetBytes: Int

    /// The work unit it came from, and its number within that unit.
    let unit: Int
    let index: Int
    private(set) var storage: UnsafeMutableRawBufferPointer
    private(set) var used = 0
    /// Record i is `storage[starts[i]..<ends[i]]`, on `lines[i]` of `origins[originIndex[i]]`.
    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    private(set) var lines: [Int] = []
    private(set) var originIndex: [Int] = []
    private(set) var origins: [Origin] = []
    /// For a CSV row, its header in `csvHeaders`; -1 for a JSON record.
    private(set) var csvHeaderIndex: [Int] = []
    private(set) var csvHeaders: [CSVHeader] = []
    /// For a record that is an element of a one-line array: its index and stream offset.
    var elements: [Int: (index: Int, offset: Int64)] = [:]
    /// Reading problems and passed-over members met while filling it.
    var problems: [InputProblem] = []
    /// For each problem, how many records came before it.
    var problemPositions: [Int] = []
    var skipped: [(origin: Origin, reason: String)] = []
    /// Set on the unit's last batch: the unit's line count and bytes read.
    var isLast = false
    var startsInput = true
    var unitLines = 0
    var unitBytes: Int64 = 0

    private let pool: BufferPool?

    init(unit: Int, index: Int, targetBytes: Int = RecordBatch.defaultTargetBytes, pool: BufferPool? = nil) {
        self.unit = unit
        self.index = index
        self.targetBytes = max(1, targetBytes)
        self.pool = pool
        storage = pool?.take(self.targetBytes + 4096) ?? .allocate(byteCount: self.targetBytes + 4096, alignment: 64)
    }

    deinit {
        if let pool { pool.give(storage) } else { storage.deallocate() }
    }

    var count: Int { starts.count }
    var isFull: Bool { used >= targetBytes }

    func append(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin, csv: CSVHeader? = nil) {
        if let csv {
            if csvHeaders.last != csv { csvHeaders.append(csv) }
            csvHeaderIndex.append(csvHeaders.count - 1)
        } else {
            csvHeaderIndex.append(-1)
        }
        if used + bytes.count > storage.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count * 2, used + bytes.count), alignment: 64)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<used]))
            storage.deallocate()
            storage = bigger
        }
        if !bytes.isEmpty { (storage.baseAddress! + used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        if origins.last != origin { origins.append(origin) }
        starts.append(used)
        used += bytes.count
        ends.append(used)
        lines.append(line)
        originIndex.append(origins.count - 1)
    }

    func record(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[starts[i]..<ends[i]])
    }
}

/// The shared list of work: batches waiting to be parsed, units waiting to
/// be read. Workers take parsing first (it frees memory), reading next.
final class WorkQueue: @unchecked Sendable {
    enum Task {
        case parse(RecordBatch)
        case read(Int)
        case done
    }

    private let condition = NSCondition()
    private var batches: [RecordBatch?] = []
    private var head = 0
    private var nextUnit = 0
    private var activeReaders = 0
    private let unitCount: Int
    private let control: RunControl
    /// Batches queued before a reader parses one itself (back-pressure).
    let limit: Int
    private let allTaken = Atomic<Bool>(false)

    /// Whether some unit is still to be read: then a worker reading a
    /// stream leaves the others work of their own, and parses it itself.
    var hasUnitsToRead: Bool { !allTaken.load(ordering: .relaxed) }

    init(units: Int, workers: Int, control: RunControl) {
        unitCount = units
        self.control = control
        limit = max(2, workers * 2)
    }

    /// The next thing to do; waits while others are still reading.
    func next() -> Task {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if control.isStopped { return .done }
            if head < batches.count { return .parse(popLocked()) }
            if nextUnit < unitCount {
                nextUnit += 1
                activeReaders += 1
                if nextUnit == unitCount { allTaken.store(true, ordering: .relaxed) }
                return .read(nextUnit - 1)
            }
            if activeReaders == 0 { return .done }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    func push(_ batch: RecordBatch) {
        condition.lock()
        batches.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// A batch to parse right now if too many are waiting.
    func overflow() -> RecordBatch? {
        condition.lock()
        defer { condition.unlock() }
        return batches.count - head > limit ? popLocked() : nil
    }

    /// A queued batch, if any; never waits.
    func take() -> RecordBatch? {
        condition.lock()
        defer { condition.unlock() }
        return head < batches.count ? popLocked() : nil
    }

    func readerDone() {
        condition.lock()
        activeReaders -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func popLocked() -> RecordBatch {
        let b = batches[head]!
        batches[head] = nil  // a parsed batch must not stay alive here
        head += 1
        if head > 64 && head * 2 > batches.count {
            batches.removeFirst(head)
            head = 0
        }
        return b
    }
}

/// Reuses batch buffers. Freeing and allocating megabyte buffers over and
/// over lets glibc's heap grow with the input (its mmap threshold adapts
/// upward); a handful of buffers cycling keeps memory flat.
final class BufferPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [UnsafeMutableRawBufferPointer] = []
    private let keep: Int

    init(keep: Int) { self.keep = keep }

    deinit { for b in free { b.deallocate() } }

    func take(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        lock.lock()
        defer { lock.unlock() }
        if let i = free.lastIndex(where: { $0.count >= bytes }) { return free.remove(at: i) }
        return .allocate(byteCount: bytes, alignment: 64)
    }

    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < keep { free.append(buffer) } else { buffer.deallocate() }
    }
}
