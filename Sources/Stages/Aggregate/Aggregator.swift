/// The dedup and aggregate stages: merges extractions in input order,
/// counts each tweet at most once per term (SPEC §6), and builds reports
/// (SPEC §7).
///
/// Dedup keeps, per term, the set of tweet ids already counted; the first
/// copy of a tweet in input order is the one that counts, so the result does
/// not depend on how work was spread over cores.
///
/// - Complexity: memory O(distinct matching tweets) for dedup — a `Set<UInt64>`
///   entry costs about 16 bytes per (tweet, term) at its load factor — plus
///   O(distinct mentions × terms) for the counts.
public final class Aggregator {
    public let terms: [Term]
    private var seen: [TweetIDSet]
    /// Indexed by term, or with `--by` by slot (a term's bucket, `BucketSlots`).
    var tweetCounts: [Int]
    var counts: [MentionCounts]
    var keys = MergedKeys()
    /// With `--by` (SPEC §12.4): the buckets, and which slot of the counts holds each (term, bucket).
    public let buckets: TimeBuckets?
    var slots = BucketSlots()
    /// (tweet, term) pairs dropped because the tweet had been counted already.
    public private(set) var duplicates = 0
    /// What is counted besides tweets (SPEC §12.3): nothing for a plain report.
    public let facts: PostFields
    var columns: ColumnCounts?
    /// Tweets left out for want of a time (with `--by`, from inputs that carry none).
    public private(set) var unknownTime = 0

    /// - Parameters:
    ///   - facts: what to count besides tweets, for `--columns`.
    ///   - buckets: with `--by`, counts per time bucket (tweets then come with their creation time).
    public init(terms: [Term], facts: PostFields = .init(), buckets: TimeBuckets? = nil) {
        self.terms = terms
        self.facts = facts
        self.buckets = buckets
        seen = Array(repeating: TweetIDSet(), count: terms.count)
        let n = buckets == nil ? terms.count : 0
        tweetCounts = Array(repeating: 0, count: n)
        counts = Array(repeating: MentionCounts(), count: n)
        if facts.any { columns = ColumnCounts(terms: n) }
        if buckets != nil { slots.begin(terms: terms.count) }
    }

    /// Adds one unit's matches; call in input order.
    public func add(_ e: PostPart) {
        let global = keys.numbers(of: e)
        let spellings = columns != nil && facts.spellings ? e.spellingStrings.map { columns!.spellingID($0) } : []
        if buckets != nil { return addBucketed(e, global: global, spellings: spellings) }
        addCounts(e, global: global, spellings: spellings)
    }

    /// `add(_:)` without buckets: the per-term sets and counts reached
    /// through their arrays' storage once per part, not through the
    /// aggregator's properties once per tweet and mention.
    private func addCounts(_ e: PostPart, global: [Int32], spellings: [Int32]) {
        var dropped = 0
        let withFacts = columns != nil
        seen.withUnsafeMutableBufferPointer { seen in
            counts.withUnsafeMutableBufferPointer { counts in
                tweetCounts.withUnsafeMutableBufferPointer { tweetCounts in
                    for i in 0..<e.tweetIDs.count {
                        var mask = e.termMasks[i]
                        while mask != 0 {
                            let t = mask.trailingZeroBitCount
                            mask &= mask - 1
                            guard seen[t].insert(e.tweetIDs[i]) else { dropped += 1; continue }
                            tweetCounts[t] += 1
                            for m in e.mentions(of: i) { counts[t].add(Aggregator.key(global[Int(m)])) }
                            if withFacts { addFacts(of: i, in: e, term: t, global: global, spellings: spellings) }
                        }
                    }
                }
            }
        }
        duplicates += dropped
    }

    /// `add(_:)` with `--by`: each counted tweet goes to the slot of its term and bucket.
    private func addBucketed(_ e: PostPart, global: [Int32], spellings: [Int32]) {
        for i in 0..<e.tweetIDs.count {
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                guard i < e.times.count, e.times[i] != PostPart.unknownTime else { unknownTime += 1; continue }
                guard seen[t].insert(e.tweetIDs[i]) else { duplicates += 1; continue }
                let c = slot(term: t, time: e.times[i])
                tweetCounts[c] += 1
                for m in e.mentions(of: i) { counts[c].add(Aggregator.key(global[Int(m)])) }
                if columns != nil { addFacts(of: i, in: e, term: c, global: global, spellings: spellings) }
            }
        }
    }

    /// Counts the kind, author and spellings of counted tweet `i` of `e` for term (or slot) `t`.
    private func addFacts(of i: Int, in e: PostPart, term t: Int, global: [Int32], spellings: [Int32]) {
        let author = facts.authors ? (e.authors[i] < 0 ? nil : global[Int(e.authors[i])]) : nil
        // A stored tweet of before schema v4 has no kind or spellings: counted apart, never guessed.
        let unknown = !e.unknownFacts.isEmpty && e.unknownFacts[i]
        let retweet = facts.kinds && !unknown ? e.retweets[i] : false
        columns!.addTweet(term: t, retweet: retweet, author: author, unknownKind: unknown)
        for m in e.mentions(of: i) { columns!.addMention(global[Int(m)], term: t, retweet: retweet, author: author, unknownKind: unknown) }
        if facts.spellings && !unknown {
            for j in e.spellings(of: i) {
                let s = e.spellingTexts[j]
                let spelling = s == PostPart.keySpelling ? columns!.spellingID(e.keys[Int(e.spellingMentions[j])]) : spellings[Int(s)]
                columns!.addSpelling(spelling, of: global[Int(e.spellingMentions[j])], term: t)
            }
        }
    }

    /// Adds counts made elsewhere for SPEC §12.3's columns (the counts
    /// format, version 2): of a term's tweets, or with `mention`, of the
    /// tweets carrying it.
    public func add(counted extra: CountedColumns, term: Int, mention: String? = nil, time: Int64? = nil) {
        guard columns != nil else { return }
        let t = buckets == nil ? term : slot(term: term, time: time ?? 0)
        columns!.add(counted: extra, term: t, mention: mention.map(globalID))
    }

    /// Adds `count` distinct tweets to a term's tweet count, already
    /// deduplicated elsewhere (the counts format); with `--by`, tweets
    /// created at `time`.
    public func add(counted count: Int, term: Int, time: Int64? = nil) {
        if buckets != nil && time == nil { unknownTime += count; return }
        let t = buckets == nil ? term : slot(term: term, time: time!)
        tweetCounts[t] += count
    }

    /// Adds `count` distinct tweets carrying `mention` to a term's counts,
    /// already deduplicated elsewhere (the counts format); with `--by`,
    /// tweets created at `time`.
    public func add(counted count: Int, term: Int, mention: String, time: Int64? = nil) {
        if buckets != nil && time == nil { return }
        let t = buckets == nil ? term : slot(term: term, time: time!)
        counts[t].add(Aggregator.key(globalID(mention)), count)
    }

    func globalID(_ key: String) -> Int32 { keys.number(key) }

    /// The counts' key of mention id `m`.
    @inline(__always)
    static func key(_ m: Int32) -> UInt64 { UInt64(UInt32(bitPattern: m)) }

    /// `counts` as (signed key, count), for a `TermReport`.
    func rows(of counts: MentionCounts) -> [(String, Int)] {
        var rows: [(String, Int)] = []
        rows.reserveCapacity(counts.count)
        let keys = self.keys.keys
        counts.forEach { m, n in rows.append((keys[Int(m)], n)) }
        return rows
    }

    /// The reports of every term, in the order the terms were given.
    ///
    /// - Parameters:
    ///   - minCount: rows counted fewer times are left out.
    ///   - top: keep at most this many rows of each type.
    ///
    /// With `--by`, these are the reports over the whole period (what the
    /// series' mentions are chosen from), without the columns of §12.3.
    public func reports(minCount: Int, top: Int?) -> [TermReport] {
        if buckets != nil { return terms.indices.map { wholePeriod(term: $0, minCount: minCount, top: top) } }
        // Each term's rows sorted on a core of their own: the workers are done by now.
        return parallelMap(terms.count) { t in
            var r = report(term: t, minCount: minCount, top: top)
            if let columns { columns.fill(&r, term: t, facts: facts, id: { self.keys.existing($0)! }) }
            return r
        }
    }

    /// Term `t`'s report as `TermReport(term:tweets:counts:…)` makes it,
    /// from the counts by key number: rows go to their kind by the key's
    /// sign and are sorted over the merged keys' bytes, and a row's string
    /// is taken only once it is in order (and within `top`). A big report's
    /// kinds are sorted on the cores side by side, the biggest handed out first.
    private func report(term t: Int, minCount: Int, top: Int?) -> TermReport {
        let kinds = facts.mentionKinds, numbering = keys.numbering
        var byKind = [[(key: Int32, count: Int)]](repeating: [], count: MentionKind.allCases.count)
        numbering.signs.withUnsafeBufferPointer { signs in
            counts[t].forEach { m, n in
                guard n >= minCount, let kind = MentionKind.of(signByte: signs[Int(m)]), kinds.has(kind) else { return }
                byKind[Int(kind.rawValue)].append((Int32(truncatingIfNeeded: m), n))
            }
        }
        let picked = kinds.ordered
        func section(_ i: Int) -> [MentionCount] {
            let rows = byKind[Int(picked[i].rawValue)]
            var order = reportOrder(count: rows.count, rowCount: { rows[$0].count }) { numbering.appendBytes(of: Int(rows[$0].key), to: &$1) }
            if let top, order.count > top { order.removeSubrange(top...) }
            return order.map { MentionCount(mention: numbering.keys[Int(rows[Int($0)].key)], count: rows[Int($0)].count) }
        }
        let total = byKind.reduce(0) { $0 + $1.count }
        var sections: [[MentionCount]]
        if total < parallelReportRows {
            sections = picked.indices.map(section)
        } else {
            let biggestFirst = picked.indices.sorted { byKind[Int(picked[$0].rawValue)].count > byKind[Int(picked[$1].rawValue)].count }
            let sorted = parallelMap(biggestFirst.count) { section(biggestFirst[$0]) }
            sections = Array(repeating: [], count: picked.count)
            for (k, i) in biggestFirst.enumerated() { sections[i] = sorted[k] }
        }
        return TermReport(term: terms[t], tweets: tweetCounts[t], sections: zip(picked, sections).map { KindRows(kind: $0, rows: $1) })
    }
}

/// What one tweet carries for SPEC §12.3's columns, as the extract format
/// (version 2) writes it: its kind, its author (`@name`, normalised), and
/// each (mention, spelling) it carries.
public struct TweetFacts: Sendable {
    public var retweet = false
    public var author: String?
    public var spellings: [(mention: String, spelling: String)] = []

    public init(retweet: Bool = false, author: String? = nil, spellings: [(mention: String, spelling: String)] = []) {
        self.retweet = retweet
        self.author = author
        self.spellings = spellings
    }
}

/// SPEC §12.3's columns as counted elsewhere (the counts format, version 2).
public struct CountedColumns: Sendable {
    public var retweets = 0
    public var authors = 0
    /// The display spelling (mentions only).
    public var display: String?

    public init(retweets: Int, authors: Int, display: String? = nil) {
        self.retweets = retweets
        self.authors = authors
        self.display = display
    }
}

extension MentionCount {
    /// Count, highest first; ties by mention in ascending order of UTF-8 bytes.
    static func reportOrder(_ a: MentionCount, _ b: MentionCount) -> Bool {
        if a.count != b.count { return a.count > b.count }
        return a.mention.precedesInUTF8(b.mention)
    }
}

extension TermReport {
    /// The report of a term from its counts (signed key, distinct tweets):
    /// rows counted fewer than `minCount` times left out, hashtags and users
    /// in report order, at most `top` of each.
    init<Counts: Sequence>(term: Term, tweets: Int, counts: Counts, minCount: Int, top: Int?, kinds: MentionKinds = .standard)
    where Counts.Element == (String, Int) {
        var byKind = [[MentionCount]](repeating: [], count: MentionKind.allCases.count)
        for (key, count) in counts where count >= minCount {
            guard let kind = key.signedKind, kinds.has(kind) else { continue }
            byKind[Int(kind.rawValue)].append(MentionCount(mention: key, count: count))
        }
        let picked = kinds.ordered
        var sections: [[MentionCount]]
        if byKind.reduce(0, { $0 + $1.count }) < parallelReportRows {
            sections = picked.map { k in
                var rows = byKind[Int(k.rawValue)]
                rows.sortInReportOrder()
                return rows
            }
        } else {
            // A big report (`'*'`): its kinds sorted side by side.
            sections = parallelMap(picked.count) { i in
                var rows = byKind[Int(picked[i].rawValue)]
                rows.sortInReportOrder()
                return rows
            }
        }
        if let top { sections = sections.map { Array($0.prefix(top)) } }
        self.init(term: term, tweets: tweets, sections: zip(picked, sections).map { KindRows(kind: $0, rows: $1) })
    }
}

extension Aggregator: PartSink {}
