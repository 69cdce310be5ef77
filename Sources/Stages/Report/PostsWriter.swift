/// The formats of `smashtag posts` (SPEC §15, §11).
public enum PostsFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, table, xlsx, html

    /// The format a file name asks for (`posts.xlsx`, `rows.csv`), if any.
    public init?(fileName: String) {
        guard let name = OutputFile.formatName(ofFileName: fileName), let format = Self(rawValue: name) else { return nil }
        self = format
    }

    /// Bytes for a program, not text: never for a terminal, only to a file (`-o`).
    public var isBinary: Bool { self == .xlsx }
}

/// The columns of `smashtag posts` (SPEC §15): `--columns` picks them, in order.
public enum PostsColumn: String, CaseIterable, Sendable {
    case term, id, author, createdAt = "created_at", retweets, quotes, replies, text

    /// `term,id,author,created_at,retweets,quotes,replies`.
    public static let standard: [PostsColumn] = [.term, .id, .author, .createdAt, .retweets, .quotes, .replies]

    /// The value of this column for `row` of `term`, as CSV and the table print it ("" when unknown).
    func value(_ row: PostRow, term: String) -> String {
        switch self {
        case .term: return term
        case .id: return row.id
        case .author: return row.author ?? ""
        case .createdAt: return row.createdAt.map(CreatedAt.isoSeconds) ?? ""
        case .retweets: return String(row.retweets)
        case .quotes: return String(row.quotes)
        case .replies: return String(row.replies)
        case .text: return row.text ?? ""
        }
    }

    var isCount: Bool { self == .retweets || self == .quotes || self == .replies }
}

/// Renders the posts of terms (SPEC §15).
///
/// `csv`: one row per term and post, the picked columns, empty where
/// unknown. `json`/`ndjson`: per term `{"term","tweets","posts":[{...}]}`
/// with every picked column but `term` a field (counts as numbers, an
/// unknown author, time or text as `null`). `table`: per term a heading
/// and the rows aligned, for people; `text` cut to the terminal.
public enum PostsWriter {
    /// The bytes of any format, the workbook's included.
    ///
    /// - Throws: `OutputFile.Failure` when the workbook cannot be made.
    public static func bytes(_ posts: [TermPosts], columns: [PostsColumn], as format: PostsFormat,
                             width: Int = 80, color: Bool = false) throws -> [UInt8] {
        switch format {
        case .xlsx: return try XLSXPosts(posts, columns: columns).bytes()
        case .html: return Array(HTMLPosts.page(posts, columns: columns).utf8)
        case .csv: return csvBytes(posts, columns: columns)
        default: return Array(render(posts, columns: columns, as: format, width: width, color: color).utf8)
        }
    }

    public static func render(_ posts: [TermPosts], columns: [PostsColumn], as format: PostsFormat,
                              width: Int = 80, color: Bool = false) -> String {
        switch format {
        case .csv: return csv(posts, columns: columns)
        case .json: return "[" + posts.map { jsonObject($0, columns: columns) }.joined(separator: ",") + "]\n"
        case .ndjson: return posts.map { jsonObject($0, columns: columns) + "\n" }.joined()
        case .table: return table(posts, columns: columns, width: width, color: color)
        case .html: return HTMLPosts.page(posts, columns: columns)
        case .xlsx: preconditionFailure("a workbook is bytes: PostsWriter.bytes writes it")
        }
    }

    /// RFC 4180, `\n` line ends, fields quoted only when they must be.
    static func csv(_ posts: [TermPosts], columns: [PostsColumn]) -> String {
        String(decoding: csvBytes(posts, columns: columns), as: UTF8.self)
    }

    /// The CSV's bytes, written straight into one buffer: a row is a few
    /// appends, not an array of strings joined (`posts '*' --min-count 1`
    /// writes a row per post retweeted, quoted or replied to).
    ///
    /// - Complexity: O(rows) time; memory O(the output).
    static func csvBytes(_ posts: [TermPosts], columns: [PostsColumn]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + posts.reduce(0) { $0 + $1.posts.count } * 64)
        out.append(contentsOf: columns.map(\.rawValue).joined(separator: ",").utf8)
        out.append(0x0A)
        func field(_ s: String) { out.append(contentsOf: ReportWriter.csvField(s).utf8) }
        func number(_ n: Int) {
            if n < 10 && n >= 0 { out.append(0x30 + UInt8(n)) } else { out.append(contentsOf: String(n).utf8) }
        }
        for p in posts {
            let term = Array(ReportWriter.csvField(p.term.description).utf8)
            for row in p.posts {
                for (k, c) in columns.enumerated() {
                    if k > 0 { out.append(0x2C) }
                    switch c {
                    case .term: out.append(contentsOf: term)
                    case .id: field(row.id)
                    case .author: if let a = row.author { field(a) }
                    case .createdAt: if let t = row.createdAt { isoSeconds(t, into: &out) }
                    case .retweets: number(row.retweets)
                    case .quotes: number(row.quotes)
                    case .replies: number(row.replies)
                    case .text: if let t = row.text { field(t) }
                    }
                }
                out.append(0x0A)
            }
        }
        return out
    }

    /// `2020-03-02T10:00:00Z` (as `CreatedAt.isoSeconds`), its bytes appended
    /// to `out` without a string in between; years 0–9999 (others as
    /// `CreatedAt.isoSeconds` writes them).
    static func isoSeconds(_ seconds: Int64, into out: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        guard (0...9999).contains(y) else {
            out.append(contentsOf: CreatedAt.isoSeconds(seconds).utf8)
            return
        }
        func two(_ n: Int64) {
            out.append(0x30 + UInt8(n / 10))
            out.append(0x30 + UInt8(n % 10))
        }
        two(y / 100); two(y % 100)
        out.append(0x2D); two(m); out.append(0x2D); two(d)
        out.append(0x54); two(rest / 3600); out.append(0x3A); two(rest / 60 % 60); out.append(0x3A); two(rest % 60)
        out.append(0x5A)
    }

    /// `{"term":"*","tweets":9,"posts":[{"id":"20","author":"@alice","created_at":"2020-03-01T12:00:00Z","retweets":3,"quotes":1,"replies":0}]}`
    static func jsonObject(_ p: TermPosts, columns: [PostsColumn]) -> String {
        let rows = p.posts.map { row -> String in
            let fields = columns.compactMap { c -> String? in
                let value: String
                switch c {
                case .term: return nil
                case .id: value = ReportWriter.jsonString(row.id)
                case .author: value = row.author.map(ReportWriter.jsonString) ?? "null"
                case .createdAt: value = row.createdAt.map { ReportWriter.jsonString(CreatedAt.isoSeconds($0)) } ?? "null"
                case .text: value = row.text.map(ReportWriter.jsonString) ?? "null"
                case .retweets, .quotes, .replies: value = c.value(row, term: "")
                }
                return "\"\(c.rawValue)\":" + value
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"term\":\(ReportWriter.jsonString(p.term.description)),\"tweets\":\(p.tweets),\"posts\":["
            + rows.joined(separator: ",") + "]}"
    }

    /// The `table` format:
    ///
    ///     #stanford · 483 tweets · 12 posts
    ///
    ///       id                   author      created_at            retweets  quotes  replies
    ///       1101234567890123456  @stanford   2019-03-01T17:00:00Z        40       2        1
    ///
    /// Data is shown escaped (`VisibleText`); the last text column is cut to the terminal.
    static func table(_ posts: [TermPosts], columns: [PostsColumn], width: Int, color: Bool) -> String {
        func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
        let shown = columns.filter { $0 != .term }
        var out = ""
        for (n, p) in posts.enumerated() {
            if n > 0 { out += "\n" }
            out += bold(VisibleText.escaped(p.term.description)) + " · \(TableRenderer.grouped(p.tweets)) \(p.tweets == 1 ? "tweet" : "tweets")"
                + " · \(TableRenderer.grouped(p.posts.count)) \(p.posts.count == 1 ? "post" : "posts")\n\n"
            let cells = p.posts.map { row in shown.map { VisibleText.escaped($0.value(row, term: "")) } }
            var widths = shown.enumerated().map { k, c in
                max(c.rawValue.count, cells.map { TableRenderer.columns($0[k]) }.max() ?? 0)
            }
            if let k = shown.firstIndex(of: .text) {
                let others = widths.enumerated().filter { $0.offset != k }.reduce(0) { $0 + $1.element + 2 }
                widths[k] = min(widths[k], max(8, width - 2 - others))
            }
            func line(_ values: [String], heading: Bool) -> String {
                var parts: [String] = []
                for (k, c) in shown.enumerated() {
                    let v = heading ? c.rawValue : values[k]
                    let pad = String(repeating: " ", count: max(0, widths[k] - TableRenderer.columns(v)))
                    if c.isCount {
                        parts.append(pad + (heading ? bold(v) : v))
                    } else if c == .text && !heading {
                        parts.append(PairWriter.fitted(v, widths[k]))
                    } else {
                        parts.append((heading ? bold(v) : v) + pad)
                    }
                }
                var s = "  " + parts.joined(separator: "  ")
                while s.hasSuffix(" ") { s.removeLast() }
                return s + "\n"
            }
            out += line([], heading: true)
            if p.posts.isEmpty { out += "  (none)\n" }
            for row in cells { out += line(row, heading: false) }
        }
        return out
    }
}
