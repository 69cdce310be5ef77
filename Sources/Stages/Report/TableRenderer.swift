/// The `table` format: a report for people at a terminal.
///
///     #stanford · 1,204 tweets
///
///       Hashtags                 count
///       #stanford                1,204
///       #gotrees                   311
///
///       Users                    count
///       @stanford                  208
///
/// Mentions wider than the terminal allows are cut with an ellipsis; counts
/// are right-aligned. Control characters and bidirectional controls from the
/// data are shown escaped (`VisibleText`), never sent to the terminal; widths
/// are terminal columns (wide CJK characters two, combining marks none).
public struct TableRenderer {
    public var width: Int
    /// Bold headings (ANSI), for a colour terminal.
    public var color: Bool

    public init(width: Int = 80, color: Bool = false) {
        self.width = max(30, width)
        self.color = color
    }

    private func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }

    /// A report's heading: the term, and with `--by` its bucket
    /// (`#stanford · 2020-03-01 · 40 tweets`): the series is a run of
    /// small tables, one per bucket, each in the order of its own counts.
    static func title(_ r: TermReport) -> String {
        r.bucket.map { "\(r.term) · \($0)" } ?? "\(r.term)"
    }

    public func render(_ reports: [TermReport]) -> String {
        var out = ""
        for (n, r) in reports.enumerated() {
            if n > 0 { out += "\n" }
            out += bold(VisibleText.escaped(Self.title(r))) + " · \(TableRenderer.grouped(r.tweets)) \(r.tweets == 1 ? "tweet" : "tweets")\n"
            for s in r.sections { section(s.kind.title, s.rows, into: &out) }
        }
        return out
    }

    /// The table with `--columns` (SPEC §12.3): the display spelling in
    /// place of the key when `display` is picked, and a right-aligned column
    /// for each picked count (`count`, `originals`, `retweets`, `authors`).
    public func render(_ reports: [TermReport], columns: ReportColumns) -> String {
        guard !columns.isStandard else { return render(reports) }
        let numbers = columns.list.filter { [.count, .originals, .retweets, .authors].contains($0) }
        let display = columns.contains(.display)
        var out = ""
        for (n, r) in reports.enumerated() {
            if n > 0 { out += "\n" }
            var heading = bold(VisibleText.escaped(Self.title(r))) + " · \(TableRenderer.grouped(r.tweets)) \(r.tweets == 1 ? "tweet" : "tweets")"
            let totals = numbers.compactMap { c -> String? in
                switch c {
                case .originals: return "\(TableRenderer.grouped(r.originals)) originals"
                case .retweets: return "\(TableRenderer.grouped(r.retweets)) retweets"
                case .authors: return "\(TableRenderer.grouped(r.authors)) authors"
                default: return nil
                }
            }
            if !totals.isEmpty { heading += " (" + totals.joined(separator: ", ") + ")" }
            out += heading + "\n"
            for s in r.sections {
                let (title, rows, more) = (s.kind.title, s.rows, s.columns)
                out += "\n"
                let extra = rows.indices.map { $0 < more.count ? more[$0] : RowColumns() }
                let names = zip(rows, extra).map { row, x in
                    VisibleText.escaped(display ? (x.display.flatMap { $0.isEmpty ? nil : $0.printedKey } ?? row.mention.printedKey)
                                        : row.mention.printedKey)
                }
                let cells = zip(rows, extra).map { row, x in
                    numbers.map { c -> String in
                        switch c {
                        case .originals: return TableRenderer.grouped(x.originals)
                        case .retweets: return TableRenderer.grouped(x.retweets)
                        case .authors: return TableRenderer.grouped(x.authors)
                        default: return TableRenderer.grouped(row.count)
                        }
                    }
                }
                let widths = numbers.indices.map { i in max(numbers[i].rawValue.count, cells.map { $0[i].count }.max() ?? 0) }
                let numbersWidth = widths.reduce(0) { $0 + $1 + 2 }
                let widest = names.map { TableRenderer.columns($0) }.max() ?? 0
                let nameWidth = max(1, min(max(widest, title.count, 20), width - numbersWidth - 2))
                out += "  " + bold(title) + String(repeating: " ", count: max(0, nameWidth - title.count))
                for (i, c) in numbers.enumerated() {
                    out += "  " + String(repeating: " ", count: widths[i] - c.rawValue.count) + c.rawValue
                }
                out += "\n"
                if rows.isEmpty {
                    out += "  (none)\n"
                    continue
                }
                for (name, row) in zip(names, cells) {
                    out += "  " + pad(cut(name, nameWidth), nameWidth)
                    for (i, cell) in row.enumerated() { out += "  " + String(repeating: " ", count: widths[i] - cell.count) + cell }
                    out += "\n"
                }
            }
        }
        return out
    }

    private func section(_ title: String, _ rows: [MentionCount], into out: inout String) {
        out += "\n"
        let counts = rows.map { TableRenderer.grouped($0.count) }
        let mentions = rows.map { VisibleText.escaped($0.mention.printedKey) }
        let countWidth = max(5, counts.map(\.count).max() ?? 0)
        let widest = mentions.map(TableRenderer.columns).max() ?? 0
        let nameWidth = min(max(widest, title.count, 20), width - countWidth - 4)
        out += "  " + bold(title) + String(repeating: " ", count: max(0, nameWidth - title.count)) + "  "
            + String(repeating: " ", count: countWidth - 5) + "count\n"
        if rows.isEmpty {
            out += "  (none)\n"
            return
        }
        for (mention, count) in zip(mentions, counts) {
            out += "  " + pad(cut(mention, nameWidth), nameWidth) + "  "
                + String(repeating: " ", count: countWidth - count.count) + count + "\n"
        }
    }

    private func pad(_ s: String, _ w: Int) -> String {
        s + String(repeating: " ", count: max(0, w - TableRenderer.columns(s)))
    }

    private func cut(_ s: String, _ w: Int) -> String {
        guard TableRenderer.columns(s) > w else { return s }
        var out = "", used = 0
        for ch in s {
            let c = TableRenderer.columns(String(ch))
            if used + c > w - 1 { break }
            out.append(ch)
            used += c
        }
        return out + "…"
    }

    /// 1234567 → "1,234,567".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return out
    }

    /// Terminal columns (`VisibleText.columns`).
    static func columns(_ s: String) -> Int { VisibleText.columns(s) }
}
