/// Where a run takes tweets' mentions from (`--mentions-from`, SPEC §4).
public enum MentionSource: String, Sendable, CaseIterable {
    /// The API's entities, authoritative where a record has them (all JSON,
    /// CSV rows with entity columns); CSV rows without entity columns are
    /// read by their text.
    case entities
    /// Every tweet's text, by twitter-text's rules: for dumps fetched
    /// without entity fields.
    case text

    /// A new extractor for one worker, of the mentions of `kinds`.
    public func makeExtractor(kinds: MentionKinds = .standard) -> MentionExtractor {
        switch self {
        case .entities: return EntitiesExtractor(kinds: kinds)
        case .text: return TextExtractor(kinds: kinds)
        }
    }
}
