/// What a run did, for the end-of-run summary on stderr and for `--stats FILE`
/// (one JSON object, for monitoring a scheduled job).
public struct RunSummary: Sendable {
    public var inputs: Int
    public var bytes: Int64
    public var records: Int
    public var tweets: Int
    /// Posts per platform (SPEC §16), when any is not a tweet: (twitter, bluesky, mastodon).
    public var platforms: [(name: String, posts: Int)] = []
    /// Distinct matching tweets per term, in the order the terms were given.
    public var matched: [(term: String, tweets: Int)]
    public var duplicates: Int
    public var notices: Int
    public var badRecords: Int
    public var badByKind: [(kind: String, count: Int)]
    public var badByInput: [(input: String, count: Int)]
    public var passedOver: Int
    /// The first few files or members passed over, each with why (names as read: escape them to print).
    public var passedOverNames: [(name: String, reason: String)]
    public var elapsed: Double

    /// Store runs add their own counters (new and known tweets) to the JSON.
    public var extra: [(key: String, value: Int)] = []
    /// The filters of SPEC §12.2, when the run had any: a line of their own
    /// (what was left out, of unknown time among it) and two JSON fields.
    public var filter: TweetFilter?
    public var filteredOut = 0
    public var unknownTime = 0
    /// `smashtag pairs`: the matching tweets that carried more than
    /// `--max-pair-mentions` distinct mentions and added no pairs (SPEC
    /// §12.5); `pair_limit_tweets` in the JSON.
    public var overLimit: OverLimitTweets?

    /// The summary of a run whose input is accounted for by `ledger`.
    public init(_ ledger: ProblemLedger, reports: [TermReport], duplicates: Int, elapsed: Double) {
        let stats = ledger.stats
        inputs = stats.inputs
        bytes = stats.bytes
        records = stats.records
        tweets = stats.tweets
        if stats.blueskyPosts + stats.mastodonPosts > 0 {
            platforms = [(Platform.twitter.name, stats.tweets - stats.blueskyPosts - stats.mastodonPosts),
                         (Platform.bluesky.name, stats.blueskyPosts), (Platform.mastodon.name, stats.mastodonPosts)]
        }
        matched = reports.map { ($0.term.description, $0.tweets) }
        self.duplicates = duplicates
        notices = stats.notices
        badRecords = ledger.badRecords
        passedOver = stats.skippedMembers
        passedOverNames = ledger.skipped.prefix(RunSummary.namesShown).map { ($0.origin.description, $0.reason) }
        self.elapsed = elapsed
        filteredOut = stats.filteredOut
        unknownTime = stats.unknownTime
        let kinds = ledger.badByKind
        var inputsOrder: [String] = [], byInput: [String: Int] = [:]
        for (origin, count) in ledger.problemCounts {
            let name = origin.description
            if byInput[name] == nil { inputsOrder.append(name) }
            byInput[name, default: 0] += count
        }
        badByKind = InputProblem.Kind.allCases.compactMap { k in kinds[k].map { (k.rawValue, $0) } }
        badByInput = inputsOrder.map { ($0, byInput[$0]!) }
        if ledger.unnamedProblems > 0 { badByInput.append(("(other files or members, not named)", ledger.unnamedProblems)) }
    }

    /// Files or members passed over that the summary names.
    static let namesShown = 5

    public var megabytesPerSecond: Double { elapsed > 0 ? Double(bytes) / 1e6 / elapsed : 0 }

    /// `1 tweet`, `1,234 tweets`.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(TableRenderer.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// The human summary, a few lines.
    public var text: String {
        var lines: [String] = []
        // Bytes are those of the inputs as stored: a gzip's compressed size.
        var first = "read \(Self.count(inputs, "input")) (\(Self.size(bytes)) as stored), "
        if platforms.isEmpty {
            first += Self.count(tweets, "tweet")
        } else {
            first += Self.count(tweets, "post") + " (" + platforms.map { "\(TableRenderer.grouped($0.posts)) \($0.name)" }.joined(separator: ", ") + ")"
        }
        if notices > 0 { first += " (\(TableRenderer.grouped(notices)) stream notices skipped)" }
        first += " in \(Self.seconds(elapsed))"
        if elapsed > 0.05 && bytes > 0 { first += " (\(Self.size(Int64(megabytesPerSecond * 1e6)))/s)" }
        lines.append(first)
        lines.append("matched " + matched.map { "\($0.term): \(TableRenderer.grouped($0.tweets))" }.joined(separator: ", ")
                     + (duplicates > 0 ? "; \(TableRenderer.grouped(duplicates)) duplicates dropped" : ""))
        if let filter, filter.isActive {
            var line = "left out \(TableRenderer.grouped(filteredOut)) of \(TableRenderer.grouped(tweets)) tweets by \(filter.description)"
            if filter.byTime {
                line += " (\(TableRenderer.grouped(unknownTime)) of unknown time)"
            }
            lines.append(line)
        }
        if badRecords > 0 {
            lines.append("skipped \(TableRenderer.grouped(badRecords)) bad "
                         + (badRecords == 1 ? "record" : "records") + " ("
                         + badByKind.map { "\($0.count) \($0.kind)" }.joined(separator: ", ") + ")")
        }
        if passedOver > 0 {
            lines.append("passed over \(passedOver == 1 ? "1 file or member" : "\(passedOver) files or members") that hold no tweets")
            // Which, and why: a deleted tweet passed over is a choice the user may want to undo.
            for (name, reason) in passedOverNames {
                lines.append("  \(VisibleText.escaped(name)): \(VisibleText.escaped(reason))")
            }
            if passedOver > passedOverNames.count {
                lines.append("  … and \(TableRenderer.grouped(passedOver - passedOverNames.count)) more passed over (--stats FILE counts them)")
            }
        }
        return lines.map { "smashtag: " + $0 + "\n" }.joined()
    }

    /// The summary as one JSON object.
    public var json: String {
        func obj(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\(ReportWriter.jsonString($0.0)):\($0.1)" }.joined(separator: ",") + "}"
        }
        let elapsedText = String(Double(Int(elapsed * 1000)) / 1000)
        return obj([
            ("inputs", String(inputs)),
            ("bytes", String(bytes)),
            ("records", String(records)),
            ("tweets", String(tweets)),
        ] + (platforms.isEmpty ? [] : [("posts_by_platform", obj(platforms.map { ($0.name, String($0.posts)) }))]) + [
            ("matched", obj(matched.map { ($0.term, String($0.tweets)) })),
            ("duplicates_dropped", String(duplicates)),
            ("notices_skipped", String(notices)),
            ("bad_records", String(badRecords)),
            ("bad_records_by_reason", obj(badByKind.map { ($0.kind, String($0.count)) })),
            ("bad_records_by_input", obj(badByInput.map { ($0.input, String($0.count)) })),
            ("passed_over", String(passedOver)),
            ("elapsed_seconds", elapsedText),
            ("megabytes_per_second", String(Double(Int(megabytesPerSecond * 10)) / 10)),
        ] + filterFields + (overLimit.map { [("pair_limit_tweets", String($0.count))] } ?? []) + extra.map { ($0.key, String($0.value)) }) + "\n"
    }

    /// What `pairs` says of the tweets over `--max-pair-mentions`: how many,
    /// and the first few by place (on stderr unless `--quiet`, whether or
    /// not the summary is shown: the pairs are the poorer for them).
    public static func lines(_ o: OverLimitTweets) -> [String] {
        guard o.count > 0 else { return [] }
        var out = ["\(count(o.count, "matching tweet")) carried more than \(TableRenderer.grouped(o.limit)) distinct "
                   + "mentions and added no pairs (--max-pair-mentions \(o.limit))"]
        out += o.named.map { "  " + VisibleText.escaped($0.description) }
        if o.count > o.named.count { out.append("  … and \(TableRenderer.grouped(o.count - o.named.count)) more") }
        return out
    }

    private var filterFields: [(String, String)] {
        guard let filter, filter.isActive else { return [] }
        return [("filter", ReportWriter.jsonString(filter.description)), ("filtered_out", String(filteredOut)),
                ("unknown_time", String(unknownTime))]
    }

    static func size(_ n: Int64) -> String {
        if n >= 1_000_000_000 { return "\(Double(n / 10_000_000) / 100) GB" }
        if n >= 1_000_000 { return "\(Double(n / 100_000) / 10) MB" }
        if n >= 1_000 { return "\(Double(n / 100) / 10) kB" }
        return "\(n) B"
    }

    static func seconds(_ s: Double) -> String {
        s < 10 ? "\(Double(Int(s * 100)) / 100) s" : "\(Int(s.rounded())) s"
    }
}
