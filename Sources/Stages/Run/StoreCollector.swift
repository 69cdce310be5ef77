/// The store's consumer on a worker: keeps every tweet (not only those
/// matching a term) with its id, author, creation time, mention set, kind,
/// language, spellings and, with `keepText`, full text — through the one
/// `PartBuilder` a report's consumer builds with.
///
/// The mention set is exactly the one the extractor gives a report, so a
/// report from the store equals a report from the dumps. A piece leaves
/// every `chunkSize` tweets, so a big file streams into the store.
final class StoreCollector: TweetConsumer {
    private var builder: PartBuilder<TableNumbering>
    private let chunkSize: Int

    init(table: MentionTable, keepText: Bool, chunkSize: Int) {
        builder = PartBuilder(fields: .stored(texts: keepText), table: table)
        self.chunkSize = max(1, chunkSize)
    }

    /// Every tweet is kept: nothing is screened out.
    var screen: MentionScreen? { nil }

    func take(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet, reading: TweetReading) -> Bool {
        builder.append(tweet, in: record, table: table, mentions: mentions, reading: reading, mask: nil)
        return true
    }

    /// What every tweet says of the posts it names (SPEC §15), kept with it.
    var seesEveryTweet: Bool { builder.fields.references }

    func see(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        builder.appendCopies(of: tweet, in: record, table: table)
    }

    var isFull: Bool { builder.count >= chunkSize }

    func finish() -> PostPart { builder.finish() }
}
