import Dispatch
import Foundation
import Synchronization

/// Reports from the store alone (SPEC §10), byte for byte the reports a
/// stateless run over the same dumps gives: the store holds each tweet once
/// (its first copy) with the mention set `EntitiesExtractor` gave it.
///
///     tracked term ...... its kept counts (term_count): a few rows, no scan
///     any other term .... one `TermScan` for all of them: the links in
///                         tweet order, with the tweets beside them for
///                         `from:`, word terms and `*`
extension Store {
    /// Why a term cannot be answered from this store: a usage error (exit 2).
    public struct TermNeedsText: Error, CustomStringConvertible {
        public var term: Term
        public var description: String {
            "the word term '\(term)' needs the tweets' text, and this store keeps none; "
                + "word terms work on a store started with `smashtag ingest --keep-text` (or report from the dumps themselves)"
        }
    }

    /// The reports of `terms`, in the order given.
    ///
    /// - Throws: `TermNeedsText` for a word term on a store without text,
    ///   `KindsNotKept` for kinds the store's older tweets lack (both checked
    ///   before anything is read); `StoreError`.
    /// - Complexity: a tracked term reads its kept rows; the others share
    ///   one pass over the links (and the tweets, when a term needs them),
    ///   split between the cores.
    public func reports(_ terms: [Term], minCount: Int, top: Int?, kinds: MentionKinds = .standard) throws -> [TermReport] {
        if !(try keepsText), let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try checkKinds(kinds, terms: terms)
        try loadHandles()
        // One read transaction: every term sees the same committed state (the scan's other connections too).
        try db.beginRead()
        defer { db.endRead() }
        let kept = try keptTerms()
        var counts: [Term: TermScan.Counts] = [:]
        for term in terms {
            if let id = kept[term] { counts[term] = try keptCounts(id) }
        }
        counts.merge(try self.counts(of: terms.filter { counts[$0] == nil }, parallel: true)) { a, _ in a }
        var reports: [TermReport] = []
        for term in terms {
            let c = counts[term]!
            let keys = try mentionKeys(for: c.mentions.filter { $0.value >= minCount }.map(\.key))
            // The links hold every kind (schema v6): the report keeps those of `kinds`.
            reports.append(TermReport(term: term, tweets: c.tweets,
                                      counts: c.mentions.lazy.compactMap { m in keys[m.key].map { ($0, m.value) } },
                                      minCount: minCount, top: top, kinds: kinds))
        }
        return reports
    }

    /// Counts `terms` from the stored tweets, in one scan.
    ///
    /// With `parallel`, a big store (or one given `spanReaders`) is read on
    /// every core: its ids cut into many ranges (1,024: a burst of one day
    /// in a year's store spreads over a few), taken by one connection per
    /// core as each is free (`pieceReaders`: each in a read transaction of
    /// this one's snapshot, or none and this one alone), each connection's
    /// counts added up. Inside a write transaction only this connection sees
    /// its changes: scan with `parallel` false.
    func counts(of terms: [Term], parallel: Bool) throws(StoreError) -> [Term: TermScan.Counts] {
        guard !terms.isEmpty else { return [:] }
        var targets: [StoredTerm] = []
        for term in terms {
            targets.append(try storedTerm(term))
        }
        let scan = TermScan(targets, mentionLimit: try db.integer("SELECT max(id) FROM mention") ?? 0)
        let others = parallel ? try pieceReaders() : []
        defer { Self.endReads(others) }
        guard !others.isEmpty, let ranges = try idRanges(count: 1024) else {
            return Dictionary(zip(terms, try scan.run(db)), uniquingKeysWith: { a, _ in a })
        }
        let dbs = UncheckedBox([db] + others.map(\.db))
        let taken = Atomic<Int>(0)
        // A tally is a class over raw memory, touched by its thread alone until all are done.
        let results = Mutex<[UncheckedBox<Result<Tally, StoreError>>?]>(Array(repeating: nil, count: dbs.value.count))
        DispatchQueue.concurrentPerform(iterations: dbs.value.count) { w in
            let result = Result { () throws(StoreError) -> Tally in
                let tally = scan.tally()
                while true {
                    let k = taken.add(1, ordering: .relaxed).oldValue
                    guard k < ranges.count else { return tally }
                    try scan.run(dbs.value[w], range: ranges[k], into: tally)
                }
            }
            let boxed = UncheckedBox(result)
            results.withLock { $0[w] = boxed }
        }
        var tallies: [Tally] = []
        for result in results.withLock({ $0 }) { tallies.append(try result!.value.get()) }
        for other in tallies.dropFirst() { tallies[0].add(other) }
        return Dictionary(zip(terms, tallies[0].counts()), uniquingKeysWith: { a, _ in a })
    }

    /// The tweets' ids cut into ranges that together hold every id: about
    /// `count` of equal width over the snowflakes (whose ids grow with
    /// time) and as many over the ids below them, the first from
    /// `Int64.min`, the last to `Int64.max`; nil for an empty store.
    func idRanges(count: Int) throws(StoreError) -> [ClosedRange<Int64>]? {
        // Two queries: SQLite reads one end of the key for a lone min() or max(), and every row for both at once.
        guard let lo = try db.integer("SELECT min(id) FROM tweet"), let hi = try db.integer("SELECT max(id) FROM tweet") else {
            return nil
        }
        let snowflake = Int64(CreatedAt.firstSnowflake)
        // Cut points: within [lo, snowflake) and within [snowflake, hi], each at most `count` apart.
        var cuts: [Int64] = []
        for (a, b) in [(lo, min(hi, snowflake - 1)), (max(lo, snowflake), hi)] where a <= b {
            let width = Int128(b) - Int128(a) + 1
            let n = Int128(min(Int128(count), width))
            for i in 0..<n { cuts.append(Int64(Int128(a) + width * i / n)) }
        }
        var ranges: [ClosedRange<Int64>] = []
        for (i, c) in cuts.enumerated() {
            let start = i == 0 ? Int64.min : c
            let end = i + 1 < cuts.count ? cuts[i + 1] - 1 : Int64.max
            ranges.append(start...end)
        }
        return ranges
    }

    /// Counts every commit that changes tweets or terms, so that readers on
    /// several connections can tell whether they see the same snapshot
    /// (`counts(of:parallel:)`, `pieceReaders`): every writing transaction
    /// must run `bumpGeneration` before it commits.
    func generation() throws(StoreError) -> Int64 {
        try db.integer("SELECT CAST(value AS INTEGER) FROM setting WHERE key = 'generation'") ?? 0
    }

    /// The statement every writing transaction runs before it commits.
    static let bumpGeneration = """
        INSERT INTO setting(key, value) VALUES ('generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
        """

    /// The store's id of a mention key, if the store has met it.
    func mentionID(_ key: String) throws(StoreError) -> Int64? {
        let s = try db.statement("SELECT id FROM mention WHERE key = ?1")
        try s.bind(1, key)
        return try s.first { $0.int64(0) }
    }

    /// The keys of mention ids: looked up one by one when few, else read all at once.
    func mentionKeys(for ids: [Int64]) throws(StoreError) -> [Int64: String] {
        var keys: [Int64: String] = [:]
        guard !ids.isEmpty else { return keys }
        let all = try db.integer("SELECT count(*) FROM mention") ?? 0
        if Int64(ids.count) * 8 < all {
            let s = try db.statement("SELECT key FROM mention WHERE id = ?1")
            for id in ids {
                s.reset()
                try s.bind(1, id)
                if let key = try s.first({ $0.text(0) }) ?? nil { keys[id] = key }
            }
        } else {
            let wanted = Set(ids)
            let s = try db.statement("SELECT id, key FROM mention")
            while try s.step() {
                if wanted.contains(s.int64(0)) { keys[s.int64(0)] = s.text(1) }
            }
        }
        return keys
    }
}
