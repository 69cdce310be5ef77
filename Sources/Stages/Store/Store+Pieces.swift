import Foundation
import Synchronization

/// A store scan of a span of time (`trend --store`) on every core: the span
/// is cut into pieces of equal time, each read by whichever connection is
/// free, and the sink gets their parts strictly in the order one cursor over
/// the whole span would give them (`OrderedHandoff`), so its rows are the
/// same bytes.
///
///     piece 0 … piece k (index pass), piece 0 … piece k (snowflake pass)
///         ─▶ connection 1…n: filter ─▶ match ─▶ PostPart ─▶ handoff (in order) ─▶ sink
///
/// Every connection reads the snapshot of the store's own: each opens a read
/// transaction and must see the same `generation`, else the scan is left to
/// the one connection (a commit came in between).
extension Store {
    /// What a piece hands over: its chunks of parts, the last with what it
    /// read (one item for most pieces).
    private enum PieceItem {
        case part(PostPart, read: FilteredReports?)
        case failed(any Error)
    }

    /// The pieces to cut a span into for `workers` connections: an hour
    /// each, at least 16 a worker and at most 1,024, so that a burst (a day
    /// holding as many posts as the weeks around it) is read by every
    /// connection and not left to one while the others wait.
    static func pieces(of span: (start: Int64, end: Int64), workers: Int) -> [(start: Int64, end: Int64)]? {
        let (width, overflow) = span.end.subtractingReportingOverflow(span.start)
        guard !overflow, width > 0 else { return nil }
        let count = min(width, max(Int64(workers * 16), min(1024, width / 3600)))
        return (0..<count).map { i in
            // i * width / count without overflow: width is below 2^63.
            func cut(_ i: Int64) -> Int64 {
                i == count ? span.end : span.start + Int64(truncatingIfNeeded: (Int128(width) * Int128(i)) / Int128(count))
            }
            return (cut(i), cut(i + 1))
        }
    }

    /// Connections beside this one to read a span on every core (or on
    /// `spanReaders`), each in a read transaction of this one's snapshot
    /// (`generation`); none when the span is read by this one alone: one
    /// core, a store of fewer posts than `parallelScanThreshold` (unless
    /// `spanReaders` is given), or a commit between the snapshots. The
    /// caller ends their transactions (`endReads`).
    func pieceReaders() throws(StoreError) -> [Store] {
        let workers = min(spanReaders ?? min(ProcessInfo.processInfo.activeProcessorCount, 4), 16)
        guard workers > 1 else { return [] }
        if spanReaders == nil, try estimatedPosts() < parallelScanThreshold { return [] }
        let generation = try self.generation()
        var others: [Store] = []
        // A connection beside this one only speeds the scan up: one that cannot be opened or read
        // (a busy or recovering WAL, no descriptor left) leaves the span to this one.
        do throws(StoreError) {
            for _ in 1..<workers {
                let other = try Store(path: path, access: .read, wait: wait)
                // Reads go through the kernel's pages (`mmap_size`): a small cache of its own is enough.
                try other.db.execute("PRAGMA cache_size = -8192")
                try other.db.beginRead()
                others.append(other)
                guard try other.generation() == generation else {
                    Self.endReads(others)
                    return []
                }
            }
        } catch {
            Self.endReads(others)
            return []
        }
        return others
    }

    static func endReads(_ others: [Store]) {
        for other in others { other.db.endRead() }
    }

    /// `scan` of `span` on this connection and `others` (`pieceReaders`),
    /// into `sink` in the one cursor's order.
    ///
    /// - Throws: the first error of a piece, in the pieces' order.
    func scanPieces(_ span: (start: Int64, end: Int64), reading: StoredReading, others: [Store], into sink: PartSink) throws -> FilteredReports {
        let workers = others.count + 1
        // The caller asks only for a span of one second or more (`pieces(of:workers:)` not nil).
        let times = Self.pieces(of: span, workers: workers)!
        // Every piece's first pass, then every piece's second: one cursor's order.
        let pieces = times.map { ($0, StoredPosts.SpanPasses.offSnowflake) } + times.map { ($0, StoredPosts.SpanPasses.snowflake) }
        let handoff = OrderedHandoff<UncheckedBox<PieceItem>>(units: pieces.count, capacity: 4 * workers)
        let shared = UncheckedBox((dbs: [db] + others.map(\.db), pieces: pieces, reading: reading))
        let taken = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for w in 0..<workers {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                let (db, pieces, reading) = (shared.value.dbs[w], shared.value.pieces, shared.value.reading)
                var worker = StoredReading.Worker(StoredIdentities(db))
                while !stop.load(ordering: .relaxed) {
                    let k = taken.add(1, ordering: .relaxed).oldValue
                    guard k < pieces.count else { return }
                    do {
                        var posts = try StoredPosts(db, columns: reading.columns, span: pieces[k].0, passes: pieces[k].1)
                        defer { posts.done() }
                        // Each chunk is handed over when the next is made: the last goes with what was read.
                        var held: PostPart?
                        let read = try reading.read(&posts, worker: &worker) { part in
                            if let chunk = held { handoff.submit(UncheckedBox(.part(chunk, read: nil)), unit: k, last: false) }
                            held = part
                        }
                        handoff.submit(UncheckedBox(.part(held ?? PostPart(), read: read)), unit: k, last: true)
                    } catch {
                        stop.store(true, ordering: .relaxed)
                        handoff.submit(UncheckedBox(.failed(error)), unit: k, last: true)
                        return
                    }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.notify(queue: .global()) { handoff.close() }
        defer { done.wait() }
        var total = FilteredReports(reports: [])
        while let (_, box, _) = handoff.next() {
            switch box.value {
            case .part(let part, let read):
                if part.count > 0 { sink.add(part) }
                guard let read else { continue }
                total.tweets += read.tweets
                total.leftOut += read.leftOut
                total.unknownTime += read.unknownTime
                total.unknownFacts += read.unknownFacts
            case .failed(let error):
                stop.store(true, ordering: .relaxed)
                handoff.cancel()
                throw error
            }
        }
        return total
    }

    /// About how many posts the store holds, from its size (a post takes
    /// about 60 bytes with its links and indexes): enough to choose one
    /// core or many without reading a row.
    func estimatedPosts() throws(StoreError) -> Int {
        let pages = try db.integer("PRAGMA page_count") ?? 0
        let size = try db.integer("PRAGMA page_size") ?? 0
        return Int(pages.multipliedReportingOverflow(by: size).partialValue / 64)
    }
}
