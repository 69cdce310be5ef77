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

/// The store's consumer on a worker: keeps every tweet (not only those
/// matching a term) with its id, author, creation time, mention set, kind,
/// language, spellings and, with `keepText`, full text.
///
/// The mention set is exactly the one the extractor gives a report, so a
/// report from the store equals a report from the dumps. A piece leaves
/// every `chunkSize` tweets, so a big file streams into the store.
final class StoreCollector: TweetConsumer {
    private let table: MentionTable
    private let keepText: Bool
    private let chunkSize: Int
    private var chunk = IngestChunk()
    private var keys = LocalKeys()
    private var seen: [(Int32, String?)] = []

    init(table: MentionTable, keepText: Bool, chunkSize: Int) {
        self.table = table
        self.keepText = keepText
        self.chunkSize = max(1, chunkSize)
    }

    /// Every tweet is kept: nothing is screened out.
    var screen: MentionScreen? { nil }

    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) {
        chunk.ids.append(tweet.id)
        chunk.createdAt.append(record.createdAt(of: tweet))
        var author: Int32 = -1
        if let a = record.author(of: tweet), let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) {
            author = keys.local(id, table: table, into: &chunk.keys)
        }
        chunk.authors.append(author)
        for id in mentions.ids { chunk.mentions.append(keys.local(id, table: table, into: &chunk.keys)) }
        chunk.mentionEnds.append(Int32(chunk.mentions.count))
        if keepText { chunk.texts.append(record.fullText(of: tweet).map(record.string)) }
        chunk.retweets.append(record.isRetweet(tweet, textMode: reading.textMode))
        chunk.langs.append(record.language(of: tweet))
        TweetSpellings.forEach(tweet, in: record, table: table, mentions: mentions, reading: reading, seen: &seen) { id, spelling, _ in
            chunk.spellingMentions.append(keys.local(id, table: table, into: &chunk.keys))
            chunk.spellingTexts.append(spelling)
        }
        chunk.spellingEnds.append(Int32(chunk.spellingMentions.count))
    }

    var isFull: Bool { chunk.count >= chunkSize }

    func finish() -> IngestChunk {
        defer {
            chunk = IngestChunk()
            keys.reset()
        }
        return chunk
    }
}
