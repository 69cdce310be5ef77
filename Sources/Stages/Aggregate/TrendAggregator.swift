/// The counting stage of `smashtag trend` (SPEC §14): takes the matching
/// tweets (with their creation time, author and spellings) in input order,
/// counts each once per term (SPEC §6: the first copy), and keeps, per term
/// and window, each mention's distinct tweets and distinct authors; for the
/// current window also the tweets of each (mention, author), the earliest
/// three tweets and the spellings, which explain a row.
///
///     PostPart (time, author, spellings) ─▶ window of its time ─▶ tallies ─▶ `trends(...)`
///
/// Every path hands it the same parts: a scan of dumps (`ParallelRun`),
/// the store's cursor (`Store.scan`), extract lines (`ExtractReader`); so
/// the bytes are the same on every path.
///
/// - Complexity: O(1) amortised per (tweet, term, mention) in a window;
///   memory O(distinct (mention, author) pairs per window and term) plus
///   the dedup set of the windows' tweets.
public final class TrendAggregator: PartSink {
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
    /// Per global key id: whether its kind is counted (`kinds`), -1 unknown yet.
    private var wanted: [Int8] = []
    private var seen: [TweetIDSet]
    /// [term][window]: window 0 is the current one, then the baselines in `windows.baselines`' order.
    private var tallies: [WindowTally]
    /// The wanted mentions of the post being added, as global ids (reused).
    private var wantedOfPost: [Int32] = []
    /// Per term: the current window's explaining facts.
    private var details: [CurrentDetail]
    private var spellingIDs: [String: Int32] = [:]
    private var spellingTexts: [String] = []
    /// Every window, current first.
    private let all: [TrendWindows.Window]
    /// From the earliest window's start to the latest's end: a tweet outside it is in none.
    private let hull: TrendWindows.Window
    /// The span of time a post must be created in to count (the windows' hull).
    public var span: TrendWindows.Window { hull }

    struct WindowTally {
        /// Mention → distinct tweets carrying it.
        var tweets = MentionCounts()
        /// (mention << 32 | author) → tweets; its keys per mention are the distinct authors.
        var authors = PairCounts()
        /// Distinct tweets in the window.
        var total = 0
    }

    struct CurrentDetail {
        /// (mention << 32 | spelling) → tweets writing it so.
        var spellings = PairCounts()
        /// By mention id: its three earliest tweets (dense: one add per mention of each tweet, no hashing).
        var earliest: [Earliest] = []
    }

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
        tallies = Array(repeating: WindowTally(), count: all.count * terms.count)
        details = Array(repeating: CurrentDetail(), count: terms.count)
    }

    /// Term `t`'s distinct tweets counted in any window.
    public func counted(term t: Int) -> Int { seen[t].count }

    /// What a part's posts must carry for this sink.
    public static func fields(kinds: MentionKinds) -> PostFields {
        var f = PostFields(spellings: true, kinds: false, authors: true)
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

    /// By mention id: the spelling id of the mention written as its key, -1 not yet known.
    private var keySpellings: [Int32] = []

    @inline(__always)
    private func keySpellingID(_ g: Int32, _ key: String) -> Int32 {
        let i = Int(g)
        if i >= keySpellings.count { keySpellings += repeatElement(-1, count: max(i + 1 - keySpellings.count, 1024)) }
        if keySpellings[i] < 0 { keySpellings[i] = spellingID(key) }
        return keySpellings[i]
    }

    private func spellingID(_ s: String) -> Int32 {
        if let id = spellingIDs[s] { return id }
        let id = Int32(spellingTexts.count)
        spellingTexts.append(s)
        spellingIDs[s] = id
        return id
    }

    /// Adds one piece's matching posts; call in input order.
    public func add(_ e: PostPart) {
        guard e.count > 0 else { return }
        let global = keys.numbers(of: e)
        var partSpellings: [Int32]?
        for i in 0..<e.count {
            let time = i < e.times.count ? e.times[i] : PostPart.unknownTime
            let id = e.tweetIDs[i]
            // The first copy of a post counts (SPEC §6), whatever its time: a later copy
            // with another `created_at` is a duplicate, as `extract` lines carry the first.
            var fresh: UInt64 = 0
            var terms = e.termMasks[i]
            while terms != 0 {
                let t = terms.trailingZeroBitCount
                terms &= terms - 1
                if seen[t].insert(id) { fresh |= 1 << UInt64(t) } else { duplicates += 1 }
            }
            guard fresh != 0 else { continue }
            guard time != PostPart.unknownTime else { unknownTime += 1; continue }
            if oldest.map({ time < $0 }) ?? true { oldest = time }
            if newest.map({ time > $0 }) ?? true { newest = time }
            guard hull.contains(time) else { continue }
            let inCurrent = all[0].contains(time)
            guard inCurrent || all.dropFirst().contains(where: { $0.contains(time) }) else { continue }
            let author: Int32? = i < e.authors.count && e.authors[i] >= 0 ? global[Int(e.authors[i])] : nil
            wantedOfPost.removeAll(keepingCapacity: true)
            for m in e.mentions(of: i) {
                let g = global[Int(m)]
                if isWanted(g) { wantedOfPost.append(g) }
            }
            var mask = fresh
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                for w in all.indices where all[w].contains(time) {
                    let slot = t * all.count + w
                    tallies[slot].total += 1
                    for g in wantedOfPost {
                        tallies[slot].tweets.add(Aggregator.key(g))
                        if let author { tallies[slot].authors.add(Aggregator.key(g) << 32 | Aggregator.key(author)) }
                    }
                }
                if inCurrent {
                    for g in wantedOfPost {
                        let k = Int(g)
                        if k >= details[t].earliest.count {
                            details[t].earliest += repeatElement(Earliest(), count: max(k + 1 - details[t].earliest.count, 1024))
                        }
                        details[t].earliest[k].offer(time, id)
                    }
                }
                guard inCurrent, !e.spellingEnds.isEmpty else { continue }
                if partSpellings == nil { partSpellings = e.spellingStrings.map(spellingID) }
                for j in e.spellings(of: i) {
                    let g = global[Int(e.spellingMentions[j])]
                    guard isWanted(g) else { continue }
                    let s = e.spellingTexts[j]
                    let sid = s == PostPart.keySpelling ? keySpellingID(g, e.keys[Int(e.spellingMentions[j])]) : partSpellings![Int(s)]
                    details[t].spellings.add(Aggregator.key(g) << 32 | UInt64(UInt32(bitPattern: sid)))
                }
            }
        }
    }

    /// The rows of every term, in the order the terms were given (SPEC §14).
    ///
    /// - Parameters:
    ///   - minimum: `N`, `--min-authors`.
    ///   - byTweets: `o` and `b` count tweets, not authors.
    ///   - all: keep rows of score 0 too.
    ///   - top: at most this many rows of each type.
    public func trends(minimum: Int, byTweets: Bool, all keepAll: Bool, top: Int?) -> [TermTrend] {
        terms.indices.map { t in trend(term: t, minimum: minimum, byTweets: byTweets, all: keepAll, top: top) }
    }

    private func trend(term t: Int, minimum: Int, byTweets: Bool, all keepAll: Bool, top: Int?) -> TermTrend {
        let k = windows.baselines.count
        // By mention id (dense: one pass over each window's tables, no hashing): the current window's
        // tweets and authors, and the sums over the baselines.
        let n = keys.keys.count
        var currentTweets = [Int](repeating: 0, count: n), currentAuthors = [Int](repeating: 0, count: n)
        var baseTweets = [Int](repeating: 0, count: n), baseAuthors = [Int](repeating: 0, count: n)
        var met = [Bool](repeating: false, count: n)
        for w in all.indices {
            let slot = t * all.count + w
            tallies[slot].tweets.forEach { m, c in
                let i = Int(truncatingIfNeeded: m)
                met[i] = true
                if w == 0 { currentTweets[i] += c } else { baseTweets[i] += c }
            }
            tallies[slot].authors.forEach { pair, _ in
                let i = Int(truncatingIfNeeded: pair >> 32)
                if w == 0 { currentAuthors[i] += 1 } else { baseAuthors[i] += 1 }
            }
        }
        let scale = Fraction(Int128(windows.scale.numerator), Int128(windows.scale.denominator) * Int128(k))
        let names = keys.keys
        var rows: [TrendRow] = []
        for i in 0..<n where met[i] {
            let m = Int32(i)
            let current = (tweets: currentTweets[i], authors: currentAuthors[i])
            // Under `--min-authors` the score is 0 (SPEC §14): without `--all` no row, and no fraction to work out.
            if !keepAll && (byTweets ? current.tweets : current.authors) < minimum { continue }
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
        rows.sort(by: TrendRow.order)
        if let top {
            var kept: [TrendRow] = [], perKind: [MentionKind: Int] = [:]
            for r in rows where perKind[r.kind, default: 0] < top {
                perKind[r.kind, default: 0] += 1
                kept.append(r)
            }
            rows = kept
        }
        explain(&rows, term: t)
        return TermTrend(term: terms[t], current: windows.current, baseline: windows.baselineSpan,
                         currentTweets: tallies[t * all.count].total, rows: rows)
    }

    /// Fills the explaining columns and `display` of the rows kept, over the current window's tweets.
    private func explain(_ rows: inout [TrendRow], term t: Int) {
        guard !rows.isEmpty else { return }
        // By mention id: its row, -1 none (dense: the tables below hold every pair of the window).
        var index = [Int32](repeating: -1, count: keys.keys.count)
        for (i, r) in rows.enumerated() { index[Int(r.mentionID)] = Int32(i) }
        var byAuthor = [[(author: Int32, tweets: Int)]](repeating: [], count: rows.count)
        tallies[t * all.count].authors.forEach { pair, n in
            let i = Int(index[Int(truncatingIfNeeded: pair >> 32)])
            guard i >= 0 else { return }
            byAuthor[i].append((Int32(truncatingIfNeeded: pair), n))
        }
        var best = [(spelling: Int32, tweets: Int)?](repeating: nil, count: rows.count)
        details[t].spellings.forEach { pair, n in
            let i = Int(index[Int(truncatingIfNeeded: pair >> 32)])
            guard i >= 0 else { return }
            let s = Int32(truncatingIfNeeded: pair)
            if let b = best[i], b.tweets > n || (b.tweets == n && !spellingTexts[Int(s)].precedesInUTF8(spellingTexts[Int(b.spelling)])) {
                return
            }
            best[i] = (s, n)
        }
        // Authors by handle (SPEC §16), ordered as shown; each name made once, when first compared.
        let keyNames = keys.keys
        var names: [Int32: String] = [:]
        func name(_ a: Int32) -> String {
            if let n = names[a] { return n }
            let n = HandleBook.shared.printed(keyNames[Int(a)])
            names[a] = n
            return n
        }
        func before(_ x: (author: Int32, tweets: Int), _ y: (author: Int32, tweets: Int)) -> Bool {
            x.tweets != y.tweets ? x.tweets > y.tweets : name(x.author).precedesInUTF8(name(y.author))
        }
        for i in rows.indices {
            // The first three in order: one pass keeping the best three, not a sort of every author.
            var top: [(author: Int32, tweets: Int)] = []
            top.reserveCapacity(4)
            for a in byAuthor[i] where top.count < 3 || before(a, top[2]) {
                var j = top.count
                while j > 0 && before(a, top[j - 1]) { j -= 1 }
                top.insert(a, at: j)
                if top.count > 3 { top.removeLast() }
            }
            if let first = top.first, rows[i].currentTweets > 0 {
                rows[i].topAuthorShare = Fraction(Int128(first.tweets), Int128(rows[i].currentTweets))
            }
            rows[i].topAuthors = top.map { name($0.author) }
            let k = Int(rows[i].mentionID)
            rows[i].exampleIDs = (k < details[t].earliest.count ? details[t].earliest[k].items : []).map { PostIdentity.text(of: $0.id) }
            rows[i].display = best[i].map { spellingTexts[Int($0.spelling)] }.map { HandleBook.isDIDKey($0) ? HandleBook.shared.printed($0) : $0 }
        }
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
