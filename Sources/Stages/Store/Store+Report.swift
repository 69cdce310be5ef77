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
        var attempt = 0
        while true {
            // One read transaction: every term sees the same committed state.
            try db.beginRead()
            defer { db.endRead() }
            let kept = try keptTerms()
            var counts: [Term: TermScan.Counts] = [:]
            for term in terms {
                if let id = kept[term] { counts[term] = try keptCounts(id) }
            }
            attempt += 1
            guard let scanned = try self.counts(of: terms.filter { counts[$0] == nil }, parallel: attempt < 4) else {
                continue  // a batch was committed while the scans started: once more, on one snapshot
            }
            counts.merge(scanned) { a, _ in a }
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
    }

    /// Counts `terms` from the stored tweets, in one scan.
    ///
    /// With `parallel`, a big store is split into ranges of tweet ids, each
    /// scanned on its own core through its own connection; every connection
    /// must see the snapshot of this one (the same `generation`), else the
    /// result is nil and the caller tries again. Inside a write transaction
    /// only this connection sees its changes: scan with `parallel` false.
    func counts(of terms: [Term], parallel: Bool) throws(StoreError) -> [Term: TermScan.Counts]? {
        guard !terms.isEmpty else { return [:] }
        var targets: [StoredTerm] = []
        for term in terms {
            targets.append(try storedTerm(term))
        }
        let scan = TermScan(targets, mentionLimit: try db.integer("SELECT max(id) FROM mention") ?? 0)
        let total = try tweetCount
        let parts = parallel && total >= parallelScanThreshold ? min(ProcessInfo.processInfo.activeProcessorCount, 4) : 1
        // `*` matches every tweet: split parts' counts of it are replaced by `total` below.
        var counts: [TermScan.Counts]
        if parts <= 1 {
            counts = try scan.run(db)
        } else {
            var bounds: [Int64] = [Int64.min]
            for k in 1..<parts {
                bounds.append(try db.integer("SELECT id FROM tweet ORDER BY id LIMIT 1 OFFSET ?1", [Int64(total * k / parts)])!)
            }
            let starts = bounds
            let generation = try self.generation()
            let results = Mutex<[Result<[TermScan.Counts], StoreError>?]>(Array(repeating: nil, count: parts))
            let (path, wait) = (self.path, self.wait)
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                let result = Result { () throws(StoreError) -> [TermScan.Counts] in
                    let part = try Store(path: path, access: .read, wait: wait)
                    try part.db.beginRead()
                    defer { part.db.endRead() }
                    guard try part.generation() == generation else { return [] }
                    let upper = k + 1 < parts ? starts[k + 1] - 1 : Int64.max
                    return try scan.run(part.db, range: starts[k]...upper)
                }
                results.withLock { $0[k] = result }
            }
            counts = Array(repeating: TermScan.Counts(), count: targets.count)
            for result in results.withLock({ $0 }) {
                let part = try result!.get()
                if part.isEmpty { return nil }
                for t in counts.indices { counts[t].add(part[t]) }
            }
            for (t, target) in targets.enumerated() where target.term.kind == .all { counts[t].tweets = total }
        }
        return Dictionary(zip(terms, counts), uniquingKeysWith: { a, _ in a })
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
