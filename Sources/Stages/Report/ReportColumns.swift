/// The report's columns (SPEC §12.3, `--columns`), in the order picked.
///
///     term  type  mention  count       the popularity table (the default)
///     display                          the mention's most frequent spelling among the counted tweets
///     originals  retweets              how many of the counted tweets are originals / retweets
///     authors                          how many distinct authors wrote them
///
/// What a run must gather besides counts follows from the columns
/// (`Facts`): spellings for `display`, each tweet's kind for `originals` and
/// `retweets`, its author for `authors`. The default gathers nothing, so a
/// plain report costs what it always did.
public struct ReportColumns: Sendable, Equatable, CustomStringConvertible {
    public enum Column: String, Sendable, CaseIterable {
        case term, type, mention, display, count, originals, retweets, authors
    }

    public let list: [Column]

    public static let standard = ReportColumns(checked: [.term, .type, .mention, .count])

    private init(checked list: [Column]) { self.list = list }

    /// `term,type,mention,display,count`: names separated by commas, each once.
    ///
    /// - Throws: `ColumnError` naming an unknown or repeated column, or an empty list.
    public init(parsing s: String) throws(ColumnError) {
        var list: [Column] = []
        for name in s.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let c = Column(rawValue: trimmed) else { throw ColumnError(value: s, problem: "unknown column '\(trimmed)'") }
            guard !list.contains(c) else { throw ColumnError(value: s, problem: "column '\(trimmed)' twice") }
            list.append(c)
        }
        self.list = list
    }

    /// Whether these are the default columns (the report of SPEC §7, byte for byte).
    public var isStandard: Bool { list == Self.standard.list }

    public func contains(_ c: Column) -> Bool { list.contains(c) }

    /// What a run gathers for these columns beyond the counts.
    public var facts: Facts {
        Facts(spellings: contains(.display), kinds: contains(.originals) || contains(.retweets), authors: contains(.authors))
    }

    public var description: String { list.map(\.rawValue).joined(separator: ",") }

    /// What the match stage records of each matching tweet, and the
    /// aggregator counts, besides its mentions: the part's field set.
    public typealias Facts = PostFields

    public struct ColumnError: Error, CustomStringConvertible {
        public var value: String
        public var problem: String

        public var description: String {
            "--columns '\(value)': \(problem); pick from term, type, mention, display, count, originals, retweets, authors, "
                + "each once, separated by commas (default term,type,mention,count)"
        }
    }
}
