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
    private var seen = SeenSpellings()

    init(table: MentionTable, keepText: Bool, chunkSize: Int) {
        self.table = table
        self.keepText = keepText
        self.chunkSize = max(1, chunkSize)
    }

    /// Every tweet is kept: nothing is screened out.
    var screen: MentionScreen? { nil }

    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) -> Bool {
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
        return true
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
