import Foundation

/// A report for people (SPEC §12.6): the terms' reports and what the run
/// was, for the workbook (`XLSXReport`) and the page (`HTMLReport`).
///
/// The writers take the whole document: with `--by` (SPEC §12.4) it is a
/// series, which `series` groups per term for each writer's line chart.
public struct ReportDocument: Sendable {
    /// One line of the run's summary: a label and a typed value.
    public struct Item: Sendable, Equatable {
        public enum Value: Sendable, Equatable {
            case text(String)
            case number(Int)
            /// A moment, shown in UTC.
            case time(Date)
        }
        public var label: String
        public var value: Value

        public init(_ label: String, _ value: Value) {
            self.label = label
            self.value = value
        }
    }

    /// The reports, in the order the terms were given (SPEC §7).
    public var reports: [TermReport]
    /// The run: inputs, tweets, terms, options, when.
    public var summary: [Item]
    /// How many rows of each type a chart shows.
    public var chartTop: Int
    /// The columns of `--columns` (SPEC §12.3), for the text formats.
    public var columns: ReportColumns
    /// Whether `reports` are the series of `--by` (SPEC §12.4), a report per term and bucket.
    public var bucketed: Bool

    public init(reports: [TermReport], summary: [Item] = [], chartTop: Int = 20, columns: ReportColumns = .standard,
                bucketed: Bool = false) {
        // Bluesky accounts are counted by DID and shown by handle (SPEC §16), once every input is read.
        self.reports = reports.map { $0.showingHandles() }
        self.summary = summary
        self.chartTop = chartTop
        self.columns = columns
        self.bucketed = bucketed
    }

    /// The first `chartTop` rows of each kind of a report: what its chart shows.
    public func charted(_ report: TermReport) -> [KindRows] {
        report.sections.map { KindRows(kind: $0.kind, rows: Array($0.rows.prefix(chartTop))) }
    }

    /// The kinds the reports count, in report order (`--kinds`).
    public var kinds: [MentionKind] { reports.first?.sections.map(\.kind) ?? [.hashtag, .user] }

    /// A colour per kind, for charts: hashtags blue, users orange, as before.
    public static func color(of kind: MentionKind) -> UInt32 {
        switch kind {
        case .hashtag: return 0x2F6DB5
        case .user: return 0xD9822B
        case .symbol: return 0x1B9E77
        case .url: return 0x7570B3
        case .host: return 0x66A61E
        case .domain: return 0xE7298A
        case .poster: return 0xA6761D
        }
    }

    /// How many mentions of each type a series' line chart shows.
    public static let seriesTop = 5

    /// One term's series (`--by`): its reports per bucket, in bucket order.
    public struct Series: Sendable {
        /// One charted mention: its count in each bucket, and over them all.
        public struct Line: Sendable, Equatable {
            public var mention: String
            public var kind: MentionKind
            public var isHashtag: Bool { kind == .hashtag }
            public var counts: [Int]
            public var total: Int
        }
        public var term: Term
        public var reports: [TermReport]
        public var buckets: [String] { reports.map { $0.bucket ?? "" } }
        /// Tweets over all buckets (each tweet is in one bucket).
        public var tweets: Int { reports.reduce(0) { $0 + $1.tweets } }
        /// Distinct mentions of `kind` over the buckets.
        public func count(of kind: MentionKind) -> Int { Set(reports.flatMap { $0.rows(kind).map(\.mention) }).count }
        public var rowCount: Int { reports.reduce(0) { $0 + $1.rowCount } }

        /// The first `top` hashtags and then users by their total count over
        /// the buckets (ties by mention, as section 7 orders rows), a line each.
        public func lines(top: Int) -> [Line] {
            var out: [Line] = []
            for kind in reports.first?.sections.map(\.kind) ?? [] {
                var totals: [String: Int] = [:]
                for r in reports { for m in r.rows(kind) { totals[m.mention, default: 0] += m.count } }
                let chosen = totals.map { MentionCount(mention: $0.key, count: $0.value) }
                    .sorted(by: MentionCount.reportOrder).prefix(top)
                // One pass over the rows for the chosen mentions' counts (a bucket without a row holds 0).
                let index = Dictionary(uniqueKeysWithValues: chosen.enumerated().map { ($0.element.mention, $0.offset) })
                var counts = Array(repeating: Array(repeating: 0, count: reports.count), count: index.count)
                for (i, r) in reports.enumerated() {
                    for m in r.rows(kind) { if let k = index[m.mention] { counts[k][i] = m.count } }
                }
                for (k, m) in chosen.enumerated() {
                    out.append(Line(mention: m.mention, kind: kind, counts: counts[k], total: m.count))
                }
            }
            return out
        }
    }

    /// With `bucketed`, the reports grouped per term (a run of reports of one
    /// term, in the order given); a term without buckets has no series.
    public var series: [Series] {
        var out: [Series] = []
        for r in reports {
            if let last = out.last, last.term.description == r.term.description {
                out[out.count - 1].reports.append(r)
            } else {
                out.append(Series(term: r.term, reports: [r]))
            }
        }
        return out
    }

    /// `2026-12-01 15:05:31 UTC`.
    public static func utc(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
