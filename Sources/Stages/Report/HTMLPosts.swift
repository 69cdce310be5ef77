import Foundation

/// `smashtag posts --format html` (SPEC §12.6, §15): one self-contained
/// page, as `HTMLReport` writes one (the same style sheet and policy: no
/// script, nothing fetched, every string from the data shown with
/// `VisibleText` and HTML-escaped).
///
///     smashtag posts                        (the terms)
///     #stanford · 483 tweets · 12 posts
///       [bar chart: the top 20 posts by retweets + quotes + replies]
///       id  author  created_at  retweets  quotes  replies  (text)
enum HTMLPosts {
    /// The page.
    ///
    /// - Complexity: O(rows) time and memory.
    static func page(_ posts: [TermPosts], columns: [PostsColumn]) -> String {
        let terms = posts.map { VisibleText.escaped($0.term.description) }
        var out = HTMLReport.pageHead("posts", terms: terms)
        out += "<p class=\"terms\">" + posts.enumerated().map { n, p in
            "<a href=\"#term-\(n + 1)\">\(HTMLReport.text(p.term.description))</a> <span class=\"n\">\(TableRenderer.grouped(p.tweets))</span>"
        }.joined(separator: " · ") + "</p>\n</header>\n"
        for (n, p) in posts.enumerated() { out += section(p, number: n + 1, columns: columns) }
        return out + "</body>\n</html>\n"
    }

    private static func section(_ p: TermPosts, number: Int, columns: [PostsColumn]) -> String {
        var out = "<section class=\"term\" id=\"term-\(number)\">\n"
        out += "<h2>\(HTMLReport.text(p.term.description)) <span class=\"n\">· \(TableRenderer.grouped(p.tweets)) "
            + "\(p.tweets == 1 ? "tweet" : "tweets") · \(TableRenderer.grouped(p.posts.count)) \(p.posts.count == 1 ? "post" : "posts")</span></h2>\n"
        out += chart(Array(p.posts.prefix(20)))
        let shown = columns.filter { $0 != .term }
        out += "<table class=\"rows\">\n<thead><tr>" + shown.map {
            "<th scope=\"col\"\($0.isCount ? " class=\"n\"" : "")>\($0.rawValue)</th>"
        }.joined() + "</tr></thead>\n<tbody>\n"
        if p.posts.isEmpty { out += "<tr><td colspan=\"\(max(1, shown.count))\">(none)</td></tr>\n" }
        for row in p.posts {
            out += "<tr>" + shown.map { c -> String in
                let v = c.value(row, term: "")
                if c.isCount { return "<td class=\"n\">\(TableRenderer.grouped(Int(v) ?? 0))</td>" }
                if c == .createdAt, !v.isEmpty { return "<td><time>\(HTMLReport.escape(v))</time></td>" }
                return "<td><bdi>\(HTMLReport.text(v))</bdi></td>"
            }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// A horizontal bar chart of the posts: label (id and author), bar of retweets + quotes + replies.
    private static func chart(_ rows: [PostRow]) -> String {
        let title = "Top posts: retweets + quotes + replies"
        guard !rows.isEmpty else {
            return "<figure class=\"chart empty\"><figcaption>\(title)</figcaption><p>(none)</p></figure>\n"
        }
        let rowHeight = 22, top = 6, labelWidth = 230, width = 560, countRoom = 56
        let height = top * 2 + rows.count * rowHeight
        let totals = rows.map { $0.retweets + $0.quotes + $0.replies }
        let most = max(1, totals.max() ?? 1)
        let barRoom = Double(width - labelWidth - 8 - countRoom)
        var out = "<figure class=\"chart posts\"><figcaption>\(title)</figcaption>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(title)\">\n"
        for (i, (row, total)) in zip(rows, totals).enumerated() {
            let y = top + i * rowHeight
            let bar = max(1.0, barRoom * Double(total) / Double(most))
            let shown = VisibleText.escaped(row.author.map { "\($0) \(row.id)" } ?? row.id)
            out += "<g><title>\(HTMLReport.escape(shown)): \(row.retweets) retweets, \(row.quotes) quotes, \(row.replies) replies</title>"
            out += "<text class=\"label\" x=\"\(labelWidth)\" y=\"\(y + 15)\" text-anchor=\"end\">\(HTMLReport.escape(HTMLReport.cut(shown, 32)))</text>"
            out += "<rect class=\"bar\" x=\"\(labelWidth + 8)\" y=\"\(y + 3)\" width=\"\(String(format: "%.1f", bar))\" height=\"\(rowHeight - 6)\"/>"
            out += "<text class=\"value\" x=\"\(String(format: "%.1f", Double(labelWidth + 8) + bar + 6))\" y=\"\(y + 15)\">"
                + "\(TableRenderer.grouped(total))</text></g>\n"
        }
        return out + "</svg></figure>\n"
    }
}
