/// The mention links of stored tweets read beside the tweets, both in id
/// order: a merge join, one pass over each table, no query per tweet.
struct LinkCursor {
    private let links: Statement
    private var ready: Bool
    private var link = (tweet: Int64(0), mention: Int64(0))

    /// `links` yields (tweet, mention) in tweet order, not yet stepped.
    init(_ links: Statement) throws(StoreError) {
        self.links = links
        ready = try links.step()
        if ready { link = (links.int64(0), links.int64(1)) }
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

    private mutating func advance() throws(StoreError) {
        ready = try links.step()
        if ready { link = (links.int64(0), links.int64(1)) }
    }
}
