/// The filters of SPEC §12.2: which tweets a run looks at at all, judged
/// before matching and dedup, so a tweet left out counts for nothing (not
/// even in a term's tweet count).
///
///     --since T          created at or after T
///     --until T          created strictly before T
///     --retweets MODE    include (every tweet), exclude (originals only), only (retweets only)
///     --lang CODES       its own `lang` is one of the codes (case-insensitive); no `lang`, no match
///
/// With `--since` or `--until`, a tweet of unknown time (no readable
/// `created_at`, an id older than the first snowflake) is left out and
/// counted apart, for the run summary. Every reading command's scanner
/// applies the filter (`TweetScanner`), so a report, `extract` and what else
/// consumes matched tweets see the same tweets.
public struct TweetFilter: Sendable, Equatable {
    /// Seconds since 1970 UTC, inclusive.
    public var since: Int64?
    /// Seconds since 1970 UTC, exclusive.
    public var until: Int64?
    public var retweets = RetweetMode.include
    /// Lowercased codes; nil for every tweet.
    public var languages: [String]?
    /// With `--by` (SPEC §12.4): tweets of unknown time are left out; the
    /// options as they print in the summary (`--by day --tz UTC`).
    public var timeNeededBy: String?

    public init(since: Int64? = nil, until: Int64? = nil, retweets: RetweetMode = .include, languages: [String]? = nil) {
        self.since = since
        self.until = until
        self.retweets = retweets
        self.languages = languages?.map { $0.lowercased() }
    }

    /// `--retweets include|exclude|only`.
    public enum RetweetMode: String, Sendable, CaseIterable {
        case include, exclude, only
    }

    /// Whether any filter is set (an inactive filter is not applied at all).
    public var isActive: Bool { since != nil || until != nil || retweets != .include || languages != nil || timeNeededBy != nil }

    /// Whether tweets are judged by time.
    public var byTime: Bool { since != nil || until != nil || timeNeededBy != nil }

    /// What the filter made of one tweet.
    public enum Verdict {
        case kept, leftOut, unknownTime
    }

    /// Judges `tweet` of `record`; `textMode` as for `DecodedRecord.isRetweet`.
    @inline(__always)
    func judge(_ tweet: DecodedTweet, in record: DecodedRecord, textMode: Bool) -> Verdict {
        // Time first, so that the summary's count of unknown time is every such tweet read.
        if since != nil || until != nil || timeNeededBy != nil {
            guard let t = record.createdAt(of: tweet) else { return .unknownTime }
            if let since, t < since { return .leftOut }
            if let until, t >= until { return .leftOut }
        }
        if retweets != .include {
            let rt = record.isRetweet(tweet, textMode: textMode)
            if rt != (retweets == .only) { return .leftOut }
        }
        if let languages {
            guard let span = tweet.lang, !span.isEmpty, matches(span, languages, record) else { return .leftOut }
        }
        return .kept
    }

    /// Whether a `lang` span equals one of `codes` (lowercased), ignoring case.
    private func matches(_ span: ByteSpan, _ codes: [String], _ record: DecodedRecord) -> Bool {
        let raw = record.bytes(span)
        if !span.escaped && !raw.contains(where: { $0 >= 0x80 }) {
            // The common case: a short ASCII code, folded byte by byte.
            for code in codes where code.utf8.count == raw.count {
                if zip(code.utf8, raw).allSatisfy({ $0 == ($1 &- 0x41 < 26 ? $1 | 0x20 : $1) }) { return true }
            }
            if !raw.contains(UInt8(ascii: ",")) { return false }
        }
        return Self.anyLanguage(record.string(span), in: codes)
    }

    /// Whether a post's language, or one of its languages (a Bluesky post's
    /// `langs`, joined by `,`: SPEC §16), is one of `codes`.
    static func anyLanguage(_ lang: String, in codes: [String]) -> Bool {
        let lower = lang.lowercased()
        if codes.contains(lower) { return true }
        guard lower.contains(",") else { return false }
        return lower.split(separator: ",").contains { codes.contains(String($0)) }
    }

    // MARK: Values on the command line

    /// A `--since`/`--until` value: a date `2020-03-01` (00:00 UTC) or an
    /// ISO 8601 date-time with `Z` or an offset (`2020-03-01T12:00:00+01:00`,
    /// fractions of a second dropped).
    ///
    /// - Throws: `TimeError.noOffset` for a date-time without a zone (it
    ///   would mean a different instant on every machine), `.malformed` for
    ///   anything else that is not one of the forms or not a real date.
    public static func time(_ s: String) throws(TimeError) -> Int64 {
        let b = Array(s.utf8)
        func digits(_ r: Range<Int>) -> Bool { r.allSatisfy { b[$0] &- 0x30 < 10 } }
        if b.count == 10, b[4] == 0x2D, b[7] == 0x2D, digits(0..<4), digits(5..<7), digits(8..<10) {
            return try checked(s, date: s, seconds: CreatedAt.parse(s + "T00:00:00Z"))
        }
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == UInt8(ascii: "T") else { throw .malformed }
        if let t = CreatedAt.parse(s) { return try checked(s, date: String(s.prefix(10)), seconds: t) }
        if CreatedAt.parse(s, noOffsetIsUTC: true) != nil { throw .noOffset }
        throw .malformed
    }

    /// Refuses dates the calendar does not have (`2020-02-30`), which the
    /// day arithmetic would carry into the next month.
    private static func checked(_ s: String, date: String, seconds: Int64?) throws(TimeError) -> Int64 {
        guard let seconds else { throw .malformed }
        let parts = date.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { throw .malformed }
        let (y, m, d) = (parts[0], parts[1], parts[2])
        let next = m == 12 ? CreatedAt.days(y + 1, 1, 1) : CreatedAt.days(y, m + 1, 1)
        guard d >= 1, d <= next - CreatedAt.days(y, m, 1) else { throw .malformed }
        // A time of day past 23:59:59 (a leap second aside) is no time.
        let clock = s.dropFirst(11).prefix(8).split(separator: ":").compactMap { Int($0) }
        if clock.count == 3 { guard clock[0] < 24, clock[1] < 60, clock[2] < 61 else { throw .malformed } }
        return seconds
    }

    public enum TimeError: Error {
        case malformed, noOffset
    }

    /// A `--lang` value: codes separated by commas, none empty.
    ///
    /// - Returns: nil when a code is empty or holds white space or control characters.
    public static func languages(_ s: String) -> [String]? {
        let codes = s.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !codes.isEmpty, codes.allSatisfy({ code in
            !code.isEmpty && !code.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        }) else { return nil }
        return codes
    }

    /// How the filter prints in a run summary: `--since 2020-03-01T00:00:00Z --retweets exclude --lang en,es`.
    public var description: String {
        var parts: [String] = []
        if let since { parts.append("--since " + CreatedAt.isoSeconds(since)) }
        if let until { parts.append("--until " + CreatedAt.isoSeconds(until)) }
        if retweets != .include { parts.append("--retweets " + retweets.rawValue) }
        if let languages { parts.append("--lang " + languages.joined(separator: ",")) }
        if let timeNeededBy { parts.append(timeNeededBy) }
        return parts.joined(separator: " ")
    }
}
