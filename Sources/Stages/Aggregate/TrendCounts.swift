/// What one thread counts for `smashtag trend` (SPEC §14), per term and
/// window, in a numbering of the mentions of its own: one (mention,
/// author) entry per tweet carrying the mention (the author `noAuthor` when
/// it has none), and over the current window the tweets writing each
/// (mention, spelling).
///
///     worker w:  every copy a worker matched ─▶ TrendCounts of worker w   (in parallel, no lock)
///     merge:     a later copy of a (tweet, term) ─▶ TrendCounts of the dropped copies
///     at the end: Σ workers − dropped ─▶ `TrendTotals` by the aggregator's ids
///
/// Counting is a sum, so any thread can do it; only which copy of a tweet
/// counts depends on input order (SPEC §6), and the merge decides that. The
/// (mention, author) entries are appended, not hashed or counted in place:
/// a mention's tweets and distinct authors come from putting them in order
/// of mention at the end (`TrendTotals`), a few passes over memory where a
/// table by mention would miss the caches on nearly every tweet, and what a
/// window holds costs what its tweets are, however many windows there are.
///
/// - Complexity: O(1) per (copy, term, window, mention); memory 8 bytes a
///   (tweet, mention) per window holding the tweet, and a slot per
///   (mention, spelling) of the current window.
final class TrendCounts {
    /// Every window, current first.
    let windows: [TrendWindows.Window]
    let kinds: MentionKinds
    /// Slot `term * windows.count + window`: `mention << 32 | author`, one per
    /// tweet counted carrying the mention: the mention by this counter's ids, the
    /// author by its `AuthorBook` number (`noAuthor` when it has none).
    private(set) var pairs: [[UInt64]]
    /// Per term, over the current window: `mention << 32 | spelling` → tweets writing it so;
    /// the spelling `TrendCounts.asKey` when written as its key and not counted in `keySpelled`.
    private(set) var spellings: [PairCounts]
    /// Per term, over the current window: by mention id below `keySpelledLimit`, the tweets
    /// writing it as its key (nearly every spelling): an array's element added to, where a
    /// table's slot cost a cache miss a mention.
    private var keySpelled: [[Int32]]
    /// Per term, how many of `keySpelled`'s counts are not 0.
    private var keySpelledCount: [Int]
    /// The ids `keySpelled` holds: `keySpelledBudget` over the terms (8 MiB a counter at most).
    private let keySpelledLimit: Int
    /// How many key-spelling counts a counter keeps in arrays, over all its terms (a test sets it lower).
    nonisolated(unsafe) static var keySpelledBudget = 1 << 21
    /// The spellings other than keys, by id.
    private(set) var spellingTexts: [String] = []
    private var spellingIDs: [String: Int32] = [:]
    /// The worker table whose ids number this counter's keys (`PostPart.keySource`: no key looked up), or 0: its own numbering (`keys`).
    let source: Int
    /// Its own numbering of the keys, by text once per worker table (`source` 0).
    private(set) var keys = MergedKeys()
    /// By id (`source` not 0): each key as the parts brought it, nil where none has yet.
    private(set) var names: [String?] = []
    /// By id: whether its kind is counted, -1 not yet known.
    private var wanted: [Int8] = []
    /// The wanted mentions of the copy being counted: the first `wantedCount` (storage reused).
    private var wantedOfCopy: [Int32] = []
    private var wantedCount = 0
    /// The part being counted, its keys' ids and spellings' ids (made when first needed).
    private var partIDs: [Int32] = []
    private var partKeys: [String] = []
    private var partSpellings: [Int32]?
    /// Whether the part's authors are `AuthorBook` numbers already; if not, each
    /// of its keys' number there (-1 until an author needs it).
    private var partAuthorsInBook = false
    private var partAuthors: [Int32] = []

    /// The spelling id of a mention written as its key (`#stanford`).
    static let asKey = Int32.max
    /// The author of an entry whose tweet has none: counts a tweet, no author.
    static let noAuthor: UInt64 = 0xFFFF_FFFF

    init(terms: Int, windows: [TrendWindows.Window], kinds: MentionKinds, source: Int = 0) {
        self.windows = windows
        self.kinds = kinds
        self.source = source
        pairs = Array(repeating: [], count: terms * windows.count)
        spellings = Array(repeating: PairCounts(), count: terms)
        keySpelled = Array(repeating: [], count: terms)
        keySpelledCount = Array(repeating: 0, count: terms)
        keySpelledLimit = max(1, TrendCounts.keySpelledBudget / max(terms, 1))
    }

    /// Term `t`'s (mention, spelling) counts over the current window, `mention << 32 | spelling`
    /// (`TrendCounts.asKey` for the key), each pair once, in no particular order.
    func forEachSpelling(term t: Int, _ body: (UInt64, Int) -> Void) {
        for (m, k) in keySpelled[t].enumerated() where k != 0 {
            body(UInt64(UInt32(truncatingIfNeeded: m)) << 32 | UInt64(UInt32(bitPattern: TrendCounts.asKey)), Int(k))
        }
        spellings[t].forEach(body)
    }

    /// How many (mention, spelling) pairs term `t` counts.
    func spellingPairs(term t: Int) -> Int { keySpelledCount[t] + spellings[t].count }

    /// Counts one tweet writing mention `id` as its key, for term `t`.
    @inline(__always)
    private func addKeySpelled(_ id: Int32, term t: Int) {
        let m = Int(id)
        guard m < keySpelledLimit else {
            spellings[t].add(UInt64(UInt32(bitPattern: id)) << 32 | UInt64(UInt32(bitPattern: TrendCounts.asKey)))
            return
        }
        if m >= keySpelled[t].count {
            keySpelled[t] += repeatElement(0, count: min(max(m + 1, 2 * keySpelled[t].count, 1024), keySpelledLimit) - keySpelled[t].count)
        }
        if keySpelled[t][m] == 0 { keySpelledCount[t] += 1 }
        keySpelled[t][m] += 1
    }

    /// Whether it can count part `e`: its own numbering takes any part, a table's ids only that table's.
    func takes(_ e: PostPart) -> Bool { source == 0 || (e.keySource == source && e.keyNumbers.count == e.keys.count) }

    /// Starts counting copies of part `e` (`takes(e)`).
    func begin(_ e: PostPart) {
        // A worker table's ids as the part gives them; in a numbering of its own, the part's keys
        // numbered by name as they are met (`id`): the mentions it counts, never its authors
        // (`AuthorBook` numbers), nor the keys of the copies a merge's counter does not take back.
        partIDs = source == 0 ? [Int32](repeating: -1, count: e.keys.count) : e.keyNumbers
        partKeys = e.keys
        partSpellings = nil
        partAuthorsInBook = e.authorsInBook
        partAuthors.removeAll(keepingCapacity: true)
        guard source != 0 else { return }
        let count = Int((partIDs.max() ?? -1) + 1)
        if wanted.count < count {
            wanted += repeatElement(-1, count: max(count - wanted.count, wanted.count))
            names += repeatElement(nil, count: wanted.count - names.count)
        }
    }

    /// The id of part key `k`, and whether its kind is counted; the first time, its name is kept.
    @inline(__always)
    private func id(_ k: Int32) -> (id: Int32, wanted: Bool) {
        var id = partIDs[Int(k)]
        if id < 0 {
            id = keys.number(partKeys[Int(k)])
            partIDs[Int(k)] = id
            if Int(id) >= wanted.count { wanted += repeatElement(-1, count: max(Int(id) + 1 - wanted.count, wanted.count)) }
        }
        let i = Int(id)
        if wanted[i] < 0 {
            let key = partKeys[Int(k)]
            wanted[i] = key.signedKind.map { kinds.has($0) } == true ? 1 : 0
            if source != 0 { names[i] = key }
        }
        return (id, wanted[i] == 1)
    }

    /// The `AuthorBook` number of the part's author `a`: as the part gives it,
    /// or its key's (a keyed part: the store's, extract lines'), once a part.
    @inline(__always)
    private func author(_ a: Int32) -> Int32 {
        if partAuthorsInBook { return a }
        if partAuthors.isEmpty { partAuthors = [Int32](repeating: -1, count: partKeys.count) }
        let k = Int(a)
        if partAuthors[k] < 0 { partAuthors[k] = AuthorBook.shared.number(key: partKeys[k]) }
        return partAuthors[k]
    }

    private func spellingID(_ s: String) -> Int32 {
        if let id = spellingIDs[s] { return id }
        let id = Int32(spellingTexts.count)
        spellingTexts.append(s)
        spellingIDs[s] = id
        return id
    }

    /// The (mention, author) entries of the copy being counted, one per wanted mention, made once for all its slots (storage reused).
    private var entriesOfCopy: [UInt64] = []

    /// Appends `entries` to `pairs`, the array borrowed once.
    @inline(__always)
    private static func append(_ entries: UnsafeBufferPointer<UInt64>, to pairs: inout [UInt64]) {
        for x in entries { pairs.append(x) }
    }

    /// Whether copy `i` of a known `time` carries spellings over the current window.
    @inline(__always)
    private func inCurrentAndSpelled(_ i: Int, of e: PostPart, _ time: Int64) -> Bool {
        !e.spellingEnds.isEmpty && !e.spellings(of: i).isEmpty && windows[0].contains(time)
    }

    /// Counts copy `i` of the part given to `begin` for each term in `terms`,
    /// in each window holding `time` (a known time).
    ///
    /// The windows holding `time` are told once (a bit each), the copy's
    /// (mention, author) entries made once, then each slot appends them in
    /// one borrow of its array.
    func count(copy i: Int, of e: PostPart, terms: UInt64, time: Int64) {
        let n = windows.count
        var holding: UInt64 = 0
        for w in 0..<min(n, 64) where windows[w].contains(time) { holding |= 1 << UInt64(w) }
        guard holding != 0 || n > 64 && windows.contains(where: { $0.contains(time) }) else { return }
        wantedCount = 0
        let start = i == 0 ? 0 : Int(e.mentionEnds[i - 1]), end = Int(e.mentionEnds[i])
        for k in start..<end {
            let (id, wanted) = id(e.mentions[k])
            if wanted {
                if wantedCount < wantedOfCopy.count { wantedOfCopy[wantedCount] = id } else { wantedOfCopy.append(id) }
                wantedCount &+= 1
            }
        }
        guard wantedCount > 0 || (inCurrentAndSpelled(i, of: e, time)) else { return }
        let author = i < e.authors.count && e.authors[i] >= 0 ? UInt64(UInt32(bitPattern: self.author(e.authors[i]))) : TrendCounts.noAuthor
        if entriesOfCopy.count < wantedCount { entriesOfCopy += repeatElement(0, count: wantedCount - entriesOfCopy.count) }
        for k in 0..<wantedCount { entriesOfCopy[k] = UInt64(UInt32(bitPattern: wantedOfCopy[k])) << 32 | author }
        let inCurrent = holding & 1 != 0
        var mask = terms
        while mask != 0 {
            let t = mask.trailingZeroBitCount
            mask &= mask - 1
            if wantedCount > 0 {
                entriesOfCopy.withUnsafeBufferPointer { entries in
                    for w in 0..<n where w < 64 ? holding & (1 << UInt64(w)) != 0 : windows[w].contains(time) {
                        TrendCounts.append(UnsafeBufferPointer(rebasing: entries[..<wantedCount]), to: &pairs[t * n + w])
                    }
                }
            }
            guard inCurrent, !e.spellingEnds.isEmpty else { continue }
            for j in e.spellings(of: i) {
                let (id, wanted) = id(e.spellingMentions[j])
                guard wanted else { continue }
                let s = e.spellingTexts[j]
                guard s != PostPart.keySpelling else { addKeySpelled(id, term: t); continue }
                if partSpellings == nil { partSpellings = e.spellingStrings.map(spellingID) }
                let sid = partSpellings![Int(s)]
                spellings[t].add(UInt64(UInt32(bitPattern: id)) << 32 | UInt64(UInt32(bitPattern: sid)))
            }
        }
    }
}

/// The trend's counts after the run, by the aggregator's mention ids and the
/// authors' `AuthorBook` numbers: what
/// every worker counted less what the merge dropped, per slot (term,
/// window), each slot on a core of its own. A slot's (mention, author)
/// entries are put in order of mention, and each mention's tweets are its
/// entries, its distinct authors their distinct authors:
///
/// - a slot of a current window, or one whose entries are many beside the
///   mentions: by one counting pass by mention (`bucketed`), then an array
///   by author id — no sort, no hash;
/// - any other (a baseline of `mean:K` cut into many short windows): by
///   sorting its entries, so that it costs what it holds, not the mentions
///   of the whole run.
///
/// A slot keeps the mentions it holds alone; the current windows' slots also
/// each mention's authors and their tweets, which explain a row.
struct TrendTotals {
    /// Per slot: the mentions its tweets carry (ascending id), and of each the distinct tweets and authors.
    var present: [[Int32]]
    var presentTweets: [[Int32]]
    var presentAuthors: [[Int32]]
    /// Per slot of a current window (empty for a baseline's): each mention's distinct authors (`AuthorBook`
    /// numbers), mention after mention, and the tweets of each; mention m's are at
    /// `authorStarts[m] ..< authorStarts[m + 1]`.
    var authorIDs: [[Int32]]
    var authorTweets: [[Int32]]
    var authorStarts: [[Int32]]
    /// Per term, over the current window: `mention << 32 | spelling` → tweets; the spelling an id of `spellingTexts`, or `TrendCounts.asKey`.
    var spellings: [PairCounts]
    var spellingTexts: [String]

    /// What one slot holds.
    struct Slot {
        var present: [Int32] = [], tweets: [Int32] = [], authors: [Int32] = []
        var ids: [Int32] = [], counts: [Int32] = [], starts: [Int32] = []

        mutating func add(_ m: Int, tweets k: Int32, authors a: Int32) {
            guard k != 0 || a != 0 else { return }
            present.append(Int32(m))
            tweets.append(k)
            authors.append(a)
        }
    }

    /// Folds `added` less `dropped` into totals over the aggregator's `keys`; `global` maps each counter's ids
    /// to them. Slot `s` is of a current window when `s % windows` is 0.
    init(added: [TrendCounts], dropped: TrendCounts?, global: (TrendCounts) -> [Int32], keys: [String], authors: Int, slots: Int,
         terms: Int, windows: Int) {
        let n = keys.count
        let all = added + (dropped.map { [$0] } ?? [])
        let maps = all.map(global)
        // Every slot a task, and the spellings one more beside them (a core that ends its slot early takes it).
        let done = parallelMap(slots + 1) { s -> (slot: Slot?, spellings: (tables: [PairCounts], texts: [String])?) in
            if s == slots { return (nil, TrendTotals.spellings(all, added: added.count, maps: maps, keys: keys, terms: terms)) }
            let current = s % windows == 0
            let entries = added.reduce(0) { $0 + $1.pairs[s].count }
            let plus = added.indices.map { (added[$0].pairs[s], maps[$0]) }
            let minus = dropped.map { ($0.pairs[s], maps[added.count]) }
            if current || entries * 4 >= n {
                return (TrendTotals.byCounting(plus: plus, minus: minus, mentions: n, authors: authors, keepAuthors: current), nil)
            }
            return (TrendTotals.bySorting(plus: plus, minus: minus), nil)
        }
        let folded = done.compactMap(\.slot)
        present = folded.map(\.present)
        presentTweets = folded.map(\.tweets)
        presentAuthors = folded.map(\.authors)
        authorIDs = folded.map(\.ids)
        authorTweets = folded.map(\.counts)
        authorStarts = folded.map(\.starts)
        (spellings, spellingTexts) = done.last!.spellings!
    }

    /// A slot's entries, `plus` (the workers') less `minus` (the dropped copies'), each with its map to the
    /// aggregator's ids, by a counting pass by mention; with `keepAuthors`, each mention's authors and their tweets too.
    static func byCounting(plus added: [(pairs: [UInt64], map: [Int32])], minus dropped: (pairs: [UInt64], map: [Int32])?,
                           mentions n: Int, authors: Int, keepAuthors: Bool) -> Slot {
        let plus = bucketed(added, mentions: n)
        let minus = dropped.map { bucketed([$0], mentions: n) }
        var slot = Slot()
        if keepAuthors { slot.starts = [Int32](repeating: 0, count: n + 1) }
        // Per mention: its authors' tweets in `count` (touched ones listed), less the dropped copies'.
        var count = [Int32](repeating: 0, count: authors), touched: [Int32] = []
        for m in 0..<n {
            if keepAuthors { slot.starts[m] = Int32(slot.ids.count) }
            let range = Int(plus.starts[m])..<Int(plus.starts[m + 1])
            guard !range.isEmpty else { continue }
            let dropped = minus.map { Int($0.starts[m])..<Int($0.starts[m + 1]) } ?? 0..<0
            touched.removeAll(keepingCapacity: true)
            for j in range {
                let a = Int(plus.authors[j])
                guard a >= 0 else { continue }
                if count[a] == 0 { touched.append(Int32(a)) }
                count[a] += 1
            }
            if let minus {
                for j in dropped where minus.authors[j] >= 0 { count[Int(minus.authors[j])] -= 1 }
            }
            var distinct: Int32 = 0
            for a in touched {
                let k = count[Int(a)]
                count[Int(a)] = 0
                guard k > 0 else { continue }
                distinct += 1
                if keepAuthors {
                    slot.ids.append(a)
                    slot.counts.append(k)
                }
            }
            slot.add(m, tweets: Int32(range.count - dropped.count), authors: distinct)
        }
        if keepAuthors { slot.starts[n] = Int32(slot.ids.count) }
        return slot
    }

    /// The same slot by sorting its entries (mentions by the aggregator's ids): its mentions' tweets and distinct authors.
    static func bySorting(plus added: [(pairs: [UInt64], map: [Int32])], minus dropped: (pairs: [UInt64], map: [Int32])?) -> Slot {
        func entries(_ counters: [(pairs: [UInt64], map: [Int32])]) -> [UInt64] {
            var out: [UInt64] = []
            out.reserveCapacity(counters.reduce(0) { $0 + $1.pairs.count })
            for (pairs, map) in counters {
                for p in pairs { out.append(UInt64(UInt32(bitPattern: map[Int(p >> 32)])) << 32 | p & 0xFFFF_FFFF) }
            }
            out.sort()
            return out
        }
        let plus = entries(added)
        let minus = dropped.map { entries([$0]) } ?? []
        var slot = Slot()
        var i = 0, j = 0
        while i < plus.count {
            let m = plus[i] >> 32
            var tweets: Int32 = 0, distinct: Int32 = 0
            while i < plus.count && plus[i] >> 32 == m {
                // One (mention, author): its copies, less the dropped ones.
                let x = plus[i]
                var k: Int32 = 0
                while i < plus.count && plus[i] == x { k += 1; i += 1 }
                while j < minus.count && minus[j] < x { j += 1 }
                while j < minus.count && minus[j] == x { k -= 1; j += 1 }
                tweets += k
                if x & 0xFFFF_FFFF != TrendCounts.noAuthor && k > 0 { distinct += 1 }
            }
            slot.add(Int(m), tweets: tweets, authors: distinct)
        }
        return slot
    }

    /// The counters' (mention, spelling) counts over the aggregator's ids, per term, less the
    /// dropped counter's (the last of `all`, when `all` has more than `added` counters).
    private static func spellings(_ all: [TrendCounts], added: Int, maps: [[Int32]], keys: [String],
                                  terms: Int) -> (tables: [PairCounts], texts: [String]) {
        // Spellings: few beside the keys; their texts numbered once here.
        var texts: [String] = [], ids: [String: Int32] = [:]
        var spellingTable = Array(repeating: PairCounts(), count: terms)
        for (c, counter) in all.enumerated() {
            let map = maps[c], sign: Int32 = c < added ? 1 : -1
            let spelled = counter.spellingTexts.map { s -> Int32 in
                if let id = ids[s] { return id }
                ids[s] = Int32(texts.count)
                texts.append(s)
                return Int32(texts.count - 1)
            }
            for t in 0..<terms {
                // Room first: another table's keys come in its slot order, which would cluster in a smaller table.
                spellingTable[t].reserve(counter.spellingPairs(term: t))
                counter.forEachSpelling(term: t) { pair, k in
                    let m = map[Int(pair >> 32)], s = Int32(truncatingIfNeeded: pair)
                    // A spelling written out that is its key's text counts as the key's.
                    let spelling = s == TrendCounts.asKey || counter.spellingTexts[Int(s)] == keys[Int(m)] ? TrendCounts.asKey : spelled[Int(s)]
                    spellingTable[t].add(UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: spelling)), sign * Int32(k))
                }
            }
        }
        return (spellingTable, texts)
    }

    /// The (mention, author) entries of several counters, each mention by its
    /// counter's map to the aggregator's ids, put in order of mention (a counting sort): the
    /// authors of mention m at `starts[m] ..< starts[m + 1]`, -1 for a tweet without one.
    static func bucketed(_ parts: [(pairs: [UInt64], map: [Int32])], mentions n: Int) -> (authors: [Int32], starts: [Int32]) {
        var starts = [Int32](repeating: 0, count: n + 1)
        for (pairs, map) in parts {
            for p in pairs { starts[Int(map[Int(p >> 32)]) + 1] += 1 }
        }
        for m in 0..<n { starts[m + 1] += starts[m] }
        var next = starts
        var authors = [Int32](repeating: 0, count: Int(starts[n]))
        authors.withUnsafeMutableBufferPointer { out in
            next.withUnsafeMutableBufferPointer { next in
                for (pairs, map) in parts {
                    map.withUnsafeBufferPointer { map in
                        for p in pairs {
                            let m = Int(map[Int(p >> 32)]), a = p & 0xFFFF_FFFF
                            out[Int(next[m])] = a == TrendCounts.noAuthor ? -1 : Int32(truncatingIfNeeded: a)
                            next[m] += 1
                        }
                    }
                }
            }
        }
        return (authors, starts)
    }
}
