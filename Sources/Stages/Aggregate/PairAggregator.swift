/// Co-occurrence (SPEC §12.5): among the distinct tweets matching each term,
/// how many carry each unordered pair of distinct mentions.
///
/// A sink of the ordered merge, like `Aggregator`, and fed the same
/// `PostPart`s (the per-tweet matched records), so whatever narrows the
/// tweets before them (the filters of §12.2) narrows the pairs too.
///
///     worker w: PostPart ─▶ prepare ─▶ pair table of worker w   (every copy, in parallel)
///     merge:    PostPart ─▶ add ─▶ dedup on (tweet id, term) ─┬─ first copy: tweet and mention counts
///                                                              └─ later copy: its pairs subtracted
///     after the barrier: worker tables + subtractions ─▶ one table per term ─▶ `TermPairs`
///
/// **Dedup and per-worker tables.** Which copy of a tweet counts is decided
/// in input order, so only the merge can decide it; counting pairs is a sum,
/// so any thread can do it. Each worker therefore counts the pairs of every
/// copy it extracted into its own table, with no lock, and the merge, when it
/// drops a later copy of a (tweet, term), adds that copy's pairs to a table
/// of subtractions. Tables and subtractions add up to the pairs of first
/// copies only — exact, whatever the number of workers, and the merge's own
/// work per kept tweet is the report's (one dedup insert, one count per
/// mention). Duplicates are rare, so the subtractions stay small.
///
/// Without `begin(workers:)` (a run that does not call `prepare`: extract
/// lines, tests), `add` counts the pairs itself, in the merge.
///
/// - Complexity: time O(Σ mentions²) per matching tweet and term; memory
///   O(distinct (tweet, term)) for dedup (as `Aggregator`) plus, per worker,
///   O(distinct pairs per term) at about 20 bytes a pair (a `UInt64` key and
///   an `Int32` weight in a `Dictionary` at its load factor); the worker
///   tables are folded into one after the run, one at a time.
public final class PairAggregator: @unchecked Sendable {
    // @unchecked: `workerTables[w]` is touched only by worker w while the run
    // lasts (`prepare`), everything else only under the merge lock (`add`)
    // or after the barrier.
    public let terms: [Term]
    private var seen: [TweetIDSet]
    private var tweetCounts: [Int]
    /// Per term: mention (global id) → distinct tweets carrying it, as in the report.
    private var mentionCounts: [MentionCounts]
    /// Per term: pair (global ids) → weight counted in the merge, or subtracted there.
    private var merged: [PairCounts]
    private var keys = MergedKeys()
    private var workerTables: [PairTable] = []
    /// (tweet, term) copies dropped because the tweet had been counted already.
    public private(set) var duplicates = 0
    /// `--max-pair-mentions`: a tweet carrying more distinct mentions adds no
    /// pairs (SPEC §12.5); it still counts as a matching tweet, and so do
    /// its mentions.
    public let maxMentions: Int

    public init(terms: [Term], maxMentions: Int = OverLimitTweets.defaultLimit) {
        self.terms = terms
        self.maxMentions = maxMentions
        seen = Array(repeating: TweetIDSet(), count: terms.count)
        tweetCounts = Array(repeating: 0, count: terms.count)
        mentionCounts = Array(repeating: MentionCounts(), count: terms.count)
        merged = Array(repeating: PairCounts(), count: terms.count)
    }

    /// Distinct matching tweets of term `t` so far.
    public func tweets(term t: Int) -> Int { tweetCounts[t] }

    // MARK: From a parallel run

    /// Makes one pair table per worker; `prepare` fills them.
    public func begin(workers: Int) {
        workerTables = (0..<max(1, workers)).map { _ in PairTable(terms: terms.count, maxMentions: maxMentions) }
    }

    /// Counts the pairs of every copy in `e` into worker `worker`'s table.
    /// Called by that worker alone, before `e` is merged.
    public func prepare(_ e: PostPart, worker: Int) {
        workerTables[worker].count(e)
    }

    /// Merges one unit's matches in input order: dedup, tweet and mention
    /// counts; the pairs of a dropped copy are subtracted (the worker counted
    /// them), or, without workers, the pairs of a kept copy are counted here.
    public func add(_ e: PostPart) {
        let global = keys.numbers(of: e)
        let workersCount = !workerTables.isEmpty
        var ids: [Int32] = []
        for i in 0..<e.tweetIDs.count {
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                let kept = seen[t].insert(e.tweetIDs[i])
                if kept {
                    tweetCounts[t] += 1
                    for m in e.mentions(of: i) { mentionCounts[t].add(Aggregator.key(global[Int(m)])) }
                } else {
                    duplicates += 1
                }
                // Counted by a worker and dropped here, or kept and counted by no worker.
                guard kept != workersCount else { continue }
                ids.removeAll(keepingCapacity: true)
                for m in e.mentions(of: i) { ids.append(global[Int(m)]) }
                PairTable.addPairs(of: ids, by: kept ? 1 : -1, to: &merged[t], maxMentions: maxMentions)
            }
        }
    }

    // MARK: From extract lines and counts

    /// Adds `count` distinct tweets to a term's tweet count, deduplicated elsewhere.
    public func add(counted count: Int, term t: Int) { tweetCounts[t] += count }

    /// Adds `count` distinct tweets carrying `mention`, deduplicated elsewhere.
    public func add(counted count: Int, term t: Int, mention: String) {
        mentionCounts[t].add(Aggregator.key(globalID(mention)), count)
    }

    /// Adds `weight` distinct tweets carrying both mentions, deduplicated elsewhere.
    public func add(counted weight: Int, term t: Int, pair a: String, _ b: String) {
        let (x, y) = (globalID(a), globalID(b))
        guard x != y else { return }
        merged[t].add(PairTable.key(x, y), Int32(clamping: weight))
    }

    private func globalID(_ key: String) -> Int32 { keys.number(key) }

    // MARK: Results

    /// Folds the worker tables into the merged ones (after the run; once).
    private func foldWorkerTables() {
        for w in workerTables.indices {
            let table = workerTables[w]
            let global = table.keys.map { $0.map(globalID) ?? -1 }
            for t in terms.indices {
                merged[t].reserve(table.weights[t].count)
                table.weights[t].forEach { key, weight in
                    let (a, b) = PairTable.split(key)
                    merged[t].add(PairTable.key(global[Int(a)], global[Int(b)]), Int32(weight))
                }
                table.weights[t] = PairCounts()
            }
        }
        workerTables = []
    }

    /// The pairs of every term, in the order the terms were given.
    ///
    /// - Parameters:
    ///   - minCount: pairs of lower weight are left out.
    ///   - top: keep at most this many pairs per term, the heaviest.
    ///   - withoutTerm: leave out pairs holding the term's own mention.
    public func pairs(minCount: Int, top: Int?, withoutTerm: Bool) -> [TermPairs] {
        foldWorkerTables()
        let keys = self.keys.keys
        return terms.indices.map { t in
            let counts = mentionCounts[t]
            var weights: [(Int, Int, Int)] = []
            weights.reserveCapacity(merged[t].count)
            merged[t].forEach { key, weight in
                let (a, b) = PairTable.split(key)
                weights.append((Int(a), Int(b), weight))
            }
            return TermPairs(term: terms[t], tweets: tweetCounts[t], keys: keys, weights: weights,
                             count: { counts[UInt64($0)] ?? 0 },
                             minCount: minCount, top: top, withoutTerm: withoutTerm)
        }
    }
}

/// One worker's pair weights per term, keyed by the ids of the worker's
/// own mention table (its pieces carry them), so counting a piece looks no
/// key up by its text.
final class PairTable {
    /// The keys by table id, as far as pieces brought them.
    private(set) var keys: [String?] = []
    /// For pieces without table ids: a numbering of the table's own.
    private var numbering = KeyNumbering()
    var weights: [PairCounts]
    private var local: [Int32] = []
    private var tweet: [Int32] = []
    private let maxMentions: Int

    init(terms: Int, maxMentions: Int) {
        weights = Array(repeating: PairCounts(), count: terms)
        self.maxMentions = maxMentions
    }

    /// Counts the pairs of every matching tweet of `e`, for every term it matched.
    func count(_ e: PostPart) {
        local.removeAll(keepingCapacity: true)
        let numbered = e.keySource != 0 && e.keyNumbers.count == e.keys.count
        for (k, key) in e.keys.enumerated() {
            let id = numbered ? e.keyNumbers[k] : numbering.number(key)
            if Int(id) >= keys.count { keys += repeatElement(nil, count: max(Int(id) + 1 - keys.count, keys.count, 1024)) }
            if keys[Int(id)] == nil { keys[Int(id)] = key }
            local.append(id)
        }
        for i in 0..<e.tweetIDs.count {
            let mentions = e.mentions(of: i)
            guard mentions.count >= 2, mentions.count <= maxMentions else { continue }
            tweet.removeAll(keepingCapacity: true)
            for m in mentions { tweet.append(local[Int(m)]) }
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                PairTable.addPairs(of: tweet, by: 1, to: &weights[t], maxMentions: maxMentions)
            }
        }
    }

    /// Adds `delta` to the weight of every unordered pair of `ids` (distinct
    /// ids); none when there are more than `maxMentions` of them.
    @inline(__always)
    static func addPairs(of ids: [Int32], by delta: Int32, to table: inout PairCounts, maxMentions: Int) {
        guard ids.count >= 2, ids.count <= maxMentions else { return }
        for a in 0..<(ids.count - 1) {
            for b in (a + 1)..<ids.count {
                table.add(key(ids[a], ids[b]), delta)
            }
        }
    }

    /// The key of an unordered pair: the smaller id in the high half.
    @inline(__always)
    static func key(_ a: Int32, _ b: Int32) -> UInt64 {
        let (lo, hi) = a < b ? (a, b) : (b, a)
        return UInt64(UInt32(bitPattern: lo)) << 32 | UInt64(UInt32(bitPattern: hi))
    }

    @inline(__always)
    static func split(_ key: UInt64) -> (Int32, Int32) {
        (Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32)), Int32(bitPattern: UInt32(truncatingIfNeeded: key)))
    }
}

extension PairAggregator: ParallelPartSink {}
