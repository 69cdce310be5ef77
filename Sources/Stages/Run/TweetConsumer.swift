/// What a worker's `TweetScanner` hands each decoded tweet to: the report's
/// matcher (`MatchCollector`), the store's collector (`StoreCollector`).
/// One consumer per worker; it builds a `Part` of its own (matches, tweets
/// to store) that the ordered merge gives, in input order, to the one
/// consumer on the calling thread (the aggregator, extract's writer, the
/// store's writer).
///
///     TweetScanner: decode ▶ screen ▶ extract ─▶ TweetConsumer.take ─▶ Part per piece
///
/// Modelled on a search's sink: the scan drives, the consumer only takes.
protocol TweetConsumer: AnyObject, SendableMetatype {
    associatedtype Part: Sendable

    /// Rules tweets out from their raw mention bytes before extraction
    /// (report terms allow it); nil to be given every tweet.
    var screen: MentionScreen? { get }

    /// Takes `tweet` of the decoded `record`, with its mentions interned in
    /// `table`; `reading` says how they were read (for the tweet's kind and
    /// its mentions' spellings, SPEC §12.1).
    ///
    /// - Returns: whether the tweet was kept (a report's consumer keeps the
    ///   tweets that match a term).
    @discardableResult
    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) -> Bool

    /// Whether `see` wants every tweet read, before the filters and the
    /// screen (`posts`, SPEC §15: what each tweet says of the posts it names).
    var seesEveryTweet: Bool { get }

    /// Whether what the run writes can name a Bluesky account (a user or
    /// poster row, an author, extract lines, the store): only then do the
    /// records tell the handle book the handles they name and spell.
    var namesAccounts: Bool { get }

    /// Hears `tweet` of `record` before anything rules it out (when `seesEveryTweet`).
    func see(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable)

    /// Whether Bluesky reposts wait for their subjects (SPEC §16): then every
    /// Bluesky post is noted (`noteSubject`, before the filters and the
    /// screen) and every repost the filters keep is pended, not taken.
    var joinsReposts: Bool { get }
    func noteSubject(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                     reading: TweetReading)
    func pend(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable)

    /// Whether the piece is big enough to leave before its unit ends (so a
    /// 10 GB unit streams through the consumer instead of piling up).
    var isFull: Bool { get }

    /// The part built since the last call; starts a fresh one.
    func finish() -> Part
}

extension TweetConsumer {
    var seesEveryTweet: Bool { false }
    var namesAccounts: Bool { true }
    func see(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {}
    var joinsReposts: Bool { false }
    func noteSubject(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                     reading: TweetReading) {}
    func pend(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {}
}

/// A piece's own numbering of the worker's mention keys: a piece carries
/// each key it uses once, and its tweets refer to them by index.
struct LocalKeys {
    /// Per table id: the piece that last met it, and its index in that piece
    /// (indexed by the table's dense ids: no hashing per mention; side by
    /// side: one read a mention).
    private var marks: [Mark] = []
    private struct Mark {
        var piece: Int32
        var index: Int32
    }
    private var piece: Int32 = 0
    /// The table id of each of the piece's keys, in the piece's order.
    private(set) var numbers: [Int32] = []

    /// The piece's index of key `id` of `table`, adding the key to `keys` when new.
    @inline(__always)
    mutating func local(_ id: Int32, table: MentionTable, into keys: inout [String]) -> Int32 {
        let i = Int(id)
        if i < marks.count {
            let m = marks[i]
            if m.piece == piece { return m.index }
        } else {
            marks += repeatElement(Mark(piece: -1, index: 0), count: max(i + 1 - marks.count, marks.count, 1024))
        }
        let l = Int32(keys.count)
        keys.append(table.key(i))
        numbers.append(id)
        marks[i] = Mark(piece: piece, index: l)
        return l
    }

    /// Starts the next piece.
    mutating func reset() {
        piece += 1
        numbers.removeAll(keepingCapacity: true)
    }
}

/// How the scanner read a tweet: whether its mentions came from its text
/// (twitter-text's rules) or from entities, and whether the run is in text
/// mode, where a text that begins `RT @name:` makes a retweet (SPEC §12.1).
struct TweetReading {
    var mentionsFromText: Bool
    var textMode: Bool
}
