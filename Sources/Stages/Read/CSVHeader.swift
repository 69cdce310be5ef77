import Foundation

/// Which columns of a CSV export hold what a report reads (SPEC §3).
///
/// Names are compared without regard to case or surrounding spaces; the
/// first candidate present wins. A name given on the command line
/// (`--id-column`, `--text-column`, `--author-column`) replaces the list.
public struct CSVColumns: Sendable, Equatable {
    /// `id_str` first: a spreadsheet may have turned `id` into a float.
    public var id = ["id_str", "id", "tweet_id"]
    /// `full_text` first: where both exist, `text` may be truncated.
    public var text = ["full_text", "text", "tweet", "content"]
    public var author = ["author.username", "user_screen_name", "screen_name", "username", "user.screen_name"]
    /// twarc-csv's entity columns and the retweeted tweet's author.
    public var hashtags = ["entities.hashtags"]
    public var mentions = ["entities.mentions"]
    public var retweetedAuthor = ["retweeted_username"]
    /// SPEC §12.1: a row is a retweet when either retweet column is non-empty;
    /// its time and language.
    public var retweetedID = ["referenced_tweets.retweeted.id", "retweeted_status.id_str", "retweeted_id"]
    public var createdAt = ["created_at"]
    public var lang = ["lang"]
    /// SPEC §15: the quoted and replied-to posts, and their authors (twarc-csv's columns).
    public var quotedID = ["referenced_tweets.quoted.id", "quoted_status_id_str", "quoted_id"]
    public var repliedID = ["referenced_tweets.replied_to.id", "in_reply_to_status_id_str", "in_reply_to_status_id"]
    public var quotedAuthor = ["quoted_username"]
    public var repliedAuthor = ["in_reply_to_username", "in_reply_to_screen_name"]

    public init(id: String? = nil, text: String? = nil, author: String? = nil) {
        if let id { self.id = [id] }
        if let text { self.text = [text] }
        if let author { self.author = [author] }
    }
}

/// The header row of a CSV export: its delimiter, how many fields each row
/// has, and where the columns a report reads are.
public struct CSVHeader: Sendable, Equatable {
    public var delimiter: UInt8
    public var fieldCount: Int
    public var id: Int
    public var text: Int
    public var author: Int?
    public var hashtags: Int?
    public var mentions: Int?
    public var retweetedAuthor: Int?
    public var retweetedID: Int? = nil
    public var createdAt: Int? = nil
    public var lang: Int? = nil
    /// SPEC §15's columns: the quoted and replied-to posts and their authors.
    public var quotedID: Int? = nil
    public var repliedID: Int? = nil
    public var quotedAuthor: Int? = nil
    public var repliedAuthor: Int? = nil

    /// Rows carry entities (twarc-csv's `entities.hashtags` / `entities.mentions`):
    /// then they are authoritative, as JSON entities are; a missing one of
    /// the two means no mentions of that kind.
    public var hasEntities: Bool { hashtags != nil || mentions != nil }

    /// Reads `line` (one line, without its line end) as a header: comma-,
    /// tab- or semicolon-separated names holding an id and a text column.
    ///
    /// - Returns: nil when it is not such a header (JSON, say).
    static func recognise(_ line: UnsafeRawBufferPointer, columns: CSVColumns) -> CSVHeader? {
        for delimiter in [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";")] where line.contains(delimiter) {
            let names = CSVRow.fields(line, delimiter: delimiter).map { range -> String in
                CSVRow.unquoted(UnsafeRawBufferPointer(rebasing: line[range]))
                    .trimmingCharacters(in: .whitespaces).lowercased()
            }
            func find(_ candidates: [String]) -> Int? {
                for c in candidates {
                    if let i = names.firstIndex(of: c.trimmingCharacters(in: .whitespaces).lowercased()) { return i }
                }
                return nil
            }
            guard let id = find(columns.id), let text = find(columns.text) else { continue }
            var header = CSVHeader(delimiter: delimiter, fieldCount: names.count, id: id, text: text,
                                   author: find(columns.author), hashtags: find(columns.hashtags),
                                   mentions: find(columns.mentions), retweetedAuthor: find(columns.retweetedAuthor),
                                   retweetedID: find(columns.retweetedID), createdAt: find(columns.createdAt),
                                   lang: find(columns.lang))
            header.quotedID = find(columns.quotedID)
            header.repliedID = find(columns.repliedID)
            header.quotedAuthor = find(columns.quotedAuthor)
            header.repliedAuthor = find(columns.repliedAuthor)
            return header
        }
        return nil
    }
}

extension CSVHeader {
    /// Why a stream that starts like a CSV export cannot be read as tweets:
    /// its first line (within `prefix`) is a row of column names, but none
    /// of them is an id or none a text column. nil for anything else (JSON,
    /// a recognised header, a first line longer than the prefix).
    static func unrecognisedReason(_ prefix: [UInt8], columns: CSVColumns) -> String? {
        let start = StreamSniffer.contentStart(prefix)
        guard start < prefix.count, prefix[start] != UInt8(ascii: "{"), prefix[start] != UInt8(ascii: "["),
              let nl = prefix[start...].firstIndex(of: 0x0A) else { return nil }
        let end = nl > start && prefix[nl - 1] == 0x0D ? nl - 1 : nl
        return prefix[start..<end].withUnsafeBytes { line -> String? in
            if recognise(line, columns: columns) != nil { return nil }
            for delimiter in [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";")] where line.contains(delimiter) {
                let names = CSVRow.fields(line, delimiter: delimiter).map {
                    CSVRow.unquoted(UnsafeRawBufferPointer(rebasing: line[$0])).trimmingCharacters(in: .whitespaces)
                }
                // Column names: short words of letters, digits and `_ . -` (spaces inside).
                let nameLike = names.allSatisfy { n in
                    !n.isEmpty && n.count <= 64 && n.unicodeScalars.allSatisfy {
                        $0.properties.isAlphabetic || $0.properties.numericType != nil || "_.- ".unicodeScalars.contains($0)
                    }
                }
                guard names.count >= 2, nameLike else { continue }
                return "not tweets: the first line reads as CSV column names, but none is an id "
                    + "(\(columns.id.joined(separator: ", "))) or none a text "
                    + "(\(columns.text.joined(separator: ", "))); name them with --id-column and --text-column"
            }
            return nil
        }
    }
}
