/// Posts of Bluesky and Mastodon (SPEC §16), recognised per record by their
/// keys in the same pass as tweets, and handed on as `DecodedTweet`s so
/// every later stage reads them as it reads tweets:
///
///     Mastodon Status ....... {"id","uri","created_at","account":{"acct","url"},"content",
///                              "tags":[{"name"}],"mentions":[{"acct","url"}],"card":{"url"},
///                              "language","reblog":null|Status,"quote":{"quoted_status":Status}}
///     Jetstream event ....... {"did","time_us","kind":"commit","commit":{"operation":"create",
///                              "collection":"app.bsky.feed.post"|"app.bsky.feed.repost","rkey","record"}}
///                             {"did","time_us","kind":"identity","identity":{"did","handle"}}  (a handle; a notice)
///     Bluesky post view ..... {"uri","author":{"did","handle"},"record":{…},"indexedAt"}
///     feed item, page ....... {"post":VIEW,…} · {"posts":[VIEW…]} · {"feed":[ITEM…]}
///
/// A post's identity is its URI (an AT-URI, a status `uri`), interned as a
/// `PostIdentity` number, so dedup is exact on the strings. Strings a post
/// does not hold as written — a Jetstream post's AT-URI, a Mastodon author
/// `user@host`, a status's text without its HTML, a tag trimmed of white
/// space, a post's languages joined — are composed in the record's arena.
/// Bluesky authors and mentioned users are keyed by DID (`@did:plc:…`);
/// `HandleBook` names them when the inputs do.
struct SocialFields {
    // Mastodon
    var uri: ByteSpan?
    var hasAccount = false
    var acct: ByteSpan?
    var accountURL: ByteSpan?
    var content: ByteSpan?
    /// `tags[].name`: spans.
    var tags: Range<Int> = 0..<0
    /// `mentions[]`: spans, two a mention (acct, url; an empty span for no url).
    var mentions: Range<Int> = 0..<0
    var cardURL: ByteSpan?
    var language: ByteSpan?
    var reblog: Int?
    /// `quote.quoted_status` (Mastodon 4.5's quotes), decoded inline when `posts` reads references.
    var quoted: Int?

    // Bluesky
    var did: ByteSpan?
    var eventKind: ByteSpan?
    var timeUS: ByteSpan?
    var operation: ByteSpan?
    var collection: ByteSpan?
    var rkey: ByteSpan?
    var record: SocialRecord?
    var authorDID: ByteSpan?
    var authorHandle: ByteSpan?
    var identityDID: ByteSpan?
    var identityHandle: ByteSpan?
    var identitySpelled: Int?
    var indexedAt: ByteSpan?
    /// A post view's own `embed`, when it shows a quoted post (read only for `posts`).
    /// The three views are places in `TweetDecoder.views` (-1: none), which keeps every record's fields small.
    var embedded: Int32 = -1
    /// A feed item: its post's object, and its `reply.parent` (the view of the post that post answers).
    var itemPost: Int?
    var itemParent: Int32 = -1
    /// A post: its feed item's `reply.parent`, when it came in one.
    var parentView: Int32 = -1
}

/// The post a view's `embed` shows (`app.bsky.embed.record#view`'s `record`,
/// or `recordWithMedia#view`'s `record.record`), or a feed item's
/// `reply.parent` view: what it says of that post.
struct EmbeddedView {
    var uri: ByteSpan?
    var did: ByteSpan?
    var createdAt: ByteSpan?
    var text: ByteSpan?
}

/// A Bluesky record (`app.bsky.feed.post` or `app.bsky.feed.repost`).
struct SocialRecord {
    var type: ByteSpan?
    var text: ByteSpan?
    var createdAt: ByteSpan?
    /// `langs`: spans.
    var langs: Range<Int> = 0..<0
    /// Tag facets' `tag` and `record.tags`, as written: spans.
    var tags: Range<Int> = 0..<0
    /// Mention facets' `did`: spans, with their byte ranges in `TweetDecoder.facetRanges`.
    var mentions: Range<Int> = 0..<0
    var mentionRanges: Range<Int> = 0..<0
    /// Link facets' `uri` and `embed.external.uri`: spans.
    var links: Range<Int> = 0..<0
    /// A repost's `subject.uri`.
    var subject: ByteSpan?
    /// A reply's `reply.parent.uri` (the post it answers; `root` is its thread's first).
    var replyParent: ByteSpan?
    /// The post a quote embeds: `embed.record.uri` (`app.bsky.embed.record`) or
    /// `embed.record.record.uri` (`app.bsky.embed.recordWithMedia`).
    var quoted: ByteSpan?
}

/// `blueskyRecord`'s lists, which a decoder keeps from one record to the
/// next, emptied, so that a post's lists allocate nothing.
struct RecordLists {
    var tags: [ByteSpan] = [], mentions: [ByteSpan] = [], links: [ByteSpan] = [], langs: [ByteSpan] = []
    /// Per mention, its facet's byte range.
    var ranges: [(Int, Int)] = []
    /// One facet's features: the value (tag, DID, link) and its kind (0, 1, 2).
    var features: [(ByteSpan, Int)] = []

    mutating func clear() {
        Array.clear(&tags); Array.clear(&mentions); Array.clear(&links); Array.clear(&langs); Array.clear(&ranges)
    }
}

extension TweetDecoder {
    /// Keeps a view for the record's fields to point at.
    private func keep(_ view: EmbeddedView) -> Int32 {
        views.append(view)
        return Int32(views.count - 1)
    }

    /// The view kept at `k` (-1: none).
    private func view(_ k: Int32) -> EmbeddedView? { k >= 0 ? views[Int(k)] : nil }

    func social(_ f: inout TweetFields) -> Int {
        if f.social < 0 {
            f.social = Int32(socials.count)
            socials.append(SocialFields())
        }
        return Int(f.social)
    }

    /// A member of a Jetstream event's `commit` object, into `socials[i]`.
    func commitMember(_ s: inout JSONScanner, key k: ByteSpan, social i: Int) throws(JSONError) {
        if s.key(k, is: "operation") { socials[i].operation = try s.stringOrSkip() }
        else if s.key(k, is: "collection") { socials[i].collection = try s.stringOrSkip() }
        else if s.key(k, is: "rkey") { socials[i].rkey = try s.stringOrSkip() }
        else if s.key(k, is: "record") {
            // A like, a follow, …: no post, its record only validated (Jetstream writes `collection` first).
            if let c = socials[i].collection, !spanEquals(c, "app.bsky.feed.post"), !spanEquals(c, "app.bsky.feed.repost") {
                try s.skipValue()
            } else {
                socials[i].record = try blueskyRecord(&s)
            }
        }
        else { try s.skipValue() }
    }

    /// A member of SPEC §16's shapes.
    func socialMember(_ s: inout JSONScanner, key: TweetKey, fields f: inout TweetFields, level: Int) throws(JSONError) {
        switch key {
        case .uri:
            let v = try s.stringOrSkip()
            socials[social(&f)].uri = v
        case .account:
            let i = social(&f)
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            socials[i].hasAccount = true
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                if s.key(k, is: "acct") { self.socials[i].acct = try s.stringOrSkip() }
                else if s.key(k, is: "url") { self.socials[i].accountURL = try s.stringOrSkip() }
                else { try s.skipValue() }
            }
        case .content:
            f.hasContent = true
            let v = try s.stringOrSkip()
            socials[social(&f)].content = v
        case .tags:
            let i = social(&f)
            socials[i].tags = try entityList(&s, "name", "name")
        case .mentions:
            let i = social(&f)
            let start = record.spans.count
            if try s.peek() == UInt8(ascii: "[") {
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                    var acct: ByteSpan?, url: ByteSpan?
                    try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                        if s.key(k, is: "acct") { acct = try s.stringOrSkip() }
                        else if s.key(k, is: "url") { url = try s.stringOrSkip() }
                        else { try s.skipValue() }
                    }
                    guard let acct, !acct.isEmpty else { return }
                    self.record.appendSpan(acct)
                    self.record.appendSpan(url ?? ByteSpan(start: 0, end: 0, escaped: false))
                }
            } else {
                try s.skipValue()
            }
            socials[i].mentions = start..<record.spans.count
        case .card:
            let i = social(&f)
            if try s.peek() == UInt8(ascii: "{") { socials[i].cardURL = try s.stringMember("url") } else { try s.skipValue() }
        case .language:
            let v = try s.stringOrSkip()
            socials[social(&f)].language = v
        case .reblog:
            let i = social(&f)
            guard level == 0, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            let rb = try object(&s, level: 1, top: false)
            socials[i].reblog = rb
        case .quote:
            // Mastodon's quote (4.5): `{"state","quoted_status":Status|null}`; only `posts` reads it, and only
            // a top-level status's (a reblog counts only as a reblog, as a retweet does).
            guard readsReferences, level == 0, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            var quoted: Int?
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                if s.key(k, is: "quoted_status"), try s.peek() == UInt8(ascii: "{") {
                    quoted = try self.object(&s, level: 1, top: false)
                } else {
                    try s.skipValue()
                }
            }
            if let quoted { socials[social(&f)].quoted = quoted }
        case .did:
            let v = try s.stringOrSkip()
            socials[social(&f)].did = v
        case .kind:
            let v = try s.stringOrSkip()
            socials[social(&f)].eventKind = v
        case .timeUS:
            let i = social(&f)
            if try s.peek() == UInt8(ascii: "\"") { socials[i].timeUS = try s.readString() }
            else if let c = try? s.peek(), c == UInt8(ascii: "-") || (c &- 0x30) < 10 { socials[i].timeUS = try s.readNumber() }
            else { try s.skipValue() }
        case .commit:
            let i = social(&f)
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                try self.commitMember(&s, key: k, social: i)
            }
        case .identity:
            let i = social(&f)
            guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                if s.key(k, is: "did") { self.socials[i].identityDID = try s.stringOrSkip() }
                else if s.key(k, is: "handle") { self.socials[i].identityHandle = try s.stringOrSkip() }
                else if s.key(k, is: "spelled") { self.socials[i].identitySpelled = try TweetDecoder.spelledCount(&s) }
                else { try s.skipValue() }
            }
        case .record:
            let i = social(&f)
            let r = try blueskyRecord(&s)
            socials[i].record = r
        case .indexedAt:
            let v = try s.stringOrSkip()
            socials[social(&f)].indexedAt = v
        case .embed:
            // A post view's `embed`: the quoted post as the API shows it, a copy of it for `posts` (SPEC §15).
            guard readsReferences, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            let view = try embeddedView(&s)
            if view.uri != nil { socials[social(&f)].embedded = keep(view) }
        case .post:
            // A feed item: its post view is the post; the item itself (its `reason`, a repost's) adds nothing.
            let i = social(&f)
            f.isContainer = true
            let post = objects.count
            try containedTweet(&s)
            if objects.count > post { socials[i].itemPost = post }
        case .reply:
            // A feed item's `reply`: the view of the post its post answers, a copy of it for `posts` (SPEC §15).
            guard readsReferences, try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            var parent: EmbeddedView?
            try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
                if s.key(k, is: "parent"), try s.peek() == UInt8(ascii: "{") {
                    parent = try self.viewRecord(&s, nested: false, value: "record")
                } else {
                    try s.skipValue()
                }
            }
            if let parent, parent.uri != nil { socials[social(&f)].itemParent = keep(parent) }
        case .posts, .feed:
            _ = social(&f)
            f.isContainer = true
            guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
            try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in try self.containedTweet(&s) }
        default:
            try s.skipValue()
        }
    }

    /// `author`: a v2 tweet's `{"username"}` or a Bluesky view's `{"did","handle"}`.
    func authorField(_ s: inout JSONScanner, into f: inout TweetFields) throws(JSONError) {
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
        var username: ByteSpan?, did: ByteSpan?, handle: ByteSpan?
        try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
            if s.key(k, is: "username") { username = try s.stringOrSkip() }
            else if s.key(k, is: "did") { did = try s.stringOrSkip() }
            else if s.key(k, is: "handle") { handle = try s.stringOrSkip() }
            else { try s.skipValue() }
        }
        if let username { f.author = username }
        if did != nil || handle != nil {
            let i = social(&f)
            socials[i].authorDID = did
            socials[i].authorHandle = handle
        }
    }

    /// The post an embed's view shows: `{"record":VIEW-RECORD}` (a record's
    /// view) or `{"record":{"record":VIEW-RECORD}}` (with media), whatever
    /// the order of the members; a record that shows no post (`uri` absent) is none.
    private func embeddedView(_ s: inout JSONScanner) throws(JSONError) -> EmbeddedView {
        var view = EmbeddedView()
        try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
            guard s.key(k, is: "record"), try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
            view = try self.viewRecord(&s, nested: true, value: "value")
        }
        return view
    }

    /// A `viewRecord` (or a post view, whose record is its `record`, not its
    /// `value`): its `uri`, its author's `did`, its record's `createdAt` and
    /// `text`; `nested`: with media, the record's view is its `record`.
    private func viewRecord(_ s: inout JSONScanner, nested: Bool, value: StaticString) throws(JSONError) -> EmbeddedView {
        var own = EmbeddedView(), inner: EmbeddedView?
        try s.forEachMember { (s: inout JSONScanner, m: ByteSpan) throws(JSONError) in
            if s.key(m, is: "uri") { own.uri = try s.stringOrSkip() }
            else if s.key(m, is: "author"), try s.peek() == UInt8(ascii: "{") { own.did = try s.stringMember("did") }
            else if s.key(m, is: value), try s.peek() == UInt8(ascii: "{") {
                try s.forEachMember { (s: inout JSONScanner, v: ByteSpan) throws(JSONError) in
                    if s.key(v, is: "createdAt") { own.createdAt = try s.stringOrSkip() }
                    else if s.key(v, is: "text") { own.text = try s.stringOrSkip() }
                    else { try s.skipValue() }
                }
            } else if nested, s.key(m, is: "record"), try s.peek() == UInt8(ascii: "{") {
                inner = try self.viewRecord(&s, nested: false, value: value)
            } else {
                try s.skipValue()
            }
        }
        return own.uri != nil ? own : inner ?? own
    }

    /// A Bluesky record: its text, time, languages, tags (facets and
    /// `tags`), mentions (facets, by DID, with their byte ranges), links
    /// (facets and an external embed), and a repost's subject.
    private func blueskyRecord(_ s: inout JSONScanner) throws(JSONError) -> SocialRecord? {
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return nil }
        var r = SocialRecord()
        // The lists of the last record, emptied: a post's lists cost no allocation (given back at the end).
        var lists = RecordLists()
        swap(&lists, &recordLists)
        try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
            if s.key(k, is: "$type") { r.type = try s.stringOrSkip() }
            else if s.key(k, is: "text") { r.text = try s.stringOrSkip() }
            else if s.key(k, is: "createdAt") { r.createdAt = try s.stringOrSkip() }
            else if s.key(k, is: "langs") {
                guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    if let l = try s.stringOrSkip(), !l.isEmpty { lists.langs.append(l) }
                }
            } else if s.key(k, is: "tags") {
                guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    if let t = try s.stringOrSkip() { lists.tags.append(t) }
                }
            } else if s.key(k, is: "facets") {
                guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    try self.facet(&s, &lists)
                }
            } else if s.key(k, is: "embed") {
                guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                var type: ByteSpan?, uri: ByteSpan?, inner: ByteSpan?
                try s.forEachMember { (s: inout JSONScanner, e: ByteSpan) throws(JSONError) in
                    if s.key(e, is: "external"), try s.peek() == UInt8(ascii: "{") {
                        if let uri = try s.stringMember("uri"), !uri.isEmpty { lists.links.append(uri) }
                    } else if s.key(e, is: "$type") {
                        type = try s.stringOrSkip()
                    } else if s.key(e, is: "record"), try s.peek() == UInt8(ascii: "{") {
                        // `{"uri","cid"}` (a record embed) or `{"record":{"uri","cid"}}` (with media).
                        try s.forEachMember { (s: inout JSONScanner, m: ByteSpan) throws(JSONError) in
                            if s.key(m, is: "uri") { uri = try s.stringOrSkip() }
                            else if s.key(m, is: "record"), try s.peek() == UInt8(ascii: "{") { inner = try s.stringMember("uri") }
                            else { try s.skipValue() }
                        }
                    } else {
                        try s.skipValue()
                    }
                }
                if let type {
                    if self.spanEquals(type, "app.bsky.embed.record") { r.quoted = uri }
                    else if self.spanEquals(type, "app.bsky.embed.recordWithMedia") { r.quoted = inner }
                }
            } else if s.key(k, is: "reply") {
                guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                try s.forEachMember { (s: inout JSONScanner, m: ByteSpan) throws(JSONError) in
                    if s.key(m, is: "parent"), try s.peek() == UInt8(ascii: "{") { r.replyParent = try s.stringMember("uri") }
                    else { try s.skipValue() }
                }
            } else if s.key(k, is: "subject") {
                if try s.peek() == UInt8(ascii: "{") { r.subject = try s.stringMember("uri") } else { try s.skipValue() }
            } else {
                try s.skipValue()
            }
        }
        func append(_ list: [ByteSpan]) -> Range<Int> {
            let start = record.spanCount
            for x in list { record.appendSpan(x) }
            return start..<record.spanCount
        }
        r.langs = append(lists.langs)
        r.tags = append(lists.tags)
        r.mentions = append(lists.mentions)
        r.links = append(lists.links)
        let start = facetRanges.count
        for (a, b) in lists.ranges { facetRanges.append((a, b)) }
        r.mentionRanges = start..<facetRanges.count
        lists.clear()
        swap(&lists, &recordLists)
        return r
    }

    /// One facet: its byte range and its features (tag, mention, link).
    private func facet(_ s: inout JSONScanner, _ lists: inout RecordLists) throws(JSONError) {
        guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
        var start = -1, end = -1
        var features: [(ByteSpan, Int)] = []
        swap(&features, &lists.features)
        defer { Array.clear(&features); swap(&features, &lists.features) }
        try s.forEachMember { (s: inout JSONScanner, k: ByteSpan) throws(JSONError) in
            if s.key(k, is: "index") {
                guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                try s.forEachMember { (s: inout JSONScanner, i: ByteSpan) throws(JSONError) in
                    if s.key(i, is: "byteStart") || s.key(i, is: "byteEnd") {
                        let isStart = s.key(i, is: "byteStart")
                        guard let c = try? s.peek(), (c &- 0x30) < 10 else { try s.skipValue(); return }
                        let n = try s.readNumber()
                        let v = JSONText.uint64(n, in: s.base).flatMap { $0 < 1 << 31 ? Int($0) : nil } ?? -1
                        if isStart { start = v } else { end = v }
                    } else {
                        try s.skipValue()
                    }
                }
            } else if s.key(k, is: "features") {
                guard try s.peek() == UInt8(ascii: "[") else { try s.skipValue(); return }
                try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                    guard try s.peek() == UInt8(ascii: "{") else { try s.skipValue(); return }
                    var type: ByteSpan?, tag: ByteSpan?, did: ByteSpan?, uri: ByteSpan?
                    try s.forEachMember { (s: inout JSONScanner, m: ByteSpan) throws(JSONError) in
                        if s.key(m, is: "$type") { type = try s.stringOrSkip() }
                        else if s.key(m, is: "tag") { tag = try s.stringOrSkip() }
                        else if s.key(m, is: "did") { did = try s.stringOrSkip() }
                        else if s.key(m, is: "uri") { uri = try s.stringOrSkip() }
                        else { try s.skipValue() }
                    }
                    guard let type else { return }
                    if self.spanEquals(type, "app.bsky.richtext.facet#tag"), let tag { features.append((tag, 0)) }
                    else if self.spanEquals(type, "app.bsky.richtext.facet#mention"), let did, !did.isEmpty { features.append((did, 1)) }
                    else if self.spanEquals(type, "app.bsky.richtext.facet#link"), let uri, !uri.isEmpty { features.append((uri, 2)) }
                }
            } else {
                try s.skipValue()
            }
        }
        for (value, kind) in features {
            switch kind {
            case 0: lists.tags.append(value)
            case 1: lists.mentions.append(value); lists.ranges.append((start, end))
            default: lists.links.append(value)
            }
        }
    }

    /// Decides what an object with keys of another platform is, once all its keys are read.
    func finishSocial(_ f: inout TweetFields) {
        let xi = Int(f.social)  // read in place: a copy of the fields is 1 KB
        if let post = socials[xi].itemPost, case let parent = socials[xi].itemParent, parent >= 0, objects[post].social >= 0 {
            // A feed item: what its `reply.parent` shows goes with its post, whichever member came first.
            socials[Int(objects[post].social)].parentView = parent
        }
        if let kind = socials[xi].eventKind, socials[xi].did != nil || socials[xi].identityDID != nil {
            // A Jetstream event: a post or a repost created is a post; an identity names a handle; the rest
            // (an `account` event too, though its `account` object looks like a status's) are notices.
            f.platform = .bluesky
            f.idState = .absent
            if spanEquals(kind, "identity") {
                f.notice = true
                if let did = socials[xi].identityDID ?? socials[xi].did, let handle = socials[xi].identityHandle, !handle.isEmpty {
                    nameHandle(did: did, handle: handle, time: micros(socials[xi].timeUS) ?? Int64.min, spelled: socials[xi].identitySpelled)
                }
                return
            }
            guard spanEquals(kind, "commit"), let op = socials[xi].operation, spanEquals(op, "create"),
                  let collection = socials[xi].collection,
                  spanEquals(collection, "app.bsky.feed.post") || spanEquals(collection, "app.bsky.feed.repost") else {
                f.notice = true
                return
            }
            guard let did = socials[xi].did, !did.isEmpty, let rkey = socials[xi].rkey, !rkey.isEmpty, socials[xi].record != nil else { return }
            // A DID or rkey with white space makes no URI that extract lines could carry: no identity.
            guard let id = atURI(did: did, collection: collection, rkey: rkey) else { return }
            f.id = id
            f.idState = .valid
            return
        }
        if socials[xi].hasAccount || socials[xi].content != nil && socials[xi].uri != nil {
            // A Mastodon Status: its `uri` is its identity (its `id` is the server's own).
            f.platform = .mastodon
            // A `uri` that is no URI (no scheme, white space) could not be written out and read back: none.
            if let uri = socials[xi].uri, let id = identity(ofURI: uri) {
                f.id = id
                f.idState = .valid
            } else {
                f.idState = .absent
            }
            return
        }
        if socials[xi].record != nil || socials[xi].authorDID != nil {
            // A post view: its AT-URI, its author's DID (and handle, for the book), its record.
            f.platform = .bluesky
            guard let uri = socials[xi].uri, let id = identity(ofURI: uri), let did = socials[xi].authorDID, !did.isEmpty, socials[xi].record != nil else {
                f.idState = .absent
                return
            }
            f.id = id
            f.idState = .valid
            if let handle = socials[xi].authorHandle, !handle.isEmpty {
                let time = socials[xi].indexedAt.flatMap { CreatedAt.parse(record.string($0), noOffsetIsUTC: true) }.map { $0 * 1_000_000 }
                    ?? socials[xi].record?.createdAt.flatMap { CreatedAt.parse(record.string($0), noOffsetIsUTC: true) }.map { $0 * 1_000_000 }
                    ?? Int64.min
                nameHandle(did: did, handle: handle, time: time, spelled: nil)
            }
        }
        // Other objects with such keys (a page's `posts`, a feed item) are containers or tweets as they were.
    }

    /// Tells the handle book that `did` is `handle` (an identity event, a
    /// post view's author): by their bytes where both are written unescaped
    /// (no string is normalised for the many that are their own form), else
    /// by their decoded strings. Nothing where the run shows no account.
    func nameHandle(did: ByteSpan, handle: ByteSpan, time: Int64, spelled: Int?) {
        guard readsHandles else { return }
        if !did.escaped && !handle.escaped {
            HandleBook.shared.identity(didBytes: record.bytes(did), handleBytes: record.bytes(handle), time: time, spelled: spelled)
        } else {
            HandleBook.shared.identity(did: record.string(did), handle: record.string(handle), time: time, spelled: spelled)
        }
    }

    /// The identity of `at://DID/COLLECTION/RKEY`, put together as bytes
    /// (a string only the first time the URI is met).
    private func atURI(did: ByteSpan, collection: ByteSpan, rkey: ByteSpan) -> UInt64? {
        if let id = plainATURI(did: did, collection: collection, rkey: rkey) { return id }
        uriBytes.removeAll(keepingCapacity: true)
        func append(_ span: ByteSpan) {
            let raw = UnsafeBufferPointer(start: base + span.start, count: span.end - span.start)
            if span.escaped { uriBytes.append(contentsOf: JSONText.unescape(raw)) } else { uriBytes.append(contentsOf: raw) }
        }
        uriBytes.append(contentsOf: "at://".utf8)
        append(did)
        uriBytes.append(UInt8(ascii: "/"))
        append(collection)
        uriBytes.append(UInt8(ascii: "/"))
        append(rkey)
        return uriBytes.withUnsafeBytes { bytes in
            // `at://` makes it a URI unless it holds white space; beyond ASCII, as Swift's `isURI` knows it (NBSP, …).
            if let ok = PostIdentity.isASCIIURI(bytes) { return ok ? PostIdentity.interned(bytes: bytes) : nil }
            return PostIdentity.isURI(String(decoding: bytes, as: UTF8.self)) ? PostIdentity.interned(bytes: bytes) : nil
        }
    }

    /// `atURI` of parts as nearly every event writes them, unescaped and of
    /// visible ASCII only (so `at://` makes the URI one): copied into the
    /// scratch bytes in three moves. Nil for any other parts, which
    /// `atURI` puts together and checks byte by byte.
    @inline(__always)
    private func plainATURI(did: ByteSpan, collection: ByteSpan, rkey: ByteSpan) -> UInt64? {
        guard !did.escaped, !collection.escaped, !rkey.escaped,
              TweetDecoder.isVisibleASCII(base + did.start, did.end &- did.start),
              TweetDecoder.isVisibleASCII(base + collection.start, collection.end &- collection.start),
              TweetDecoder.isVisibleASCII(base + rkey.start, rkey.end &- rkey.start) else { return nil }
        let d = did.end &- did.start, c = collection.end &- collection.start, r = rkey.end &- rkey.start
        let total = 7 &+ d &+ c &+ r
        if uriBytes.count < total { uriBytes = [UInt8](repeating: 0, count: max(total, 512)) }
        let base = self.base
        return uriBytes.withUnsafeMutableBytes { buffer in
            let p = buffer.baseAddress!
            // "at://" as five bytes.
            p.storeBytes(of: 0x2F3A_7461, as: UInt32.self)
            p.storeBytes(of: UInt8(ascii: "/"), toByteOffset: 4, as: UInt8.self)
            var at = 5
            p.advanced(by: at).copyMemory(from: base + did.start, byteCount: d); at &+= d
            p.storeBytes(of: UInt8(ascii: "/"), toByteOffset: at, as: UInt8.self); at &+= 1
            p.advanced(by: at).copyMemory(from: base + collection.start, byteCount: c); at &+= c
            p.storeBytes(of: UInt8(ascii: "/"), toByteOffset: at, as: UInt8.self); at &+= 1
            p.advanced(by: at).copyMemory(from: base + rkey.start, byteCount: r)
            return PostIdentity.interned(bytes: UnsafeRawBufferPointer(start: p, count: total))
        }
    }

    /// Whether the `n` bytes at `p` are all visible ASCII (0x21–0x7E, or
    /// 0x7F): no white space, nothing beyond ASCII. Eight bytes at a time.
    @inline(__always)
    static func isVisibleASCII(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        var i = 0, bad: UInt64 = 0
        while i &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // The top bit of a byte of 0x80 or more, or of one below 0x21.
            bad |= (w | (w &- 0x2121_2121_2121_2121)) & 0x8080_8080_8080_8080
            i &+= 8
        }
        while i < n { bad |= UInt64(p[i] &- 0x21 >= 0x5F ? 0x80 : 0); i &+= 1 }
        return bad == 0
    }

    /// Microseconds of a `time_us` span.
    func micros(_ span: ByteSpan?) -> Int64? {
        guard let span, let n = JSONText.uint64(span, in: base), n < UInt64(Int64.max) else { return nil }
        return Int64(n)
    }

    /// Object `index`, a post of another platform, as the later stages read it.
    func socialTweet(_ index: Int) -> DecodedTweet {
        // The fields read one by one, in place: a copy of them is 1 KB.
        let xi = Int(objects[index].social), platform = objects[index].platform
        var t = DecodedTweet(id: objects[index].id)
        t.platform = platform
        t.hasEntities = true
        t.markedRetweet = false
        switch platform {
        case .mastodon:
            fillMastodon(&t, socials[xi], createdAt: objects[index].createdAt)
            if let rb = socials[xi].reblog, objects[rb].social >= 0 {
                var inner = DecodedTweet(id: 0)
                let rx = socials[Int(objects[rb].social)]
                fillMastodon(&inner, rx, createdAt: objects[rb].createdAt)
                t.retweeted = DecodedTweet.Retweeted(hashtags: inner.hashtags, users: inner.users, author: inner.author,
                                                     text: inner.text, symbols: 0..<0, links: inner.links, quoted: nil)
                t.markedRetweet = true
                // What `posts` counts (SPEC §15): the reblogged status (when its `uri` is one), and this copy of it.
                if objects[rb].idState == .valid {
                    let id = objects[rb].id
                    t.retweetedIdentity = id
                    if readsReferences {
                        t.references.retweetedCopy = DecodedTweet.Copy(id: id, author: inner.author, createdAt: inner.createdAt,
                                                                        text: inner.text, isIdentity: true)
                    }
                }
            } else if let q = socials[xi].quoted, objects[q].social >= 0, objects[q].idState == .valid {
                // A quote (read only for `posts`): of the quoted status, whose copy says its author, time and text.
                var inner = DecodedTweet(id: 0)
                fillMastodon(&inner, socials[Int(objects[q].social)], createdAt: objects[q].createdAt)
                let id = objects[q].id
                t.references.quotedIdentity = id
                t.references.quotedCopy = DecodedTweet.Copy(id: id, author: inner.author, createdAt: inner.createdAt,
                                                             text: inner.text, isIdentity: true)
            }
        case .bluesky:
            t.author = DecodedTweet.AuthorRef(name: socials[xi].did ?? socials[xi].authorDID, id: nil)
            if let micros = micros(socials[xi].timeUS) { t.fallbackTime = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000 }
            if let r = socials[xi].record {
                t.text = r.text
                t.createdAt = r.createdAt
                t.hashtags = trimmedTags(r.tags)
                t.users = r.mentions
                t.links = r.links
                t.lang = joined(r.langs)
                if readsHandles, let text = r.text { spellHandles(r, text: text, post: t.id) }
                if readsReferences {
                    // What `posts` counts (SPEC §15): the post it answers and the post it quotes, each a post's AT-URI
                    // (a record embed may show a list or a feed instead: no post).
                    t.references.repliedIdentity = r.replyParent.flatMap(postURI)
                    t.references.quotedIdentity = r.quoted.flatMap(postURI)
                    // Each AT-URI names its author (its repo's DID), as `in_reply_to_screen_name` does; a view of the post says more.
                    t.references.repliedCopy = referenceCopy(t.references.repliedIdentity, r.replyParent, shownBy: view(socials[xi].parentView))
                    t.references.quotedCopy = referenceCopy(t.references.quotedIdentity, r.quoted, shownBy: view(socials[xi].embedded))
                }
                if let collection = socials[xi].collection, spanEquals(collection, "app.bsky.feed.repost") {
                    // A repost: a retweet of its subject, whose mentions and text it
                    // carries once the run has read the subject (`RepostJoin`).
                    t.markedRetweet = true
                    t.references = DecodedTweet.References()
                    t.text = nil
                    t.hashtags = 0..<0
                    t.users = 0..<0
                    t.links = 0..<0
                    // A subject that is no URI (white space, no scheme) could not be written out and read back: none.
                    if let subject = r.subject { t.retweetedIdentity = identity(ofURI: subject) }
                    if readsReferences { t.references.retweetedCopy = authorCopy(t.retweetedIdentity, r.subject) }
                }
            }
        case .twitter:
            break
        }
        return t
    }

    /// The identity of a URI written in the record (a status's `uri`, a
    /// view's, a repost's subject); nil when it is no URI (`isURI`). ASCII
    /// as written is checked and interned from its bytes, no string made.
    func identity(ofURI span: ByteSpan) -> UInt64? {
        if !span.escaped {
            let bytes = UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
            if let ok = PostIdentity.isASCIIURI(bytes) { return ok ? PostIdentity.interned(bytes: bytes) : nil }
        }
        let uri = record.string(span)
        return PostIdentity.isURI(uri) ? PostIdentity.interned(uri) : nil
    }

    /// What a post says of the post it answers or quotes (`id`, its AT-URI
    /// `uri`): the author its AT-URI names, and what a view of it the record
    /// holds says (a feed item's `reply.parent`, a view's own `embed`: its
    /// author's DID, time and text) when the view shows that very post.
    private func referenceCopy(_ id: UInt64?, _ uri: ByteSpan?, shownBy view: EmbeddedView?) -> DecodedTweet.Copy? {
        guard let id else { return nil }
        let named = authorCopy(id, uri)
        guard let view, let shown = view.uri, postURI(shown) == id,
              view.did?.isEmpty == false || view.createdAt != nil || view.text != nil else { return named }
        let author = view.did?.isEmpty == false ? view.did : named?.author.name
        return DecodedTweet.Copy(id: id, author: DecodedTweet.AuthorRef(name: author, id: nil),
                                 createdAt: view.createdAt, text: view.text, isIdentity: true)
    }

    /// What a post's AT-URI says of it: its author, the DID of the repo it
    /// names (`at://DID/…`); nil for an authority that is a handle.
    private func authorCopy(_ id: UInt64?, _ uri: ByteSpan?) -> DecodedTweet.Copy? {
        guard let id, let uri, let did = authorDID(ofURI: uri) else { return nil }
        return DecodedTweet.Copy(id: id, author: DecodedTweet.AuthorRef(name: did, id: nil), isIdentity: true)
    }

    /// The DID of `at://DID/…`, as a span of the record.
    private func authorDID(ofURI span: ByteSpan) -> ByteSpan? {
        if !span.escaped {
            let p = base + span.start, n = span.end - span.start
            guard n > 9, JSONScanner.sameBytes(p, ("at://did:" as StaticString).utf8Start, 9) else { return nil }
            var i = 9
            while i < n && p[i] != UInt8(ascii: "/") { i += 1 }
            return ByteSpan(start: span.start + 5, end: span.start + i, escaped: false)
        }
        let uri = record.string(span)
        guard uri.hasPrefix("at://did:") else { return nil }
        return record.composed(String(uri.dropFirst(5).prefix(while: { $0 != "/" })))
    }

    /// The identity of a Bluesky post's AT-URI (`at://AUTHORITY/app.bsky.feed.post/RKEY`); nil for another record's.
    private func postURI(_ span: ByteSpan) -> UInt64? {
        let uri = record.string(span)
        guard uri.hasPrefix("at://"), PostIdentity.isURI(uri) else { return nil }
        let parts = uri.utf8.dropFirst(5).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[2].isEmpty,
              parts[1].elementsEqual("app.bsky.feed.post".utf8) else { return nil }
        return PostIdentity.interned(uri)
    }

    /// A Mastodon status's author, tags, mentions, links, text, time and language.
    private func fillMastodon(_ t: inout DecodedTweet, _ x: SocialFields, createdAt: ByteSpan?) {
        if let acct = x.acct, !acct.isEmpty { t.author = DecodedTweet.AuthorRef(name: account(acct, url: x.accountURL), id: nil) }
        t.hashtags = x.tags
        let start = record.spanCount
        var k = x.mentions.lowerBound
        while k + 1 < x.mentions.upperBound {
            let url = record.spans[k + 1]
            record.appendSpan(account(record.spans[k], url: url.isEmpty ? nil : url))
            k += 2
        }
        t.users = start..<record.spanCount
        let linkStart = record.spanCount
        if let card = x.cardURL, !card.isEmpty { record.appendSpan(card) }
        if let content = x.content {
            let html = MastodonContent(record.bytes(content), escaped: content.escaped)
            for link in html.links { record.appendSpan(record.composed(link)) }
            t.text = record.composed(html.text)
        }
        t.links = linkStart..<record.spanCount
        t.createdAt = createdAt
        t.lang = x.language
    }

    /// `user@host`: an `acct` as written when it names its server, else with
    /// the host (lowercased, no port) of the account's `url`.
    private func account(_ acct: ByteSpan, url: ByteSpan?) -> ByteSpan {
        let name = record.string(acct)
        guard !name.contains("@"), let url, let host = MastodonContent.host(of: record.string(url)) else {
            return acct
        }
        return record.composed(name + "@" + host)
    }

    /// Tags trimmed of surrounding white space and one leading `#` (and of
    /// white space after it: `"# baz"` is `#baz`, not a key no term could
    /// name); an empty one is none.
    private func trimmedTags(_ tags: Range<Int>) -> Range<Int> {
        let start = record.spanCount
        for i in tags {
            let span = record.spans[i]
            if !span.escaped, span.end > span.start {
                // Most tags begin and end with an ASCII byte that is neither white space nor `#`: kept as written.
                let first = base[span.start], last = base[span.end - 1]
                if first < 0x80, last < 0x80, first != UInt8(ascii: "#"), !Self.isASCIISpace(first), !Self.isASCIISpace(last) {
                    record.appendSpan(span)
                    continue
                }
                // A tag beyond ASCII (東京, café) without a scalar of white space anywhere: nothing to trim either.
                if first != UInt8(ascii: "#"), Self.holdsNoWhiteSpace(base + span.start, span.end &- span.start) {
                    record.appendSpan(span)
                    continue
                }
            }
            let raw = record.string(span)
            var t = Substring(raw)
            while let c = t.first, c.isWhitespace { t.removeFirst() }
            while let c = t.last, c.isWhitespace { t.removeLast() }
            if t.first == "#" {
                t.removeFirst()
                while let c = t.first, c.isWhitespace { t.removeFirst() }
            }
            guard !t.isEmpty else { continue }
            record.appendSpan(t.utf8.count == raw.utf8.count && !span.escaped ? span : record.composed(String(t)))
        }
        return start..<record.spanCount
    }

    /// A post's languages, joined by `,` when more than one.
    private func joined(_ langs: Range<Int>) -> ByteSpan? {
        if langs.isEmpty { return nil }
        if langs.count == 1 { return record.spans[langs.lowerBound] }
        return record.composed(langs.map { record.string(record.spans[$0]) }.joined(separator: ","))
    }

    /// Tells the handle book how the text of post `post` (its identity)
    /// spells each mentioned DID at its facet's bytes, in one call a post (the
    /// book counts a post's spellings once, however many copies are read).
    private func spellHandles(_ r: SocialRecord, text: ByteSpan, post: UInt64) {
        guard !r.mentions.isEmpty else { return }
        let raw = UnsafeBufferPointer(start: base + text.start, count: text.end - text.start)
        spellings.removeAll()
        if text.escaped {
            JSONText.unescape(raw).withUnsafeBufferPointer { spellHandles(r, in: $0, post: post) }
        } else {
            spellHandles(r, in: raw, post: post)
        }
    }

    private func spellHandles(_ r: SocialRecord, in bytes: UnsafeBufferPointer<UInt8>, post: UInt64) {
        for (k, i) in r.mentions.enumerated() {
            let (a, b) = facetRanges[r.mentionRanges.lowerBound + k]
            guard a >= 0, b > a, b <= bytes.count else { continue }
            let range = UnsafeBufferPointer(rebasing: bytes[a..<b])
            // The range trimmed of white space, then of one `@`: what is left, with no white space in it, is the handle.
            if range.allSatisfy({ $0 < 0x80 }) {
                // ASCII (nearly every handle): white space is a byte.
                var lo = 0, hi = range.count
                while lo < hi && Self.isASCIISpace(range[lo]) { lo += 1 }
                while hi > lo && Self.isASCIISpace(range[hi - 1]) { hi -= 1 }
                if lo < hi && range[lo] == UInt8(ascii: "@") { lo += 1 }
                let name = UnsafeBufferPointer(rebasing: range[lo..<hi])
                guard !name.isEmpty, !name.contains(where: Self.isASCIISpace) else { continue }
                let did = record.spans[i]
                if !did.escaped {
                    // The DID as written and the handle's bytes: no string made for a spelling met before.
                    spellings.append(didBytes: record.bytes(did), handleBytes: UnsafeRawBufferPointer(name))
                } else {
                    spellings.append(did: record.string(did), handle: String(decoding: name, as: UTF8.self))
                }
            } else {
                // A range that cuts a character (or bytes that are not UTF-8) spells no handle.
                guard let whole = String(validating: range, as: UTF8.self) else { continue }
                var s = Substring(whole)
                while let c = s.first, c.isWhitespace { s.removeFirst() }
                while let c = s.last, c.isWhitespace { s.removeLast() }
                if s.hasPrefix("@") { s.removeFirst() }
                guard !s.isEmpty, !s.contains(where: { $0.isWhitespace }) else { continue }
                spellings.append(did: record.string(record.spans[i]), handle: String(s))
            }
        }
        // Within the call: the bytes appended point into `bytes` and the record.
        HandleBook.shared.spelled(post: post, spellings)
        spellings.removeAll()
    }

    /// Whether valid UTF-8 bytes hold no scalar of Unicode's White_Space
    /// (U+0009–000D, U+0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028,
    /// U+2029, U+202F, U+205F, U+3000), the property `Character.isWhitespace`
    /// reads. It errs only towards no: any byte up to 0x20, and all of
    /// U+2000–207F, count as white space.
    static func holdsNoWhiteSpace(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i < n {
            let c = p[i]
            if c < 0x80 {
                if c <= 0x20 { return false }
            } else if c == 0xC2 {
                if i &+ 1 < n && (p[i &+ 1] == 0x85 || p[i &+ 1] == 0xA0) { return false }
            } else if c == 0xE1 {
                if i &+ 2 < n && p[i &+ 1] == 0x9A && p[i &+ 2] == 0x80 { return false }
            } else if c == 0xE2 {
                if i &+ 1 < n && (p[i &+ 1] == 0x80 || p[i &+ 1] == 0x81) { return false }
            } else if c == 0xE3 {
                if i &+ 2 < n && p[i &+ 1] == 0x80 && p[i &+ 2] == 0x80 { return false }
            }
            i &+= 1
        }
        return true
    }

    /// White space among ASCII bytes (what `Character.isWhitespace` says of them).
    @inline(__always)
    static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
}
