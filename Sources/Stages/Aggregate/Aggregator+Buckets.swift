/// Which slot of the aggregator's counts holds each (term, bucket), with
/// `--by` (SPEC §12.4): counts, tweet counts and the columns' counts are
/// then indexed by slot instead of by term, so a bucket is counted exactly
/// as a whole report is.
struct BucketSlots {
    /// Bucket names, interned.
    var names: [String] = []
    var nameIDs: [String: Int32] = [:]
    /// (bucket << 8 | term) → slot.
    var slotOf: [Int64: Int] = [:]
    /// Each term's slots.
    var termSlots: [[Int]] = []
    var slotBucket: [Int32] = []
    /// Each term's earliest and latest counted instant.
    var first: [Int64?] = []
    var last: [Int64?] = []
    /// UTC quarter hour → bucket, where the whole quarter hour is in one bucket.
    var quarterBucket: [Int64: Int32] = [:]
    var lastQuarter: (quarter: Int64, bucket: Int32)?

    mutating func begin(terms: Int) {
        termSlots = Array(repeating: [], count: terms)
        first = Array(repeating: nil, count: terms)
        last = Array(repeating: nil, count: terms)
    }

    mutating func bucketID(_ name: String) -> Int32 {
        if let id = nameIDs[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        nameIDs[name] = id
        return id
    }

    mutating func widen(term t: Int, to time: Int64) {
        if first[t].map({ time < $0 }) ?? true { first[t] = time }
        if last[t].map({ time > $0 }) ?? true { last[t] = time }
    }
}

extension Aggregator {
    /// The slot of term `t` for the bucket holding instant `time`.
    func slot(term t: Int, time: Int64) -> Int {
        slots.widen(term: t, to: time)
        return slot(term: t, bucketID: bucketID(of: time))
    }

    private func slot(term t: Int, bucketID b: Int32) -> Int {
        let key = Int64(b) << 8 | Int64(t)
        if let s = slots.slotOf[key] { return s }
        let s = tweetCounts.count
        slots.slotOf[key] = s
        slots.termSlots[t].append(s)
        slots.slotBucket.append(b)
        tweetCounts.append(0)
        counts.append(MentionCounts())
        columns?.addSlot()
        return s
    }

    /// The bucket of instant `time`, cached per UTC quarter hour (tweets
    /// come roughly in time order, so mostly the last one asked).
    private func bucketID(of time: Int64) -> Int32 {
        let quarter = TimeBuckets.floorDiv(time, 900)
        if let l = slots.lastQuarter, l.quarter == quarter { return l.bucket }
        if let b = slots.quarterBucket[quarter] {
            slots.lastQuarter = (quarter, b)
            return b
        }
        let b = slots.bucketID(buckets!.name(of: time))
        if buckets!.quarterIsUniform(time) {
            slots.quarterBucket[quarter] = b
            slots.lastQuarter = (quarter, b)
        }
        return b
    }

    /// Term `t`'s report over all its buckets.
    func wholePeriod(term t: Int, minCount: Int, top: Int?) -> TermReport {
        var totals = MentionCounts()
        var tweets = 0
        for s in slots.termSlots[t] {
            tweets += tweetCounts[s]
            totals.reserve(counts[s].count)
            counts[s].forEach { m, n in totals.add(m, n) }
        }
        return TermReport(term: terms[t], tweets: tweets, counts: rows(of: totals),
                          minCount: minCount, top: top, kinds: facts.mentionKinds)
    }

    /// The series of every term (SPEC §12.4), in the order the terms were
    /// given: one report per term and bucket, buckets ascending, each with
    /// the mentions chosen over the whole period (total count at least
    /// `minCount`, the first `top` of each type by total) and their counts
    /// in that bucket, 0 where they do not occur.
    ///
    /// - Parameters:
    ///   - since, until: `--since`/`--until` (seconds, `until` exclusive):
    ///     when given, the series spans their buckets instead of the term's
    ///     first to last.
    /// - Complexity: O(buckets × chosen mentions) per term.
    /// - Throws: `SeriesTooLong` before anything is made when a term's
    ///   series would have more than `seriesRowLimit` rows (a post dated
    ///   centuries away, under `'*' --by hour`): no report that size can be
    ///   written, and the run says how to narrow it instead of running out of memory.
    public func seriesReports(minCount: Int, top: Int?, since: Int64? = nil,
                              until: Int64? = nil) throws(SeriesTooLong) -> [TermReport] {
        guard let buckets else { return reports(minCount: minCount, top: top) }
        let chosenReports = terms.indices.map { wholePeriod(term: $0, minCount: minCount, top: top) }
        for t in terms.indices {
            guard let from = since ?? slots.first[t], let through = until.map({ $0 - 1 }) ?? slots.last[t] else { continue }
            let mentions = chosenReports[t].rowCount, spans = SeriesTooLong.buckets(from: from, through: through, unit: buckets.unit)
            if mentions.multipliedReportingOverflow(by: spans).partialValue > Aggregator.seriesRowLimit || spans > Aggregator.seriesRowLimit {
                throw SeriesTooLong(term: terms[t], unit: buckets.unit, first: from, last: through, buckets: spans, mentions: mentions)
            }
        }
        var out: [TermReport] = []
        for t in terms.indices {
            let chosen = chosenReports[t]
            guard let from = since ?? slots.first[t], let through = until.map({ $0 - 1 }) ?? slots.last[t] else { continue }
            var bySlot: [String: Int] = [:]
            for s in slots.termSlots[t] { bySlot[slots.names[Int(slots.slotBucket[s])]] = s }
            // A series is mostly zeros: the chosen mentions in mention order once (a bucket's zero
            // rows keep it), and only a bucket's rows that occur sorted by count.
            func byMention(_ rows: [MentionCount]) -> [(row: MentionCount, id: Int32)] {
                rows.map { (MentionCount(mention: $0.mention, count: 0), keys.existing($0.mention)!) }
                    .sorted { $0.row.mention.precedesInUTF8($1.row.mention) }
            }
            let sections = chosen.sections.map { (kind: $0.kind, rows: byMention($0.rows)) }
            let zeros = sections.map { $0.rows.map(\.row) }
            for name in buckets.names(from: from, through: through) {
                let s = bySlot[name]
                func rows(_ chosen: [(row: MentionCount, id: Int32)], zero: [MentionCount]) -> [MentionCount] {
                    guard let s else { return zero }
                    var found: [MentionCount] = [], absent: [MentionCount] = []
                    for (row, id) in chosen {
                        if let n = counts[s][Aggregator.key(id)] {
                            var r = row
                            r.count = n
                            found.append(r)
                        } else {
                            absent.append(row)
                        }
                    }
                    return found.sorted(by: MentionCount.reportOrder) + absent
                }
                var r = TermReport(term: terms[t], tweets: s.map { tweetCounts[$0] } ?? 0,
                                   sections: sections.indices.map {
                                       KindRows(kind: sections[$0].kind, rows: rows(sections[$0].rows, zero: zeros[$0]))
                                   })
                r.bucket = name
                if let columns, let s { columns.fill(&r, term: s, facts: facts, id: { self.keys.existing($0)! }) }
                out.append(r)
            }
        }
        return out
    }
}

extension Aggregator {
    /// The most rows a term's series may have (about 2 GB of CSV).
    public static let seriesRowLimit = 50_000_000
}

/// A series of `--by` too long to write (`Aggregator.seriesRowLimit`): what
/// it spans, so the message can say which dates widened it.
public struct SeriesTooLong: Error {
    public let term: Term
    public let unit: TimeBuckets.Unit
    /// The first and last instant the series spans (seconds).
    public let first: Int64
    public let last: Int64
    /// About how many buckets that is, and the mentions chosen for each.
    public let buckets: Int
    public let mentions: Int

    /// About how many buckets of `unit` from `first` through `last` (by the unit's mean length; at least 1).
    static func buckets(from first: Int64, through last: Int64, unit: TimeBuckets.Unit) -> Int {
        Int(max(0, last - first) / unit.meanSeconds) + 1
    }

    /// The one line the commands print.
    public var message: String {
        let rows = mentions.multipliedReportingOverflow(by: buckets).partialValue
        return "the series of \(term.description) by \(unit.rawValue) would have about \(TableRenderer.grouped(rows)) rows "
            + "(\(TableRenderer.grouped(buckets)) \(unit.rawValue)s from \(CreatedAt.isoSeconds(first)) to \(CreatedAt.isoSeconds(last)) "
            + "× \(TableRenderer.grouped(mentions)) mentions; at most \(TableRenderer.grouped(Aggregator.seriesRowLimit))): "
            + "narrow it with --since/--until (a post dated far away widens it), --top N or --min-count N"
    }
}
