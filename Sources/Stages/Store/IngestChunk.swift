/// Tweets read from a piece of a scan, in input order: what the store keeps
/// of each (SPEC §10). What the store's consumer (`StoreCollector`) makes on
/// a worker and the store's writer takes, in order, on the calling thread.
///
/// - Complexity: memory O(tweets × mentions) of the piece; keys and
///   texts are stored once per piece and per tweet.
struct IngestChunk: Sendable {
    var ids: [UInt64] = []
    /// Seconds since 1970 (`CreatedAt`), or nil when unknown.
    var createdAt: [Int64?] = []
    /// Index into `keys` of the author's `@name`, or -1.
    var authors: [Int32] = []
    /// End of tweet i's mentions in `mentions` (its start is the previous end).
    var mentionEnds: [Int32] = []
    /// Indices into `keys`.
    var mentions: [Int32] = []
    /// Signed, normalised keys (`#swift`, `@nasa`) this piece uses.
    var keys: [String] = []
    /// Full texts (the retweeted tweet's for a retweet), when the store keeps them.
    var texts: [String?] = []
    /// SPEC §12.1: whether tweet i is a retweet, its `lang`, and each
    /// distinct (mention, spelling) it carries: the mention as an index into
    /// `keys`, the spelling nil when it is written as its key (`#stanford`).
    var retweets: [Bool] = []
    var langs: [String?] = []
    var spellingEnds: [Int32] = []
    var spellingMentions: [Int32] = []
    var spellingTexts: [String?] = []

    var count: Int { ids.count }

    func mentions(of i: Int) -> ArraySlice<Int32> {
        let start = i == 0 ? 0 : Int(mentionEnds[i - 1])
        return mentions[start..<Int(mentionEnds[i])]
    }

    func spellings(of i: Int) -> Range<Int> {
        (i == 0 ? 0 : Int(spellingEnds[i - 1]))..<Int(spellingEnds[i])
    }
}
