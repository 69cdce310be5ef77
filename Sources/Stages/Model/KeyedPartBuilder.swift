/// The builder of parts whose posts come keyed, not decoded: stored posts
/// (keys: the store's mention ids, `Store.scan`) and extract lines
/// (keys: the mentions' own text, `aggregate`). It numbers each key once
/// per part, as a worker's `PartBuilder` does, so the sinks take these parts
/// as they take a scan's.
///
/// A post's mentions and its (mention, spelling) pairs are kept distinct
/// here, whatever its source repeats (`DistinctList`: linear in them).
///
/// - Complexity: O(mentions + spellings) per post; memory O(the part).
struct KeyedPartBuilder<Key: Hashable> {
    let fields: PostFields
    private(set) var part = PostPart()
    private var local: [Key: Int32] = [:]
    private var spellingLocal: [String: Int32] = [:]
    private var anyUnknown = false
    private var distinct = DistinctList<Int32>()
    private var written = DistinctList<WrittenPair>()

    private struct WrittenPair: Hashable {
        var mention: Int32
        var spelling: Int32
    }

    init(fields: PostFields) { self.fields = fields }

    /// Posts in the part being built.
    var count: Int { part.count }

    /// The part's index of `key`, whose text is `text` (nil: a key to leave out).
    private mutating func index(_ key: Key, _ text: (Key) -> String?) -> Int32? {
        if let l = local[key] { return l }
        guard let t = text(key) else { return nil }
        let l = Int32(part.keys.count)
        part.keys.append(t)
        local[key] = l
        return l
    }

    /// Appends a post.
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
    mutating func append<Mentions: Sequence>(id: UInt64, mask: UInt64, mentions: Mentions, text: (Key) -> String?,
                                             retweet: Bool = false, author: Key? = nil, unknown: Bool = false,
                                             spellings: [(mention: Key, spelling: String)] = [], time: Int64? = nil,
                                             retweetOf: UInt64? = nil) -> Int
    where Mentions.Element == Key {
        part.tweetIDs.append(id)
        part.termMasks.append(mask)
        distinct.removeAll()
        for m in mentions {
            if let l = index(m, text), distinct.insert(l) { part.mentions.append(l) }
        }
        part.mentionEnds.append(Int32(part.mentions.count))
        if fields.times { part.times.append(time ?? PostPart.unknownTime) }
        if fields.kinds { part.retweets.append(retweet) }
        if fields.references {
            // SPEC §15: a retweet names only what it retweets (a resolved Bluesky repost, `RepostJoin`).
            part.retweetOf.append(retweetOf ?? PostPart.noPost)
            part.quoteOf.append(PostPart.noPost)
            part.replyTo.append(PostPart.noPost)
        }
        if fields.authors { part.authors.append(author.flatMap { index($0, text) } ?? -1) }
        if fields.spellings {
            written.removeAll()
            for (m, s) in spellings {
                guard let l = local[m], distinct.contains(l) else { continue }
                let spelling = part.spellingIndex(of: s, in: &spellingLocal)
                guard written.insert(WrittenPair(mention: l, spelling: spelling)) else { continue }
                part.spellingMentions.append(l)
                part.spellingTexts.append(spelling)
            }
            part.spellingEnds.append(Int32(part.spellingMentions.count))
        }
        if fields.any && unknown && !anyUnknown {
            part.unknownFacts = Array(repeating: false, count: part.count - 1)
            anyUnknown = true
        }
        if fields.any && anyUnknown { part.unknownFacts.append(unknown) }
        return distinct.elements.count
    }

    /// The part built since the last call; starts a fresh one.
    mutating func take() -> PostPart {
        defer {
            part = PostPart()
            anyUnknown = false
            local.removeAll(keepingCapacity: true)
            spellingLocal.removeAll(keepingCapacity: true)
        }
        return part
    }
}
