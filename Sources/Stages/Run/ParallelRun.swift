import Synchronization

/// A report's or `extract`'s run: the `ScanEngine` with the report's
/// consumer on every worker (`MatchCollector`: screen, extract, match), and
/// each piece's matches handed in input order to `sink` (the `Aggregator`,
/// an `ExtractWriter`) on the calling thread.
public struct ParallelRun {
    public var terms: [Term]
    public var jobs: Int
    public var maxRecord: Int
    public var extractor: @Sendable (MentionKinds) -> MentionExtractor
    /// Size of the record batches cut from compressed input.
    public var batchBytes = RecordBatch.defaultTargetBytes
    /// The columns that make a file a CSV export.
    public var csvColumns: CSVColumns
    /// The filters of SPEC §12.2 (`--since`, `--until`, `--retweets`, `--lang`).
    public var filter = TweetFilter()
    /// What each matching tweet carries besides its mentions (SPEC §12.3's columns).
    public var facts = PostFields()
    /// Whether each matching tweet carries its creation time (`--by`, SPEC §12.4).
    public var times = false
    /// What is read besides live tweets, and the bounds of one input's work.
    public var policy = ReadPolicy()
    /// `smashtag pairs --max-pair-mentions` (SPEC §12.5): matching tweets
    /// with more distinct mentions are noted in the ledger (`overLimit`);
    /// the `PairAggregator` leaves their pairs out.
    public var pairLimit = Int.max
    /// Given what the run is done with and a command about to end need
    /// not free (the reposts' join: every post read, noted as a possible
    /// subject, tens of milliseconds to free one by one); nil frees it.
    public var keepUntilExit: ((AnyObject) -> Void)?

    public init(terms: [Term], jobs: Int, maxRecord: Int = 16 << 20,
                extractor: @escaping @Sendable (MentionKinds) -> MentionExtractor = { EntitiesExtractor(kinds: $0) },
                csvColumns: CSVColumns = CSVColumns()) {
        self.terms = terms
        self.jobs = max(1, jobs)
        self.maxRecord = maxRecord
        self.extractor = extractor
        self.csvColumns = csvColumns
    }

    /// Runs the plan's units; every unit's matches reach `sink` in input order.
    ///
    /// - Returns: the ledger of what was read and skipped (`ledger`, when
    ///   given, already holding the plan's problems).
    @discardableResult
    public func run(_ units: [WorkUnit], control: RunControl, into sink: PartSink,
                    ledger: ProblemLedger = ProblemLedger()) -> ProblemLedger {
        var engine = ScanEngine(jobs: jobs, maxRecord: maxRecord, csvColumns: csvColumns, extractor: extractor)
        engine.batchBytes = batchBytes
        engine.filter = filter
        engine.policy = policy
        engine.pairLimit = pairLimit
        engine.kinds = facts.mentionKinds.union(Term.kinds(matching: terms))
        if pairLimit != .max { ledger.overLimit = OverLimitTweets(limit: pairLimit) }
        let (terms, facts, times) = (self.terms, self.facts, self.times)
        let parallel = sink as? ParallelPartSink
        // One more table than workers: the reposts joined after the last input (SPEC §16) are counted in their own.
        parallel?.begin(workers: jobs + 1)
        let workers = WorkerNumbers()
        // SPEC §16: Bluesky reposts are matched once every subject has been read,
        // unless the sink carries them on (extract lines).
        let join = sink is RepostCarryingSink ? nil : RepostJoin()
        // Extract lines carry the handles met whatever their kinds (`writeHandles`).
        let namesAccounts = join == nil || MatchCollector.namesAccounts(facts)
        engine.run(units, control: control, ledger: ledger, consumer: { table in
            let collector = MatchCollector(terms: terms, table: table, facts: facts, times: times)
            collector.namesAccounts = namesAccounts
            if let parallel {
                let worker = workers.next()
                collector.prepare = { parallel.prepare($0, worker: worker) }
            }
            return collector
        }) { piece in
            if let join, !piece.part.joins.isEmpty { join.add(piece.part.joins) }
            sink.add(piece.part)
        }
        if let join, !join.isEmpty {
            var fields = facts
            fields.times = times
            // The workers are done: the reposts are resolved on as many threads, their parts handed on in order.
            for part in join.resolved(pieces: jobs, terms: terms, fields: fields, counted: facts.mentionKinds) {
                if pairLimit != .max {
                    // A joined repost over --max-pair-mentions is named as any post (without its place: it has two).
                    for i in 0..<part.count where part.mentions(of: i).count > pairLimit {
                        ledger.overLimit.note(OverLimitTweet(id: part.tweetIDs[i], mentions: part.mentions(of: i).count))
                    }
                }
                if part.count > 0 {
                    parallel?.prepare(part, worker: jobs)
                    sink.add(part)
                }
            }
        }
        if let join, let keepUntilExit { keepUntilExit(join) }
        return ledger
    }
}

/// Numbers the workers' consumers 0, 1, … as the workers make them.
private final class WorkerNumbers: Sendable {
    private let count = Atomic<Int>(0)
    func next() -> Int { count.wrappingAdd(1, ordering: .relaxed).oldValue }
}
