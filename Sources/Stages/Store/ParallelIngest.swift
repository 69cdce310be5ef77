import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads a plan's work units on `jobs` cores and hands their tweets, in
/// input order, to one consumer on the calling thread — the store's writer:
///
///     units ─▶ [worker: read ▶ frame ▶ decode ▶ extract] × jobs
///                        │ IngestChunk, every `chunkSize` tweets and at each unit's end
///                        ▼
///              OrderedHandoff (unit order, bounded) ─▶ consumer: one writer, batches, commits
///
/// The same pattern as `ParallelRun`, with two differences a store needs:
/// a unit's tweets leave in chunks while it is read (a 10 GB `.jsonl.gz` is
/// one unit), and the consumer runs while the workers read, so reading and
/// writing overlap. Workers ahead of the unit being written hold at most
/// `buffered` chunks before they wait, so memory stays bounded.
///
/// The writer is the one stage that cannot be split, so it must never wait
/// for a core: with as many workers as cores, three threads share two cores
/// and the writer would get two thirds of one. The workers are therefore
/// threads of their own that run at a lower priority (`workerNice`, for
/// them alone: Linux gives each thread its own nice value); they use every
/// cycle the writer leaves, and the writer gets a whole core when it has work.
struct ParallelIngest {
    var jobs: Int
    var maxRecord: Int
    var keepText: Bool
    var chunkSize: Int
    var extractor: @Sendable () -> MentionExtractor
    var buffered = 16

    /// How much nicer the worker threads are than the writer.
    static let workerNice: Int32 = 10

    /// Makes the calling thread `workerNice` nicer (19 at most); only ever
    /// lowers its priority, which needs no privilege.
    static func lowerPriority() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        setpriority(which, 0, min(19, current + workerNice))
    }

    /// Runs the units; `consume` gets every chunk in input order, with the
    /// unit index and whether it is the unit's last chunk.
    ///
    /// - Throws: the first error `consume` throws; the workers stop then.
    func run(_ units: [WorkUnit], control: RunControl,
             consume: (_ unit: Int, _ chunk: IngestChunk, _ last: Bool) throws(StoreError) -> Void) throws(StoreError) {
        let handoff = OrderedHandoff<IngestChunk>(units: units.count, capacity: buffered)
        let next = NextUnit()
        let workers = min(jobs, max(1, units.count))
        let (maxRecord, keepText, chunkSize, makeExtractor) = (self.maxRecord, self.keepText, self.chunkSize, self.extractor)
        let done = DispatchGroup()
        for _ in 0..<workers {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                ParallelIngest.lowerPriority()
                let reader = InputReader(maxRecord: maxRecord)
                let scanner = IngestScanner(keepText: keepText, chunkSize: chunkSize, control: control,
                                            extractor: makeExtractor())
                var current = 0
                scanner.emit = { chunk, last in handoff.submit(chunk, unit: current, last: last) }
                while !control.isStopped {
                    current = next.value.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard current < units.count else { break }
                    let unit = units[current]
                    scanner.begin()
                    let lines = reader.read(unit, handler: scanner)
                    scanner.finish(lines: lines, inputs: unit.continuesPrevious ? 0 : 1, bytes: unit.size ?? 0)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.notify(queue: .global()) { handoff.close() }
        defer { done.wait() }
        do {
            while let (unit, chunk, last) = handoff.next() {
                try consume(unit, chunk, last)
            }
        } catch {
            control.stop()
            handoff.cancel()
            throw error
        }
    }
}

/// The next work unit to take, shared by the workers.
private final class NextUnit: Sendable {
    let value = Atomic<Int>(0)
}

/// Chunks submitted by many workers, taken by one consumer strictly in unit
/// order (and in submission order within a unit).
///
/// A worker whose unit is not the one being consumed waits while `capacity`
/// chunks are already held back; the worker of the unit being consumed never
/// waits, so the consumer always gets to move on and no one waits forever.
final class OrderedHandoff<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queues: [Int: [(item: Item, last: Bool)]] = [:]
    private var head = 0
    private var held = 0
    private let units: Int
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(units: Int, capacity: Int) {
        self.units = units
        self.capacity = max(1, capacity)
    }

    /// Adds a chunk of `unit`; waits while too many chunks ahead of the consumer are held.
    func submit(_ item: Item, unit: Int, last: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while unit != head && held >= capacity && !cancelled { condition.wait() }
        if cancelled { return }
        queues[unit, default: []].append((item, last))
        held += 1
        condition.broadcast()
    }

    /// The next chunk in order; waits for it. Nil once every unit is taken,
    /// or when the workers have stopped and nothing in order is left.
    func next() -> (unit: Int, item: Item, last: Bool)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled || head >= units { return nil }
            if var queue = queues[head], !queue.isEmpty {
                let (item, last) = queue.removeFirst()
                let unit = head
                queues[head] = queue.isEmpty ? nil : queue
                held -= 1
                if last { head += 1 }
                condition.broadcast()
                return (unit, item, last)
            }
            if closed { return nil }
            condition.wait()
        }
    }

    /// No more submissions (the workers are done, or stopped).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gives up: waiting workers return, later chunks are dropped.
    func cancel() {
        condition.lock()
        cancelled = true
        queues.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
