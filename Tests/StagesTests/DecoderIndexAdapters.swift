@testable import Stages

// The stage tests written before the typed seam name a tweet by its object
// index in the JSON decoder, and read CSV rows through that decoder. These
// adapters map such an index to the `DecodedTweet` the stages now take, so
// those tests run unchanged against the same stages.

extension TweetDecoder {
    /// The decoded tweet made of object `index` (one of `outputs`).
    func decodedTweet(_ index: Int) -> DecodedTweet { record.tweets[outputs.firstIndex(of: index)!] }

    func string(_ span: ByteSpan) -> String { record.string(span) }
}

extension MentionExtractor {
    func extract(_ index: Int, from decoder: TweetDecoder, table: MentionTable, into mentions: inout MentionSet) {
        extract(decoder.decodedTweet(index), in: decoder.record, table: table, into: &mentions)
    }
}

extension EntitiesExtractor {
    static func mayMatch(_ index: Int, from decoder: TweetDecoder, screen: MentionScreen) -> Bool {
        screen.mayMatch(decoder.decodedTweet(index), in: decoder.record)
    }
}

extension TermMatcher {
    func match(_ index: Int, in decoder: TweetDecoder, table: MentionTable, mentions: MentionSet) -> UInt64 {
        match(decoder.decodedTweet(index), in: decoder.record, table: table, mentions: mentions)
    }
}

extension CSVDecoder {
    /// Decodes `row`, then hands its tweet to `decoder` as an external record
    /// (objects and spans as the JSON decoder keeps them).
    func decode(_ row: UnsafeRawBufferPointer, into decoder: TweetDecoder) throws(CSVRowError) {
        try decode(row)
        decoder.beginExternalRecord(base: record.base)
        for span in record.spans { decoder.appendExternal(span) }
        for t in record.tweets {
            var f = TweetFields()
            f.id = t.id
            f.idState = .valid
            f.hasContent = true
            f.text = t.text
            f.author = t.author.name
            f.hashtags = t.hashtags
            f.users = t.users
            f.createdAt = t.createdAt
            f.lang = t.lang
            if let rt = t.retweeted {
                var r = TweetFields()
                r.author = rt.author.name
                r.hashtags = rt.hashtags
                r.users = rt.users
                r.text = rt.text
                f.retweet = decoder.appendExternal(r)
            }
            decoder.output(decoder.appendExternal(f))
        }
    }
}
