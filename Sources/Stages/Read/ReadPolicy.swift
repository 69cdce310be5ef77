/// What a run reads besides live tweets, and how much work one input may
/// cost before it is given up: the options every reading command shares
/// (`--deleted`, `--no-input-limits`), one value for every worker's reader.
///
/// The bounds are what a careful user can expect of a real dump; each one
/// that stops an input says so by name, and `--no-input-limits` lifts them
/// all (the per-record cap `--max-record` stays).
public struct ReadPolicy: Sendable, Equatable {
    /// Whether an account archive's `deleted-tweets.js` (tweets the owner
    /// deleted) is read [default: no, it is passed over and named].
    public var includeDeleted = false
    /// Expanded bytes per stored byte after which an input is given up, once
    /// it has expanded past `expansionFloor` [default: 200; real dumps
    /// compress 5–20 times, xz at best ~30, a bomb thousands of times].
    public var maxExpansion: Int64? = 200
    /// Bytes an input may expand to before `maxExpansion` is looked at [default: 1 GiB].
    public var expansionFloor: Int64 = 1 << 30
    /// Archive members (at any depth) one input may hold [default: 1,000,000].
    public var maxMembers: Int? = 1_000_000
    /// Records in a row, from the start of an input, none of them a tweet,
    /// after which the rest of the input is given up [default: 100,000].
    public var maxRecordsWithoutTweet: Int? = 100_000

    public init() {}

    /// Every bound lifted (`--no-input-limits`).
    public static var unlimited: ReadPolicy {
        var p = ReadPolicy()
        p.maxExpansion = nil
        p.maxMembers = nil
        p.maxRecordsWithoutTweet = nil
        return p
    }
}
