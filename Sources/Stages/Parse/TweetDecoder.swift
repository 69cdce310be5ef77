/// Decodes one record (a JSON line or document) into the tweets it holds.
///
/// One pass over the bytes recognises every encoding of SPEC §3 by its keys,
/// so a file may mix them record by record:
///
///     v1.1 status ............ {"id_str":…, "user":{…}, "entities":{…}, …}
///     v1.1 document .......... [status, …] · {"statuses":[…]} · {"results":[…]}
///     v2 page / stream line .. {"data":[…] or {…}, "includes":{"users":[…],"tweets":[…]}}
///     v2 (flattened) tweet ... {"id":"…", "author":{…}, "entities":{…}, "referenced_tweets":[…]}
///     account archive ........ [{"tweet":{…}}, …]
///     stream notice .......... {"delete":…} {"limit":…} …  (skipped, not bad)
///
/// Only the fields a report uses are located (ids, author, entities, the
/// retweeted tweet, texts); they stay as byte offsets into the record until
/// the extract stage asks for them. Everything else is skipped (and checked).
///
/// - Complexity: O(n) time in the record's length; memory O(tweets + mentions)
///   of the record, reused from one record to the next.
public final class TweetDecoder {
    /// What the current record decoded to: the parse stage's output.
    let record = DecodedRecord()
    /// Every tweet object found in the current record, top-level or nested.
    var objects: [TweetFields] = []
    /// What objects of other platforms hold (SPEC §16): `TweetFields.social` indexes it.
    var socials: [SocialFields] = []
    /// Facet byte ranges of Bluesky mentions (`SocialRecord.mentionRanges` indexes it).
    var facetRanges: [(start: Int, end: Int)] = []
    /// Where a Jetstream post's AT-URI is put together (reused from record to record).
    var uriBytes: [UInt8] = []
    /// A post's spellings of the DIDs it mentions, for the handle book (storage reused).
    var spellings = HandleBook.Spellings()
    /// What the short walk read of a Jetstream post's first members (`JetstreamNotice.swift`).
    var postStart = JetstreamPostStart()
    /// The lists of the last Bluesky record read, emptied (`blueskyRecord`).
    var recordLists = RecordLists()
    /// Post views the record shows (`SocialFields.embedded`, `.itemParent`, `.parentView` point here).
    var views: [EmbeddedView] = []
    /// Mention strings of all objects (the record's); `TweetFields` hold ranges into it.
    var spans: [ByteSpan] { record.spans }
    /// Indices into `objects` of the tweets the record stands for, in order.
    var outputs: [Int] = []
    /// Indices into `objects` of a v2 page's `includes.tweets`.
    private var includedTweets: [Int] = []

    /// Objects where a tweet was expected but that are not tweets.
    private(set) var rejected: [RejectedObject] = []
    /// Stream notices met in the record.
    private(set) var notices = 0

    private(set) var base: UnsafePointer<UInt8> = UnsafePointer(bitPattern: 1)!

    /// Whether `entities.symbols`/`cashtags` and `entities.urls` are read
    /// (SPEC §13); skipped as any other member unless a run counts or
    /// matches them.
    var readsSymbols = false
    var readsLinks = false
    /// Whether what `posts` needs is read (SPEC §15): replies, the quoted
    /// post's copy, and the copies of every referenced post.
    var readsReferences = false
    /// Whether the handle book hears what the records say of handles: the
    /// handles identity events and post views name (`nameHandle`), and how
    /// posts' texts spell the DIDs they mention (`spellHandles`). False
    /// where the run shows no account (`TweetConsumer.namesAccounts`).
    var readsHandles = true

    public init() {}

    /// Decodes `record`; afterwards `record` holds its tweets, and
    /// `rejected` and `notices` say what else it held.
    ///
    /// - Throws: `JSONError` when the record is not valid JSON; nothing of
    ///   it counts then.
    func decode(_ record: UnsafeRawBufferPointer) throws(JSONError) {
        var s = JSONScanner(record)
        reset(base: s.base)
        // Most of a Jetstream dump: a like, a follow, …; a post's first members read once (`JetstreamNotice.swift`).
        switch TweetDecoder.jetstreamEvent(record, start: &postStart) {
        case .notice:
            notices = 1
            return
        case .identity:
            // As `finishSocial` concludes an identity event: a notice, and the handle it names.
            notices = 1
            if let handle = postStart.identityHandle, !handle.isEmpty {
                nameHandle(did: postStart.identityDID ?? postStart.did, handle: handle, time: micros(postStart.time) ?? Int64.min,
                           spelled: postStart.identitySpelled)
            }
            return
        case .post:
            if jetstreamPost(postStart, in: record) {
                for index in outputs { self.record.append(socialTweet(index)) }
                return
            }
            reset(base: s.base)
        case .other:
            break
        }
        switch try s.peek() {
        case UInt8(ascii: "["):
            try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                try self.topLevelValue(&s)
            }
        case UInt8(ascii: "{"):
            try topLevelObject(&s)
        default:
            try s.skipValue()
            rejected.append(.notAnObject)
        }
        s.skipWhitespace()
        guard s.pos == s.count else { throw JSONError(offset: s.pos, reason: .trailingBytes) }
        for index in outputs { self.record.append(objects[index].social < 0 ? tweet(index) : socialTweet(index)) }
    }

    /// Object `index` as the later stages read it: long forms chosen, the
    /// retweeted tweet found.
    @inline(__always)
    private func tweet(_ index: Int) -> DecodedTweet {
        let f = objects[index]
        var t = DecodedTweet(id: f.id, hashtags: f.ownHashtags, users: f.ownUsers,
                             author: DecodedTweet.AuthorRef(name: f.author, id: f.authorID),
                             text: f.longText ?? f.fullText ?? f.text, createdAt: f.createdAt, lang: f.lang)
        t.symbols = f.ownSymbols
        t.links = f.ownLinks
        t.quoted = f.quoted
        t.markedRetweet = f.retweet != nil || f.retweetRef != nil
        t.hasEntities = f.hasEntities
        if let rt = retweet(of: index) {
            let r = objects[rt]
            t.retweeted = DecodedTweet.Retweeted(hashtags: r.ownHashtags, users: r.ownUsers,
                                                 author: DecodedTweet.AuthorRef(name: r.author, id: r.authorID),
                                                 text: r.longText ?? r.fullText ?? r.text,
                                                 symbols: r.ownSymbols, links: r.ownLinks, quoted: r.quoted)
        }
        if readsReferences { t.references = references(of: index) }
        return t
    }

    /// What SPEC §15 reads of object `index`: the posts it retweets and
    /// replies to, and the copies the record holds of the posts it names.
    private func references(of index: Int) -> DecodedTweet.References {
        let f = objects[index]
        var r = DecodedTweet.References()
        func copy(_ i: Int?, id: UInt64?) -> DecodedTweet.Copy? {
            guard let i, let id else { return nil }
            let o = objects[i]
            return DecodedTweet.Copy(id: id, author: DecodedTweet.AuthorRef(name: o.author, id: o.authorID),
                                     createdAt: o.createdAt, text: o.longText ?? o.fullText ?? o.text)
        }
        if let rt = f.retweet, objects[rt].idState == .valid {
            r.retweeted = objects[rt].id
        } else if let ref = f.retweetRef, objects[ref].idState == .valid {
            r.retweeted = objects[ref].id
        }
        r.retweetedCopy = copy(retweet(of: index), id: r.retweeted)
        if let q = f.quoted {
            r.quotedCopy = copy(f.quotedStatus.flatMap { objects[$0].idState == .valid && objects[$0].id == q ? $0 : nil }
                                ?? f.quotedRef.flatMap(referenced), id: q)
        }
        if let ref = f.replyRef, objects[ref].idState == .valid {
            r.repliedTo = objects[ref].id
        } else {
            r.repliedTo = f.replyTo
        }
        if let to = r.repliedTo {
            var c = copy(f.replyRef.flatMap(referenced), id: to) ?? DecodedTweet.Copy(id: to)
            if c.author.name == nil && c.author.id == nil {
                c.author = DecodedTweet.AuthorRef(name: f.replyName, id: f.replyUserID)
            }
            r.repliedCopy = c
        }
        return r
    }

    /// The post a `referenced_tweets` entry names: its `includes.tweets`
    /// entry, else the entry itself when a flattening tool wrote it inline.
    private func referenced(_ ref: Int) -> Int? {
        let entry = objects[ref]
        if entry.idState == .valid {
            for i in includedTweets where objects[i].idState == .valid && objects[i].id == entry.id { return i }
        }
        return entry.hasContent ? ref : nil
    }

    /// Forgets the previous record; keeps the buffers' capacity.
    private func reset(base: UnsafePointer<UInt8>) {
        Array.clear(&objects)
        Array.clear(&socials)
        Array.clear(&facetRanges)
        Array.clear(&views)
        record.reset(base: base)
        Array.clear(&outputs)
        Array.clear(&includedTweets)
        Array.clear(&rejected)
        notices = 0
        self.base = base
    }

    private func topLevelValue(_ s: inout JSONScanner) throws(JSONError) {
        if try s.peek() == UInt8(ascii: "{") {
            try topLevelObject(&s)
        } else {
            try s.skipValue()
            rejected.append(.notAnObject)
        }
    }

    /// An object at the top of a record: a tweet, a page or document holding
    /// tweets, an archive wrapper, or a notice.
    private func topLevelObject(_ s: inout JSONScanner) throws(JSONError) {
        conclude(try object(&s, level: 0, top: true))
    }

    /// What the top-level object `index` makes of the record: a tweet, a
    /// notice, a container of tweets (said by its own), or a rejection.
    @inline(__always)
    func conclude(_ index: Int) {
        // The fields read in place: a copy of them is 1 KB.
        if objects[index].isContainer { return }
        if objects[index].idState == .valid {
            outputs.append(index)
        } else if objects[index].notice {
            notices += 1
        } else {
            rejected.append(objects[index].rejection)
        }
    }

    /// Tweets nested in a page (`data`, `statuses`, `results`, `tweet`).
    func containedTweet(_ s: inout JSONScanner) throws(JSONError) {
        guard try s.peek() == UInt8(ascii: "{") else {
            try s.skipValue()
            rejected.append(.notAnObject)
            return
        }
        let index = try object(&s, level: 0, top: false)
        if objects[index].isContainer { return }
        switch objects[index].idState {
        case .valid: outputs.append(index)
        case .invalid, .absent:
            // A Bluesky page's item that is no post (an event of another kind) is a notice; a tweet page's never is.
            if objects[index].notice && objects[index].platform != .twitter { notices += 1 } else { rejected.append(objects[index].rejection) }
        }
    }

    /// Decodes one object into `objects` and returns its index.
    ///
    /// `level` 0 is a tweet that may carry a retweeted tweet; level 1 is a
    /// nested tweet, whose own nested tweets are skipped (bounded recursion).
    /// `top` allows the page and document keys.
    func object(_ s: inout JSONScanner, level: Int, top: Bool) throws(JSONError) -> Int {
        let index = objects.count
        objects.append(TweetFields())
        var f = TweetFields()
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            try self.member(&s, key: key, fields: &f, level: level, top: top)
        }
        if f.social >= 0 { finishSocial(&f) }
        objects[index] = f
        return index
    }

    private func member(_ s: inout JSONScanner, key: ByteSpan, fields f: inout TweetFields,
                        level: Int, top: Bool) throws(JSONError) {
        switch TweetKey.classify(key, s) {
        case .idStr:
            let v = try s.idValue()
            // `"id_str":""` beside a valid `id` leaves the id in charge; alone it is a bad id.
            if case .empty = v { if f.idState == .absent { f.idState = .invalid } ; return }
            f.setID(v, fromStr: true)
        case .id:
            let v = try s.idValue()
            if case .empty = v { if f.idState == .absent { f.idState = .invalid } ; return }
            if !f.idFromStr { f.setID(v, fromStr: false) }  // after an empty id_str too
        case .entities:
            f.hasContent = true
            f.hasEntities = true
            let e = try entities(&s)
            f.hashtags = e.hashtags; f.users = e.users; f.symbols = e.symbols; f.links = e.links
        case .text:
            f.hasContent = true
            f.text = try s.stringOrSkip()
        case .fullText:
            f.fullText = try s.stringOrSkip()
        case .user:
            f.author = try nameField(&s, "screen_name") ?? f.author
        case .author:
            f.hasContent = true
            try authorField(&s, into: &f)
        case .authorID:
            f.authorID = try s.stringOrSkip()
        case .extendedTweet, .noteTweet:
            try longForm(&s, into: &f)
        case .retweetedStatus:
            guard level == 0, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            f.retweet = try object(&s, level: 1, top: false)
        case .referencedTweets:
            guard level == 0, try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
            try references(&s, into: &f)
        case .type:
            f.refType = try s.stringOrSkip()
        case .createdAt:
            f.createdAt = try s.stringOrSkip()
        case .lang:
            f.lang = try s.stringOrSkip()
        case .quotedIDStr:
            if case .valid(let n) = try s.idValue() { f.quoted = n }
        case .quotedID:
            if case .valid(let n) = try s.idValue(), f.quoted == nil { f.quoted = n }
        case .quotedStatus:
            guard readsReferences, level == 0, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            f.quotedStatus = try object(&s, level: 1, top: false)
        case .replyIDStr:
            guard readsReferences else { try s.skipValue(); return }
            if case .valid(let n) = try s.idValue() { f.replyTo = n }
        case .replyID:
            guard readsReferences else { try s.skipValue(); return }
            if case .valid(let n) = try s.idValue(), f.replyTo == nil { f.replyTo = n }
        case .replyName:
            guard readsReferences else { try s.skipValue(); return }
            f.replyName = try s.stringOrSkip()
        case .replyUserID:
            guard readsReferences else { try s.skipValue(); return }
            f.replyUserID = try s.stringOrSkip()
        case .notice:
            f.notice = true
            try s.skipValue()
        case .data, .includes, .statuses, .results, .tweet, .meta, .errors:
            if top { try pageMember(&s, key: key, fields: &f) } else { try s.skipValue() }
        case .uri, .account, .content, .tags, .mentions, .card, .language, .reblog, .quote,
             .did, .kind, .timeUS, .commit, .identity, .record, .indexedAt, .post, .posts, .feed, .embed, .reply:
            try socialMember(&s, key: TweetKey.classify(key, s), fields: &f, level: level)
        case .other:
            try s.skipValue()
        }
    }

    /// Keys that make an object a page or document rather than a tweet.
    private func pageMember(_ s: inout JSONScanner, key: ByteSpan, fields f: inout TweetFields) throws(JSONError) {
        switch TweetKey.classify(key, s) {
        case .data:
            f.isContainer = true
            if try s.peek() == UInt8(ascii: "[") {
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in try self.containedTweet(&s) }
            } else if try s.peek() == UInt8(ascii: "{") {
                try containedTweet(&s)
            } else {
                try s.skipValue()
            }
        case .statuses, .results:
            f.isContainer = true
            guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
            try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in try self.containedTweet(&s) }
        case .tweet:
            f.isContainer = true
            try containedTweet(&s)
        case .includes:
            f.isContainer = true
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            try includes(&s)
        case .meta, .errors:
            f.isContainer = f.idState == .absent
            try s.skipValue()
        default:
            try s.skipValue()
        }
    }

    private func includes(_ s: inout JSONScanner) throws(JSONError) {
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            if s.key(key, is: "users"), try s.peek() == UInt8(ascii: "[") {
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                    var id: ByteSpan?, name: ByteSpan?
                    try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                        if s.key(k, is: "id") { id = try s.stringOrSkip() }
                        else if s.key(k, is: "username") { name = try s.stringOrSkip() }
                        else { try s.skipValue() }
                    }
                    if let id, let name { self.record.appendIncludedUser(id: id, name: name) }
                }
            } else if s.key(key, is: "tweets"), try s.peek() == UInt8(ascii: "[") {
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                    self.includedTweets.append(try self.object(&s, level: 1, top: false))
                }
            } else {
                try s.skipValue()
            }
        }
    }

    /// `referenced_tweets`: remembers the retweeted one; flattening tools
    /// write its fields inline in the entry.
    private func references(_ s: inout JSONScanner, into f: inout TweetFields) throws(JSONError) {
        try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            let ref = try self.object(&s, level: 1, top: false)
            let entry = self.objects[ref]
            guard let type = entry.refType else { return }
            if self.spanEquals(type, "retweeted") {
                f.retweetRef = ref
            } else if self.spanEquals(type, "quoted"), entry.idState == .valid {
                f.quoted = entry.id
                f.quotedRef = ref
            } else if self.readsReferences, self.spanEquals(type, "replied_to"), entry.idState == .valid {
                f.replyRef = ref
            }
        }
    }

    /// `extended_tweet` (v1.1) or `note_tweet` (v2): the long form.
    private func longForm(_ s: inout JSONScanner, into f: inout TweetFields) throws(JSONError) {
        // A duplicated key: the last value wins whole (README), so an earlier long form is forgotten.
        f.longHashtags = 0..<0; f.longUsers = 0..<0; f.longSymbols = 0..<0; f.longLinks = 0..<0
        f.hasLongEntities = false; f.longText = nil
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            if s.key(key, is: "entities") {
                let e = try self.entities(&s)
                f.longHashtags = e.hashtags; f.longUsers = e.users; f.longSymbols = e.symbols; f.longLinks = e.links
                f.hasLongEntities = true
                f.hasEntities = true
            } else if s.key(key, is: "full_text") || s.key(key, is: "text") {
                f.longText = try s.stringOrSkip()
            } else {
                try s.skipValue()
            }
        }
    }

    /// An `entities` object: hashtag and user-mention strings of both
    /// dialects, and (when read) symbols and links (SPEC §13).
    private func entities(_ s: inout JSONScanner) throws(JSONError) -> EntityRanges {
        var e = EntityRanges()
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return e }
        try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
            if s.key(key, is: "hashtags") {
                e.hashtags = try self.entityList(&s, "text", "tag")
            } else if s.key(key, is: "user_mentions") {
                e.users = try self.entityList(&s, "screen_name", "screen_name")
            } else if s.key(key, is: "mentions") {
                e.users = try self.entityList(&s, "username", "username")
            } else if self.readsSymbols && (s.key(key, is: "symbols") || s.key(key, is: "cashtags")) {
                e.symbols = try self.entityList(&s, "text", "tag")
            } else if self.readsLinks && s.key(key, is: "urls") {
                e.links = try self.linkList(&s)
            } else {
                try s.skipValue()
            }
        }
        return e
    }

    /// `entities.urls`: of each entry the first present of `unwound.url`
    /// (v1.1 enriched), `unwound_url` (v2), `expanded_url` and `url`, an
    /// empty string counting as absent; v2 entries with a `media_key`
    /// (photos and videos) are left out (SPEC §13).
    private func linkList(_ s: inout JSONScanner) throws(JSONError) -> Range<Int> {
        let start = record.spans.count
        guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return start..<start }
        try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            var unwound: ByteSpan?, unwoundURL: ByteSpan?, expanded: ByteSpan?, url: ByteSpan?, media = false
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                if s.key(k, is: "url") { url = try s.stringOrSkip() }
                else if s.key(k, is: "expanded_url") { expanded = try s.stringOrSkip() }
                else if s.key(k, is: "unwound_url") { unwoundURL = try s.stringOrSkip() }
                else if s.key(k, is: "unwound") {
                    if try s.peek() == UInt8(ascii: "{") { unwound = try s.stringMember("url") } else { try s.skipValue() }
                } else if s.key(k, is: "media_key") { media = true; try s.skipValue() }
                else { try s.skipValue() }
            }
            if media { return }
            func present(_ c: ByteSpan?) -> ByteSpan? { c.flatMap { $0.isEmpty ? nil : $0 } }
            if let c = present(unwound) ?? present(unwoundURL) ?? present(expanded) ?? present(url) { self.record.spans.append(c) }
        }
        return start..<record.spans.count
    }

    func entityList(_ s: inout JSONScanner, _ name1: StaticString, _ name2: StaticString) throws(JSONError) -> Range<Int> {
        let start = record.spans.count
        guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return start..<start }
        try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            if let found = try s.stringMember(name1, or: name2), !found.isEmpty { self.record.spans.append(found) }
        }
        return start..<record.spans.count
    }

    /// `{"screen_name": …}` inside `user`, or `{"username": …}` inside `author`.
    private func nameField(_ s: inout JSONScanner, _ name: StaticString) throws(JSONError) -> ByteSpan? {
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return nil }
        return try s.stringMember(name)
    }

    func spanEquals(_ span: ByteSpan, _ text: StaticString) -> Bool {
        JSONScanner(UnsafeRawBufferPointer(start: base, count: span.end)).key(span, is: text)
    }

    // MARK: Resolution

    /// The retweeted tweet of `index`: inline (`retweeted_status`, or a
    /// flattened reference), else the page's `includes.tweets` entry.
    func retweet(of index: Int) -> Int? {
        let f = objects[index]
        if let rt = f.retweet { return rt }
        guard let ref = f.retweetRef else { return nil }
        let entry = objects[ref]
        if entry.idState == .valid {
            for i in includedTweets where objects[i].idState == .valid && objects[i].id == entry.id { return i }
        }
        return entry.hasContent ? ref : nil
    }

    /// The author's screen name of `index`, direct or through `includes.users`.
    func author(of index: Int) -> ByteSpan? {
        record.name(DecodedTweet.AuthorRef(name: objects[index].author, id: objects[index].authorID))
    }

    /// The full text of `index`: the long form, else `full_text`, else `text`.
    func fullText(of index: Int) -> ByteSpan? {
        let f = objects[index]
        return f.longText ?? f.fullText ?? f.text
    }
}

// MARK: Tweets decoded elsewhere

extension TweetDecoder {
    /// Starts a record decoded by another decoder (a CSV row) whose strings
    /// live at `base` until the next record; the extract and match stages
    /// then read its tweet as they read a JSON one.
    func beginExternalRecord(base: UnsafePointer<UInt8>) { reset(base: base) }

    /// Adds a mention string of the external record.
    func appendExternal(_ span: ByteSpan) { record.spans.append(span) }

    var externalSpanCount: Int { record.spans.count }

    /// Adds a tweet object of the external record; returns its index.
    func appendExternal(_ fields: TweetFields) -> Int {
        objects.append(fields)
        return objects.count - 1
    }

    /// Makes object `index` one of the tweets the record stands for.
    func output(_ index: Int) {
        outputs.append(index)
        record.append(tweet(index))
    }
}

/// What the decoder found of one tweet object: offsets, never copies.
struct TweetFields {
    /// Index of the object's `SocialFields` in `TweetDecoder.socials`, when
    /// it has keys of another platform (SPEC §16); -1 for a tweet.
    var social: Int32 = -1
    var platform = Platform.twitter
    var id: UInt64 = 0
    var idState: IDState = .absent
    var idFromStr = false
    var author: ByteSpan?
    var authorID: ByteSpan?
    /// `entities` hashtags and user mentions: ranges into `TweetDecoder.spans`.
    var hashtags: Range<Int> = 0..<0
    var users: Range<Int> = 0..<0
    /// `extended_tweet.entities` or `note_tweet.entities`, used instead when present.
    var longHashtags: Range<Int> = 0..<0
    var longUsers: Range<Int> = 0..<0
    var hasLongEntities = false
    /// Symbols and links (SPEC §13), of `entities` and of the long form, when read.
    var symbols: Range<Int> = 0..<0
    var links: Range<Int> = 0..<0
    var longSymbols: Range<Int> = 0..<0
    var longLinks: Range<Int> = 0..<0
    /// The id of the tweet this one quotes (`quoted_status_id_str`, a `quoted` reference).
    var quoted: UInt64?
    /// Whether the object has an `entities` object (its own or its long form's), empty or not.
    var hasEntities = false
    var text: ByteSpan?
    var fullText: ByteSpan?
    var longText: ByteSpan?
    /// v1.1 `retweeted_status`, decoded inline.
    var retweet: Int?
    /// The v2 `referenced_tweets` entry of type `retweeted`.
    var retweetRef: Int?
    /// What `posts` reads (SPEC §15), when the decoder reads references:
    /// v1.1 `quoted_status` decoded inline; the v2 entries of type `quoted`
    /// and `replied_to`; v1.1 `in_reply_to_status_id(_str)` and
    /// `in_reply_to_screen_name`, v2 `in_reply_to_user_id`.
    var quotedStatus: Int?
    var quotedRef: Int?
    var replyRef: Int?
    var replyTo: UInt64?
    var replyName: ByteSpan?
    var replyUserID: ByteSpan?
    /// `created_at`: v1.1 `Wed Apr 06 19:13:37 +0000 2011` or v2 `2021-04-01T15:52:31.000Z`.
    var createdAt: ByteSpan?
    /// `lang`: `en`, `und`, …
    var lang: ByteSpan?
    /// `type` of a `referenced_tweets` entry.
    var refType: ByteSpan?
    /// Whether it carries more than a reference (text, entities or author).
    var hasContent = false
    var notice = false
    var isContainer = false

    /// Why it is not counted when its id is not valid.
    var rejection: RejectedObject {
        if idState == .invalid { return .badID }
        switch platform {
        case .twitter: return .noID
        case .bluesky: return .noBlueskyPost
        case .mastodon: return .noURI
        }
    }

    var ownHashtags: Range<Int> { hasLongEntities ? longHashtags : hashtags }
    var ownUsers: Range<Int> { hasLongEntities ? longUsers : users }
    var ownSymbols: Range<Int> { hasLongEntities ? longSymbols : symbols }
    var ownLinks: Range<Int> { hasLongEntities ? longLinks : links }

    mutating func setID(_ v: IDValue, fromStr: Bool) {
        switch v {
        case .valid(let n): id = n; idState = .valid
        case .invalid: idState = .invalid
        case .null, .empty: return  // `"id_str": null` leaves the numeric id in charge
        }
        if fromStr { idFromStr = true }
    }
}

enum IDState { case absent, valid, invalid }

/// What one `entities` object holds: ranges into the record's spans.
struct EntityRanges {
    var hashtags: Range<Int> = 0..<0
    var users: Range<Int> = 0..<0
    var symbols: Range<Int> = 0..<0
    var links: Range<Int> = 0..<0
}

enum IDValue {
    case valid(UInt64)
    case invalid
    case null
    /// `""`: beside a valid id, as if absent; alone, a bad id.
    case empty
}

/// Why an object that stood where a tweet should be was not counted.
public enum RejectedObject: Equatable, Sendable {
    case noID, badID, notAnObject
    /// A Mastodon status without the `uri` that is its identity (SPEC §16).
    case noURI
    /// A Bluesky event or view that lacks what makes it a post (DID, collection, record key, record or URI).
    case noBlueskyPost

    public var message: String {
        switch self {
        case .noID: return "not a tweet: the object has no id"
        case .badID: return "not a tweet: its id is not an unsigned 64-bit decimal integer"
        case .notAnObject: return "not a tweet: expected a JSON object"
        case .noURI: return "not a post: a Mastodon status without its uri (scheme://…, no white space)"
        case .noBlueskyPost: return "not a post: a Bluesky post needs its author's DID, its record and its AT-URI (or collection and record key), without white space"
        }
    }
}

extension JSONScanner {
    /// An id written as a number or a string of decimal digits.
    mutating func idValue() throws(JSONError) -> IDValue {
        let c = try peek()
        if c == UInt8(ascii: "\"") {
            let span = try readString()
            if span.isEmpty { return .empty }
            return JSONText.uint64(span, in: base).map(IDValue.valid) ?? .invalid
        }
        if c == UInt8(ascii: "-") || isDigit(c) {
            let span = try readNumber()
            return JSONText.uint64(span, in: base).map(IDValue.valid) ?? .invalid
        }
        if c == UInt8(ascii: "n") { try skipValue(); return .null }
        try skipValue()
        return .invalid
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
