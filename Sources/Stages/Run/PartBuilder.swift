/// The one builder of a worker's parts: appends a decoded post, with its
/// mentions interned in the worker's table, to a `PostPart` as the run's
/// `PostFields` ask — its id, the terms it matched, its mentions, and kind,
/// author, spellings, time, language and text when asked. The report's
/// consumer (`MatchCollector`, the matching posts) and the store's
/// (`StoreCollector`, every post) both build through it, so a store holds
/// exactly what a report of the dumps counts.
///
/// Keys are numbered once per part (`LocalKeys`); a spelling other than
/// its key is kept once per part, found by its table entry (an array, no
/// hashing) when it has one.
final class PartBuilder {
    let fields: PostFields
    private(set) var part = PostPart()
    private var keys = LocalKeys()
    private let tableSerial: Int
    private var spellingIndex: [String: Int32] = [:]
    /// Per table entry (raw spelling): the part that last numbered it, and its number there.
    private var entryStamp: [Int32] = []
    private var entryLocal: [Int32] = []
    private var piece: Int32 = 0
    private var seen = SeenSpellings()

    /// The kinds counted, when the extractor adds more (for the terms); nil when it adds these alone.
    private let counted: MentionKinds?

    /// - Parameter extracted: the kinds the worker's extractor adds.
    init(fields: PostFields, table: MentionTable, extracted: MentionKinds? = nil) {
        self.fields = fields
        tableSerial = table.serial
        counted = extracted.map { $0 == fields.mentionKinds ? nil : fields.mentionKinds } ?? nil
    }

    /// Posts in the part being built.
    var count: Int { part.count }

    /// Appends `tweet` of `record`; `mask` is the terms it matched (nil for a store's part, which has none).
    @inline(__always)
    func append(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                reading: TweetReading, mask: UInt64?) {
        part.tweetIDs.append(tweet.identity)
        if let mask { part.termMasks.append(mask) }
        if let counted {
            // Mentions extracted for the terms alone (a `$sym` term under `--kinds hashtag,user`) are not counted.
            for id in mentions.ids where counted.has(table.kind(of: id)) {
                part.mentions.append(keys.local(id, table: table, into: &part.keys))
            }
        } else {
            for id in mentions.ids { part.mentions.append(keys.local(id, table: table, into: &part.keys)) }
        }
        part.mentionEnds.append(Int32(part.mentions.count))
        if fields.times { part.times.append(record.createdAt(of: tweet) ?? PostPart.unknownTime) }
        if fields.texts { part.texts.append(record.fullText(of: tweet).map(record.string)) }
        if fields.languages { part.langs.append(record.language(of: tweet)) }
        if fields.any { gather(tweet, in: record, table: table, mentions: mentions, reading: reading) }
        if fields.references { appendReferences(of: tweet) }
    }

    /// SPEC §15: what post `tweet` retweets, quotes and replies to. A
    /// retweet names only what it retweets (v1.1 repeats the retweeted
    /// post's quoted id on it; v2 does not).
    private func appendReferences(of tweet: DecodedTweet) {
        let r = tweet.references
        let identity = Self.identity(on: tweet.platform)
        if r.retweeted != nil || tweet.markedRetweet == true {
            part.retweetOf.append(r.retweeted.map(identity) ?? PostPart.noPost)
            part.quoteOf.append(PostPart.noPost)
            part.replyTo.append(PostPart.noPost)
        } else {
            part.retweetOf.append(PostPart.noPost)
            part.quoteOf.append((tweet.quoted ?? r.quotedCopy?.id).map(identity) ?? PostPart.noPost)
            part.replyTo.append(r.repliedTo.map(identity) ?? PostPart.noPost)
        }
    }

    /// The `PostIdentity` number of an id a post of `platform` names: a
    /// tweet's id is numbered here, a Bluesky or Mastodon post's already is
    /// (the decoder interned its URI).
    private static func identity(on platform: Platform) -> (UInt64) -> UInt64 {
        if platform == .twitter { return { PostIdentity.of(tweetID: $0) } }
        return { $0 }
    }

    /// SPEC §15: what `tweet` says of posts — of itself (its own record)
    /// and of each post it embeds a copy of — appended to the part's
    /// copies; called for every tweet read, before any filter (`references`).
    func appendCopies(of tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        func author(_ name: ByteSpan?) -> Int32 {
            guard let a = name, let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) else { return -1 }
            return keys.local(id, table: table, into: &part.keys)
        }
        let identity = Self.identity(on: tweet.platform)
        func add(_ id: UInt64, own: Bool, author: Int32, time: Int64?, text: ByteSpan?) {
            part.copies.ids.append(identity(id))
            part.copies.own.append(own)
            part.copies.authors.append(author)
            part.copies.times.append(time ?? PostPart.unknownTime)
            if fields.texts { part.copies.texts.append(text.map(record.string)) }
        }
        add(tweet.id, own: true, author: author(record.author(of: tweet)), time: record.createdAt(of: tweet),
            text: fields.texts ? record.fullText(of: tweet) : nil)
        let r = tweet.references
        for c in [r.retweetedCopy, r.quotedCopy, r.repliedCopy] {
            guard let c else { continue }
            let a = author(record.name(c.author)), t = record.time(c.createdAt), text = fields.texts ? c.text : nil
            // A copy that says nothing of its post adds nothing.
            if a >= 0 || t != nil || text != nil { add(c.id, own: false, author: a, time: t, text: text) }
        }
    }

    /// What SPEC §12.3's columns need of a post: its kind, its author, and
    /// each distinct spelling of each of its mentions.
    private func gather(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                        reading: TweetReading) {
        if fields.kinds { part.retweets.append(record.isRetweet(tweet, textMode: reading.textMode)) }
        if fields.authors {
            var author: Int32 = -1
            if let a = record.author(of: tweet), let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) {
                author = keys.local(id, table: table, into: &part.keys)
            }
            part.authors.append(author)
        }
        guard fields.spellings else { return }
        TweetSpellings.forEach(tweet, in: record, table: table, mentions: mentions, reading: reading,
                               kinds: fields.mentionKinds, seen: &seen) { id, written, entry in
            part.spellingMentions.append(keys.local(id, table: table, into: &part.keys))
            guard let written else {
                part.spellingTexts.append(PostPart.keySpelling)
                return
            }
            // The part's index of the spelling: by its table entry when it has one.
            if entry >= 0, entry < entryStamp.count, entryStamp[entry] == piece {
                part.spellingTexts.append(entryLocal[entry])
                return
            }
            let s = part.spellingIndex(of: written, in: &spellingIndex)
            part.spellingTexts.append(s)
            if entry >= 0 {
                if entry >= entryStamp.count {
                    entryStamp += Array(repeating: -1, count: entry + 1024 - entryStamp.count)
                    entryLocal += Array(repeating: 0, count: entry + 1024 - entryLocal.count)
                }
                entryStamp[entry] = piece
                entryLocal[entry] = s
            }
        }
        part.spellingEnds.append(Int32(part.spellingMentions.count))
    }

    /// The part built since the last call, its keys numbered by the worker's table; starts a fresh one.
    func finish() -> PostPart {
        var done = part
        done.keySource = tableSerial
        done.keyNumbers = keys.numbers
        part = PostPart()
        keys.reset()
        spellingIndex.removeAll(keepingCapacity: true)
        piece += 1
        return done
    }
}
