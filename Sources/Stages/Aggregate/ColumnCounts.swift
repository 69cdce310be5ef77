/// The aggregator's counts for SPEC §12.3's columns, per term, over the
/// tweets it counted (each once, after dedup): retweets (originals are the
/// rest), distinct authors, and how often each spelling of a mention was
/// written. Only a report that asks for these columns keeps them.
///
/// Mentions, authors and spellings are the aggregator's global ids.
///
/// - Complexity: memory O(distinct (mention, author) pairs + distinct
///   (mention, spelling) pairs) per term: a `PairCounts` slot each, 12 to
///   24 bytes at its load factor, so `'*'` with `authors` over millions of
///   tweets stays within tens of megabytes.
struct ColumnCounts {
    private var termRetweets: [Int]
    /// Counted tweets whose kind is unknown (stored before schema v4): neither originals nor retweets.
    private var termUnknown: [Int]
    private var unknown: [DenseCounts]
    private var termAuthors: [Set<Int32>]
    private var termAuthorCounts: [Int]
    private var retweets: [DenseCounts]
    private var authorPairs: [PairCounts]
    private var authors: [DenseCounts]
    /// (mention << 32 | spelling) → tweets writing it so.
    private var spellingCounts: [PairCounts]
    /// Display spellings counted elsewhere (the counts format).
    private var displays: [[Int32: String]]
    private var spellings: [String] = []
    private var spellingIDs: [String: Int32] = [:]

    init(terms: Int) {
        termRetweets = Array(repeating: 0, count: terms)
        termUnknown = Array(repeating: 0, count: terms)
        unknown = Array(repeating: DenseCounts(), count: terms)
        termAuthors = Array(repeating: [], count: terms)
        termAuthorCounts = Array(repeating: 0, count: terms)
        retweets = Array(repeating: DenseCounts(), count: terms)
        authorPairs = Array(repeating: PairCounts(), count: terms)
        authors = Array(repeating: DenseCounts(), count: terms)
        spellingCounts = Array(repeating: PairCounts(), count: terms)
        displays = Array(repeating: [:], count: terms)
    }

    /// One more slot (a term's bucket, with `--by`), counted like a term.
    mutating func addSlot() {
        termRetweets.append(0)
        termUnknown.append(0)
        unknown.append(DenseCounts())
        termAuthors.append([])
        termAuthorCounts.append(0)
        retweets.append(DenseCounts())
        authorPairs.append(PairCounts())
        authors.append(DenseCounts())
        spellingCounts.append(PairCounts())
        displays.append([:])
    }

    mutating func spellingID(_ s: String) -> Int32 {
        if let id = spellingIDs[s] { return id }
        let id = Int32(spellings.count)
        spellings.append(s)
        spellingIDs[s] = id
        return id
    }

    /// One counted tweet of term `t` with its distinct mentions, its kind, its
    /// author (nil: unknown, adds no author) and its distinct (mention, spelling) pairs.
    mutating func add(term t: Int, mentions: [Int32], retweet: Bool, author: Int32?, spellings: [(Int32, Int32)],
                      unknownKind: Bool = false) {
        addTweet(term: t, retweet: retweet, author: author, unknownKind: unknownKind)
        for m in mentions { addMention(m, term: t, retweet: retweet, author: author, unknownKind: unknownKind) }
        for (m, s) in spellings { addSpelling(s, of: m, term: t) }
    }

    /// One counted tweet of term `t`: its kind (unknown: stored before schema
    /// v4) and author (nil: unknown, adds no author). Then `addMention` for
    /// each of its distinct mentions and `addSpelling` for each distinct
    /// (mention, spelling) it carries.
    @inline(__always)
    mutating func addTweet(term t: Int, retweet: Bool, author: Int32?, unknownKind: Bool) {
        if unknownKind { termUnknown[t] += 1 }
        if retweet { termRetweets[t] += 1 }
        if let author, termAuthors[t].insert(author).inserted { termAuthorCounts[t] += 1 }
    }

    @inline(__always)
    mutating func addMention(_ m: Int32, term t: Int, retweet: Bool, author: Int32?, unknownKind: Bool) {
        if unknownKind { unknown[t].add(1, at: m) }
        if retweet { retweets[t].add(1, at: m) }
        if let author, authorPairs[t].add(UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: author))) {
            authors[t].add(1, at: m)
        }
    }

    @inline(__always)
    mutating func addSpelling(_ s: Int32, of m: Int32, term t: Int) {
        spellingCounts[t].add(UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: s)))
    }

    /// Counts made elsewhere, added as they are.
    mutating func add(counted c: CountedColumns, term t: Int, mention: Int32?) {
        guard let m = mention else {
            termRetweets[t] += c.retweets
            termAuthorCounts[t] += c.authors
            return
        }
        retweets[t].add(c.retweets, at: m)
        authors[t].add(c.authors, at: m)
        if let d = c.display, !d.isEmpty { displays[t][m] = d }
    }

    /// Fills the columns of report `r` of term `t` (its rows already chosen).
    ///
    /// Each row's mention id is looked up once (`id` hashes its key); the
    /// best spelling so far is kept per row, found from a spelling's mention
    /// through an array by mention id (a dictionary when the ids are far
    /// more than the rows).
    func fill(_ r: inout TermReport, term t: Int, facts: PostFields, id: (String) -> Int32) {
        r.retweets = termRetweets[t]
        r.originals = r.tweets - r.retweets - termUnknown[t]
        r.authors = termAuthorCounts[t]
        let ids = r.allRows.map { id($0.mention) }
        // Per row: its best spelling so far (-1: none) and that spelling's count.
        var best = [Int32](repeating: -1, count: ids.count)
        var bestCount = [Int](repeating: 0, count: ids.count)
        if facts.spellings, let highest = ids.max() {
            var dense: [Int32] = [], sparse: [Int32: Int32] = [:]
            let isDense = Int(highest) < 16 * ids.count + 65_536
            if isDense {
                dense = Array(repeating: -1, count: Int(highest) + 1)
                for (k, m) in ids.enumerated() { dense[Int(m)] = Int32(k) }
            } else {
                for (k, m) in ids.enumerated() { sparse[m] = Int32(k) }
            }
            spellingCounts[t].forEach { pair, n in
                let m = Int32(bitPattern: UInt32(pair >> 32)), s = Int32(bitPattern: UInt32(truncatingIfNeeded: pair))
                let k: Int
                if isDense {
                    guard Int(m) < dense.count, dense[Int(m)] >= 0 else { return }
                    k = Int(dense[Int(m)])
                } else {
                    guard let row = sparse[m] else { return }
                    k = Int(row)
                }
                // Most frequent; ties by ascending UTF-8 bytes.
                if n > bestCount[k] || (n == bestCount[k] && best[k] >= 0 && spellings[Int(s)].precedesInUTF8(spellings[Int(best[k])])) {
                    bestCount[k] = n
                    best[k] = s
                }
            }
        }
        let noDisplays = displays[t].isEmpty
        func columns(_ rows: [MentionCount], from start: Int) -> [RowColumns] {
            rows.indices.map { j in
                let k = start + j, m = ids[k]
                var c = RowColumns()
                c.retweets = retweets[t][m]
                c.originals = rows[j].count - c.retweets - unknown[t][m]
                c.authors = authors[t][m]
                c.display = best[k] >= 0 ? spellings[Int(best[k])] : noDisplays ? nil : displays[t][m]
                return c
            }
        }
        var start = 0
        for k in r.sections.indices {
            r.sections[k].columns = columns(r.sections[k].rows, from: start)
            start += r.sections[k].rows.count
        }
    }
}

/// Counts indexed by the aggregator's mention id (dense, small integers):
/// an array, grown as ids come, so the per-mention adds of a report with
/// columns do no hashing.
struct DenseCounts {
    private var counts: [Int] = []

    @inline(__always)
    mutating func add(_ n: Int, at m: Int32) {
        let i = Int(m)
        if i >= counts.count { counts += Array(repeating: 0, count: max(i + 1 - counts.count, counts.count)) }
        counts[i] += n
    }

    subscript(_ m: Int32) -> Int { Int(m) < counts.count ? counts[Int(m)] : 0 }
}

/// Counts by a 64-bit key (a mention id, or a pair of 32-bit ids; never
/// `UInt64.max`): an open-addressing table with linear probing and a
/// multiplicative hash, for the per-mention adds of every report (`Set`
/// and `Dictionary` hash each key with SipHash: most of those adds'
/// instructions). `Value` is the width of a count: `Int32` where a report
/// keeps many tables (the pairs of the columns), `Int` otherwise.
struct CountTable<Value: FixedWidthInteger> {
    /// A key and its count side by side, so an add touches one cache line
    /// (the tables outgrow the caches over a big run): 12 bytes with an
    /// `Int32` count, 16 with an `Int`. The key is kept as two halves so
    /// that an `Int32` count needs no padding.
    private struct Slot {
        var low: UInt32
        var high: UInt32
        var value: Value

        @inline(__always)
        var key: UInt64 { UInt64(high) << 32 | UInt64(low) }
    }
    private var slots = [Slot](repeating: CountTable.emptySlot, count: 16)
    private var shift: UInt64 = 60
    private(set) var count = 0

    private static var empty: UInt64 { UInt64.max }
    private static var emptySlot: Slot { Slot(low: UInt32.max, high: UInt32.max, value: 0) }

    /// Adds `n` to `key`'s count (a new key starts at 0, so `n` may be 0).
    ///
    /// - Returns: whether `key` is new.
    @inline(__always)
    @discardableResult
    mutating func add(_ key: UInt64, _ n: Value = 1) -> Bool {
        let mask = slots.count - 1
        var i = slot(of: key)
        while true {
            let k = slots[i].key
            if k == key {
                slots[i].value += n
                return false
            }
            if k == CountTable.empty { break }
            i = (i + 1) & mask
        }
        slots[i] = Slot(low: UInt32(truncatingIfNeeded: key), high: UInt32(truncatingIfNeeded: key >> 32), value: n)
        count += 1
        if count * 4 > slots.count * 3 { grow() }
        return true
    }

    /// Makes room for `n` more keys at once. Adding the keys of another
    /// table in its slot order needs it: into a smaller table they would
    /// land in long runs (their hashes in order), each add probing the run.
    mutating func reserve(_ n: Int) {
        var size = slots.count
        while (count + n) * 4 > size * 3 { size *= 2 }
        guard size > slots.count else { return }
        let old = slots
        slots = [Slot](repeating: CountTable.emptySlot, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        let mask = size - 1
        for s in old where s.key != CountTable.empty {
            var i = slot(of: s.key)
            while slots[i].key != CountTable.empty { i = (i + 1) & mask }
            slots[i] = s
        }
    }

    /// `key`'s count, nil when it was never added.
    subscript(_ key: UInt64) -> Value? {
        let mask = slots.count - 1
        var i = slot(of: key)
        while true {
            let k = slots[i].key
            if k == key { return slots[i].value }
            if k == CountTable.empty { return nil }
            i = (i + 1) & mask
        }
    }

    /// Every key with its count, in no particular order.
    func forEach(_ body: (UInt64, Int) -> Void) {
        for s in slots where s.key != CountTable.empty { body(s.key, Int(s.value)) }
    }

    @inline(__always)
    private func slot(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    private mutating func grow() { reserve(slots.count * 3 / 4 - count + 1) }
}

/// Counts of (mention, author) and (mention, spelling) pairs, 12 bytes a slot.
typealias PairCounts = CountTable<Int32>

/// A report's counts by the aggregator's mention id.
typealias MentionCounts = CountTable<Int>

/// The tweet ids a term has counted (SPEC §6: each tweet once): an
/// open-addressing set of 64-bit ids with linear probing and a
/// multiplicative hash, as `Set<UInt64>` but without SipHash on the merge's
/// path (one insert per matching tweet and term). Id 0 is kept apart, 0
/// marking an empty slot.
struct TweetIDSet {
    private var slots: [UInt64] = Array(repeating: 0, count: 64)
    private var shift: UInt64 = 58
    private var hasZero = false
    private(set) var count = 0

    /// Adds `id`; whether it was new.
    @inline(__always)
    mutating func insert(_ id: UInt64) -> Bool {
        guard id != 0 else {
            if hasZero { return false }
            hasZero = true
            count += 1
            return true
        }
        let mask = slots.count - 1
        var i = slot(of: id)
        while true {
            let k = slots[i]
            if k == id { return false }
            if k == 0 { break }
            i = (i + 1) & mask
        }
        slots[i] = id
        count += 1
        if count * 3 > slots.count * 2 { grow() }
        return true
    }

    /// Whether `id` was added.
    @inline(__always)
    func contains(_ id: UInt64) -> Bool {
        guard id != 0 else { return hasZero }
        let mask = slots.count - 1
        var i = slot(of: id)
        while true {
            let k = slots[i]
            if k == id { return true }
            if k == 0 { return false }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    private func slot(of id: UInt64) -> Int { Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for id in old where id != 0 {
            var i = slot(of: id)
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = id
        }
    }
}
