/// Where the ordered merge hands each unit's matches, in input order: the
/// `Aggregator` for a report, an `ExtractWriter` for `smashtag extract`.
public protocol ExtractionSink: AnyObject {
    func add(_ e: Extraction)
}

extension Aggregator: ExtractionSink {}

/// A sink that does part of its work on the workers, in parallel, before
/// the ordered merge (`PairAggregator` counts pairs there): what depends on
/// input order stays in `add`, what is a plain sum moves to `prepare`.
public protocol ParallelExtractionSink: ExtractionSink, Sendable {
    /// Called once, before the workers start.
    func begin(workers: Int)
    /// Called by worker `worker` (in `0..<workers`) with each extraction it
    /// made, before that extraction reaches `add`; concurrently for
    /// different workers, never twice at once for one.
    func prepare(_ e: Extraction, worker: Int)
}
