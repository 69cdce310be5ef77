/// The counting stage of `smashtag trend` (SPEC §14): takes the matching
/// tweets (with their creation time, author and spellings) in input order,
/// counts each once per term (SPEC §6: the first copy), and keeps, per term
/// and window, each mention's distinct tweets and distinct authors; for the
/// current window also the tweets of each (mention, author), the earliest
/// three tweets and the spellings, which explain a row.
///
///     worker w: PostPart ─▶ prepare ─▶ TrendCounts of worker w           (every copy, in parallel)
///     merge:    PostPart ─▶ add ─▶ dedup on (tweet, term) ─┬─ first copy: window totals, earliest tweets
///                                                            └─ later copy: counted again, to take back out
///     at the end: workers' counts − later copies' ─▶ `TrendTotals` ─▶ `trends(...)`
///
/// Which copy of a tweet counts is decided in input order, so only the
/// merge decides it; the counts are sums, so the workers make them
/// (`ParallelPartSink`, as `PairAggregator` does): the merge's work per kept
/// tweet is the report's. Without `begin(workers:)` (a store's scan,
/// extract lines) the merge counts the first copies itself. Every path
/// hands it the same parts, so the bytes are the same on every path.
///
/// - Complexity: O(1) amortised per (tweet, term, mention) in a window;
///   memory O((tweet, mention) pairs per window and term) (8 bytes each,
///   put in order of mention at the end) plus the dedup set of the matching tweets.
public final class TrendAggregator: ParallelPartSink, @unchecked Sendable {
    // @unchecked: `workerCounts[w]` is touched only by worker w while the run
    // lasts (`prepare`), everything else only by the merge (`add`) or after it.
    public let terms: [Term]
    public let windows: TrendWindows
    public let kinds: MentionKinds
    /// Tweets counted for no window: their time is unknown (left out, for the summary).
    public private(set) var unknownTime = 0
    /// (tweet, term) pairs dropped as copies of a tweet already counted.
    public private(set) var duplicates = 0
    /// The oldest and newest creation time among the tweets handed in (any term, any time).
    public private(set) var oldest: Int64?
    public private(set) var newest: Int64?

    private var keys = MergedKeys()
    /// `add`'s scratch: per post of the part, the terms it is the first copy for.
    private var freshMasks: [UInt64] = []
    /// Per global key id: whether its kind is counted (`kinds`), -1 unknown yet.
    private var wanted: [Int8] = []
    private var seen: [TweetIDSet]
    /// [term][window]: the distinct tweets in each window; window 0 is the current one, then the baselines in `windows.baselines`' order.
    private var windowTweets: [Int]
    /// Per term, by mention id: its three earliest tweets in the current window (dense: no hashing).
    private var earliest: [[Earliest]]
    /// Beside `earliest`, by mention id: the time of its third tweet, `Int64.max` while it has fewer. A tweet
    /// after it cannot enter, which nearly every tweet of a mention met often is: told by 8 bytes a mention,
    /// not by its 56-byte `Earliest`.
    private var cuts: [[Int64]]
    /// Every window, current first.
    private let all: [TrendWindows.Window]
    /// From the earliest window's start to the latest's end: a tweet outside it is in none.
    private let hull: TrendWindows.Window
    /// The span of time a post must be created in to count (the windows' hull).
    public var span: TrendWindows.Window { hull }
    /// Per worker (`begin(workers:)`): what it counted of every copy it matched, a counter per worker table (one, but
    /// for parts numbered by none). Each worker changes its own object alone; the array stays as made while the run lasts.
    private var workerCounts: [WorkerCounts] = []

    final class WorkerCounts {
        var counters: [TrendCounts] = []
    }
    /// With workers: the later copies the merge dropped, to take back out.
    private var dropped: TrendCounts?
    /// Without workers: the first copies, counted by the merge.
    private var counted: TrendCounts?
    private var totals: TrendTotals?
    /// Every author's `NamePrefix`, made for the first term's rows, kept for the others'.
    private var namePrefixes: [NamePrefix]?
    /// The authors' keys by `AuthorBook` number, as the fold found them.
    private var authorNames: [String] = []

    /// The three earliest tweets (time, then id) seen, earliest first, held inline.
    struct Earliest {
        typealias Item = (time: Int64, id: UInt64)
        var count: UInt8 = 0
        var a: Item = (0, 0), b: Item = (0, 0), c: Item = (0, 0)

        var items: [Item] { Array([a, b, c].prefix(Int(count))) }

        @inline(__always)
        mutating func offer(_ time: Int64, _ id: UInt64) {
            let x = (time: time, id: id)
            // In place, no array: x goes before the first item it is earlier than; the third falls off.
            switch count {
            case 0: a = x
            case 1: if TrendAggregator.earlier(x, than: a) { b = a; a = x } else { b = x }
            case 2:
                if TrendAggregator.earlier(x, than: a) { c = b; b = a; a = x }
                else if TrendAggregator.earlier(x, than: b) { c = b; b = x }
                else { c = x }
            default:
                guard TrendAggregator.earlier(x, than: c) else { return }
                if TrendAggregator.earlier(x, than: a) { c = b; b = a; a = x }
                else if TrendAggregator.earlier(x, than: b) { c = b; b = x }
                else { c = x }
                return
            }
            count += 1
        }
    }

    /// Time, then id (as numbers; an identity that is not a tweet id, as written).
    static func earlier(_ a: (time: Int64, id: UInt64), than b: (time: Int64, id: UInt64)) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.id < PostIdentity.internedBase && b.id < PostIdentity.internedBase { return a.id < b.id }
        let (x, y) = (PostIdentity.text(of: a.id), PostIdentity.text(of: b.id))
        if x.utf8.count != y.utf8.count && x.utf8.allSatisfy({ $0 &- 0x30 < 10 }) && y.utf8.allSatisfy({ $0 &- 0x30 < 10 }) {
            return x.utf8.count < y.utf8.count
        }
        return x.utf8.lexicographicallyPrecedes(y.utf8)
    }

    public init(terms: [Term], windows: TrendWindows, kinds: MentionKinds) {
        self.terms = terms
        self.windows = windows
        self.kinds = kinds
        all = [windows.current] + windows.baselines
        hull = TrendWindows.Window(all.map(\.start).min()!, all.map(\.end).max()!)
        seen = Array(repeating: TweetIDSet(), count: terms.count)
        windowTweets = Array(repeating: 0, count: all.count * terms.count)
        earliest = Array(repeating: [], count: terms.count)
        cuts = Array(repeating: [], count: terms.count)
    }

    /// Term `t`'s distinct tweets counted in any window.
    public func counted(term t: Int) -> Int { seen[t].count }

    /// What a part's posts must carry for this sink.
    public static func fields(kinds: MentionKinds) -> PostFields {
        var f = PostFields(spellings: true, kinds: false, authors: true)
        f.authorsInBook = true
        f.times = true
        f.mentionKinds = kinds
        return f
    }

    @inline(__always)
    private func isWanted(_ g: Int32) -> Bool {
        let i = Int(g)
        if i >= wanted.count { wanted += repeatElement(-1, count: i + 1 - wanted.count) }
        if wanted[i] < 0 {
            let kind = keys.keys[i].signedKind
            wanted[i] = kind.map { kinds.has($0) } == true ? 1 : 0
        }
        return wanted[i] == 1
    }

    // MARK: From a parallel run

    /// Makes one counter per worker; `prepare` fills them.
    public func begin(workers: Int) {
        workerCounts = (0..<max(1, workers)).map { _ in WorkerCounts() }
        dropped = TrendCounts(terms: terms.count, windows: all, kinds: kinds)
    }

    /// Counts every copy in `e` of a known time within the windows into
    /// worker `worker`'s counter, for every term it matched. Called by that
    /// worker alone, before `e` is merged.
    public func prepare(_ e: PostPart, worker: Int) {
        let mine = workerCounts[worker]
        let counts: TrendCounts
        if let c = mine.counters.first(where: { $0.takes(e) }) {
            counts = c
        } else {
            let numbered = e.keySource != 0 && e.keyNumbers.count == e.keys.count
            counts = TrendCounts(terms: terms.count, windows: all, kinds: kinds, source: numbered ? e.keySource : 0)
            mine.counters.append(counts)
        }
        counts.begin(e)
        for i in 0..<e.count {
            let time = i < e.times.count ? e.times[i] : PostPart.unknownTime
            guard time != PostPart.unknownTime, hull.contains(time) else { continue }
            counts.count(copy: i, of: e, terms: e.termMasks[i], time: time)
        }
    }

    /// Adds one piece's matching posts; call in input order.
    public func add(_ e: PostPart) {
        guard e.count > 0 else { return }
        // Only the current window's mentions are numbered here, as they are met; a mention of a
        // baseline alone is numbered by the fold, by its name (authors are `AuthorBook` numbers).
        var global = keys.partNumbers(of: e)
        defer { keys.restore(global) }
        let counter: TrendCounts
        if workerCounts.isEmpty {
            if counted == nil { counted = TrendCounts(terms: terms.count, windows: all, kinds: kinds) }
            counter = counted!
            counter.begin(e)
        } else {
            counter = dropped!
        }
        var begun = workerCounts.isEmpty
        // The first copy of a post counts (SPEC §6), whatever its time: a later copy
        // with another `created_at` is a duplicate, as `extract` lines carry the first.
        // Told for the whole part first, in a loop of its own: the seen sets' cache misses
        // of one post then overlap the next's, not the rest of the work a post.
        freshMasks.removeAll(keepingCapacity: true)
        for i in 0..<e.count {
            let id = e.tweetIDs[i]
            var fresh: UInt64 = 0
            var terms = e.termMasks[i]
            while terms != 0 {
                let t = terms.trailingZeroBitCount
                terms &= terms - 1
                if seen[t].insert(id) { fresh |= 1 << UInt64(t) }
            }
            freshMasks.append(fresh)
        }
        for i in 0..<e.count {
            let time = i < e.times.count ? e.times[i] : PostPart.unknownTime
            let id = e.tweetIDs[i]
            let fresh = freshMasks[i], later = e.termMasks[i] & ~fresh
            duplicates += later.nonzeroBitCount
            let inHull = time != PostPart.unknownTime && hull.contains(time)
            if inHull && !workerCounts.isEmpty && later != 0 {
                // A worker counted this copy too: counted again here, to be taken back out.
                if !begun { counter.begin(e); begun = true }
                counter.count(copy: i, of: e, terms: later, time: time)
            }
            guard fresh != 0 else { continue }
            guard time != PostPart.unknownTime else { unknownTime += 1; continue }
            if oldest.map({ time < $0 }) ?? true { oldest = time }
            if newest.map({ time > $0 }) ?? true { newest = time }
            guard inHull else { continue }
            let inCurrent = all[0].contains(time)
            guard inCurrent || all.dropFirst().contains(where: { $0.contains(time) }) else { continue }
            if workerCounts.isEmpty { counter.count(copy: i, of: e, terms: fresh, time: time) }
            var mask = fresh
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                for w in all.indices where all[w].contains(time) { windowTweets[t * all.count + w] += 1 }
                guard inCurrent else { continue }
                for m in e.mentions(of: i) {
                    let g = keys.number(ofKey: m, of: e, in: &global)
                    guard isWanted(g) else { continue }
                    let k = Int(g)
                    if k >= earliest[t].count {
                        let more = max(k + 1 - earliest[t].count, 1024)
                        earliest[t] += repeatElement(Earliest(), count: more)
                        cuts[t] += repeatElement(Int64.max, count: more)
                    }
                    guard time <= cuts[t][k] else { continue }
                    earliest[t][k].offer(time, id)
                    if earliest[t][k].count == 3 { cuts[t][k] = earliest[t][k].c.time }
                }
            }
        }
    }

    /// Every counter's counts by the aggregator's ids, made once, after the run.
    private func folded() -> TrendTotals {
        if let totals { return totals }
        let parallel = !workerCounts.isEmpty
        let added = parallel ? workerCounts.flatMap(\.counters) : (counted.map { [$0] } ?? [])
        var maps: [ObjectIdentifier: [Int32]] = [:]
        for c in added + (parallel ? [dropped!] : []) {
            var map: [Int32]
            if c.source != 0 {
                // A worker table's ids: the merge numbered the keys it needed (the current window's
                // mentions) by the same ids; any other (a baseline's alone, a part cut short) by its
                // name, and the ids the counter never met to 0. (Authors are `AuthorBook` numbers.)
                let known = keys.numbers(ofTable: c.source), names = c.names
                map = names.indices.map { $0 < known.count ? known[$0] : -1 }
                for i in map.indices where map[i] < 0 { map[i] = names[i].map { keys.number($0) } ?? 0 }
            } else {
                map = c.keys.numbers(in: keys)
                let names = c.keys.keys
                for i in map.indices where map[i] < 0 { map[i] = keys.number(names[i]) }
            }
            maps[ObjectIdentifier(c)] = map
        }
        authorNames = AuthorBook.shared.keys
        let made = TrendTotals(added: added, dropped: parallel ? dropped : nil, global: { maps[ObjectIdentifier($0)]! },
                               keys: keys.keys, authors: authorNames.count, slots: all.count * terms.count,
                               terms: terms.count, windows: all.count)
        // The counters stay as they are (no more parts come): freeing their arrays one by one would cost
        // the run's end more time than the memory is worth; they go with the aggregator.
        totals = made
        return made
    }

    /// The rows of every term, in the order the terms were given (SPEC §14).
    ///
    /// - Parameters:
    ///   - minimum: `N`, `--min-authors`.
    ///   - byTweets: `o` and `b` count tweets, not authors.
    ///   - all: keep rows of score 0 too.
    ///   - top: at most this many rows of each type.
    public func trends(minimum: Int, byTweets: Bool, all keepAll: Bool, top: Int?) -> [TermTrend] {
        let totals = folded()
        return terms.indices.map { t in trend(term: t, totals: totals, minimum: minimum, byTweets: byTweets, all: keepAll, top: top) }
    }

    private func trend(term t: Int, totals: TrendTotals, minimum: Int, byTweets: Bool, all keepAll: Bool, top: Int?) -> TermTrend {
        let k = windows.baselines.count
        let n = keys.keys.count
        let first = t * all.count
        // By mention id: the current window's tweets and authors, and the sums over the baselines.
        var currentTweets = [Int32](repeating: 0, count: n), currentAuthors = [Int32](repeating: 0, count: n)
        for (k, m) in totals.present[first].enumerated() {
            currentTweets[Int(m)] = totals.presentTweets[first][k]
            currentAuthors[Int(m)] = totals.presentAuthors[first][k]
        }
        var baseTweets = [Int](repeating: 0, count: n), baseAuthors = [Int](repeating: 0, count: n)
        for w in 1..<all.count {
            let present = totals.present[first + w], tweets = totals.presentTweets[first + w], authors = totals.presentAuthors[first + w]
            for (k, m) in present.enumerated() {
                baseTweets[Int(m)] += Int(tweets[k])
                baseAuthors[Int(m)] += Int(authors[k])
            }
        }
        let scale = Fraction(Int128(windows.scale.numerator), Int128(windows.scale.denominator) * Int128(k))
        let names = keys.keys
        // The mentions that may make a row, by id: a mention under `--min-authors` scores 0 (SPEC §14),
        // so without `--all` it makes no row and needs no fraction worked out.
        var candidates: [Int32] = []
        for i in 0..<n where currentTweets[i] > 0 || baseTweets[i] > 0 {
            if !keepAll && (byTweets ? currentTweets[i] : currentAuthors[i]) < minimum { continue }
            candidates.append(Int32(i))
        }
        // Their rows, a range of them a core (`parallelMap`: in order).
        let chunks = parallelChunks(candidates.count)
        var rows = parallelMap(chunks) { c -> [TrendRow] in
            var rows: [TrendRow] = []
            for m in candidates[candidates.count * c / chunks ..< candidates.count * (c + 1) / chunks] {
                let i = Int(m)
                let current = (tweets: Int(currentTweets[i]), authors: Int(currentAuthors[i]))
                let sumTweets = baseTweets[i], sumAuthors = baseAuthors[i]
                let bTweets = Fraction(sumTweets) * scale, bAuthors = Fraction(sumAuthors) * scale
                let score = TrendScore(current: byTweets ? current.tweets : current.authors,
                                       baseline: byTweets ? bTweets : bAuthors, minimum: minimum)
                guard keepAll || !score.score.isZero else { continue }
                // A Bluesky account by handle (SPEC §16), before the rows are ordered, as `report` shows accounts.
                let key = HandleBook.shared.printed(names[Int(m)])
                rows.append(TrendRow(mentionID: m, mention: key, kind: key.signedKind!, currentTweets: current.tweets,
                                     currentAuthors: current.authors, baselineTweets: bTweets, baselineAuthors: bAuthors, score: score))
            }
            return rows
        }.flatMap { $0 }
        rows = TrendRow.ordered(rows)
        if let top {
            var kept: [TrendRow] = [], perKind: [MentionKind: Int] = [:]
            for r in rows where perKind[r.kind, default: 0] < top {
                perKind[r.kind, default: 0] += 1
                kept.append(r)
            }
            rows = kept
        }
        explain(&rows, term: t, totals: totals)
        return TermTrend(term: terms[t], current: windows.current, baseline: windows.baselineSpan,
                         currentTweets: windowTweets[first], rows: rows)
    }

    /// Fills the explaining columns and `display` of the rows kept, over the current window's tweets.
    private func explain(_ rows: inout [TrendRow], term t: Int, totals: TrendTotals) {
        guard !rows.isEmpty else { return }
        let slot = t * all.count
        let ids = totals.authorIDs[slot], tweets = totals.authorTweets[slot], starts = totals.authorStarts[slot]
        // By mention id: its row, -1 none (dense: the spellings below hold every mention of the window).
        var index = [Int32](repeating: -1, count: keys.keys.count)
        for (i, r) in rows.enumerated() { index[Int(r.mentionID)] = Int32(i) }
        let spellingTexts = totals.spellingTexts, keyNames = keys.keys
        func text(_ s: Int32, of m: Int) -> String { s == TrendCounts.asKey ? keyNames[m] : spellingTexts[Int(s)] }
        var best = [(spelling: Int32, tweets: Int)?](repeating: nil, count: rows.count)
        totals.spellings[t].forEach { pair, n in
            let m = Int(truncatingIfNeeded: pair >> 32)
            let i = Int(index[m])
            guard i >= 0, n > 0 else { return }
            let s = Int32(truncatingIfNeeded: pair)
            if let b = best[i], b.tweets > n || (b.tweets == n && !text(s, of: m).precedesInUTF8(text(b.spelling, of: m))) {
                return
            }
            best[i] = (s, n)
        }
        // Each author's printed name's first 16 bytes as two big-endian words and its length, by number: a tie
        // of tweets between authors is nearly always decided there, one read of a dense array, no string touched.
        if namePrefixes == nil { namePrefixes = TrendAggregator.prefixes(of: authorNames) }
        let authorNames = self.authorNames
        let prefixes = namePrefixes!
        // A chunk of rows a core (`parallelMap`, results in order).
        let chunks = parallelChunks(rows.count), shown = rows
        let earliest = self.earliest[t]
        let explained = parallelMap(chunks) { c -> [Explained] in
            (shown.count * c / chunks ..< shown.count * (c + 1) / chunks).map { i in
                TrendAggregator.explained(shown[i], ids: ids, tweets: tweets, starts: starts, earliest: earliest,
                                          authorNames: authorNames, prefixes: prefixes)
            }
        }
        var i = 0
        for chunk in explained {
            for e in chunk {
                let m = Int(rows[i].mentionID)
                if let share = e.share { rows[i].topAuthorShare = share }
                rows[i].topAuthors = e.topAuthors
                rows[i].exampleIDs = e.exampleIDs
                rows[i].display = best[i].map { text($0.spelling, of: m) }.map { HandleBook.isDIDKey($0) ? HandleBook.shared.printed($0) : $0 }
                i += 1
            }
        }
    }

    /// A name's first 16 bytes as two big-endian words, and its length.
    typealias NamePrefix = (UInt64, UInt64, Int)

    /// The `NamePrefix` of each key as an author is printed (`HandleBook.printedAuthor`), by id; a range of ids a core.
    static func prefixes(of keys: [String]) -> [NamePrefix] {
        let chunks = parallelChunks(keys.count)
        return parallelMap(chunks) { c -> [NamePrefix] in
            (keys.count * c / chunks ..< keys.count * (c + 1) / chunks).map { k in
                var n = HandleBook.isDIDKey(keys[k]) ? HandleBook.shared.printedAuthor(keys[k]) : keys[k]
                return n.withUTF8 { b -> NamePrefix in
                    var v: UInt64 = 0, w: UInt64 = 0
                    for i in 0..<Swift.min(b.count, 8) { v |= UInt64(b[i]) << UInt64(56 - 8 * i) }
                    if b.count > 8 { for i in 8..<Swift.min(b.count, 16) { w |= UInt64(b[i]) << UInt64(56 - 8 * (i - 8)) } }
                    return (v, w, b.count)
                }
            }
        }.flatMap { $0 }
    }

    /// What explains one row: its top author's share, top authors and example ids.
    private struct Explained {
        var share: Fraction?
        var topAuthors: [String]
        var exampleIDs: [String]
    }

    /// Row `row`'s explaining columns, from the current window's (mention, author) tweets.
    private static func explained(_ row: TrendRow, ids: [Int32], tweets: [Int32], starts: [Int32], earliest: [Earliest],
                                  authorNames: [String], prefixes: [NamePrefix]) -> Explained {
        // Authors by handle (SPEC §16: the handle named, else the DID), ordered as shown.
        func name(_ a: Int32) -> String { HandleBook.shared.printedAuthor(authorNames[Int(a)]) }
        func before(_ x: (author: Int32, tweets: Int32), _ y: (author: Int32, tweets: Int32)) -> Bool {
            if x.tweets != y.tweets { return x.tweets > y.tweets }
            let p = prefixes[Int(x.author)], q = prefixes[Int(y.author)]
            if p.0 != q.0 { return p.0 < q.0 }
            if p.1 != q.1 { return p.1 < q.1 }
            // Equal first 16 bytes: within 16, the shorter is a prefix of the other (or they are equal).
            if p.2 <= 16 && q.2 <= 16 { return p.2 < q.2 }
            return name(x.author).precedesInUTF8(name(y.author))
        }
        let m = Int(row.mentionID)
        // The first three in order: one pass over the mention's authors keeping the best three.
        var top: [(author: Int32, tweets: Int32)] = []
        top.reserveCapacity(4)
        for j in Int(starts[m])..<Int(starts[m + 1]) {
            let a = (author: ids[j], tweets: tweets[j])
            // Fewer tweets than the third: out, and no name compared.
            if top.count == 3 && (a.tweets < top[2].tweets || !before(a, top[2])) { continue }
            var p = top.count
            while p > 0 && before(a, top[p - 1]) { p -= 1 }
            top.insert(a, at: p)
            if top.count > 3 { top.removeLast() }
        }
        var share: Fraction?
        if let first = top.first, row.currentTweets > 0 {
            share = Fraction(Int128(first.tweets), Int128(row.currentTweets))
        }
        return Explained(share: share, topAuthors: top.map { name($0.author) },
                         exampleIDs: (m < earliest.count ? earliest[m].items : []).map { PostIdentity.text(of: $0.id) })
    }
}

/// One row of `smashtag trend` (SPEC §14).
public struct TrendRow: Sendable {
    /// The aggregator's id of the mention.
    let mentionID: Int32
    /// The signed key (`#swift`, `+example.com/a`).
    public let mention: String
    public let kind: MentionKind
    /// The most frequent spelling among the current window's tweets; nil when it has none there.
    public internal(set) var display: String?
    public let currentTweets: Int
    public let currentAuthors: Int
    public let baselineTweets: Fraction
    public let baselineAuthors: Fraction
    public let score: TrendScore
    public internal(set) var topAuthorShare = Fraction.zero
    /// Up to three authors (`@name`), most tweets first, ties by bytes.
    public internal(set) var topAuthors: [String] = []
    /// The ids of the three earliest tweets, earliest first (ties by id).
    public internal(set) var exampleIDs: [String] = []

    /// Type (SPEC §13's order), score descending, current authors descending, mention by bytes.
    static func order(_ a: TrendRow, _ b: TrendRow) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        if a.score.score != b.score.score { return b.score.score < a.score.score }
        if a.currentAuthors != b.currentAuthors { return a.currentAuthors > b.currentAuthors }
        return a.mention.precedesInUTF8(b.mention)
    }

    /// `rows` in `order`, sorted by index over keys taken out of the rows (a row is some
    /// 200 bytes, moved once): a score is compared as a `Double` where that is exact in
    /// order (both parts under 2^53, so the quotient is correctly rounded, and a rounding
    /// never reverses two values), as a fraction where the doubles tie.
    static func ordered(_ rows: [TrendRow]) -> [TrendRow] {
        let kinds = rows.map(\.kind), authors = rows.map(\.currentAuthors), mentions = rows.map(\.mention)
        let scores = rows.map(\.score.score)
        let limit = Int128(1) << 53
        let approx = scores.map { f in
            f.numerator.magnitude < limit.magnitude && f.denominator < limit
                ? Double(Int64(f.numerator)) / Double(Int64(f.denominator)) : Double.nan
        }
        let order = rows.indices.sorted { i, j in
            if kinds[i] != kinds[j] { return kinds[i] < kinds[j] }
            let (x, y) = (approx[i], approx[j])
            if x != y && !x.isNaN && !y.isNaN { return x > y }
            if scores[i] != scores[j] { return scores[j] < scores[i] }
            if authors[i] != authors[j] { return authors[i] > authors[j] }
            return mentions[i].precedesInUTF8(mentions[j])
        }
        return order.map { rows[$0] }
    }
}

/// What `smashtag trend` writes of one term: its windows and its rows.
public struct TermTrend: Sendable {
    public let term: Term
    public let current: TrendWindows.Window
    /// The baseline's span (all of `mean:K`'s windows).
    public let baseline: TrendWindows.Window
    /// The term's distinct tweets in the current window.
    public let currentTweets: Int
    public let rows: [TrendRow]
}
