/// Reports from the store with the options of SPEC §12.2 and §12.3 — the
/// filters and the extra columns — byte for byte what the same options give
/// from the dumps: the store keeps each tweet's creation time, kind,
/// language, author and the spellings of its mentions (schema v4).
///
///     tweet (id order, its links and their spellings in the row)
///         ─▶ filter: time, kind, language ─▶ match ─▶ Extraction ─▶ Aggregator
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

    /// The reports of `terms` with `filter` and `columns`, in the order given.
    ///
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the tweets and the links; memory as the
    ///   dumps' `Aggregator`, plus the store's mention keys and spellings.
    public func reports(_ terms: [Term], minCount: Int, top: Int?, filter: TweetFilter,
                        columns: ReportColumns) throws -> FilteredReports {
        let aggregator = Aggregator(terms: terms, facts: columns.facts)
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
        let text = try keepsText
        if !text, let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try db.beginRead()
        defer { db.endRead() }
        let facts = aggregator.facts, bucketed = aggregator.buckets != nil
        var keys: [Int64: String] = [:]
        let allKeys = try db.statement("SELECT id, key FROM mention")
        while try allKeys.step() { if let k = allKeys.text(1) { keys[allKeys.int64(0)] = k } }
        allKeys.done()
        var spellings: [Int64: String] = [:]
        if facts.spellings {
            let allSpellings = try db.statement("SELECT id, text FROM spelling")
            while try allSpellings.step() { if let s = allSpellings.text(1) { spellings[allSpellings.int64(0)] = s } }
            allSpellings.done()
        }
        // Spellings that are capitals of their key, as made once each.
        struct Cased: Hashable { var mention: Int64, mask: UInt64 }
        var cased: [Cased: String] = [:]
        let targets = terms.map { term in StoredTerm(term, mention: term.mentionKey.flatMap { key in keys.first { $0.value == key }?.key }) }

        var result = FilteredReports(reports: [])
        var chunk = StoreExtraction(facts: facts)
        let tweets = try db.statement("SELECT id, created_at, author, lang, retweet, links\(text ? ", text" : "") FROM tweet")
        defer { tweets.done() }
        var set: [Int64] = [], written: [(mention: Int64, spelling: Links.Spelling, again: Bool)] = []
        while try tweets.step() {
            let id = tweets.int64(0)
            set.removeAll(keepingCapacity: true)
            written.removeAll(keepingCapacity: true)
            if let blob = tweets.blob(5) {
                Links.entries(blob) { m, spelling, again in
                    if !again { set.append(m) }
                    written.append((m, spelling, again))
                }
            }
            result.tweets += 1
            let time = tweets.optionalInt64(1), kind = tweets.optionalInt64(4)
            // With --by, a tweet of unknown time is left out before matching (SPEC §12.4).
            if bucketed && time == nil { result.leftOut += 1; result.unknownTime += 1; continue }
            switch filter.judgeStored(time: time, kind: kind, lang: filter.languages == nil ? nil : tweets.text(3)) {
            case .kept: break
            case .leftOut: result.leftOut += 1; continue
            case .unknownTime: result.leftOut += 1; result.unknownTime += 1; continue
            }
            let author = tweets.optionalInt64(2)
            var prepared: [Unicode.Scalar]?
            var mask: UInt64 = 0
            for (t, target) in targets.enumerated() {
                let hit = target.matches(carries: set.contains, author: author) {
                    if prepared == nil, text, let s = tweets.text(6) { prepared = WordMatch.prepare(s) }
                    return prepared
                }
                if hit { mask |= 1 << UInt64(t) }
            }
            guard mask != 0 else { continue }
            if kind == nil { result.unknownFacts += 1 }
            var pairs: [(mention: Int64, spelling: String)] = []
            if facts.spellings && kind != nil {
                for (m, s, again) in written {
                    guard let key = keys[m] else { continue }
                    switch s {
                    case .key: pairs.append((m, key))
                    case .cased(let capitals):
                        let c = Cased(mention: m, mask: capitals)
                        if let known = cased[c] { pairs.append((m, known)) } else {
                            let made = Links.cased(key, capitals)
                            cased[c] = made
                            pairs.append((m, made))
                        }
                    case .stored(let id):
                        if let text = spellings[id] { pairs.append((m, text)) } else if !again { pairs.append((m, key)) }
                    }
                }
            }
            chunk.add(id: UInt64(bitPattern: id), mask: mask, mentions: set, keys: keys, retweet: kind == 1,
                      author: author, unknown: kind == nil, spellings: pairs, time: bucketed ? time : nil)
            if chunk.count >= 50_000 { aggregator.add(chunk.take()) }
        }
        aggregator.add(chunk.take())
        return result
    }
}

/// Matching stored tweets as an `Extraction`, numbered as the dumps' are
/// (each key once per chunk), so the `Aggregator` takes them as it takes a
/// scan's.
struct StoreExtraction {
    let facts: ReportColumns.Facts
    private var e = Extraction()
    private var local: [Int64: Int32] = [:]
    private var spellingLocal: [String: Int32] = [:]
    private var anyUnknown = false

    init(facts: ReportColumns.Facts) { self.facts = facts }

    var count: Int { e.tweetIDs.count }

    private mutating func index(_ m: Int64, _ keys: [Int64: String]) -> Int32 {
        if let l = local[m] { return l }
        let l = Int32(e.keys.count)
        e.keys.append(keys[m] ?? "")
        local[m] = l
        return l
    }

    mutating func add(id: UInt64, mask: UInt64, mentions: [Int64], keys: [Int64: String], retweet: Bool, author: Int64?,
                      unknown: Bool, spellings: [(mention: Int64, spelling: String)], time: Int64? = nil) {
        e.tweetIDs.append(id)
        if let time { e.times.append(time) }
        e.termMasks.append(mask)
        for m in mentions where keys[m] != nil { e.mentions.append(index(m, keys)) }
        e.mentionEnds.append(Int32(e.mentions.count))
        guard facts.any else { return }
        if facts.kinds { e.retweets.append(retweet) }
        if facts.authors { e.authors.append(author.flatMap { keys[$0] != nil ? index($0, keys) : nil } ?? -1) }
        if facts.spellings {
            for (m, s) in spellings {
                e.spellingMentions.append(index(m, keys))
                if let known = spellingLocal[s] {
                    e.spellingTexts.append(known)
                } else {
                    let l = Int32(e.spellingStrings.count)
                    e.spellingStrings.append(s)
                    spellingLocal[s] = l
                    e.spellingTexts.append(l)
                }
            }
            e.spellingEnds.append(Int32(e.spellingMentions.count))
        }
        if unknown && !anyUnknown {
            e.unknownFacts = Array(repeating: false, count: e.tweetIDs.count - 1)
            anyUnknown = true
        }
        if anyUnknown { e.unknownFacts.append(unknown) }
    }

    mutating func take() -> Extraction {
        defer {
            e = Extraction()
            anyUnknown = false
            local.removeAll(keepingCapacity: true)
            spellingLocal.removeAll(keepingCapacity: true)
        }
        return e
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
            guard let lang, !lang.isEmpty, codes.contains(lang.lowercased()) else { return .leftOut }
        }
        return .kept
    }
}
