/// Rows about the store for `history` and `terms`, in the formats of a
/// report (SPEC §7): `csv` (RFC 4180, a header row), `json` (one array of
/// objects), `ndjson` (one object per line) or `table` (aligned, for people).
public struct Listing {
    public enum Value: Equatable {
        case text(String)
        case number(Int64)
        case list([String])
        case none

        var plain: String {
            switch self {
            case .text(let s): return s
            case .number(let n): return String(n)
            case .list(let l): return l.joined(separator: " ")
            case .none: return ""
            }
        }

        var json: String {
            switch self {
            case .text(let s): return ReportWriter.jsonString(s)
            case .number(let n): return String(n)
            case .list(let l): return "[" + l.map(ReportWriter.jsonString).joined(separator: ",") + "]"
            case .none: return "null"
            }
        }
    }

    /// Column names (also the JSON keys).
    public var columns: [String]
    public var rows: [[Value]] = []
    /// Columns the table shows (all by default); csv and json carry all.
    public var tableColumns: [String]?

    public init(columns: [String]) { self.columns = columns }

    public func render(as format: ReportFormat) -> String {
        switch format {
        case .csv:
            return ([columns.joined(separator: ",")]
                    + rows.map { $0.map { ReportWriter.csvField($0.plain) }.joined(separator: ",") })
                .joined(separator: "\n") + "\n"
        case .json:
            return "[" + rows.map(object).joined(separator: ",") + "]\n"
        case .ndjson:
            return rows.map { object($0) + "\n" }.joined()
        case .table:
            return table()
        }
    }

    private func object(_ row: [Value]) -> String {
        "{" + zip(columns, row).map { "\(ReportWriter.jsonString($0)):\($1.json)" }.joined(separator: ",") + "}"
    }

    private func table() -> String {
        let shown = (tableColumns ?? columns).compactMap { name in columns.firstIndex(of: name) }
        let cells = rows.map { row in shown.map { row[$0] } }
        var widths = shown.map { columns[$0].count }
        for row in cells {
            for (k, v) in row.enumerated() { widths[k] = max(widths[k], TableRenderer.columns(v.plain)) }
        }
        func line(_ values: [String], numeric: [Bool]) -> String {
            var out = ""
            for (k, v) in values.enumerated() {
                let pad = String(repeating: " ", count: widths[k] - TableRenderer.columns(v))
                out += (k == 0 ? "" : "  ") + (numeric[k] ? pad + v : (k == values.count - 1 ? v : v + pad))
            }
            return out + "\n"
        }
        let numeric = shown.indices.map { k in !cells.isEmpty && cells.allSatisfy { if case .number = $0[k] { return true } else { return false } } }
        var out = line(shown.map { columns[$0] }, numeric: numeric)
        for row in cells { out += line(row.map(\.plain), numeric: numeric) }
        return out
    }
}

// MARK: The store's listings (`history`, `terms`)

extension RunRecord {
    /// The history as rows: one per run, oldest first.
    public static func listing(_ runs: [RunRecord]) -> Listing {
        var l = Listing(columns: ["run", "started", "finished", "command", "outcome", "inputs", "files", "unchanged",
                                  "bytes", "tweets_read", "tweets_new", "tweets_known", "skipped", "seconds", "message"])
        l.tableColumns = ["run", "started", "command", "outcome", "files", "unchanged", "bytes", "tweets_read",
                          "tweets_new", "tweets_known", "skipped", "seconds", "inputs"]
        for r in runs {
            let seconds = r.finishedAt.map { Listing.Value.text(String(format: "%.2f", Double($0 - r.startedAt) / 1000)) } ?? .none
            l.rows.append([.number(r.id), .text(RunRecord.time(r.startedAt)), r.finishedAt.map { .text(RunRecord.time($0)) } ?? .none,
                           .text(r.command), .text(r.outcome), .list(r.inputs), .number(Int64(r.totals.files)),
                           .number(Int64(r.unchanged)), .number(r.totals.bytes), .number(Int64(r.totals.read)),
                           .number(Int64(r.totals.new)), .number(Int64(r.totals.known)), .number(Int64(r.totals.skipped)),
                           seconds, r.message.map(Listing.Value.text) ?? .none])
        }
        return l
    }
}

extension Store {
    /// The tracked terms as rows: term and tweets counted.
    public static func listing(_ terms: [(term: Term, tweets: Int)]) -> Listing {
        var l = Listing(columns: ["term", "tweets"])
        l.rows = terms.map { [.text($0.term.description), .number(Int64($0.tweets))] }
        return l
    }
}
