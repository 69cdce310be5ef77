/// Where the ordered merge hands each unit's matches, in input order: the
/// `Aggregator` for a report, an `ExtractWriter` for `smashtag extract`.
public protocol ExtractionSink: AnyObject {
    func add(_ e: Extraction)
}

extension Aggregator: ExtractionSink {}
