/// The decoded intake of the one `PartBuilder`: a worker appends a decoded
/// post, its mentions interned in the worker's table, as the run's
/// `PostFields` ask — its id, the terms it matched, its mentions, and kind,
/// author, spellings, time, language and text when asked. The report's
/// consumer (`MatchCollector`, the matching posts) and the store's
/// (`StoreCollector`, every post) both build through it, so a store holds
/// exactly what a report of the dumps counts.
///
/// Keys are numbered once per part by their table ids (`LocalKeys`: an
/// array, no hashing); a spelling other than its key is kept once per part,
/// found by its table entry (an array too) when it has one.
struct TableNumbering {
    fileprivate var keys = LocalKeys()
    fileprivate let tableSerial: Int
    /// Per table entry (raw spelling): the part that last numbered it, and its number there.
    fileprivate var entryStamp: [Int32] = []
    fileprivate var entryLocal: [Int32] = []
    fileprivate var piece: Int32 = 0
    fileprivate var seen = SeenSpellings()
    /// The kinds counted, when the extractor adds more (for the terms); nil when it adds these alone.
    fileprivate let counted: MentionKinds?
    /// The part's authors whose `AuthorBook` numbers are asked for together when it is finished.
    fileprivate var pendingAuthors: [AuthorBook.Pending] = []
}

extension PartBuilder where Numbering == TableNumbering {
    /// - Parameter extracted: the kinds the worker's extractor adds.
    init(fields: PostFields, table: MentionTable, extracted: MentionKinds? = nil) {
        let counted = extracted.map { $0 == fields.mentionKinds ? nil : fields.mentionKinds } ?? nil
        self.init(fields: fields, numbering: TableNumbering(tableSerial: table.serial, counted: counted))
    }

    /// The part's index of table key `id`.
    @inline(__always)
    private mutating func local(_ id: Int32, _ table: MentionTable) -> Int32 {
        numbering.keys.local(id, table: table, into: &part.keys)
    }

    /// Appends `tweet` of `record`; `mask` is the terms it matched (nil for a store's part, which has none).
    @inline(__always)
    mutating func append(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                         reading: TweetReading, mask: UInt64?) {
        startPost(tweet.identity, mask: mask)
        if let counted = numbering.counted {
            // Mentions extracted for the terms alone (a `$sym` term under `--kinds hashtag,user`) are not counted.
            for id in mentions.ids where counted.has(table.kind(of: id)) { part.mentions.append(local(id, table)) }
        } else {
            for id in mentions.ids { part.mentions.append(local(id, table)) }
        }
        endMentions()
        var spells = fields.spellings
        if fields.times {
            let time = record.createdAt(of: tweet)
            addTime(time)
            if let within = fields.spellingsWithin { spells = spells && time.map(within.contains) == true }
        }
        if fields.texts { part.texts.append(record.fullText(of: tweet).map(record.string)) }
        if fields.languages { part.langs.append(record.language(of: tweet)) }
        if fields.any { gather(tweet, in: record, table: table, mentions: mentions, reading: reading, spellings: spells) }
        if fields.references { appendReferences(of: tweet) }
    }

    /// SPEC §15: what post `tweet` retweets, quotes and replies to. A
    /// retweet names only what it retweets (v1.1 repeats the retweeted
    /// post's quoted id on it; v2 does not).
    private mutating func appendReferences(of tweet: DecodedTweet) {
        let r = tweet.references
        if r.retweeted != nil || tweet.markedRetweet == true {
            addReferences(retweet: tweet.retweetedIdentity ?? r.retweeted.map(PostIdentity.of(tweetID:)) ?? PostPart.noPost,
                          quote: PostPart.noPost, reply: PostPart.noPost)
        } else {
            addReferences(retweet: PostPart.noPost,
                          quote: r.quotedIdentity ?? (tweet.quoted ?? r.quotedCopy?.id).map(PostIdentity.of(tweetID:)) ?? PostPart.noPost,
                          reply: r.repliedIdentity ?? r.repliedTo.map(PostIdentity.of(tweetID:)) ?? PostPart.noPost)
        }
    }

    /// SPEC §15: what `tweet` says of posts — of itself (its own record)
    /// and of each post it embeds a copy of — appended to the part's
    /// copies; called for every tweet read, before any filter (`references`).
    mutating func appendCopies(of tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable) {
        func author(_ name: ByteSpan?, _ builder: inout Self) -> Int32 {
            guard let a = name, let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) else { return -1 }
            return builder.local(id, table)
        }
        let own = author(record.author(of: tweet), &self)
        addCopy(tweet.identity, own: true, author: own,
                time: record.createdAt(of: tweet), text: fields.texts ? record.fullText(of: tweet).map(record.string) : nil)
        let r = tweet.references
        for c in [r.retweetedCopy, r.quotedCopy, r.repliedCopy] {
            guard let c else { continue }
            let a = author(record.name(c.author), &self), t = record.time(c.createdAt), text = fields.texts ? c.text : nil
            // A copy that says nothing of its post adds nothing.
            if a >= 0 || t != nil || text != nil {
                addCopy(c.isIdentity ? c.id : PostIdentity.of(tweetID: c.id), own: false, author: a, time: t,
                        text: text.map(record.string))
            }
        }
    }

    /// What SPEC §12.3's columns need of a post: its kind, its author, and
    /// each distinct spelling of each of its mentions.
    /// `spellings` false: the post carries none (`fields.spellingsWithin`).
    private mutating func gather(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                                 reading: TweetReading, spellings: Bool) {
        if fields.kinds { part.retweets.append(record.isRetweet(tweet, textMode: reading.textMode)) }
        if fields.authors {
            var author: Int32 = -1
            if let a = record.author(of: tweet) {
                if fields.authorsInBook {
                    // Numbered for the whole run: the same number on every worker, and no key of the part's;
                    // a short ASCII name (nearly every one) with the part's others when it is finished.
                    if let p = AuthorBook.pending(raw: record.bytes(a), escaped: a.escaped, index: Int32(part.authors.count)) {
                        numbering.pendingAuthors.append(p)
                    } else {
                        let (n, invalid) = AuthorBook.shared.number(raw: record.bytes(a), escaped: a.escaped)
                        if invalid { table.countInvalidUTF8() }
                        author = n ?? -1
                    }
                } else if let id = table.id(raw: record.bytes(a), escaped: a.escaped, kind: .user) {
                    author = local(id, table)
                }
            }
            part.authors.append(author)
        }
        guard fields.spellings else { return }
        guard spellings else { endSpellings(); return }
        // What the walk gives then, without its closure (nearly every tweet).
        if TweetSpellings.spelledAsKeys(mentions, reading: reading, kinds: fields.mentionKinds) {
            for id in mentions.ids { addSpelling(mention: local(id, table), spelling: PostPart.keySpelling) }
            endSpellings()
            return
        }
        // The set of spellings seen leaves the numbering while the closure below numbers keys (no overlapping access).
        var seen = SeenSpellings()
        swap(&seen, &numbering.seen)
        defer { swap(&seen, &numbering.seen) }
        TweetSpellings.forEach(tweet, in: record, table: table, mentions: mentions, reading: reading,
                               kinds: fields.mentionKinds, seen: &seen) { id, written, entry in
            let mention = local(id, table)
            guard let written else {
                addSpelling(mention: mention, spelling: PostPart.keySpelling)
                return
            }
            // The part's index of the spelling: by its table entry when it has one.
            if entry >= 0, entry < numbering.entryStamp.count, numbering.entryStamp[entry] == numbering.piece {
                addSpelling(mention: mention, spelling: numbering.entryLocal[entry])
                return
            }
            let s = spellingNumber(written)
            addSpelling(mention: mention, spelling: s)
            if entry >= 0 {
                if entry >= numbering.entryStamp.count {
                    numbering.entryStamp += Array(repeating: -1, count: entry + 1024 - numbering.entryStamp.count)
                    numbering.entryLocal += Array(repeating: 0, count: entry + 1024 - numbering.entryLocal.count)
                }
                numbering.entryStamp[entry] = numbering.piece
                numbering.entryLocal[entry] = s
            }
        }
        endSpellings()
    }

    /// SPEC §16: what a Bluesky post says a repost of it carries, and a
    /// repost waiting for its subject (`RepostJoins`).
    mutating func add(subject: RepostJoins.Subject) { part.joins.add(subject) }
    mutating func add(repost: RepostJoins.Repost) { part.joins.add(repost) }

    /// The part built since the last call, its keys numbered by the worker's table; starts a fresh one.
    mutating func finish() -> PostPart {
        if !numbering.pendingAuthors.isEmpty {
            AuthorBook.shared.number(of: numbering.pendingAuthors, into: &part.authors)
            numbering.pendingAuthors.removeAll(keepingCapacity: true)
        }
        var done = takePart()
        done.keySource = numbering.tableSerial
        done.keyNumbers = numbering.keys.numbers
        done.authorsInBook = fields.authors && fields.authorsInBook
        numbering.keys.reset()
        numbering.piece += 1
        return done
    }
}
