/// The one builder of `PostPart`s: dumps, the store and `aggregate` all
/// feed it, post by post, and only it appends to a part, so a part has the
/// same columns whichever path made it.
///
/// What differs between paths is how a post's keys become the part's
/// indexes — its `Numbering`:
///
/// - a worker's `MentionTable` ids (`TableNumbering`, in `Run`: decoded
///   tweets of dumps, for a report or the store's writer), with the
///   decoded intake `append(_:in:table:…)`;
/// - keys of any hashable type (`KeyedNumbering`: the store's mention ids,
///   extract lines' own text), with the keyed intake
///   `append(id:mask:mentions:text:…)` below.
///
/// Both number each key once per part; both keep each post's fields in the
/// order the part's columns are read: id and term mask, mentions, time,
/// language, text, kind, author, spellings, references, whether its facts
/// are unknown.
///
/// - Complexity: O(mentions + spellings) per post; memory O(the part).
struct PartBuilder<Numbering> {
    let fields: PostFields
    /// The numbering's own state.
    var numbering: Numbering
    /// The part being built.
    var part = PostPart()
    /// The part's index of each spelling string met in it.
    private var spellingIndex: [String: Int32] = [:]

    init(fields: PostFields, numbering: Numbering) {
        self.fields = fields
        self.numbering = numbering
    }

    /// Posts in the part being built.
    var count: Int { part.count }

    // MARK: A post, field by field

    /// Starts a post: its identity and, for a report's part, the terms it matched.
    @inline(__always)
    mutating func startPost(_ id: UInt64, mask: UInt64?) {
        part.tweetIDs.append(id)
        if let mask { part.termMasks.append(mask) }
    }

    /// Ends the post's mentions (appended to `part.mentions` as the part's key indexes).
    @inline(__always)
    mutating func endMentions() { part.mentionEnds.append(Int32(part.mentions.count)) }

    /// The part's index of a spelling other than the key.
    @inline(__always)
    mutating func spellingNumber(_ s: String) -> Int32 { part.spellingIndex(of: s, in: &spellingIndex) }

    /// One of the post's (mention, spelling) pairs; `spelling` is `PostPart.keySpelling` for the key itself.
    @inline(__always)
    mutating func addSpelling(mention: Int32, spelling: Int32) {
        part.spellingMentions.append(mention)
        part.spellingTexts.append(spelling)
    }

    /// Ends the post's spellings.
    @inline(__always)
    mutating func endSpellings() { part.spellingEnds.append(Int32(part.spellingMentions.count)) }

    /// The post's creation time (`fields.times`), nil when unknown.
    @inline(__always)
    mutating func addTime(_ time: Int64?) { part.times.append(time ?? PostPart.unknownTime) }

    /// What SPEC §15 reads of a post: what it retweets, quotes and replies to (`PostPart.noPost`: none).
    @inline(__always)
    mutating func addReferences(retweet: UInt64, quote: UInt64, reply: UInt64) {
        part.retweetOf.append(retweet)
        part.quoteOf.append(quote)
        part.replyTo.append(reply)
    }

    /// What a record says of a post (SPEC §15's copies), `own` when it is the record's own post.
    mutating func addCopy(_ id: UInt64, own: Bool, author: Int32, time: Int64?, text: String?) {
        part.copies.ids.append(id)
        part.copies.own.append(own)
        part.copies.authors.append(author)
        part.copies.times.append(time ?? PostPart.unknownTime)
        if fields.texts { part.copies.texts.append(text) }
    }

    /// The part built since the last call; a fresh one starts.
    mutating func takePart() -> PostPart {
        let done = part
        part = PostPart(roomOf: done)
        spellingIndex.removeAll(keepingCapacity: true)
        return done
    }
}

// MARK: - Keyed posts

/// How the keyed intake numbers a part's keys: a dictionary from key to
/// index, emptied per part, and what it needs to keep each post's mentions
/// and (mention, spelling) pairs distinct whatever its source repeats.
struct KeyedNumbering<Key: Hashable> {
    fileprivate var local: [Key: Int32] = [:]
    fileprivate var anyUnknown = false
    fileprivate var distinct = DistinctList<Int32>()
    fileprivate var written = DistinctList<WrittenPair>()

    fileprivate struct WrittenPair: Hashable {
        var mention: Int32
        var spelling: Int32
    }

    init() {}
}

extension PartBuilder {
    /// A builder of parts whose posts come keyed (the store's mention ids, extract lines' text).
    init<Key>(fields: PostFields) where Numbering == KeyedNumbering<Key> {
        self.init(fields: fields, numbering: KeyedNumbering())
    }

    /// The part's index of `key`, whose text is `text` (nil: a key to leave out).
    private mutating func index<Key>(_ key: Key, _ text: (Key) -> String?) -> Int32? where Numbering == KeyedNumbering<Key> {
        if let l = numbering.local[key] { return l }
        guard let t = text(key) else { return nil }
        let l = Int32(part.keys.count)
        part.keys.append(t)
        numbering.local[key] = l
        return l
    }

    /// Appends a keyed post.
    ///
    /// - Parameters:
    ///   - mask: the terms it matched.
    ///   - mentions: its mention keys (repeats are kept once; keys without a text are left out).
    ///   - text: a key's text (`#tag`, `@name`), nil for none.
    ///   - retweet, author, spellings: what `fields` asks for (`kinds`,
    ///     `authors`, `spellings`); a spelling of a mention the post does not
    ///     carry is left out.
    ///   - unknown: its kind and spellings are unknown (a tweet stored before schema version 4).
    ///   - time: its creation time when `fields.times` (nil: unknown).
    ///   - retweetOf: the post it retweets, when `fields.references` (SPEC §15).
    /// - Returns: how many distinct mentions it carries.
    @discardableResult
    mutating func append<Key, Mentions: Sequence>(id: UInt64, mask: UInt64, mentions: Mentions, text: (Key) -> String?,
                                                  retweet: Bool = false, author: Key? = nil, unknown: Bool = false,
                                                  spellings: [(mention: Key, spelling: String)] = [], time: Int64? = nil,
                                                  retweetOf: UInt64? = nil) -> Int
    where Numbering == KeyedNumbering<Key>, Mentions.Element == Key {
        startPost(id, mask: mask)
        numbering.distinct.removeAll()
        for m in mentions {
            if let l = index(m, text), numbering.distinct.insert(l) { part.mentions.append(l) }
        }
        endMentions()
        if fields.times { addTime(time) }
        if fields.kinds { part.retweets.append(retweet) }
        if fields.references {
            // SPEC §15: a retweet names only what it retweets (a resolved Bluesky repost, `RepostJoin`).
            addReferences(retweet: retweetOf ?? PostPart.noPost, quote: PostPart.noPost, reply: PostPart.noPost)
        }
        if fields.authors { part.authors.append(author.flatMap { index($0, text) } ?? -1) }
        if fields.spellings {
            numbering.written.removeAll()
            for (m, s) in spellings {
                guard let l = numbering.local[m], numbering.distinct.contains(l) else { continue }
                let spelling = spellingNumber(s)
                guard numbering.written.insert(.init(mention: l, spelling: spelling)) else { continue }
                addSpelling(mention: l, spelling: spelling)
            }
            endSpellings()
        }
        if fields.any && unknown && !numbering.anyUnknown {
            part.unknownFacts = Array(repeating: false, count: part.count - 1)
            numbering.anyUnknown = true
        }
        if fields.any && numbering.anyUnknown { part.unknownFacts.append(unknown) }
        return numbering.distinct.count
    }

    /// The keyed part built since the last call; starts a fresh one.
    mutating func take<Key>() -> PostPart where Numbering == KeyedNumbering<Key> {
        numbering.anyUnknown = false
        numbering.local.removeAll(keepingCapacity: true)
        return takePart()
    }
}
