/// `smashtag trend --format html` (SPEC §14, §12.6): one self-contained
/// page, as `HTMLReport` makes one (no script, nothing fetched, every
/// string from the data shown with `VisibleText` and HTML-escaped):
///
///     smashtag trend                         (the terms)
///     Summary                                the run
///     #swift · current A to B · baseline C to D
///       [bar chart: the top 20 rising, by score]
///       every row, as --format csv has its columns
public enum HTMLTrend {
    public static func page(_ trends: [TermTrend], summary: [ReportDocument.Item]) -> String {
        let terms = trends.map { VisibleText.escaped($0.term.description) }
        var out = HTMLReport.pageHead("trend", terms: terms)
        out += "<p class=\"terms\">" + trends.enumerated().map { n, t in
            "<a href=\"#term-\(n + 1)\">\(HTMLReport.text(t.term.description))</a> <span class=\"n\">\(t.rows.count)</span>"
        }.joined(separator: " · ") + "</p>\n</header>\n"
        if !summary.isEmpty {
            out += "<section class=\"summary\">\n<h2>Summary</h2>\n<table>\n"
            for item in summary {
                let value: String
                switch item.value {
                case .text(let s): value = HTMLReport.text(s)
                case .number(let n): value = "<span class=\"n\">\(TableRenderer.grouped(n))</span>"
                case .time(let d): value = "<time>\(HTMLReport.escape(ReportDocument.utc(d)))</time>"
                }
                out += "<tr><th scope=\"row\">\(HTMLReport.text(item.label))</th><td>\(value)</td></tr>\n"
            }
            out += "</table>\n</section>\n"
        }
        for (n, t) in trends.enumerated() { out += section(t, number: n + 1) }
        return out + "</body>\n</html>\n"
    }

    private static func section(_ t: TermTrend, number: Int) -> String {
        var out = "<section class=\"term\" id=\"term-\(number)\">\n"
        out += "<h2><bdi>\(HTMLReport.text(t.term.description))</bdi> <span class=\"count\">· \(TableRenderer.grouped(t.currentTweets)) "
            + (t.currentTweets == 1 ? "tweet" : "tweets") + " from <time>\(CreatedAt.isoSeconds(t.current.start))</time> to "
            + "<time>\(CreatedAt.isoSeconds(t.current.end))</time> · baseline from <time>\(CreatedAt.isoSeconds(t.baseline.start))</time> "
            + "to <time>\(CreatedAt.isoSeconds(t.baseline.end))</time></span></h2>\n"
        out += chart(t)
        let heads = Array(TrendWriter.columns.dropFirst())
        out += "<table class=\"rows\">\n<thead><tr>" + heads.map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        if t.rows.isEmpty { out += "<tr><td colspan=\"\(heads.count)\">(nothing rising)</td></tr>\n" }
        for r in t.rows {
            out += "<tr>" + TrendWriter.fields(r).map { "<td><bdi>\(HTMLReport.text($0))</bdi></td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// A bar chart of the top 20 rising mentions (score above 0) by score.
    private static func chart(_ t: TermTrend) -> String {
        let rows = Array(t.rows.filter { !$0.score.score.isZero }.sorted { $1.score.score < $0.score.score }.prefix(XLSXTrend.chartTop))
        guard let most = rows.first?.score.score.approximate, most > 0 else { return "" }
        let title = "Top \(rows.count) rising, by score"
        let (labelWidth, rowHeight, top, width) = (180, 22, 4, 640)
        let barRoom = Double(width - labelWidth - 90)
        let height = top * 2 + rows.count * rowHeight
        var out = "<div class=\"charts\"><figure class=\"chart hashtag\"><figcaption>\(HTMLReport.escape(title))</figcaption>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(HTMLReport.escape(title))\">\n"
        for (i, r) in rows.enumerated() {
            let y = top + i * rowHeight
            let bar = max(1.0, barRoom * r.score.score.approximate / most)
            let shown = VisibleText.escaped(r.mention.printedKey)
            let barText = String(Int(bar * 10) / 10) + "." + String(Int(bar * 10) % 10)
            out += "<g><title>\(HTMLReport.escape(shown)): \(r.score.score)</title>"
            out += "<text class=\"label\" x=\"\(labelWidth)\" y=\"\(y + 15)\" text-anchor=\"end\">\(HTMLReport.escape(HTMLReport.cut(shown, 22)))</text>"
            out += "<rect class=\"bar\" x=\"\(labelWidth + 8)\" y=\"\(y + 3)\" width=\"\(barText)\" height=\"\(rowHeight - 6)\"/>"
            out += "<text class=\"value\" x=\"\(labelWidth + 8 + Int(bar) + 6)\" y=\"\(y + 15)\">\(r.score.score)</text></g>\n"
        }
        return out + "</svg></figure></div>\n"
    }
}
