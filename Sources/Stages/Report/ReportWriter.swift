/// The report formats of SPEC §7.
public enum ReportFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, table
}

/// Renders term reports as bytes for standard output.
///
/// `csv`, `json` and `ndjson` carry the same rows; `table` is for people.
public enum ReportWriter {
    public static func render(_ reports: [TermReport], as format: ReportFormat, width: Int = 80, color: Bool = false) -> String {
        switch format {
        case .csv: return csv(reports)
        case .json: return "[" + reports.map(jsonObject).joined(separator: ",") + "]\n"
        case .ndjson: return reports.map { jsonObject($0) + "\n" }.joined()
        case .table: return TableRenderer(width: width, color: color).render(reports)
        }
    }

    /// RFC 4180: header `term,type,mention,count`, `\n` line ends, a field
    /// quoted only when it holds a comma, a quote, CR or LF.
    static func csv(_ reports: [TermReport]) -> String {
        var out = "term,type,mention,count\n"
        for r in reports {
            let term = csvField(r.term.description)
            for row in r.hashtags { out += "\(term),hashtag,\(csvField(row.mention)),\(row.count)\n" }
            for row in r.users { out += "\(term),user,\(csvField(row.mention)),\(row.count)\n" }
        }
        return out
    }

    static func csvField(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `{"term":"#stanford","tweets":4806,"hashtags":[{"mention":"#swift","count":597}],"users":[…]}`
    static func jsonObject(_ r: TermReport) -> String {
        func rows(_ rows: [MentionCount]) -> String {
            "[" + rows.map { "{\"mention\":\(jsonString($0.mention)),\"count\":\($0.count)}" }.joined(separator: ",") + "]"
        }
        return "{\"term\":\(jsonString(r.term.description)),\"tweets\":\(r.tweets),"
            + "\"hashtags\":\(rows(r.hashtags)),\"users\":\(rows(r.users))}"
    }

    /// A JSON string: UTF-8 as is, with `"`, `\` and control characters escaped.
    public static func jsonString(_ s: String) -> String { JSONText.quoted(s) }
}

import Foundation
