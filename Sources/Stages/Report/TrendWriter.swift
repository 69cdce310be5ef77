/// Renders `smashtag trend` (SPEC §14) as bytes: `csv`, `json`, `ndjson`
/// and `table` here, the workbook (`XLSXTrend`) and the page (`HTMLTrend`)
/// beside.
///
///     term,type,mention,display,current_tweets,current_authors,baseline_tweets,baseline_authors,
///     expected,score,ratio,status,top_author_share,top_authors,example_ids
///
/// Numbers are exact values rounded half to even to 4 decimals, trailing
/// zeros dropped (`Fraction.description`); `top_authors` and `example_ids`
/// are separated by spaces, in CSV and JSON alike (JSON strings).
public enum TrendWriter {
    public static let columns = ["term", "type", "mention", "display", "current_tweets", "current_authors", "baseline_tweets",
                                 "baseline_authors", "expected", "score", "ratio", "status", "top_author_share", "top_authors",
                                 "example_ids"]

    /// The bytes of any format.
    ///
    /// - Parameter summary: the run, for the workbook's and the page's summary.
    /// - Throws: `OutputFile.Failure` when the workbook cannot be made.
    public static func bytes(_ trends: [TermTrend], as format: OutputFormat, summary: [ReportDocument.Item] = [],
                             width: Int = 80, color: Bool = false) throws -> [UInt8] {
        switch format {
        case .xlsx: return try XLSXTrend(trends, summary: summary).bytes()
        case .html: return Array(HTMLTrend.page(trends, summary: summary).utf8)
        case .report(.csv): return csvBytes(trends)
        case .report(let f): return Array(render(trends, as: f, width: width, color: color).utf8)
        }
    }

    public static func render(_ trends: [TermTrend], as format: ReportFormat, width: Int = 80, color: Bool = false) -> String {
        switch format {
        case .csv: return csv(trends)
        case .json: return "[" + trends.map(jsonObject).joined(separator: ",") + "]\n"
        case .ndjson: return trends.map { jsonObject($0) + "\n" }.joined()
        case .table: return table(trends, width: width, color: color)
        }
    }

    /// The fields of a row after `term`, as text (CSV's, unquoted).
    static func fields(_ r: TrendRow) -> [String] {
        [r.kind.name, r.mention.printedKey, r.display?.printedKey ?? "", String(r.currentTweets), String(r.currentAuthors),
         r.baselineTweets.description, r.baselineAuthors.description, r.score.expected.description, r.score.score.description,
         r.score.ratio.description, r.score.status.rawValue, r.topAuthorShare.description,
         r.topAuthors.map(\.printedKey).joined(separator: " "), r.exampleIDs.joined(separator: " ")]
    }

    static func csv(_ trends: [TermTrend]) -> String { String(decoding: csvBytes(trends), as: UTF8.self) }

    /// The CSV's bytes, each field written straight into one buffer (as
    /// `fields` gives them, quoted as `ReportWriter.csvField` quotes).
    static func csvBytes(_ trends: [TermTrend]) -> [UInt8] {
        var out = Array((columns.joined(separator: ",") + "\n").utf8)
        // A long run's rows are written a chunk a core (`parallelMap`: in order), then joined.
        for t in trends {
            let term = t.term.description
            let chunks = parallelChunks(t.rows.count)
            let parts = parallelMap(chunks) { c in
                csvRows(term: term, t.rows[t.rows.count * c / chunks ..< t.rows.count * (c + 1) / chunks])
            }
            out.reserveCapacity(out.count + parts.reduce(0) { $0 + $1.count })
            for p in parts { out += p }
        }
        return out
    }

    /// The CSV lines of `rows` of the term written `term`: each field's bytes
    /// appended as they are (a key printed from its own bytes, numbers
    /// written in place), no string made.
    private static func csvRows(term: String, _ rows: ArraySlice<TrendRow>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 160)
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        func special(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
            u.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A })
        }
        /// The bytes of a field, doubling its quotes (the field's own quotes are the caller's).
        func quoted(_ u: UnsafeBufferPointer<UInt8>) {
            for b in u {
                if b == quote { out.append(quote) }
                out.append(b)
            }
        }
        /// Hands `body` the bytes `s` prints as (`printedKey` when `key`): a byte to write first, if
        /// any (a poster's `@`), then its own bytes (a link's without its sign).
        func bytes(of s: String, key: Bool, _ body: (UInt8?, UnsafeBufferPointer<UInt8>) -> Void) {
            var s = s
            s.withUTF8 { u in
                guard key, let kind = MentionKind.of(signByte: u.first) else { return body(nil, u) }
                switch kind {
                case .hashtag, .user, .symbol: body(nil, u)
                case .url, .host, .domain: body(nil, UnsafeBufferPointer(rebasing: u.dropFirst()))
                case .poster: body(UInt8(ascii: "@"), UnsafeBufferPointer(rebasing: u.dropFirst()))
                }
            }
        }
        func put(_ s: String, key: Bool = false) {
            bytes(of: s, key: key) { prefix, u in
                let q = special(u)
                if q { out.append(quote) }
                if let prefix { out.append(prefix) }
                if q { quoted(u) } else { out.append(contentsOf: u) }
                if q { out.append(quote) }
            }
        }
        func put(_ n: Int) {
            guard n >= 0 else { return out.append(contentsOf: String(n).utf8) }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0), count = 0, v = UInt(n)
            withUnsafeMutableBytes(of: &digits) { d in
                repeat { d[23 - count] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10; count += 1 } while v > 0
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[(24 - count)...]))
            }
        }
        /// Words joined by spaces, as one field: quoted as a whole when any needs it.
        func put(words: [String], keys: Bool) {
            var any = false
            for w in words where !any { bytes(of: w, key: keys) { _, u in any = special(u) } }
            if any { out.append(quote) }
            for (i, w) in words.enumerated() {
                if i > 0 { out.append(0x20) }
                bytes(of: w, key: keys) { prefix, u in
                    if let prefix { out.append(prefix) }
                    if any { quoted(u) } else { out.append(contentsOf: u) }
                }
            }
            if any { out.append(quote) }
        }
        for r in rows {
            put(term); out.append(comma)
            put(r.kind.name); out.append(comma)
            put(r.mention, key: true); out.append(comma)
            if let d = r.display { put(d, key: true) }
            out.append(comma)
            put(r.currentTweets); out.append(comma)
            put(r.currentAuthors); out.append(comma)
            r.baselineTweets.write(into: &out); out.append(comma)
            r.baselineAuthors.write(into: &out); out.append(comma)
            r.score.expected.write(into: &out); out.append(comma)
            r.score.score.write(into: &out); out.append(comma)
            r.score.ratio.write(into: &out); out.append(comma)
            put(r.score.status.rawValue); out.append(comma)
            r.topAuthorShare.write(into: &out); out.append(comma)
            put(words: r.topAuthors, keys: true); out.append(comma)
            put(words: r.exampleIDs, keys: false)
            out.append(0x0A)
        }
        return out
    }

    /// `{"term":"#x","current":["…Z","…Z"],"baseline":["…Z","…Z"],"rows":[{"type":"hashtag",…}]}`
    static func jsonObject(_ t: TermTrend) -> String {
        func bounds(_ w: TrendWindows.Window) -> String {
            "[\"\(CreatedAt.isoSeconds(w.start))\",\"\(CreatedAt.isoSeconds(w.end))\"]"
        }
        let numeric: Set<Int> = [3, 4, 5, 6, 7, 8, 9, 11]
        let rows = t.rows.map { r -> String in
            let f = fields(r)
            let parts = f.indices.map { i -> String in
                "\"\(columns[i + 1])\":" + (numeric.contains(i) ? f[i] : ReportWriter.jsonString(f[i]))
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
        return "{\"term\":\(ReportWriter.jsonString(t.term.description)),\"current\":\(bounds(t.current)),"
            + "\"baseline\":\(bounds(t.baseline)),\"rows\":[" + rows.joined(separator: ",") + "]}"
    }

    /// The `table` format: per term a heading with both windows, then per
    /// type the rows, their numbers right-aligned:
    ///
    ///     #swift · 12 tweets from 2020-03-01T00:00:00Z to 2020-03-08T00:00:00Z · baseline from … to …
    ///
    ///       Hashtags     authors  baseline  score   ratio  status  top share  top authors
    ///       #swiftui           9         2   24.5  3.3333  rising       0.25  @a @b @c
    static func table(_ trends: [TermTrend], width: Int, color: Bool) -> String {
        func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
        var out = ""
        for (n, t) in trends.enumerated() {
            if n > 0 { out += "\n" }
            out += bold(VisibleText.escaped(t.term.description)) + " · \(TableRenderer.grouped(t.currentTweets)) "
                + (t.currentTweets == 1 ? "tweet" : "tweets") + " from \(CreatedAt.isoSeconds(t.current.start)) to "
                + "\(CreatedAt.isoSeconds(t.current.end)) · baseline from \(CreatedAt.isoSeconds(t.baseline.start)) to "
                + "\(CreatedAt.isoSeconds(t.baseline.end))\n"
            if t.rows.isEmpty { out += "\n  (nothing rising)\n" }
            for kind in MentionKind.allCases {
                let rows = t.rows.filter { $0.kind == kind }
                guard !rows.isEmpty else { continue }
                let names = rows.map { VisibleText.escaped(($0.display ?? $0.mention).printedKey) }
                let cells = rows.map { r in
                    [String(r.currentAuthors), r.baselineAuthors.description, r.score.score.description, r.score.ratio.description,
                     r.score.status.rawValue, r.topAuthorShare.description]
                }
                let heads = ["authors", "baseline", "score", "ratio", "status", "top share"]
                let widths = heads.indices.map { c in max(heads[c].count, cells.map { $0[c].count }.max() ?? 0) }
                let nameWidth = min(max(kind.title.count, names.map(TableRenderer.columns).max() ?? 0), max(12, width / 3))
                out += "\n  " + bold(kind.title) + String(repeating: " ", count: nameWidth - kind.title.count)
                for c in heads.indices { out += "  " + String(repeating: " ", count: widths[c] - heads[c].count) + bold(heads[c]) }
                out += "  " + bold("top authors") + "\n"
                for (i, r) in rows.enumerated() {
                    out += "  " + PairWriter.fitted(names[i], nameWidth)
                    for c in heads.indices { out += "  " + String(repeating: " ", count: widths[c] - cells[i][c].count) + cells[i][c] }
                    out += "  " + VisibleText.escaped(r.topAuthors.joined(separator: " ")) + "\n"
                }
            }
        }
        return out
    }
}
