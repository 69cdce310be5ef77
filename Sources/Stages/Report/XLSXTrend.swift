import CXLSXWriter

/// `smashtag trend --format xlsx` (SPEC §14, §12.6): a workbook of what is rising.
///
/// - `Summary`, the first sheet: what the run was, then a line per term
///   with its sheet, both windows and its rows.
/// - A sheet per term, named as `XLSXReport` names them: the rows of
///   `--format csv`, numbers as numbers (their exact value rounded to 4
///   decimals, as CSV prints them), mentions and authors as string cells
///   (never formulas), the header row frozen; beside them the top 20 rising
///   mentions by score and a bar chart of their scores.
public struct XLSXTrend {
    public var trends: [TermTrend]
    public var summary: [ReportDocument.Item]

    public init(_ trends: [TermTrend], summary: [ReportDocument.Item]) {
        self.trends = trends
        self.summary = summary
    }

    /// How many rows the chart shows.
    static let chartTop = 20

    /// The workbook's bytes.
    ///
    /// - Throws: `OutputFile.Failure` when libxlsxwriter fails or a term has more rows than a sheet holds.
    public func bytes() throws(OutputFile.Failure) -> [UInt8] {
        try Workbook.bytes { (book: inout Workbook) throws(OutputFile.Failure) in try write(into: &book) }
    }

    private func write(into book: inout Workbook) throws(OutputFile.Failure) {
        let f = Formats(book)
        let ws = try book.sheet("Summary")
        var taken: Set<String> = ["summary"]
        let names = trends.map { XLSXReport.sheetName(for: $0.term.description, taken: &taken) }
        try ws.string(0, 0, "smashtag trend", f.title)
        var row: UInt32 = 2
        for item in summary {
            try ws.string(row, 0, item.label, f.label)
            switch item.value {
            case .text(let s): try ws.string(row, 1, s, nil)
            case .number(let n): try ws.number(row, 1, Double(n), f.value)
            case .time(let d):
                try ws.check(worksheet_write_unixtime(ws.pointer, row, 1, Int64(d.timeIntervalSince1970), f.time), "a time")
            }
            row += 1
        }
        row += 1
        for (c, h) in ["term", "sheet", "current", "baseline", "current tweets", "rows"].enumerated() {
            try ws.string(row, UInt16(c), h, f.header)
        }
        row += 1
        for (t, name) in zip(trends, names) {
            try ws.string(row, 0, t.term.description, nil)
            try ws.string(row, 1, name, nil)
            try ws.string(row, 2, t.current.description, nil)
            try ws.string(row, 3, t.baseline.description, nil)
            try ws.number(row, 4, Double(t.currentTweets), f.count)
            try ws.number(row, 5, Double(t.rows.count), f.count)
            row += 1
        }
        try ws.width(0, 24)
        try ws.width(1, 24)
        try ws.width(2, 44)
        try ws.width(3, 44)
        try ws.width(4, 14)
        worksheet_activate(ws.pointer)
        for (t, name) in zip(trends, names) { try writeTerm(t, sheet: try book.sheet(name), name: name, formats: f, book: book) }
    }

    private func writeTerm(_ t: TermTrend, sheet ws: Sheet, name: String, formats f: Formats, book: Workbook) throws(OutputFile.Failure) {
        let term = t.term.description
        guard t.rows.count <= XLSXReport.maxRows else {
            throw OutputFile.Failure(path: book.path, message: "\(term) has \(t.rows.count) rows, and a sheet holds "
                                     + "\(TableRenderer.grouped(XLSXReport.maxRows)): keep fewer with --top")
        }
        let columns = TrendWriter.columns
        for (c, h) in columns.enumerated() { try ws.string(0, UInt16(c), h, f.header) }
        // Fields 3…9 and 11 (after term) are numbers.
        let numeric: Set<Int> = [3, 4, 5, 6, 7, 8, 9, 11]
        var widths = columns.map { max(8, $0.count) }
        for (n, r) in t.rows.enumerated() {
            let row = UInt32(n + 1)
            try ws.string(row, 0, term, nil)
            for (i, field) in TrendWriter.fields(r).enumerated() {
                let col = UInt16(i + 1)
                if numeric.contains(i), let v = Double(field) { try ws.number(row, col, v, nil) } else { try ws.string(row, col, field, nil) }
                widths[i + 1] = max(widths[i + 1], min(50, VisibleText.columns(field)))
            }
        }
        try ws.headerRowFrozenAndPrinted()
        for (c, w) in widths.enumerated() { try ws.width(UInt16(c), Double(w + 2)) }
        if !t.rows.isEmpty {
            try ws.check(worksheet_autofilter(ws.pointer, 0, 0, UInt32(t.rows.count), UInt16(columns.count - 1)), "a filter")
        }

        // The chart's data: the top rising by score (every type), labels shown escaped (the chart's cache takes them raw).
        let top = t.rows.filter { !$0.score.score.isZero }.sorted { $1.score.score < $0.score.score }.prefix(Self.chartTop)
        let labelColumn = UInt16(columns.count + 1)
        guard !top.isEmpty else {
            try ws.string(1, labelColumn, "Nothing rising: no chart.", nil)
            return
        }
        try ws.string(0, labelColumn, "top rising", f.header)
        try ws.string(0, labelColumn + 1, "score", f.header)
        for (i, r) in top.enumerated() {
            try ws.string(UInt32(i + 1), labelColumn, VisibleText.escaped(r.mention.printedKey), nil)
            try ws.number(UInt32(i + 1), labelColumn + 1, r.score.score.approximate, nil)
        }
        try ws.width(labelColumn, 24)
        guard let chart = workbook_add_chart(book.pointer, UInt8(LXW_CHART_BAR.rawValue)),
              let series = chart_add_series(chart, nil, nil) else {
            throw OutputFile.Failure(path: book.path, message: "libxlsxwriter could not make a chart")
        }
        let last = UInt32(top.count)
        chart_series_set_categories(series, name, 1, labelColumn, last, labelColumn)
        chart_series_set_values(series, name, 1, labelColumn + 1, last, labelColumn + 1)
        chart_series_set_name(series, "score")
        chart_title_set_name(chart, "\(VisibleText.escaped(term)): top rising, \(t.current.description)")
        chart_axis_set_reverse(chart.pointee.y_axis)
        chart_axis_set_crossing_max(chart.pointee.y_axis)
        chart_axis_set_interval_unit(chart.pointee.y_axis, 1)
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
        var options = lxw_chart_options()
        options.x_offset = 12
        options.x_scale = 1.5
        options.y_scale = max(1.0, Double(110 + 20 * top.count) / 288.0)
        try ws.check(worksheet_insert_chart_opt(ws.pointer, 1, labelColumn + 3, chart, &options), "the chart")
    }
}
