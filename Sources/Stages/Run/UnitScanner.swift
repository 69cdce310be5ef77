import Synchronization

/// The per-worker stages, record by record: decode, extract, match; the
/// matches of a unit go into an `Extraction`.
///
/// A worker keeps one scanner for all the units it takes, so its decoder
/// buffers and mention table are reused; `begin`/`finish` bracket a unit.
public final class UnitScanner: RecordHandler {
    private let decoder = TweetDecoder()
    private let table = MentionTable()
    private let matcher: TermMatcher
    /// Rules out most tweets before extraction, when the terms allow it and
    /// mentions come from entities.
    private let screen: MentionScreen?
    private let extractor: MentionExtractor
    /// For CSV rows without entity columns, whatever `extractor` is.
    private let textExtractor: MentionExtractor
    private let csv = CSVDecoder()
    private let control: RunControl
    private var mentions = MentionSet()
    private var result = Extraction()
    private var localKeys: [Int32: Int32] = [:]
    private var pendingTweets = 0

    public init(terms: [Term], extractor: MentionExtractor = EntitiesExtractor(),
                textExtractor: MentionExtractor = TextExtractor(), control: RunControl) {
        matcher = TermMatcher(terms: terms, table: table)
        screen = extractor is EntitiesExtractor ? MentionScreen(terms: terms) : nil
        self.extractor = extractor
        self.textExtractor = textExtractor
        self.control = control
    }

    public func begin() {
        result = Extraction()
        localKeys.removeAll(keepingCapacity: true)
    }

    public func finish(lines: Int) -> Extraction {
        control.addTweets(pendingTweets)
        pendingTweets = 0
        result.lines = lines
        return result
    }

    public var shouldStop: Bool { control.isStopped }

    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        result.stats.records += 1
        do {
            try decoder.decode(bytes)
        } catch {
            problem(InputProblem(.invalidJSON, origin: origin, line: line, reason: error.message))
            return
        }
        for rejected in decoder.rejected {
            problem(InputProblem(rejected == .badID ? .badID : .notATweet, origin: origin, line: line, reason: rejected.message))
        }
        result.stats.notices += decoder.notices
        pendingTweets += decoder.outputs.count
        if pendingTweets >= 512 { control.addTweets(pendingTweets); pendingTweets = 0 }
        let invalidBefore = table.invalidUTF8Lookups
        defer {
            if table.invalidUTF8Lookups != invalidBefore {
                problem(InputProblem(.invalidUTF8, origin: origin, line: line,
                                     reason: "invalid UTF-8 in a mention or author name, replaced with U+FFFD (the tweet is kept)"))
            }
        }
        for index in decoder.outputs { take(index, using: extractor, screen: screen) }
    }

    // MARK: CSV

    public func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        csv.header = header
    }

    /// A CSV row: decoded into the same fields a JSON tweet has, then the
    /// same extract and match. Rows with entity columns take `extractor`
    /// (entities, or text under `--mentions-from text`); rows without, text.
    public func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        result.stats.records += 1
        do {
            try csv.decode(bytes, into: decoder)
        } catch {
            problem(InputProblem(.badRow, origin: origin, line: line, reason: error.message))
            return
        }
        let entities = csv.header?.hasEntities == true
        let chosen = entities ? extractor : textExtractor
        for index in decoder.outputs { take(index, using: chosen, screen: entities ? screen : nil) }
    }

    /// Extracts and matches tweet `index` of the decoder, keeping it if it matched.
    @inline(__always)
    private func take(_ index: Int, using extractor: MentionExtractor, screen: MentionScreen?) {
        result.stats.tweets += 1
        if let screen, !EntitiesExtractor.mayMatch(index, from: decoder, screen: screen) { return }
        mentions.removeAll()
        extractor.extract(index, from: decoder, table: table, into: &mentions)
        let mask = matcher.match(index, in: decoder, table: table, mentions: mentions)
        guard mask != 0 else { return }
        result.tweetIDs.append(decoder.objects[index].id)
        result.termMasks.append(mask)
        for id in mentions.ids {
            if let local = localKeys[id] {
                result.mentions.append(local)
            } else {
                let local = Int32(result.keys.count)
                result.keys.append(table.keys[Int(id)])
                localKeys[id] = local
                result.mentions.append(local)
            }
        }
        result.mentionEnds.append(Int32(result.mentions.count))
    }

    public func problem(_ p: InputProblem) {
        result.addProblem(p)
        control.problemSeen(p)
    }

    /// A problem already reported to the run (met while reading a batch).
    func absorb(_ p: InputProblem) { result.addProblem(p) }

    public func skipped(_ origin: Origin, reason: String) {
        result.stats.skippedMembers += 1
        result.skipped.append((origin, reason))
    }
}

/// What all workers of a run share: the stop flag (set by `--strict` on the
/// first problem, or by an interrupt) and the problem that stopped the run.
public final class RunControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let bytes = Atomic<Int64>(0)
    private let tweets = Atomic<Int>(0)
    private let units = Atomic<Int>(0)
    private let interruption = Atomic<Int32>(0)
    private let firstProblem = Mutex<InputProblem?>(nil)
    public let strict: Bool

    public init(strict: Bool) { self.strict = strict }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Under `--strict`, the first problem stops every worker.
    func problemSeen(_ p: InputProblem) {
        guard strict else { return }
        firstProblem.withLock { if $0 == nil { $0 = p } }
        stop()
    }

    /// The problem that stopped a strict run.
    public var stoppingProblem: InputProblem? { firstProblem.withLock { $0 } }

    /// Stops the run because of a signal (SIGINT, SIGTERM).
    public func interrupt(signal: Int32) {
        interruption.store(signal, ordering: .relaxed)
        stop()
    }

    /// The signal that interrupted the run, or 0.
    public var interruptingSignal: Int32 { interruption.load(ordering: .relaxed) }

    // MARK: Live counters, for progress

    func addBytes(_ n: Int) { bytes.wrappingAdd(Int64(n), ordering: .relaxed) }
    func addTweets(_ n: Int) { tweets.wrappingAdd(n, ordering: .relaxed) }
    func unitDone() { units.wrappingAdd(1, ordering: .relaxed) }

    /// Bytes read, tweets decoded and work units finished so far.
    public var progress: (bytes: Int64, tweets: Int, units: Int) {
        (bytes.load(ordering: .relaxed), tweets.load(ordering: .relaxed), units.load(ordering: .relaxed))
    }
}
