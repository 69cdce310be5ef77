import Foundation

/// The `html` format (SPEC §12.6): one self-contained page for people.
///
///     smashtag report                       (the terms, when)
///     Summary                               inputs, tweets, terms, options
///     #stanford · 483 tweets
///       [bar chart: top 20 hashtags] [bar chart: top 20 users]
///       Hashtags  count   Users  count      (every row of the report)
///
/// No script, no font, no image, nothing fetched: the style sheet is in the
/// page, the charts are inline SVG, and a Content-Security-Policy of
/// `default-src 'none'` makes a browser refuse any request should one ever
/// slip in. Every string from the data is shown with `VisibleText` (control
/// and bidirectional characters as escapes) and then HTML-escaped, in text
/// and in attributes alike. The layout is one column on a phone, two charts
/// side by side on a wide screen, and plain black on white in print.
///
/// A series (`--by`, SPEC §12.4) has a section per term: an SVG line chart
/// of its top 5 hashtags and top 5 users (by total count) over the buckets,
/// a polyline each with a legend, then every row (bucket, type, mention, count).
public struct HTMLReport {
    public var document: ReportDocument

    public init(_ document: ReportDocument) { self.document = document }

    /// The start of a page of `smashtag COMMAND` (report, trend, posts) on
    /// `terms` (escaped for the terminal already): no script, no network.
    static func pageHead(_ command: String, terms: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="generator" content="smashtag">
        <title>smashtag \(command): \(escape(terms.joined(separator: ", ")))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header>
        <h1>smashtag \(command)</h1>

        """
    }

    /// The page.
    ///
    /// - Complexity: O(rows) time and memory.
    public func render() -> String {
        let terms = document.reports.map { VisibleText.escaped($0.term.description) }
        var out = HTMLReport.pageHead("report", terms: terms)
        let series = document.bucketed ? document.series : []
        let heads = document.bucketed ? series.map { ($0.term.description, $0.tweets) } : document.reports.map { ($0.term.description, $0.tweets) }
        out += "<p class=\"terms\">" + heads.enumerated().map { n, h in
            "<a href=\"#term-\(n + 1)\">\(Self.text(h.0))</a> <span class=\"n\">\(TableRenderer.grouped(h.1))</span>"
        }.joined(separator: " · ") + "</p>\n</header>\n"
        out += summary()
        if document.bucketed {
            for (n, s) in series.enumerated() { out += section(s, number: n + 1) }
        } else {
            for (n, r) in document.reports.enumerated() { out += section(r, number: n + 1) }
        }
        out += "</body>\n</html>\n"
        return out
    }

    private func summary() -> String {
        guard !document.summary.isEmpty else { return "" }
        var out = "<section class=\"summary\">\n<h2>Summary</h2>\n<table>\n"
        for item in document.summary {
            let value: String
            switch item.value {
            case .text(let s): value = Self.text(s)
            case .number(let n): value = "<span class=\"n\">\(TableRenderer.grouped(n))</span>"
            case .time(let d): value = "<time>\(Self.escape(ReportDocument.utc(d)))</time>"
            }
            out += "<tr><th scope=\"row\">\(Self.text(item.label))</th><td>\(value)</td></tr>\n"
        }
        return out + "</table>\n</section>\n"
    }

    private func section(_ r: TermReport, number: Int) -> String {
        let charted = document.charted(r)
        var out = "<section class=\"term\" id=\"term-\(number)\">\n"
        out += "<h2><bdi>\(Self.text(r.term.description))</bdi> <span class=\"count\">· \(TableRenderer.grouped(r.tweets)) "
            + (r.tweets == 1 ? "tweet" : "tweets") + "</span></h2>\n"
        out += "<div class=\"charts\">\n"
        for s in charted { out += chart(s.rows, title: "Top \(s.rows.count) \(s.kind == .url ? "URLs" : s.kind.plural)", kind: s.kind.name) }
        out += "</div>\n<div class=\"tables\">\n"
        for s in r.sections { out += table(s.rows, title: s.kind.title) }
        return out + "</div>\n</section>\n"
    }

    private func section(_ s: ReportDocument.Series, number: Int) -> String {
        var out = "<section class=\"term series\" id=\"term-\(number)\">\n"
        out += "<h2><bdi>\(Self.text(s.term.description))</bdi> <span class=\"count\">· \(TableRenderer.grouped(s.tweets)) "
            + (s.tweets == 1 ? "tweet" : "tweets") + " · \(s.buckets.count) " + (s.buckets.count == 1 ? "bucket" : "buckets") + "</span></h2>\n"
        out += lineChart(s)
        out += "<table class=\"rows\">\n<thead><tr><th scope=\"col\">bucket</th><th scope=\"col\">type</th><th scope=\"col\">mention</th>"
            + "<th scope=\"col\" class=\"n\">count</th></tr></thead>\n<tbody>\n"
        if s.rowCount == 0 { out += "<tr><td colspan=\"4\">(none)</td></tr>\n" }
        for r in s.reports {
            let bucket = Self.text(r.bucket ?? "")
            for section in r.sections {
                for row in section.rows {
                    out += "<tr><td>\(bucket)</td><td>\(section.kind.name)</td><td><bdi>\(Self.text(row.mention.printedKey))</bdi></td>"
                        + "<td class=\"n\">\(TableRenderer.grouped(row.count))</td></tr>\n"
                }
            }
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// Colours of a series' lines: hashtags in blues and greens, users in oranges and reds.
    static let hashtagColors = ["#2f6db5", "#1b9e77", "#7570b3", "#66a61e", "#17becf"]
    static let userColors = ["#d9822b", "#c0392b", "#e7298a", "#a6761d", "#8c564b"]

    /// A line chart: a polyline per charted mention over the buckets, the
    /// count axis (0 and the most), the first, middle and last bucket under
    /// it, and a legend of the mentions with their totals.
    private func lineChart(_ s: ReportDocument.Series) -> String {
        let lines = s.lines(top: ReportDocument.seriesTop)
        let title = "Top mentions by bucket"
        guard !lines.isEmpty, !s.reports.isEmpty else {
            return "<figure class=\"chart empty\"><figcaption>\(title)</figcaption><p>(none)</p></figure>\n"
        }
        let width = 960, left = 64, right = 16, top = 12, plot = 260, legendRow = 22
        let legendTop = top + plot + 44
        let height = legendTop + legendRow * ((lines.count + 1) / 2) + 8
        let most = max(1, lines.flatMap(\.counts).max() ?? 1)
        let buckets = s.buckets
        let span = Double(width - left - right)
        func x(_ i: Int) -> Double { buckets.count == 1 ? Double(left) + span / 2 : Double(left) + span * Double(i) / Double(buckets.count - 1) }
        func y(_ n: Int) -> Double { Double(top) + Double(plot) * (1 - Double(n) / Double(most)) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var out = "<figure class=\"chart line\"><figcaption>\(title)</figcaption>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(Self.escape(title))\">\n"
        // Axes and their labels.
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plot)\"/>"
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width - right)\" y2=\"\(top + plot)\"/>\n"
        out += "<text class=\"value\" x=\"\(left - 6)\" y=\"\(top + 5)\" text-anchor=\"end\">\(TableRenderer.grouped(most))</text>"
        out += "<text class=\"value\" x=\"\(left - 6)\" y=\"\(top + plot + 5)\" text-anchor=\"end\">0</text>\n"
        var shown: [Int] = [0, buckets.count / 2, buckets.count - 1]
        shown = shown.enumerated().filter { i, b in !shown[..<i].contains(b) }.map(\.1)
        for i in shown {
            let anchor = buckets.count == 1 ? "middle" : i == 0 ? "start" : i == buckets.count - 1 ? "end" : "middle"
            out += "<text class=\"value\" x=\"\(f(x(i)))\" y=\"\(top + plot + 20)\" text-anchor=\"\(anchor)\">"
                + "\(Self.text(buckets[i]))</text>"
        }
        out += "\n"
        var hashtags = 0, users = 0
        for (k, line) in lines.enumerated() {
            let color: String
            switch line.kind {
            case .hashtag: color = Self.hashtagColors[hashtags % Self.hashtagColors.count]; hashtags += 1
            case .user: color = Self.userColors[users % Self.userColors.count]; users += 1
            default: color = String(format: "#%06x", ReportDocument.color(of: line.kind))
            }
            let label = VisibleText.escaped(line.mention.printedKey)
            let points = line.counts.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element)))" }.joined(separator: " ")
            out += "<g><title>\(Self.escape(label)): \(TableRenderer.grouped(line.total))</title>"
            out += "<polyline class=\"series\" points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            if buckets.count == 1 { out += "<circle cx=\"\(f(x(0)))\" cy=\"\(f(y(line.counts[0])))\" r=\"4\" fill=\"\(color)\"/>" }
            out += "</g>\n"
            // The legend, two columns.
            let lx = left + (k % 2) * ((width - left) / 2), ly = legendTop + (k / 2) * legendRow
            out += "<g class=\"legend\"><rect x=\"\(lx)\" y=\"\(ly - 10)\" width=\"14\" height=\"4\" fill=\"\(color)\"/>"
                + "<text class=\"label\" x=\"\(lx + 20)\" y=\"\(ly - 3)\">\(Self.escape(Self.cut(label, 40)))"
                + " <tspan class=\"value\">\(TableRenderer.grouped(line.total))</tspan></text></g>\n"
        }
        return out + "</svg></figure>\n"
    }

    /// A horizontal bar chart: a row per mention, label, bar, count.
    private func chart(_ rows: [MentionCount], title: String, kind: String) -> String {
        guard !rows.isEmpty else {
            return "<figure class=\"chart empty\"><figcaption>\(Self.escape(title))</figcaption><p>(none)</p></figure>\n"
        }
        let rowHeight = 22, top = 6, labelWidth = 170, width = 480, countRoom = 56
        let height = top * 2 + rows.count * rowHeight
        let most = max(1, rows.map(\.count).max() ?? 1)
        let barRoom = Double(width - labelWidth - 8 - countRoom)
        var out = "<figure class=\"chart \(kind)\"><figcaption>\(Self.escape(title))</figcaption>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(Self.escape(title))\">\n"
        for (i, row) in rows.enumerated() {
            let y = top + i * rowHeight
            let bar = max(1.0, barRoom * Double(row.count) / Double(most))
            let shown = VisibleText.escaped(row.mention.printedKey)
            out += "<g><title>\(Self.escape(shown)): \(TableRenderer.grouped(row.count))</title>"
            out += "<text class=\"label\" x=\"\(labelWidth)\" y=\"\(y + 15)\" text-anchor=\"end\">\(Self.escape(Self.cut(shown, 22)))</text>"
            out += "<rect class=\"bar\" x=\"\(labelWidth + 8)\" y=\"\(y + 3)\" width=\"\(String(format: "%.1f", bar))\" height=\"\(rowHeight - 6)\"/>"
            out += "<text class=\"value\" x=\"\(String(format: "%.1f", Double(labelWidth + 8) + bar + 6))\" y=\"\(y + 15)\">"
                + "\(TableRenderer.grouped(row.count))</text></g>\n"
        }
        return out + "</svg></figure>\n"
    }

    private func table(_ rows: [MentionCount], title: String) -> String {
        var out = "<table class=\"rows\">\n<thead><tr><th scope=\"col\">\(title)</th><th scope=\"col\" class=\"n\">count</th></tr></thead>\n<tbody>\n"
        if rows.isEmpty { out += "<tr><td colspan=\"2\">(none)</td></tr>\n" }
        for row in rows {
            out += "<tr><td><bdi>\(Self.text(row.mention.printedKey))</bdi></td><td class=\"n\">\(TableRenderer.grouped(row.count))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    /// Data shown to a person: control characters as escapes, then HTML-escaped.
    static func text(_ s: String) -> String { escape(VisibleText.escaped(s)) }

    /// `&`, `<`, `>`, `"` and `'` as character references: safe in text and
    /// in a quoted attribute.
    public static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return s }
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// At most `columns` terminal-ish columns, cut with an ellipsis (a chart label).
    static func cut(_ s: String, _ columns: Int) -> String {
        guard VisibleText.columns(s) > columns else { return s }
        var out = "", used = 0
        for ch in s {
            let c = VisibleText.columns(String(ch))
            if used + c > columns - 1 { break }
            out.append(ch)
            used += c
        }
        return out + "…"
    }

    static let style = """

    :root { color-scheme: light; --ink: #1d2329; --muted: #5c6670; --rule: #d9dee3; --hashtag: #2f6db5; --user: #d9822b; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 68rem; padding: 1rem; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif; color: var(--ink); background: #fff; }
    h1 { font-size: 1.6rem; margin: .2rem 0; }
    h2 { font-size: 1.3rem; margin: 1.6rem 0 .6rem; padding-bottom: .2rem; border-bottom: 2px solid var(--rule); overflow-wrap: anywhere; }
    h2 .count { color: var(--muted); font-weight: normal; }
    a { color: var(--hashtag); }
    .terms { color: var(--muted); overflow-wrap: anywhere; }
    .n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    table { border-collapse: collapse; width: 100%; }
    th, td { padding: .2rem .5rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
    td { overflow-wrap: anywhere; }
    .summary th { width: 35%; color: var(--muted); font-weight: normal; }
    @media (max-width: 32rem) {
      .summary th, .summary td { display: block; width: auto; }
      .summary th { border-bottom: 0; padding-bottom: 0; font-size: .85rem; }
    }
    .charts, .tables { display: grid; grid-template-columns: 1fr; gap: 1rem 2rem; }
    @media (min-width: 52rem) { .charts, .tables { grid-template-columns: 1fr 1fr; } }
    figure { margin: 0; }
    figcaption { font-weight: 600; margin-bottom: .3rem; }
    svg { width: 100%; height: auto; display: block; }
    svg text { font: 14px system-ui, sans-serif; fill: var(--ink); }
    svg .value { fill: var(--muted); }
    svg .axis { stroke: var(--muted); stroke-width: 1; }
    .series .rows { margin-top: 1rem; }
    .hashtag .bar { fill: var(--hashtag); }
    .user .bar { fill: var(--user); }
    .symbol .bar { fill: #1b9e77; } .url .bar { fill: #7570b3; } .host .bar { fill: #66a61e; }
    .domain .bar { fill: #e7298a; } .poster .bar { fill: #a6761d; }
    .tables table { align-self: start; }
    @media print {
      body { max-width: none; padding: 0; font-size: 10pt; }
      a { color: inherit; text-decoration: none; }
      section.term { break-before: page; }
      figure, tr { break-inside: avoid; }
      .charts, .tables { grid-template-columns: 1fr 1fr; }
      * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    }

    """
}
