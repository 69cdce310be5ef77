import CXLSXWriter
import Foundation

/// The `xlsx` format (SPEC §12.6): an Excel workbook, written by libxlsxwriter.
///
/// - `Summary`, the first sheet: what the run was (inputs, tweets, terms,
///   options, when) and a line per term with its tweets and rows.
/// - A sheet per term, named after it: the report's rows as `--format csv`
///   has them (`term`, `type`, `mention`, `count`), counts as numbers and
///   every mention a string cell (so `@name` and `=cmd|…` are text, never a
///   formula), the header row frozen, columns as wide as their contents;
///   beside it the top 20 of each type, and a bar chart of them (hashtags
///   and users as two series of one chart, in two colours).
///
/// A series over time (`--by`, SPEC §12.4): a sheet per term with the rows
/// of `--format csv --by` (`term`, `bucket`, `type`, `mention`, `count`),
/// and beside them a block of the top 5 hashtags and top 5 users by total
/// count, a column each and a row per bucket, which feeds one line chart
/// (a series per mention, the buckets as categories).
///
/// The workbook is put together by `Workbook.bytes`, in a temporary file.
public struct XLSXReport {
    public var document: ReportDocument

    public init(_ document: ReportDocument) { self.document = document }

    /// The workbook's bytes.
    ///
    /// - Throws: `OutputFile.Failure` when libxlsxwriter fails (a message of its own).
    /// - Complexity: O(rows) time; memory and a temporary file of the workbook's size.
    public func bytes() throws(OutputFile.Failure) -> [UInt8] {
        try Workbook.bytes { (book: inout Workbook) throws(OutputFile.Failure) in try write(into: &book) }
    }

    private func write(into book: inout Workbook) throws(OutputFile.Failure) {
        let f = Formats(book)
        let summary = try book.sheet("Summary")
        var names: Set<String> = ["summary"]
        if document.bucketed {
            let series = document.series
            let sheetNames = series.map { s in Self.sheetName(for: s.term.description, taken: &names) }
            let lines = series.map { s in (term: s.term.description, tweets: s.tweets, kinds: document.kinds.map { s.count(of: $0) }) }
            try writeSummary(summary, formats: f, terms: lines, sheetNames: sheetNames, book: book)
            for (s, name) in zip(series, sheetNames) {
                try writeSeries(s, sheet: try book.sheet(name), name: name, formats: f, book: book)
            }
            return
        }
        let sheetNames = document.reports.map { r in Self.sheetName(for: r.term.description, taken: &names) }
        let lines = document.reports.map { r in (term: r.term.description, tweets: r.tweets, kinds: r.sections.map(\.rows.count)) }
        try writeSummary(summary, formats: f, terms: lines, sheetNames: sheetNames, book: book)
        for (r, name) in zip(document.reports, sheetNames) {
            try writeTerm(r, sheet: try book.sheet(name), name: name, formats: f, book: book)
        }
    }

    private func writeSummary(_ ws: Sheet, formats f: Formats, terms: [(term: String, tweets: Int, kinds: [Int])],
                              sheetNames: [String], book: Workbook) throws(OutputFile.Failure) {
        try ws.string(0, 0, "smashtag report", f.title)
        var row: UInt32 = 2
        var labelWidth = 12, valueWidth = 12
        for item in document.summary {
            try ws.string(row, 0, item.label, f.label)
            labelWidth = max(labelWidth, VisibleText.columns(item.label))
            switch item.value {
            case .text(let s):
                try ws.string(row, 1, s, nil)
                valueWidth = max(valueWidth, VisibleText.columns(s))
            case .number(let n):
                try ws.number(row, 1, Double(n), f.value)
            case .time(let d):
                try ws.check(worksheet_write_unixtime(ws.pointer, row, 1, Int64(d.timeIntervalSince1970), f.time), "a time")
                valueWidth = max(valueWidth, 20)
            }
            row += 1
        }
        row += 1
        let header = ["term", "sheet", "tweets"] + document.kinds.map(\.plural)
        for (c, h) in header.enumerated() { try ws.string(row, UInt16(c), h, f.header) }
        row += 1
        for (r, name) in zip(terms, sheetNames) {
            try ws.string(row, 0, r.term, nil)
            try ws.string(row, 1, name, nil)
            try ws.number(row, 2, Double(r.tweets), f.count)
            for (k, n) in r.kinds.enumerated() { try ws.number(row, 3 + UInt16(k), Double(n), f.count) }
            labelWidth = max(labelWidth, VisibleText.columns(r.term))
            valueWidth = max(valueWidth, VisibleText.columns(name))
            row += 1
        }
        try ws.width(0, Double(min(60, labelWidth + 2)))
        try ws.width(1, Double(min(80, valueWidth + 2)))
        try ws.width(2, 12)
        for k in document.kinds.indices { try ws.width(3 + UInt16(k), 12) }
        worksheet_fit_to_pages(ws.pointer, 1, 0)
        worksheet_activate(ws.pointer)
    }

    /// Rows a sheet holds below its header (Excel's 1,048,576 less one).
    static let maxRows = 1_048_575

    private func writeTerm(_ r: TermReport, sheet ws: Sheet, name: String, formats f: Formats, book: Workbook) throws(OutputFile.Failure) {
        let term = r.term.description
        guard r.rowCount <= Self.maxRows else {
            throw OutputFile.Failure(path: book.path, message: "\(term) has \(r.rowCount) rows, and a sheet "
                                     + "holds \(TableRenderer.grouped(Self.maxRows)): keep fewer with --top or --min-count")
        }
        for (c, h) in ["term", "type", "mention", "count"].enumerated() { try ws.string(0, UInt16(c), h, f.header) }
        var row: UInt32 = 1
        var mentionWidth = 8, countWidth = 5
        for section in r.sections {
            for m in section.rows {
                let mention = m.mention.printedKey
                try ws.string(row, 0, term, nil)
                try ws.string(row, 1, section.kind.name, nil)
                try ws.string(row, 2, mention, nil)
                try ws.number(row, 3, Double(m.count), f.count)
                mentionWidth = max(mentionWidth, VisibleText.columns(mention))
                countWidth = max(countWidth, TableRenderer.grouped(m.count).count)
                row += 1
            }
        }
        try ws.headerRowFrozenAndPrinted()
        try ws.width(0, Double(min(40, max(6, VisibleText.columns(term)) + 2)))
        try ws.width(1, 9)
        try ws.width(2, Double(min(60, mentionWidth + 2)))
        try ws.width(3, Double(countWidth + 3))
        if row > 1 { try ws.check(worksheet_autofilter(ws.pointer, 0, 0, row - 1, 3), "a filter") }

        // The chart's data: the top of each type, one column per type so
        // that the two types are two series (two colours) of one chart. The
        // labels are shown as `VisibleText` has them: libxlsxwriter copies
        // them raw into the chart's cache, where a control character would
        // make the chart's XML (and so the workbook) unreadable.
        let sections = document.charted(r)
        let charted = sections.enumerated().flatMap { k, s in s.rows.map { ($0, k) } }
        guard !charted.isEmpty else {
            try ws.string(1, 5, "No mention was counted --min-count times or more: no chart.", nil)
            return
        }
        try ws.string(0, 5, "chart (top \(sections.map(\.rows.count).max() ?? 0))", f.header)
        for (k, s) in sections.enumerated() { try ws.string(0, 6 + UInt16(k), s.kind.plural, f.header) }
        var chartWidth = 10
        for (i, (m, k)) in charted.enumerated() {
            let r = UInt32(i + 1)
            let label = VisibleText.escaped(m.mention.printedKey)
            try ws.string(r, 5, label, nil)
            try ws.number(r, 6 + UInt16(k), Double(m.count), f.count)
            chartWidth = max(chartWidth, VisibleText.columns(label))
        }
        try ws.width(5, Double(min(40, chartWidth + 2)))
        for k in sections.indices { try ws.width(6 + UInt16(k), 10) }

        guard let chart = workbook_add_chart(book.pointer, UInt8(LXW_CHART_BAR.rawValue)) else {
            throw OutputFile.Failure(path: book.path, message: "libxlsxwriter could not make a chart")
        }
        let last = UInt32(charted.count)
        for (k, s) in sections.enumerated() {
            let (column, title, color) = (6 + UInt16(k), s.kind.title, ReportDocument.color(of: s.kind))
            guard let series = chart_add_series(chart, nil, nil) else {
                throw OutputFile.Failure(path: book.path, message: "libxlsxwriter could not add a series")
            }
            chart_series_set_categories(series, name, 1, 5, last, 5)
            chart_series_set_values(series, name, 1, column, last, column)
            chart_series_set_name(series, title)
            var fill = lxw_chart_fill(color: color, none: 0, transparency: 0)
            chart_series_set_fill(series, &fill)
        }
        let kindNames = sections.map(\.kind.plural)
        let named = kindNames.count <= 1 ? kindNames.joined() : kindNames.dropLast().joined(separator: ", ") + " and " + kindNames.last!
        chart_title_set_name(chart, "\(VisibleText.escaped(term)): top \(named) (\(TableRenderer.grouped(r.tweets)) tweets)")
        var titleFont = lxw_chart_font()
        titleFont.size = 12
        titleFont.bold = 1
        chart_title_set_name_font(chart, &titleFont)
        // For a bar chart libxlsxwriter's y axis is the categories: reversed, the
        // top mention comes first; the values' axis then crosses at its far end
        // (the bottom), where a reader expects it.
        chart_axis_set_reverse(chart.pointee.y_axis)
        chart_axis_set_crossing_max(chart.pointee.y_axis)
        chart_axis_set_interval_unit(chart.pointee.y_axis, 1)  // every label, none skipped
        chart_set_series_overlap(chart, 100)
        chart_set_series_gap(chart, 40)
        chart_show_hidden_data(chart)  // a filter on the rows leaves the chart whole
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
        var options = lxw_chart_options()
        options.x_offset = 12
        options.x_scale = 1.5
        options.y_scale = max(1.0, Double(110 + 20 * charted.count) / 288.0)
        try ws.check(worksheet_insert_chart_opt(ws.pointer, 1, 7 + UInt16(sections.count), chart, &options), "the chart")
    }

    /// A term's series (`--by`): its rows by bucket, and a line chart of its top mentions over the buckets.
    private func writeSeries(_ s: ReportDocument.Series, sheet ws: Sheet, name: String, formats f: Formats,
                             book: Workbook) throws(OutputFile.Failure) {
        let term = s.term.description
        guard s.rowCount <= Self.maxRows, s.reports.count <= Self.maxRows else {
            throw OutputFile.Failure(path: book.path, message: "\(term) has \(s.rowCount) rows, and a sheet "
                                     + "holds \(TableRenderer.grouped(Self.maxRows)): keep fewer with --top, --min-count or a longer --by")
        }
        for (c, h) in ["term", "bucket", "type", "mention", "count"].enumerated() { try ws.string(0, UInt16(c), h, f.header) }
        var row: UInt32 = 1
        var bucketWidth = 6, mentionWidth = 8, countWidth = 5
        for r in s.reports {
            let bucket = r.bucket ?? ""
            bucketWidth = max(bucketWidth, VisibleText.columns(bucket))
            for section in r.sections {
                for m in section.rows {
                    let mention = m.mention.printedKey
                    try ws.string(row, 0, term, nil)
                    try ws.string(row, 1, bucket, nil)
                    try ws.string(row, 2, section.kind.name, nil)
                    try ws.string(row, 3, mention, nil)
                    try ws.number(row, 4, Double(m.count), f.count)
                    mentionWidth = max(mentionWidth, VisibleText.columns(mention))
                    countWidth = max(countWidth, TableRenderer.grouped(m.count).count)
                    row += 1
                }
            }
        }
        try ws.headerRowFrozenAndPrinted()
        try ws.width(0, Double(min(40, max(6, VisibleText.columns(term)) + 2)))
        try ws.width(1, Double(bucketWidth + 2))
        try ws.width(2, 9)
        try ws.width(3, Double(min(60, mentionWidth + 2)))
        try ws.width(4, Double(countWidth + 3))
        if row > 1 { try ws.check(worksheet_autofilter(ws.pointer, 0, 0, row - 1, 4), "a filter") }

        // The chart's data, beside the rows: a row per bucket (column G), a
        // column per charted mention (H on), its label shown escaped as in
        // the bar chart (the chart's cache takes it raw).
        let lines = s.lines(top: ReportDocument.seriesTop)
        guard !lines.isEmpty, !s.reports.isEmpty else {
            try ws.string(1, 6, "No mention was counted --min-count times or more: no chart.", nil)
            return
        }
        let bucketColumn: UInt16 = 6
        try ws.string(0, bucketColumn, "bucket", f.header)
        for (i, b) in s.buckets.enumerated() { try ws.string(UInt32(i + 1), bucketColumn, b, nil) }
        try ws.width(bucketColumn, Double(bucketWidth + 2))
        for (k, line) in lines.enumerated() {
            let column = bucketColumn + 1 + UInt16(k)
            let label = VisibleText.escaped(line.mention.printedKey)
            try ws.string(0, column, label, f.header)
            for (i, n) in line.counts.enumerated() { try ws.number(UInt32(i + 1), column, Double(n), f.count) }
            try ws.width(column, Double(min(30, max(8, VisibleText.columns(label) + 2))))
        }
        guard let chart = workbook_add_chart(book.pointer, UInt8(LXW_CHART_LINE.rawValue)) else {
            throw OutputFile.Failure(path: book.path, message: "libxlsxwriter could not make a chart")
        }
        let last = UInt32(s.reports.count)
        for k in lines.indices {
            let column = bucketColumn + 1 + UInt16(k)
            guard let series = chart_add_series(chart, nil, nil) else {
                throw OutputFile.Failure(path: book.path, message: "libxlsxwriter could not add a series")
            }
            chart_series_set_categories(series, name, 1, bucketColumn, last, bucketColumn)
            chart_series_set_values(series, name, 1, column, last, column)
            chart_series_set_name_range(series, name, 0, column)
            if s.reports.count == 1 {
                chart_series_set_marker_type(series, UInt8(LXW_CHART_MARKER_CIRCLE.rawValue))  // one bucket: a point, not a line
            }
        }
        chart_title_set_name(chart, "\(VisibleText.escaped(term)): top mentions by \(s.buckets.count == 1 ? "bucket" : "buckets") "
                             + "(\(TableRenderer.grouped(s.tweets)) tweets)")
        var titleFont = lxw_chart_font()
        titleFont.size = 12
        titleFont.bold = 1
        chart_title_set_name_font(chart, &titleFont)
        chart_axis_set_name(chart.pointee.y_axis, "count")
        chart_show_hidden_data(chart)
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
        var options = lxw_chart_options()
        options.x_offset = 12
        options.x_scale = 2
        options.y_scale = 1.5
        try ws.check(worksheet_insert_chart_opt(ws.pointer, 1, bucketColumn + 2 + UInt16(lines.count), chart, &options), "the chart")
    }

    /// A sheet name Excel takes: none of `[]:*?/\`, no apostrophe at either
    /// end, at most 31 characters, unique without regard to case (`*` is
    /// "all tweets"; a name taken gets ` (2)`, ` (3)`…).
    static func sheetName(for term: String, taken: inout Set<String>) -> String {
        var base = term == "*" ? "all tweets" : String(term.unicodeScalars.map { s -> Character in
            "[]:*?/\\".unicodeScalars.contains(s) || VisibleText.needsEscape(s) ? "_" : Character(s)
        })
        while base.hasPrefix("'") { base.removeFirst() }
        while base.hasSuffix("'") { base.removeLast() }
        if base.isEmpty || base.lowercased() == "history" { base = "term " + base }
        base = String(base.prefix(31))
        var name = base, n = 1
        while taken.contains(name.lowercased()) {
            n += 1
            let suffix = " (\(n))"
            name = String(base.prefix(31 - suffix.count)) + suffix
        }
        taken.insert(name.lowercased())
        return name
    }
}
