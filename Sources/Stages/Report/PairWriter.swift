/// The formats of `smashtag pairs` (SPEC §12.5, §11).
public enum PairFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, gexf, table, xlsx

    /// The format a file name asks for (`net.gexf`, `pairs.xlsx`, `rows.csv`), if any.
    public init?(fileName: String) {
        guard let name = OutputFile.formatName(ofFileName: fileName), let format = Self(rawValue: name) else { return nil }
        self = format
    }

    /// Bytes for a program, not text: never for a terminal, only to a file (`-o`).
    public var isBinary: Bool { self == .xlsx }
}

/// Renders the pairs of terms as bytes for standard output.
///
/// `csv`, `json`, `ndjson` and `gexf` carry the same pairs; `table` is for
/// people at a terminal.
public enum PairWriter {
    /// The bytes of any format, the workbook's included.
    ///
    /// - Throws: as `render`; `OutputFile.Failure` when the workbook cannot be made.
    public static func bytes(_ pairs: [TermPairs], as format: PairFormat, width: Int = 80, color: Bool = false) throws -> [UInt8] {
        if format == .xlsx { return try XLSXPairs(pairs).bytes() }
        return Array(try render(pairs, as: format, width: width, color: color).utf8)
    }

    /// - Throws: `GEXFWriter.Failure` when libxml2 fails (out of memory).
    ///   GEXF holds one graph: the caller gives one term's pairs. A workbook
    ///   is bytes, not text: `bytes(_:as:)` writes it.
    public static func render(_ pairs: [TermPairs], as format: PairFormat, width: Int = 80, color: Bool = false) throws -> String {
        switch format {
        case .xlsx: preconditionFailure("a workbook is bytes: PairWriter.bytes writes it")
        case .csv: return csv(pairs)
        case .json: return "[" + pairs.map(jsonObject).joined(separator: ",") + "]\n"
        case .ndjson: return pairs.map { jsonObject($0) + "\n" }.joined()
        case .gexf:
            precondition(pairs.count == 1, "GEXF holds one graph, for one term")
            return try GEXFWriter.document(pairs[0])
        case .table: return table(pairs, width: width, color: color)
        }
    }

    /// RFC 4180: header `term,source,target,weight`, `\n` line ends, fields quoted only when they must be.
    static func csv(_ pairs: [TermPairs]) -> String {
        var out = "term,source,target,weight\n"
        for p in pairs {
            let term = ReportWriter.csvField(p.term.description)
            for row in p.pairs {
                out += "\(term),\(ReportWriter.csvField(row.source)),\(ReportWriter.csvField(row.target)),\(row.weight)\n"
            }
        }
        return out
    }

    /// `{"term":"#stanford","tweets":483,"pairs":[{"source":"#gotrees","target":"#stanford","weight":84}]}`
    static func jsonObject(_ p: TermPairs) -> String {
        let rows = p.pairs.map {
            "{\"source\":\(ReportWriter.jsonString($0.source)),\"target\":\(ReportWriter.jsonString($0.target)),\"weight\":\($0.weight)}"
        }
        return "{\"term\":\(ReportWriter.jsonString(p.term.description)),\"tweets\":\(p.tweets),\"pairs\":[" + rows.joined(separator: ",") + "]}"
    }

    /// The `table` format:
    ///
    ///     #stanford · 483 tweets · 12 pairs
    ///
    ///       source              target              weight
    ///       #gotrees            #stanford               84
    ///
    /// Mentions too wide for half the terminal are cut with an ellipsis;
    /// weights are right-aligned.
    static func table(_ pairs: [TermPairs], width: Int, color: Bool) -> String {
        let renderer = TableRenderer(width: width, color: color)
        func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
        var out = ""
        for (n, p) in pairs.enumerated() {
            if n > 0 { out += "\n" }
            out += bold(p.term.description) + " · \(TableRenderer.grouped(p.tweets)) \(p.tweets == 1 ? "tweet" : "tweets")"
                + " · \(TableRenderer.grouped(p.pairs.count)) \(p.pairs.count == 1 ? "pair" : "pairs")\n\n"
            let weights = p.pairs.map { TableRenderer.grouped($0.weight) }
            let weightWidth = max(6, weights.map(\.count).max() ?? 0)
            let room = max(8, (renderer.width - weightWidth - 6) / 2)
            let widest = p.pairs.map { max(TableRenderer.columns($0.source), TableRenderer.columns($0.target)) }.max() ?? 0
            let nameWidth = min(max(widest, 18), room)
            out += "  " + bold("source") + String(repeating: " ", count: nameWidth - 6) + "  "
                + bold("target") + String(repeating: " ", count: nameWidth - 6) + "  "
                + String(repeating: " ", count: weightWidth - 6) + "weight\n"
            if p.pairs.isEmpty { out += "  (none)\n" }
            for (row, weight) in zip(p.pairs, weights) {
                out += "  " + fitted(row.source, nameWidth) + "  " + fitted(row.target, nameWidth) + "  "
                    + String(repeating: " ", count: weightWidth - weight.count) + weight + "\n"
            }
        }
        return out
    }

    /// `s` cut with an ellipsis to `w` terminal columns, then padded to them.
    static func fitted(_ s: String, _ w: Int) -> String {
        var text = s
        if TableRenderer.columns(s) > w {
            text = ""
            var used = 0
            for ch in s {
                let c = TableRenderer.columns(String(ch))
                if used + c > w - 1 { break }
                text.append(ch)
                used += c
            }
            text += "…"
        }
        return text + String(repeating: " ", count: max(0, w - TableRenderer.columns(text)))
    }
}
