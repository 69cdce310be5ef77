/// The platforms whose posts smashtag reads (SPEC §16), in the order the
/// run's summary counts them.
public enum Platform: UInt8, Sendable, CaseIterable {
    case twitter = 0
    case bluesky = 1
    case mastodon = 2

    /// The platform's name in the summary and in `--stats`.
    public var name: String {
        switch self {
        case .twitter: return "twitter"
        case .bluesky: return "bluesky"
        case .mastodon: return "mastodon"
        }
    }
}
