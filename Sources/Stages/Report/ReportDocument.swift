import Foundation

/// A report for people (SPEC §12.6): the terms' reports and what the run
/// was, for the workbook (`XLSXReport`) and the page (`HTMLReport`).
///
/// The writers take the whole document, so that what they show grows with
/// it: popularity over time (`--by`, SPEC §12.4) is meant to add the
/// buckets here, and each writer a line chart of them beside the bar chart.
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
        self.reports = reports
        self.summary = summary
        self.chartTop = chartTop
        self.columns = columns
        self.bucketed = bucketed
    }

    /// The first `chartTop` hashtags and users of a report: what its chart shows.
    public func charted(_ report: TermReport) -> (hashtags: [MentionCount], users: [MentionCount]) {
        (Array(report.hashtags.prefix(chartTop)), Array(report.users.prefix(chartTop)))
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
