/// The report formats of SPEC §7.
public enum ReportFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, table
}

/// What `report -o` and `--format` may write: the formats of SPEC §7, and
/// the workbook and the page of §12.6.
public enum OutputFormat: Equatable, Sendable {
    case report(ReportFormat)
    case xlsx
    case html

    /// Every name `--format` takes, in the order the usage text lists them.
    public static let names = ["csv", "json", "ndjson", "table", "xlsx", "html"]

    /// `csv`, `json`, `ndjson`, `table`, `xlsx` or `html`.
    public init?(name: String) {
        switch name {
        case "xlsx": self = .xlsx
        case "html": self = .html
        default:
            guard let f = ReportFormat(rawValue: name) else { return nil }
            self = .report(f)
        }
    }

    /// The format a file name asks for (`top.xlsx`, `page.html`, `rows.csv`), if any.
    public init?(fileName: String) {
        guard let name = OutputFile.formatName(ofFileName: fileName), let format = Self(name: name) else { return nil }
        self = format
    }

    /// Bytes for a program, not text: never for a terminal, only to a file (`-o`).
    public var isBinary: Bool { self == .xlsx }

    /// The table: for a terminal (its width, colour, escapes).
    public var isTable: Bool { self == .report(.table) }
}

/// Renders term reports as bytes for standard output or a file.
///
/// `csv`, `json` and `ndjson` carry the same rows; `table`, `html` and
/// `xlsx` are for people (`xlsx` and `html` show the run's summary too).
public enum ReportWriter {
    public static func render(_ reports: [TermReport], as format: ReportFormat, width: Int = 80, color: Bool = false) -> String {
        render(reports, as: format, columns: .standard, width: width, color: color)
    }

    /// The reports with the columns of `--columns` (SPEC §12.3); the
    /// default columns render exactly as SPEC §7 says.
    ///
    /// - Parameter bucketed: the reports are the series of `--by` (SPEC
    ///   §12.4), one per term and bucket: CSV gets a `bucket` column after
    ///   `term`, and JSON objects a `bucket` field.
    public static func render(_ reports: [TermReport], as format: ReportFormat, columns: ReportColumns,
                              bucketed: Bool = false, width: Int = 80, color: Bool = false) -> String {
        if bucketed && format == .csv { return bucketCSV(reports, columns) }
        if !columns.isStandard {
            switch format {
            case .csv: return csv(reports, columns)
            case .json: return "[" + reports.map { jsonObject($0, columns) }.joined(separator: ",") + "]\n"
            case .ndjson: return reports.map { jsonObject($0, columns) + "\n" }.joined()
            case .table: return TableRenderer(width: width, color: color).render(reports, columns: columns)
            }
        }
        switch format {
        case .csv: return csv(reports)
        case .json: return "[" + reports.map(jsonObject).joined(separator: ",") + "]\n"
        case .ndjson: return reports.map { jsonObject($0) + "\n" }.joined()
        case .table: return TableRenderer(width: width, color: color).render(reports)
        }
    }

    /// Any format's report, as the bytes to write.
    ///
    /// - Throws: `OutputFile.Failure` when the workbook cannot be put together.
    public static func bytes(_ document: ReportDocument, as format: OutputFormat, width: Int = 80,
                             color: Bool = false) throws(OutputFile.Failure) -> [UInt8] {
        switch format {
        case .xlsx: return try XLSXReport(document).bytes()
        case .html: return Array(HTMLReport(document).render().utf8)
        case .report(.csv) where !document.bucketed && document.columns.isStandard:
            return csvBytes(document.reports)
        case .report(let f):
            return Array(render(document.reports, as: f, columns: document.columns, bucketed: document.bucketed,
                                width: width, color: color).utf8)
        }
    }

    /// RFC 4180: header `term,type,mention,count`, `\n` line ends, a field
    /// quoted only when it holds a comma, a quote, CR or LF.
    static func csv(_ reports: [TermReport]) -> String {
        String(decoding: csvBytes(reports), as: UTF8.self)
    }

    /// `csv(_:)`'s bytes, appended row after row (no string per row); a
    /// big report's hashtags and users of each term written side by side on
    /// the cores, then joined in order.
    static func csvBytes(_ reports: [TermReport]) -> [UInt8] {
        var bytes = Array("term,type,mention,count\n".utf8)
        let rows = reports.reduce(0) { $0 + $1.rowCount }
        // Every (report, section), in order.
        let sections = reports.indices.flatMap { r in reports[r].sections.indices.map { (r, $0) } }
        func part(_ k: Int, into bytes: inout [UInt8]) {
            let r = reports[sections[k].0], section = r.sections[sections[k].1]
            // The row's first two fields, copied as one run of bytes.
            let head = Array((csvField(r.term.description) + "," + section.kind.name + ",").utf8)
            for row in section.rows {
                bytes.append(contentsOf: head)
                appendMention(row.mention, to: &bytes)
                bytes.append(0x2C)
                appendInteger(row.count, to: &bytes)
                bytes.append(0x0A)
            }
        }
        if rows < parallelReportRows {
            bytes.reserveCapacity(32 + 40 * rows)
            for k in sections.indices { part(k, into: &bytes) }
            return bytes
        }
        let parts = parallelMap(sections.count) { k in
            var out: [UInt8] = []
            part(k, into: &out)
            return out
        }
        bytes.reserveCapacity(parts.reduce(bytes.count) { $0 + $1.count })
        for p in parts { bytes.append(contentsOf: p) }
        return bytes
    }

    /// The series of `--by` as CSV: the picked columns with `bucket` after
    /// `term` (first when `term` is not picked).
    static func bucketCSV(_ reports: [TermReport], _ columns: ReportColumns) -> String {
        let at = columns.list.firstIndex(of: .term).map { $0 + 1 } ?? 0
        var names = columns.list.map(\.rawValue)
        names.insert("bucket", at: at)
        var out = names.joined(separator: ",") + "\n"
        if columns.isStandard {
            // The plain columns, row after row of a long series: bytes appended, no per-row strings.
            var bytes: [UInt8] = Array(out.utf8)
            for r in reports {
                let head = Array((csvField(r.term.description) + "," + csvField(r.bucket ?? "") + ",").utf8)
                for section in r.sections {
                    let type = section.kind.name + ","
                    for row in section.rows {
                        bytes.append(contentsOf: head)
                        bytes.append(contentsOf: type.utf8)
                        appendMention(row.mention, to: &bytes)
                        bytes.append(0x2C)
                        appendDecimal(row.count, to: &bytes)
                        bytes.append(0x0A)
                    }
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        for r in reports {
            let bucket = csvField(r.bucket ?? "")
            for section in r.sections {
                let (type, rows, more) = (section.kind.name, section.rows, section.columns)
                for (k, row) in rows.enumerated() {
                    let m = k < more.count ? more[k] : RowColumns()
                    var fields = columns.list.map { field($0, r, type, row, m) }
                    fields.insert(bucket, at: at)
                    out += fields.joined(separator: ",") + "\n"
                }
            }
        }
        return out
    }

    /// Appends the decimal digits of `n` (not negative).
    static func appendDecimal(_ n: Int, to bytes: inout [UInt8]) {
        if n < 10 { bytes.append(0x30 + UInt8(n)); return }
        // The digits into a word, last digit lowest, then out highest first (a count has at most 19 digits).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var v = UInt64(n)
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                d[23 - count] = 0x30 + UInt8(v % 10)
                v /= 10
                count += 1
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[(24 - count)...]))
        }
    }

    /// `{"term":…,` then, for a bucket of `--by`, `"bucket":…,`, then `"tweets":…,`.
    static func jsonHead(_ r: TermReport) -> String {
        "{\"term\":\(jsonString(r.term.description)),"
            + (r.bucket.map { "\"bucket\":\(jsonString($0))," } ?? "") + "\"tweets\":\(r.tweets),"
    }

    /// A column's value in a row of type `type`.
    static func field(_ c: ReportColumns.Column, _ r: TermReport, _ type: String, _ row: MentionCount, _ more: RowColumns) -> String {
        switch c {
        case .term: return csvField(r.term.description)
        case .type: return type
        case .mention: return csvField(row.mention.printedKey)
        case .display: return csvField(more.display?.printedKey ?? "")
        case .count: return String(row.count)
        case .originals: return String(more.originals)
        case .retweets: return String(more.retweets)
        case .authors: return String(more.authors)
        }
    }

    /// CSV with the picked columns, header first: bytes appended field by
    /// field, no string per field or row (a `'*'` report has tens of
    /// thousands of rows).
    static func csv(_ reports: [TermReport], _ columns: ReportColumns) -> String {
        var bytes: [UInt8] = Array((columns.description + "\n").utf8)
        let list = columns.list
        for r in reports {
            let term = Array(csvField(r.term.description).utf8)
            for section in r.sections {
                let (type, rows, more) = (section.kind.name, section.rows, section.columns)
                for (k, row) in rows.enumerated() {
                    let m = k < more.count ? more[k] : RowColumns()
                    for (n, c) in list.enumerated() {
                        if n > 0 { bytes.append(0x2C) }
                        switch c {
                        case .term: bytes.append(contentsOf: term)
                        case .type: bytes.append(contentsOf: type.utf8)
                        case .mention: appendMention(row.mention, to: &bytes)
                        case .display: appendCSVField(m.display?.printedKey ?? "", to: &bytes)
                        case .count: appendInteger(row.count, to: &bytes)
                        case .originals: appendInteger(m.originals, to: &bytes)
                        case .retweets: appendInteger(m.retweets, to: &bytes)
                        case .authors: appendInteger(m.authors, to: &bytes)
                        }
                    }
                    bytes.append(0x0A)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A mention's key as printed (SPEC §13), as a CSV field, appended: the
    /// key itself for the kinds whose sign is printed (no new string).
    @inline(__always)
    static func appendMention(_ key: String, to bytes: inout [UInt8]) {
        switch key.utf8.first {
        case UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "$"): appendCSVField(key, to: &bytes)
        case let sign?:
            // A link's kinds print without their (ASCII) sign, a poster with `@`: the key's bytes after the sign.
            guard let kind = MentionKind.of(signByte: sign) else { return appendCSVField(key, to: &bytes) }
            let copied = key.utf8.withContiguousStorageIfAvailable { b -> Bool in
                let rest = UnsafeBufferPointer(rebasing: b[1...])
                for c in rest where c == 0x2C || c == 0x22 || c == 0x0D || c == 0x0A { return false }
                if kind == .poster { bytes.append(UInt8(ascii: "@")) }
                bytes.append(contentsOf: rest)
                return true
            }
            if copied != true { appendCSVField(key.printedKey, to: &bytes) }
        case nil: appendCSVField(key, to: &bytes)
        }
    }

    /// `csvField(s)`'s bytes, appended.
    @inline(__always)
    static func appendCSVField(_ s: String, to bytes: inout [UInt8]) {
        // A field with nothing to quote is its stored bytes, copied at once (the common case, no iterator).
        let copied = s.utf8.withContiguousStorageIfAvailable { field -> Bool in
            for b in field where b == 0x2C || b == 0x22 || b == 0x0D || b == 0x0A { return false }
            bytes.append(contentsOf: field)
            return true
        }
        if copied == true { return }
        if s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) {
            bytes.append(contentsOf: csvField(s).utf8)
        } else {
            bytes.append(contentsOf: s.utf8)
        }
    }

    /// The decimal digits of `n` as `String(n)` writes them, appended.
    static func appendInteger(_ n: Int, to bytes: inout [UInt8]) {
        if n < 0 { bytes.append(contentsOf: String(n).utf8) } else { appendDecimal(n, to: &bytes) }
    }

    /// A term's object with the picked columns: `tweets` and, when picked,
    /// `originals`, `retweets`, `authors` over all its tweets; each mention's
    /// object has every picked column but `term` and `type`, in order.
    static func jsonObject(_ r: TermReport, _ columns: ReportColumns) -> String {
        func rows(_ rows: [MentionCount], _ more: [RowColumns]) -> String {
            "[" + rows.enumerated().map { k, row in
                let extra = k < more.count ? more[k] : RowColumns()
                return "{" + columns.list.compactMap { c -> String? in
                    switch c {
                    case .term, .type: return nil
                    case .mention: return "\"mention\":\(jsonString(row.mention.printedKey))"
                    case .display: return "\"display\":\(jsonString(extra.display?.printedKey ?? ""))"
                    case .count: return "\"count\":\(row.count)"
                    case .originals: return "\"originals\":\(extra.originals)"
                    case .retweets: return "\"retweets\":\(extra.retweets)"
                    case .authors: return "\"authors\":\(extra.authors)"
                    }
                }.joined(separator: ",") + "}"
            }.joined(separator: ",") + "]"
        }
        var head = jsonHead(r)
        for c in columns.list {
            switch c {
            case .originals: head += "\"originals\":\(r.originals),"
            case .retweets: head += "\"retweets\":\(r.retweets),"
            case .authors: head += "\"authors\":\(r.authors),"
            default: break
            }
        }
        return head + r.sections.map { "\"\($0.kind.plural)\":\(rows($0.rows, $0.columns))" }.joined(separator: ",") + "}"
    }

    static func csvField(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `{"term":"#stanford","tweets":4806,"hashtags":[{"mention":"#swift","count":597}],"users":[…]}`
    static func jsonObject(_ r: TermReport) -> String {
        func rows(_ rows: [MentionCount]) -> String {
            "[" + rows.map { "{\"mention\":\(jsonString($0.mention.printedKey)),\"count\":\($0.count)}" }.joined(separator: ",") + "]"
        }
        return jsonHead(r) + r.sections.map { "\"\($0.kind.plural)\":\(rows($0.rows))" }.joined(separator: ",") + "}"
    }

    /// A JSON string: UTF-8 as is, with `"`, `\` and control characters escaped.
    public static func jsonString(_ s: String) -> String { JSONText.quoted(s) }
}

import Foundation
