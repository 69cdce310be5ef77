import Dispatch
import Synchronization

/// Reports from the store with the options of SPEC §12.2 and §12.3 — the
/// filters and the extra columns — byte for byte what the same options give
/// from the dumps: the store keeps each tweet's creation time, kind,
/// language, author and the spellings of its mentions (schema v4).
///
///     tweet (id order, its links and their spellings in the row)
///         ─▶ filter: time, kind, language ─▶ match ─▶ PostPart ─▶ Aggregator
///
/// One pass over the tweets and their links in id order, matched like
/// `TermScan` (`StoredTerm`), handed to the report's own `Aggregator` in
/// chunks, so counting, `display`, ties and rendering are the dumps' own.
/// Tracked terms' kept counts are not used: they hold every tweet. With
/// `--by`, `series` (`Store+Buckets.swift`) runs the same scan into an
/// aggregator with buckets, each tweet with its creation time.
///
/// A store upgraded from version 3 holds tweets whose kind, language and
/// spellings were never kept (`retweet` is NULL): they have no language (so
/// `--lang` never keeps them), `--retweets exclude|only` leaves them out,
/// and they add to `count` and `authors` but to neither `originals` nor
/// `retweets`, and no spelling to `display`. `unknownFacts` says how many
/// such tweets a report counted, for the caller to say so.
extension Store {
    /// A report with filters or columns, and what the filters left out.
    public struct FilteredReports {
        public var reports: [TermReport]
        /// Tweets the filters left out, of unknown time among them.
        public var leftOut = 0
        public var unknownTime = 0
        /// Tweets kept that were ingested before schema version 4.
        public var unknownFacts = 0
        /// Tweets read.
        public var tweets = 0
    }

    /// The reports of `terms` with `filter` and what the columns need (`facts`), in the order given.
    ///
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the tweets and the links; memory as the
    ///   dumps' `Aggregator`, plus the store's mention keys and spellings.
    public func reports(_ terms: [Term], minCount: Int, top: Int?, filter: TweetFilter,
                        facts: PostFields) throws -> FilteredReports {
        let aggregator = Aggregator(terms: terms, facts: facts)
        var result = try scan(terms, filter: filter, into: aggregator)
        result.reports = aggregator.reports(minCount: minCount, top: top)
        return result
    }

    /// Every stored tweet that `filter` keeps, matched against `terms` and
    /// handed to `aggregator` with what its facts ask for; with the
    /// aggregator's buckets (`--by`), with its creation time, tweets of
    /// unknown time left out (and counted in `unknownTime`).
    ///
    /// - Returns: what was left out and read (`reports` empty).
    func scan(_ terms: [Term], filter: TweetFilter, into aggregator: Aggregator) throws -> FilteredReports {
        try scan(terms, filter: filter, into: aggregator, facts: aggregator.facts, times: aggregator.buckets != nil)
    }

    /// The same scan into any sink of parts: each post with what `facts`
    /// asks for and, with `times`, its creation time (tweets of unknown
    /// time then left out and counted in `unknownTime`).
    /// With `span`, only the posts created in it are read (`StoredPosts(_:columns:span:)`),
    /// on every core when the store is read by more than one
    /// (`scanPieces`); the sink gets the same parts in the same order.
    /// Without one, a filter by time or a series is read as a span too (the
    /// store's posts of known time, within `--since`/`--until`: `range(of:)`),
    /// and what lies outside it is counted as left out, not read (`outsideRange`).
    func scan(_ terms: [Term], filter: TweetFilter, into aggregator: PartSink, facts: PostFields, times bucketed: Bool,
              span: (start: Int64, end: Int64)? = nil) throws -> FilteredReports {
        let text = try keepsText
        if !text, let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try checkKinds(facts.mentionKinds, terms: terms)
        try loadHandles()
        try db.beginRead()
        defer { db.endRead() }
        var stored: [StoredTerm] = []
        for term in terms { stored.append(try storedTerm(term)) }
        let ranged = span == nil && (filter.byTime || bucketed)
        let span = try span ?? range(of: filter, bucketed: bucketed)
        // The whole store (no span): its posts of known time as a span, then those of unknown time.
        let known = try span == nil ? knownTimes().map { (start: $0.oldest, end: $0.newest == .max ? .max : $0.newest + 1) } : nil
        // A span (trend, a range, the whole store's known times) is read on every core; else in one pass.
        let splittable = (span ?? known).map { Self.pieces(of: $0, workers: 1) != nil } ?? false
        let others = splittable ? try pieceReaders() : []
        defer { Self.endReads(others) }
        let reading = try StoredReading([self] + others, targets: StoredTerms(stored), facts: facts, bucketed: bucketed, filter: filter)
        var result: FilteredReports
        if let span, !others.isEmpty {
            result = try scanPieces(span, reading: reading, others: others, into: aggregator)
        } else if let known, !others.isEmpty {
            // Every post once: those of known time on every core, then those of unknown time (after the
            // pieces, on this connection). A store holds a post once, so the order decides nothing a sink counts.
            result = try scanPieces(known, reading: reading, others: others, into: aggregator)
            var posts = try StoredPosts(db, columns: reading.columns, unknownTime: ())
            defer { posts.done() }
            var worker = StoredReading.Worker(StoredIdentities(db))
            let rest = try reading.read(&posts, worker: &worker) { aggregator.add($0) }
            result.tweets += rest.tweets
            result.leftOut += rest.leftOut
            result.unknownTime += rest.unknownTime
            result.unknownFacts += rest.unknownFacts
        } else {
            var posts = try span.map { span throws(StoreError) in try StoredPosts(db, columns: reading.columns, span: span) }
                ?? StoredPosts(db, columns: reading.columns)
            defer { posts.done() }
            var worker = StoredReading.Worker(StoredIdentities(db))
            result = try reading.read(&posts, worker: &worker) { aggregator.add($0) }
        }
        if ranged { try outsideRange(read: &result) }
        return result
    }

    /// The span that holds every post `filter` can keep when it judges by
    /// time (`--since`, `--until`, or a time it needs), or that a series
    /// (`bucketed`, `--by`) can count: the range within the store's posts
    /// of known time (empty when there are none); nil otherwise. Posts
    /// outside it, those of unknown time among them, are left out: a pass
    /// may read the span alone (in the caller's transaction).
    func range(of filter: TweetFilter, bucketed: Bool = false) throws(StoreError) -> (start: Int64, end: Int64)? {
        guard filter.byTime || bucketed else { return nil }
        let times = try knownTimes()
        let start = max(filter.since ?? Int64.min, times?.oldest ?? 0)
        let end = min(filter.until ?? Int64.max, times.map { $0.newest == .max ? .max : $0.newest + 1 } ?? 0)
        return (start, max(start, end))
    }

    /// A cursor over the posts `filter` can keep: those of its range's span
    /// (`range(of:)`), else every post.
    func posts(columns: StoredPosts.Columns, keptBy filter: TweetFilter) throws(StoreError) -> StoredPosts {
        if let span = try range(of: filter) { return try StoredPosts(db, columns: columns, span: span) }
        return try StoredPosts(db, columns: columns)
    }

    /// What a scan of a range as a span did not read, counted as
    /// the whole store's pass counts it: every post outside the span left
    /// out by time, those of unknown time among them, and every post read.
    private func outsideRange(read result: inout FilteredReports) throws(StoreError) {
        let total = Int(try db.integer("SELECT count(*) FROM tweet") ?? 0)
        let unknown = Int(try db.integer("SELECT count(*) FROM tweet INDEXED BY \(Schema.offSnowflakeIndex) WHERE \(Schema.offSnowflake)"
                                         + " AND created_at IS NULL") ?? 0)
        result.leftOut += total - result.tweets
        result.unknownTime += unknown
        result.tweets = total
    }
}

/// What a store scan with filters and columns (`Store.scan`) shares between
/// the cursors that read it: the mentions' keys and spellings, the terms,
/// the kinds counted, the filter. Read-only once made, so that cursors on
/// several connections use one.
struct StoredReading: @unchecked Sendable {
    let keys: MentionKeys
    let spellings: [Int64: String]
    let targets: StoredTerms
    let counted: CountedMentions
    let facts: PostFields
    let fields: PostFields
    let bucketed: Bool
    let filter: TweetFilter
    let columns: StoredPosts.Columns

    /// Reads the mentions' keys over `stores` (the scan's store and the
    /// connections beside it, one snapshot), their shares side by side.
    init(_ stores: [Store], targets: StoredTerms, facts: PostFields, bucketed: Bool, filter: TweetFilter) throws(StoreError) {
        let store = stores[0]
        keys = try MentionKeys(stores.map(\.db))
        var spellings: [Int64: String] = [:]
        if facts.spellings {
            let all = try store.db.statement("SELECT id, text FROM spelling")
            while try all.step() { if let s = all.text(1) { spellings[all.int64(0)] = s } }
            all.done()
        }
        self.spellings = spellings
        self.targets = targets
        if let counted = keys.counted(facts.mentionKinds) { self.counted = counted } else {
            counted = try store.countedMentions(facts.mentionKinds)
        }
        self.facts = facts
        var fields = facts
        fields.times = bucketed
        self.fields = fields
        self.bucketed = bucketed
        self.filter = filter
        // SQLite makes every result column of every row read: only those used are asked.
        var columns: StoredPosts.Columns = [.author, .time, .kind]
        if filter.languages != nil { columns.insert(.lang) }
        if targets.needsText { columns.insert(.text) }
        self.columns = columns
    }

    /// What one cursor's reader keeps from post to post: its connection's
    /// identities and the spellings it made.
    struct Worker {
        let identities: StoredIdentities
        /// Spellings that are capitals of their key, as made once each.
        var cased: [Cased: String] = [:]
        var kept: [Int64] = []
        struct Cased: Hashable { var mention: Int64, mask: UInt64 }

        init(_ identities: StoredIdentities) { self.identities = identities }
    }

    /// Reads `posts` to its end: each post the filter keeps and a term
    /// matches, as a part, handed to `emit` in chunks of 50,000 posts (the
    /// last perhaps empty).
    ///
    /// - Returns: what was read and left out (`reports` empty).
    func read(_ posts: inout StoredPosts, worker: inout Worker, emit: (PostPart) throws -> Void) throws -> Store.FilteredReports {
        var result = Store.FilteredReports(reports: [])
        var chunk = PartBuilder<KeyedNumbering<Int64>>(fields: fields)
        let keys = self.keys
        while try posts.next() {
            let id = posts.id
            result.tweets += 1
            let time = posts.time, kind = posts.kind
            // With --by, a tweet of unknown time is left out before matching (SPEC §12.4).
            if bucketed && time == nil { result.leftOut += 1; result.unknownTime += 1; continue }
            switch posts.judged(by: filter) {
            case .kept: break
            case .leftOut: result.leftOut += 1; continue
            case .unknownTime: result.leftOut += 1; result.unknownTime += 1; continue
            }
            let author = posts.author
            let mask = posts.mask(targets)
            guard mask != 0 else { continue }
            if kind == nil { result.unknownFacts += 1 }
            var pairs: [(mention: Int64, spelling: String)] = []
            if facts.spellings && kind != nil {
                posts.written { m, s, again in
                    guard let key = keys[m] else { return }
                    switch s {
                    case .key: pairs.append((m, key))
                    case .cased(let capitals):
                        let c = Worker.Cased(mention: m, mask: capitals)
                        if let known = worker.cased[c] { pairs.append((m, known)) } else {
                            let made = Links.cased(key, capitals)
                            worker.cased[c] = made
                            pairs.append((m, made))
                        }
                    case .stored(let id):
                        if let text = spellings[id] { pairs.append((m, text)) } else if !again { pairs.append((m, key)) }
                    }
                }
            }
            // The kinds the report counts (`--kinds`): the others are in the links too (schema v6).
            let set = counted.filter(posts.mentions, into: &worker.kept)
            chunk.append(id: try worker.identities.number(id), mask: mask, mentions: set, text: { keys[$0] }, retweet: kind == 1,
                         author: author, unknown: kind == nil, spellings: pairs, time: time)
            if chunk.count >= 50_000 { try emit(chunk.take()) }
        }
        try emit(chunk.take())
        return result
    }
}

/// The key of every stored mention by its id, read at once for a scan that
/// may meet any of them: in an array indexed by id when the ids are dense
/// (the store numbers mentions from 1 up), else in a dictionary.
///
/// - Complexity: one pass over the mentions, shared by the connections
///   given; O(1) a look-up.
struct MentionKeys {
    private var dense: [String?] = []
    private var sparse: [Int64: String] = [:]

    /// Reads the keys over `dbs` (each in a read transaction of one
    /// snapshot): each connection the keys of its range of ids.
    init(_ dbs: [Database]) throws(StoreError) {
        let count = try dbs[0].integer("SELECT count(*) FROM mention") ?? 0
        let highest = try dbs[0].integer("SELECT max(id) FROM mention") ?? 0
        // Dense unless pruning or a hand-made store left most ids unused.
        guard highest >= 0 && highest <= 2 * count + 1024 else {
            let all = try dbs[0].statement("SELECT id, key FROM mention")
            defer { all.done() }
            while try all.step() { if let key = all.text(1) { sparse[all.int64(0)] = key } }
            return
        }
        var dense = [String?](repeating: nil, count: Int(highest) + 1)
        let failures = Mutex<[StoreError]>([])
        let shares = dbs.count
        dense.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBox((buffer, dbs))
            DispatchQueue.concurrentPerform(iterations: shares) { k in
                let (buffer, dbs) = shared.value
                let (low, high) = (Int64(k) * (highest + 1) / Int64(shares), Int64(k + 1) * (highest + 1) / Int64(shares))
                do throws(StoreError) {
                    let some = try dbs[k].statement("SELECT id, key FROM mention WHERE id >= ?1 AND id < ?2")
                    defer { some.done() }
                    try some.bind(1, low)
                    try some.bind(2, high)
                    while try some.step() {
                        let id = some.int64(0)
                        if id >= low && id < high { buffer[Int(id)] = some.text(1) }
                    }
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        self.dense = dense
        // Ids below 0 are in no share (no smashtag writes one: a hand-made store).
        let negative = try dbs[0].statement("SELECT id, key FROM mention WHERE id < 0")
        defer { negative.done() }
        while try negative.step() { if let key = negative.text(1) { sparse[negative.int64(0)] = key } }
    }

    @inline(__always)
    subscript(id: Int64) -> String? {
        if id >= 0 && id < dense.count, let key = dense[Int(id)] { return key }
        return sparse.isEmpty ? nil : sparse[id]
    }

    /// Which mentions a report of `kinds` counts, by their keys' signs (as
    /// `Store.countedMentions` by the key index); nil when the keys are not
    /// held by id.
    func counted(_ kinds: MentionKinds) -> CountedMentions? {
        if kinds == .every { return CountedMentions(ids: nil) }
        guard sparse.isEmpty else { return nil }
        return CountedMentions(ids: dense.map { key in
            guard let key, let kind = MentionKind.of(signByte: key.utf8.first) else { return false }
            return kinds.contains(MentionKinds(kind))
        })
    }
}

extension TweetFilter {
    /// SPEC §12.2 on a stored tweet's creation time, kind (0 original, 1
    /// retweet, nil when ingested before schema version 4) and language, as
    /// `judge` does on a decoded tweet: time first.
    func judgeStored(time: Int64?, kind: Int64?, lang: String?) -> Verdict {
        if byTime {
            guard let t = time else { return .unknownTime }
            if let since, t < since { return .leftOut }
            if let until, t >= until { return .leftOut }
        }
        if retweets != .include {
            guard let kind, (kind != 0) == (retweets == .only) else { return .leftOut }
        }
        if let codes = languages {
            guard let lang, !lang.isEmpty, TweetFilter.anyLanguage(lang, in: codes) else { return .leftOut }
        }
        return .kept
    }
}
