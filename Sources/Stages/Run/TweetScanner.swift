/// The per-worker stages, record by record: decode (JSON or CSV), screen,
/// extract; each tweet then goes to the worker's `TweetConsumer`. What a
/// piece met besides tweets (records, notices, bad input with its
/// provenance) goes into its `ScanTally`.
///
/// A worker keeps one scanner for all the units and batches it takes, so its
/// decoder buffers and mention table are reused; `begin`/`finish` bracket a
/// piece. The same scanner serves a report, `extract` and `ingest`: only the
/// consumer differs.
final class TweetScanner<Consumer: TweetConsumer>: RecordHandler {
    private let decoder = TweetDecoder()
    private let csv = CSVDecoder()
    let table: MentionTable
    let consumer: Consumer
    /// Rules out most tweets before extraction, when the consumer's terms
    /// allow it and mentions come from entities.
    private let screen: MentionScreen?
    private let extractor: MentionExtractor
    /// For CSV rows without entity columns, whatever `extractor` is.
    private let textExtractor: MentionExtractor
    private let control: RunControl
    /// The filters of SPEC §12.2, applied before anything else sees a tweet; nil when none is set.
    private let filter: TweetFilter?
    /// Whether `extractor` reads texts (`--mentions-from text`): a text's `RT @name:` then makes a retweet.
    private let textMode: Bool
    private var mentions = MentionSet()
    /// Whether the consumer hears every tweet before the filters (`posts`).
    private let seesEveryTweet: Bool
    /// Whether Bluesky reposts wait for their subjects (SPEC §16, a report's consumer).
    private let joinsReposts: Bool
    /// A pairs run's `--max-pair-mentions`: a kept tweet with more distinct
    /// mentions is noted in the tally, with its place (SPEC §12.5).
    var pairLimit = Int.max
    private(set) var tally = ScanTally()
    private var pendingTweets = 0

    /// - Parameter consumer: made for the scanner's own mention table.
    init(extractor: MentionExtractor, textExtractor: MentionExtractor? = nil, control: RunControl,
         filter: TweetFilter? = nil, consumer makeConsumer: (MentionTable) -> Consumer) {
        let table = MentionTable()
        self.table = table
        consumer = makeConsumer(table)
        screen = extractor is EntitiesExtractor ? consumer.screen : nil
        self.extractor = extractor
        self.textExtractor = textExtractor ?? TextExtractor(kinds: extractor.kinds)
        decoder.readsSymbols = extractor.kinds.has(.symbol)
        decoder.readsLinks = extractor.kinds.hasLinks
        seesEveryTweet = consumer.seesEveryTweet
        joinsReposts = consumer.joinsReposts
        decoder.readsReferences = seesEveryTweet
        decoder.readsHandles = consumer.namesAccounts
        self.control = control
        self.filter = filter?.isActive == true ? filter : nil
        textMode = extractor is TextExtractor
    }

    /// Starts a piece.
    func begin() { tally = ScanTally() }

    /// Ends a piece: its tally (with the unit's line count on a unit's last
    /// piece) and the consumer's part.
    func finish(lines: Int) -> (tally: ScanTally, part: Consumer.Part) {
        control.addTweets(pendingTweets)
        pendingTweets = 0
        tally.lines = lines
        let t = tally
        tally = ScanTally()
        return (t, consumer.finish())
    }

    var shouldStop: Bool { control.isStopped }

    /// Where the record being scanned sits in its array, when its line cannot say.
    private var element: (index: Int, offset: Int64)?

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element index: Int, offset: Int64, origin: Origin) {
        element = (index, offset)
        defer { element = nil }
        record(bytes, line: line, origin: origin)
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        tally.stats.records += 1
        // In line, not through `RecordError.message(of:)`: the closure costs
        // the hot path 1.2% of its instructions (callgrind, 20 MB, one term).
        do {
            try decoder.decode(bytes)
        } catch {
            problem(InputProblem(.invalidJSON, origin: origin, line: line, reason: error.message))
            return
        }
        for rejected in decoder.rejected {
            problem(InputProblem(rejected == .badID ? .badID : .notATweet, origin: origin, line: line, reason: rejected.message))
        }
        tally.stats.notices += decoder.notices
        pendingTweets += decoder.record.tweets.count
        if pendingTweets >= 512 { control.addTweets(pendingTweets); pendingTweets = 0 }
        let invalidBefore = table.invalidUTF8Lookups
        defer {
            if table.invalidUTF8Lookups != invalidBefore {
                problem(InputProblem(.invalidUTF8, origin: origin, line: line,
                                     reason: "invalid UTF-8 in a mention or author name, replaced with U+FFFD (the tweet is kept)"))
            }
        }
        let record = decoder.record
        for tweet in record.tweets {
            if tweet.hasEntities { tally.stats.tweetsWithEntities += 1 }
            take(tweet, of: record, using: extractor, screen: screen, fromText: textMode, line: line, origin: origin)
        }
    }

    // MARK: CSV

    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        csv.header = header
    }

    /// A CSV row: decoded into the same fields a JSON tweet has, then the
    /// same extract and consumer. Rows with entity columns take `extractor`
    /// (entities, or text under `--mentions-from text`); rows without, text.
    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        tally.stats.records += 1
        if let failure = CSVRowError.message(of: { () throws(CSVRowError) in try csv.decode(bytes) }) {
            problem(InputProblem(.badRow, origin: origin, line: line, reason: failure))
            return
        }
        let record = csv.record
        pendingTweets += record.tweets.count
        let entities = csv.header?.hasEntities == true
        // A row without entity columns takes its mentions from its text, as it should: nothing is missing.
        tally.stats.tweetsWithEntities += record.tweets.count
        let chosen = entities ? extractor : textExtractor
        for tweet in record.tweets {
            // Word terms are screened on JSON records only: a CSV row is extracted whatever its text, as before.
            take(tweet, of: record, using: chosen, screen: entities && screen?.screensWords != true ? screen : nil,
                 fromText: entities ? textMode : true, line: line, origin: origin)
        }
    }

    /// Screens and extracts `tweet` of `record`, then hands it on.
    ///
    /// - Parameters:
    ///   - fromText: whether `extractor` reads the text (known here, so no cast per tweet).
    ///   - line, origin: where the record was read, for a tweet over `pairLimit`.
    @inline(__always)
    private func take(_ tweet: DecodedTweet, of record: DecodedRecord, using extractor: MentionExtractor, screen: MentionScreen?,
                      fromText: Bool, line: Int, origin: Origin) {
        tally.stats.tweets += 1
        switch tweet.platform {
        case .twitter: break
        case .bluesky: tally.stats.blueskyPosts += 1
        case .mastodon: tally.stats.mastodonPosts += 1
        }
        if seesEveryTweet { consumer.see(tweet, in: record, table: table) }
        // A Bluesky post noted as a subject has its mentions extracted already: the same ones again below.
        var extracted = false
        if joinsReposts && tweet.platform == .bluesky {
            if join(tweet, of: record, using: extractor, fromText: fromText) { return }
            extracted = true
        }
        if let filter {
            switch filter.judge(tweet, in: record, textMode: textMode) {
            case .kept: break
            case .leftOut: tally.stats.filteredOut += 1; return
            case .unknownTime: tally.stats.filteredOut += 1; tally.stats.unknownTime += 1; return
            }
        }
        if let screen, !screen.mayMatch(tweet, in: record) { return }
        if !extracted {
            mentions.removeAll()
            extractor.extract(tweet, in: record, table: table, into: &mentions)
        }
        let kept = consumer.take(tweet, in: record, table: table, mentions: mentions,
                                 reading: TweetReading(mentionsFromText: fromText, textMode: textMode))
        if kept, mentions.ids.count > pairLimit {
            var t = OverLimitTweet(id: tweet.identity, mentions: mentions.ids.count, origin: origin, line: line)
            t.element = element
            tally.overLimit.append(t)
        }
    }

    /// SPEC §16, for Bluesky post `tweet`: a repost kept by the filters
    /// waits for its subject (and is not taken now); any other post says what
    /// a repost of it carries, whatever the filters and the screen make of it.
    ///
    /// - Returns: whether `tweet` is done with (a repost).
    private func join(_ tweet: DecodedTweet, of record: DecodedRecord, using extractor: MentionExtractor, fromText: Bool) -> Bool {
        if tweet.joinsSubject {
            if let filter {
                switch filter.judge(tweet, in: record, textMode: textMode) {
                case .kept: break
                case .leftOut: tally.stats.filteredOut += 1; return true
                case .unknownTime: tally.stats.filteredOut += 1; tally.stats.unknownTime += 1; return true
                }
            }
            consumer.pend(tweet, in: record, table: table)
            return true
        }
        mentions.removeAll()
        extractor.extract(tweet, in: record, table: table, into: &mentions)
        consumer.noteSubject(tweet, in: record, table: table, mentions: mentions,
                             reading: TweetReading(mentionsFromText: fromText, textMode: textMode))
        return false
    }

    /// Whether the consumer wants its piece to leave now.
    var isFull: Bool { consumer.isFull }

    func problem(_ p: InputProblem) {
        var p = p
        if let element, p.line != nil { p.element = element }
        tally.addProblem(p)
        control.problemSeen(p)
    }

    /// A problem already reported to the run (met while reading a batch).
    func absorb(_ p: InputProblem) { tally.addProblem(p) }

    func skipped(_ origin: Origin, reason: String) { tally.addSkipped(origin, reason: reason) }
}

/// The report's scanner for one record at a time, outside a run (the
/// fuzzer drives it): a `TweetScanner` whose consumer matches `terms`.
public final class UnitScanner: RecordHandler {
    private let scanner: TweetScanner<MatchCollector>

    public init(terms: [Term], extractor: MentionExtractor = EntitiesExtractor(),
                textExtractor: MentionExtractor? = nil, control: RunControl,
                filter: TweetFilter? = nil, facts: PostFields = .init(), times: Bool = false) {
        scanner = TweetScanner(extractor: extractor, textExtractor: textExtractor, control: control, filter: filter) {
            MatchCollector(terms: terms, table: $0, facts: facts, times: times)
        }
    }

    public func begin() { scanner.begin() }
    /// The piece's matches; its tally is `lastTally`.
    public func finish(lines: Int) -> PostPart {
        let (tally, part) = scanner.finish(lines: lines)
        lastTally = tally
        return part
    }
    public private(set) var lastTally = ScanTally()
    public var shouldStop: Bool { scanner.shouldStop }
    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) { scanner.record(bytes, line: line, origin: origin) }
    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        scanner.record(bytes, line: line, element: element, offset: offset, origin: origin)
    }
    public func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) { scanner.beginCSV(header, line: line, origin: origin) }
    public func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) { scanner.csvRow(bytes, line: line, origin: origin) }
    public func problem(_ p: InputProblem) { scanner.problem(p) }
    public func skipped(_ origin: Origin, reason: String) { scanner.skipped(origin, reason: reason) }
}
