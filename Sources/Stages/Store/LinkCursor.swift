/// The mention links of stored tweets read beside the tweets, both in id
/// order: a merge join, one pass over each table, no query per tweet.
struct LinkCursor {
    private let links: Statement
    /// Whether `links` has a third column, each link's spelling (`tweet_mention.spelling`).
    private let withSpellings: Bool
    private var ready: Bool
    private var link = (tweet: Int64(0), mention: Int64(0), spelling: Int64?.none)

    /// `links` yields (tweet, mention) in tweet order, not yet stepped; with
    /// `spellings`, (tweet, mention, spelling).
    init(_ links: Statement, spellings: Bool = false) throws(StoreError) {
        self.links = links
        withSpellings = spellings
        ready = false
        try advance()
    }

    /// Fills `set` with the mentions of tweet `id`; ids must come in ascending order.
    mutating func mentions(of id: Int64, into set: inout [Int64]) throws(StoreError) {
        set.removeAll(keepingCapacity: true)
        while ready && link.tweet < id { try advance() }
        while ready && link.tweet == id {
            set.append(link.mention)
            try advance()
        }
    }

    /// `mentions(of:into:)`, and beside each mention in `spellings` the id of
    /// the spelling the tweet writes it in (nil: as its key). Needs `spellings` at init.
    mutating func mentions(of id: Int64, into set: inout [Int64], spellings: inout [Int64?]) throws(StoreError) {
        set.removeAll(keepingCapacity: true)
        spellings.removeAll(keepingCapacity: true)
        while ready && link.tweet < id { try advance() }
        while ready && link.tweet == id {
            set.append(link.mention)
            spellings.append(link.spelling)
            try advance()
        }
    }

    private mutating func advance() throws(StoreError) {
        ready = try links.step()
        if ready { link = (links.int64(0), links.int64(1), withSpellings ? links.optionalInt64(2) : nil) }
    }
}
