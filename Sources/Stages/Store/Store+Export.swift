/// The store as portable NDJSON (SPEC §10): one line per tweet, each an
/// API v2 tweet object as flattening tools write them, so a snapshot is
/// itself a dump — `smashtag import` ingests it, and `smashtag report`
/// reads it directly with the same result as the store:
///
///     {"id":"1101454535685083166","created_at":"2019-03-01T12:10:00.000Z",
///      "author":{"username":"nasa"},"text":"…",
///      "entities":{"hashtags":[{"tag":"dup"}],"mentions":[{"username":"stanford"}]}}
///
/// Keys are the store's normalised ones (the snapshot's format since
/// schema v1; spellings stay in the store, so an imported store's `display`
/// is its keys). Symbols are `entities.cashtags`, links `entities.urls` (v6;
/// each as a link whose key is the stored one, `LinkKey.link(ofKey:)`);
/// hosts, domains and the poster follow from the links and the author. A tweet's `lang` and a retweet's `referenced_tweets`
/// (`{"type":"retweeted"}`) come along, so `--lang` and `--retweets` answer
/// the same after an import. `created_at`, `author`, `text`, `lang` and
/// `entities` are left out when the store does not have them (v2 leaves out
/// `entities` of a tweet without mentions). Tweets come in id order.
///
/// What `posts` needs (SPEC §15, v7) comes along as v2 references: the
/// post a tweet retweets, quotes or replies to is a `referenced_tweets`
/// entry with its id (`{"type":"replied_to","id":"…"}`), and what the
/// store's copies say of that post (`post_copy`) is written inline in the
/// entry, as flattening tools write it (`author`, `created_at`, `text`), so
/// an import keeps the same copies. A copy that says only a time is not
/// written (an entry without author or text is no copy to a reader).
extension Store {
    /// Writes every tweet through `write`, one line each.
    ///
    /// - Parameter write: takes a batch of lines; returns false to stop
    ///   (the reader has gone).
    /// - Returns: the number of tweets written.
    /// - Complexity: one pass over the tweets (their links in their rows),
    ///   in id order; memory O(mentions + one batch of lines).
    @discardableResult
    public func export(_ write: (String) -> Bool) throws(StoreError) -> Int {
        try db.beginRead()
        defer { db.endRead() }
        var keys: [Int64: String] = [:]
        let allKeys = try db.statement("SELECT id, key FROM mention")
        while try allKeys.step() { if let k = allKeys.text(1) { keys[allKeys.int64(0)] = k } }
        let identities = StoredIdentities(db)
        let tweets = try db.statement("""
            SELECT t.id, t.created_at, a.key, t.text, t.lang, t.retweet, t.links, t.retweet_of, t.quote_of, t.reply_to
            FROM tweet t LEFT JOIN mention a ON a.id = t.author ORDER BY t.id
            """)
        let copies = try db.statement("""
            SELECT c.created_at, a.key, c.text FROM post_copy c LEFT JOIN mention a ON a.id = c.author WHERE c.post = ?1
            """)
        /// What the store's copies say of `post`: its time, author and text, each when said.
        func copy(of post: Int64) throws(StoreError) -> ExportedPost.Copy {
            copies.reset()
            try copies.bind(1, post)
            var c = ExportedPost.Copy(identity: try identities.text(post))
            if try copies.step() {
                c.time = copies.optionalInt64(0)
                c.author = copies.text(1)?.unsigned
                c.text = copies.text(2)
            }
            copies.done()
            return c
        }
        /// A `referenced_tweets` entry: the post's id and, inline, what its copies say.
        func reference(_ type: String, _ c: ExportedPost.Copy) -> String {
            var entry = "{\"type\":\"\(type)\",\"id\":\(JSONText.quoted(c.identity))"
            if c.author != nil || c.text != nil {
                if let t = c.time { entry += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
                if let author = c.author { entry += ",\"author\":{\"username\":\(JSONText.quoted(author))}" }
                if let text = c.text { entry += ",\"text\":\(JSONText.quoted(text))" }
            }
            return entry + "}"
        }
        defer { tweets.done() }
        var set: [Int64] = []
        var out = ""
        var count = 0
        while try tweets.step() {
            let id = tweets.int64(0)
            var post = ExportedPost()
            Links.mentions(tweets.blob(6), into: &set)
            for m in set {
                guard let key = keys[m] else { continue }
                switch key.signedKind {
                case .hashtag: post.hashtags.append(key.unsigned)
                case .user: post.users.append(key.unsigned)
                case .symbol: post.symbols.append(key.unsigned)
                case .url: post.urls.append(LinkKey.link(ofKey: key.unsigned))
                // Hosts and domains follow from the links, the poster from the author.
                case .host, .domain, .poster, nil: break
                }
            }
            post.hashtags.sort(); post.users.sort(); post.symbols.sort(); post.urls.sort()
            post.identity = try identities.text(id)
            post.time = tweets.optionalInt64(1)
            post.author = tweets.text(2)?.unsigned
            post.text = tweets.text(3)
            post.lang = tweets.text(4)
            post.retweet = tweets.optionalInt64(5) == 1
            if let x = tweets.optionalInt64(7) {
                post.retweetOf = try identities.text(x)
                post.references.append(reference("retweeted", try copy(of: x)))
            }
            if let x = tweets.optionalInt64(8) {
                let c = try copy(of: x)
                post.quoted = c
                post.references.append(reference("quoted", c))
            }
            if let x = tweets.optionalInt64(9) {
                let c = try copy(of: x)
                post.replied = c
                post.references.append(reference("replied_to", c))
            }
            out += post.line
            count += 1
            if out.utf8.count >= 1 << 20 {
                guard write(out) else { return count }
                out = ""
            }
        }
        out += try handleEvents()
        if !out.isEmpty { _ = write(out) }
        return count
    }

    /// The Bluesky handles the store knows (SPEC §16), as Jetstream identity
    /// events: a handle named at a time with that time; each spelling of a
    /// DID nothing named with its count as `identity.spelled` (smashtag's
    /// own member: read back as spellings, which show a mentioned user but
    /// name no author).
    private func handleEvents() throws(StoreError) -> String {
        var out = ""
        var named = Set<String>()
        let s = try db.statement("SELECT did, handle, time FROM handle ORDER BY did")
        while try s.step() {
            guard let did = s.text(0), let handle = s.text(1) else { continue }
            named.insert(did)
            out += ExportedPost.identityEvent(did: did, handle: handle, micros: max(0, s.int64(2)))
        }
        let spelled = try db.statement("SELECT did, handle, count FROM handle_spelling ORDER BY did, handle")
        while try spelled.step() {
            guard let did = spelled.text(0), let handle = spelled.text(1), !named.contains(did) else { continue }
            let count = spelled.int64(2)
            guard count >= 1 else { continue }
            out += ExportedPost.identityEvent(did: did, handle: handle, micros: 0, spelled: Int(min(count, Int64(Int32.max))))
        }
        return out
    }
}

/// One stored post as a snapshot line, in its platform's own shape: a tweet
/// as an API v2 tweet object, a Bluesky post as a post view (a repost as
/// its Jetstream event), a Mastodon status as a Status (SPEC §16); each
/// read back by `import` (and by a report) into the same post.
struct ExportedPost {
    var identity = ""
    var time: Int64?
    var author: String?
    var text: String?
    var lang: String?
    var retweet = false
    /// The identity of the post a retweet, repost or reblog retweets, when known.
    var retweetOf: String?
    /// A tweet's `referenced_tweets` entries (SPEC §15), as JSON; a retweet's first.
    var references: [String] = []
    /// The posts it quotes and replies to, with what the store's copies say of them.
    var quoted: Copy?
    var replied: Copy?
    var hashtags: [String] = [], users: [String] = [], symbols: [String] = [], urls: [String] = []

    var line: String {
        if identity.hasPrefix("at://") { return bluesky }
        if identity.contains("://") { return mastodon }
        return tweet
    }

    /// What the store's copies say of a post it names.
    struct Copy {
        var identity: String
        var time: Int64?
        var author: String?
        var text: String?

        var saysAnything: Bool { author != nil || time != nil || text != nil }
    }

    private static func q(_ s: String) -> String { JSONText.quoted(s) }

    private var tweet: String {
        var out = "{\"id\":\"\(identity)\""
        if let t = time { out += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
        if let author { out += ",\"author\":{\"username\":\(Self.q(author))}" }
        if let text { out += ",\"text\":\(Self.q(text))" }
        if let lang { out += ",\"lang\":\(Self.q(lang))" }
        var entries = references
        if retweet && !entries.contains(where: { $0.hasPrefix("{\"type\":\"retweeted\"") }) { entries.insert("{\"type\":\"retweeted\"}", at: 0) }
        if !entries.isEmpty { out += ",\"referenced_tweets\":[" + entries.joined(separator: ",") + "]" }
        if !hashtags.isEmpty || !users.isEmpty || !symbols.isEmpty || !urls.isEmpty {
            out += ",\"entities\":{\"hashtags\":["
                + hashtags.map { "{\"tag\":\(Self.q($0))}" }.joined(separator: ",")
                + "],\"mentions\":["
                + users.map { "{\"username\":\(Self.q($0))}" }.joined(separator: ",")
                + "]"
            if !symbols.isEmpty {
                out += ",\"cashtags\":[" + symbols.map { "{\"tag\":\(Self.q($0))}" }.joined(separator: ",") + "]"
            }
            if !urls.isEmpty {
                out += ",\"urls\":[" + urls.map { "{\"expanded_url\":\(Self.q($0))}" }.joined(separator: ",") + "]"
            }
            out += "}"
        }
        return out + "}\n"
    }

    /// A post view, whose record holds the tags, the mentions (as facets by
    /// DID), the links (as link facets), the post it answers (`reply.parent`)
    /// and the post it quotes (a record embed), with what the copies say of
    /// that post as the view's own `embed`, and of the post it answers as a
    /// feed item's `reply.parent` (the view then inside the item); a repost
    /// as its Jetstream event.
    private var bluesky: String {
        let did = author ?? ""
        let created = time.map { ",\"createdAt\":\"\(CreatedAt.iso($0))\"" } ?? ""
        if retweet {
            let parts = identity.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            let rkey = parts.count >= 3 ? String(parts[2]) : ""
            let micros = time.map { $0 &* 1_000_000 } ?? 0
            return "{\"did\":\(Self.q(parts.first.map(String.init) ?? did)),\"time_us\":\(micros),\"kind\":\"commit\",\"commit\":{\"operation\":\"create\","
                + "\"collection\":\"app.bsky.feed.repost\",\"rkey\":\(Self.q(rkey)),\"record\":{\"$type\":\"app.bsky.feed.repost\"\(created)"
                + (retweetOf.map { ",\"subject\":{\"uri\":\(Self.q($0))}" } ?? "") + "}}}\n"
        }
        var record = "{\"$type\":\"app.bsky.feed.post\"\(created)"
        if let text { record += ",\"text\":\(Self.q(text))" }
        if let lang { record += ",\"langs\":[" + lang.split(separator: ",").map { Self.q(String($0)) }.joined(separator: ",") + "]" }
        if !hashtags.isEmpty { record += ",\"tags\":[" + hashtags.map(Self.q).joined(separator: ",") + "]" }
        let facets = users.map { "{\"features\":[{\"$type\":\"app.bsky.richtext.facet#mention\",\"did\":\(Self.q($0))}]}" }
            + urls.map { "{\"features\":[{\"$type\":\"app.bsky.richtext.facet#link\",\"uri\":\(Self.q($0))}]}" }
        if !facets.isEmpty { record += ",\"facets\":[" + facets.joined(separator: ",") + "]" }
        // The post it answers (the store keeps no thread root) and the post it quotes, as a record embed.
        if let replied { record += ",\"reply\":{\"parent\":{\"uri\":\(Self.q(replied.identity))}}" }
        if let quoted { record += ",\"embed\":{\"$type\":\"app.bsky.embed.record\",\"record\":{\"uri\":\(Self.q(quoted.identity))}}" }
        record += "}"
        // What the copies say of the quoted post, as the view's own embed shows it.
        var view = ""
        if let quoted, quoted.saysAnything {
            view = ",\"embed\":{\"$type\":\"app.bsky.embed.record#view\",\"record\":\(Self.shown(quoted, record: "value"))}"
        }
        let post = "{\"uri\":\(Self.q(identity)),\"author\":{\"did\":\(Self.q(did))},\"record\":\(record)\(view)}"
        // What the copies say of the post it answers: a feed item's `reply.parent` view.
        guard let replied, replied.saysAnything else { return post + "\n" }
        return "{\"post\":\(post),\"reply\":{\"parent\":\(Self.shown(replied, record: "record"))}}\n"
    }

    /// A view of a post as what the copies say of it: its URI, its author's
    /// DID, and its record's time and text under `record` (`value` in an
    /// embed's view, `record` in a post view).
    private static func shown(_ c: Copy, record: String) -> String {
        var out = "{\"uri\":\(q(c.identity))"
        if let author = c.author { out += ",\"author\":{\"did\":\(q(author))}" }
        return out + ",\"\(record)\":{" + [c.time.map { "\"createdAt\":\"\(CreatedAt.iso($0))\"" },
                                          c.text.map { "\"text\":\(q($0))" }].compactMap { $0 }.joined(separator: ",") + "}}"
    }

    /// A Status; its links as empty anchors in `content` (no text of their
    /// own), its text escaped; a reblog's mentions in its `reblog`; a quote's
    /// quoted status as what the copies say of it (Mastodon's `quote`).
    private var mastodon: String {
        func html(_ s: String) -> String {
            var out = ""
            for c in s.unicodeScalars {
                switch c {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                default: out.unicodeScalars.append(c)
                }
            }
            return out
        }
        var body = "\"content\":" + Self.q(html(text ?? "") + urls.map { "<a href=\"\(html($0))\"></a>" }.joined())
            + ",\"tags\":[" + hashtags.map { "{\"name\":\(Self.q($0))}" }.joined(separator: ",")
            + "],\"mentions\":[" + users.map { "{\"acct\":\(Self.q($0))}" }.joined(separator: ",") + "]"
        var out = "{\"uri\":\(Self.q(identity))"
        if let t = time { out += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
        out += ",\"account\":{\"acct\":\(Self.q(author ?? ""))}"
        if let lang { out += ",\"language\":\(Self.q(lang))" }
        if retweet {
            out += ",\"content\":\"\",\"tags\":[],\"mentions\":[],\"reblog\":{" + (retweetOf.map { "\"uri\":\(Self.q($0))," } ?? "") + body + "}"
        } else {
            out += "," + body
            if let quoted {
                var status = "{\"uri\":\(Self.q(quoted.identity))"
                if let t = quoted.time { status += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
                status += ",\"account\":{" + (quoted.author.map { "\"acct\":\(Self.q($0))" } ?? "") + "}"
                if let text = quoted.text { status += ",\"content\":\(Self.q(html(text)))" }
                out += ",\"quote\":{\"state\":\"accepted\",\"quoted_status\":" + status + "}}"
            }
        }
        body = ""
        return out + "}\n"
    }

    static func identityEvent(did: String, handle: String, micros: Int64, spelled: Int? = nil) -> String {
        "{\"did\":\(q(did)),\"time_us\":\(micros),\"kind\":\"identity\",\"identity\":{\"did\":\(q(did)),\"handle\":\(q(handle))"
            + (spelled.map { ",\"spelled\":\($0)" } ?? "") + "}}\n"
    }
}
