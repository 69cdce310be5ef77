/// What a part carries of each post besides its id and mentions: the
/// field set a run asks for (SPEC §12.3's columns need kinds, authors and
/// spellings; `--by` times; the store all of them, with languages and, with
/// `--keep-text`, texts). Every path builds its parts for one of these.
public struct PostFields: Sendable, Equatable {
    public var spellings = false
    public var kinds = false
    public var authors = false
    /// Creation times (`--by`, the store).
    public var times = false
    /// `lang` (the store).
    public var languages = false
    /// Full texts (a store with `--keep-text`).
    public var texts = false
    /// The kinds of mention it carries (`--kinds`, SPEC §13).
    public var mentionKinds = MentionKinds.standard
    /// The posts each one retweets, quotes and replies to, and what every
    /// tweet read and every copy embedded in one says of a post (`posts`,
    /// SPEC §15; the store). Texts of those posts with `texts`.
    public var references = false
    /// With `authors`: a worker's part gives each author as its
    /// `AuthorBook` number (`PostPart.authorsInBook`), not as one of its keys
    /// (`trend`, which counts distinct authors over every worker's posts).
    /// Keyed parts (a store, extract lines) give their keys whatever this says.
    public var authorsInBook = false
    /// With `spellings` and `times`: only posts created in this span carry
    /// their spellings (`trend` shows the current window's alone, SPEC §14;
    /// nil: every post). Parts for extract lines or a store never set it.
    public var spellingsWithin: Range<Int64>?

    public init(spellings: Bool = false, kinds: Bool = false, authors: Bool = false) {
        self.spellings = spellings
        self.kinds = kinds
        self.authors = authors
    }

    /// What SPEC §12.3's columns need: spellings, kinds and authors.
    public static let all = PostFields(spellings: true, kinds: true, authors: true)

    /// Whether any of the columns' facts is asked for (spellings, kinds, authors).
    public var any: Bool { spellings || kinds || authors }

    /// Everything the store keeps of a post: every kind of mention among it (schema v6).
    public static func stored(texts: Bool) -> PostFields {
        var f = PostFields.all
        f.times = true
        f.languages = true
        f.texts = texts
        f.mentionKinds = .every
        f.references = true
        return f
    }
}

/// The one columnar part that every path carries: the posts of one piece
/// of a scan, in input order, with their mentions and what the run's
/// `PostFields` ask of them. A report's consumer (`MatchCollector`) fills
/// one with the matching posts and the terms each matched, the store's
/// (`StoreCollector`) with every post, a store scan or `aggregate` its
/// keyed posts: all through the one `PartBuilder`. The
/// ordered merge hands each to the one sink on the calling thread: the
/// `Aggregator`, the `PairAggregator`, an `ExtractWriter`, the store's writer.
///
/// - Complexity: memory O(posts × their mentions) of the piece; keys and
///   spellings are stored once per piece.
public struct PostPart: Sendable {
    /// The posts, in the order read.
    public internal(set) var tweetIDs: [UInt64] = []
    /// Terms each post matched (bit i for term i); empty for the store's parts.
    public internal(set) var termMasks: [UInt64] = []
    /// End of post i's mentions in `mentions` (its start is the previous end).
    public internal(set) var mentionEnds: [Int32] = []
    /// Indices into `keys`.
    public internal(set) var mentions: [Int32] = []
    /// Signed, normalised keys (`#swift`, `@nasa`) used by this piece.
    public internal(set) var keys: [String] = []
    /// The `MentionTable.serial` of the worker's table that numbered `keys`
    /// (0: none), and each key's number there: a merge then looks a key up
    /// by its text once per worker, not once per piece.
    public internal(set) var keySource = 0
    public internal(set) var keyNumbers: [Int32] = []

    // What the fields ask for; empty unless asked.

    /// Whether post i is a retweet (`kinds`).
    public internal(set) var retweets: [Bool] = []
    /// Post i's author as an index into `keys` (`@name`), or -1 when unknown (`authors`);
    /// its `AuthorBook` number instead when `authorsInBook`.
    public internal(set) var authors: [Int32] = []
    /// Whether `authors` holds `AuthorBook` numbers (a worker's part for `PostFields.authorsInBook`).
    public internal(set) var authorsInBook = false
    /// End of post i's spellings in `spellingMentions` and `spellingTexts` (`spellings`).
    public internal(set) var spellingEnds: [Int32] = []
    /// Each distinct (mention, spelling) a post carries: the mention as an index into `keys` …
    public internal(set) var spellingMentions: [Int32] = []
    /// … and its spelling (`#Stanford`) as an index into `spellingStrings`,
    /// or `keySpelling` when it is written as its key (`#stanford`).
    public internal(set) var spellingTexts: [Int32] = []
    public internal(set) var spellingStrings: [String] = []

    /// Creation time of post i, seconds since 1970 UTC, or `unknownTime` (`times`).
    public internal(set) var times: [Int64] = []
    /// Post i's `lang`, when it has one (`languages`).
    public internal(set) var langs: [String?] = []
    /// Post i's full text (a retweet's: the retweeted post's), when it has one (`texts`).
    public internal(set) var texts: [String?] = []
    /// The post that post i retweets, quotes, replies to (SPEC §15), or
    /// `noPost` (`references`). A retweet names only what it retweets.
    public internal(set) var retweetOf: [UInt64] = []
    public internal(set) var quoteOf: [UInt64] = []
    public internal(set) var replyTo: [UInt64] = []
    /// What the tweets read in this piece say of posts, in the order read:
    /// every tweet read (matching or not, filtered or not: its own record)
    /// and every post a tweet embeds (`references`).
    public internal(set) var copies = PostCopies()

    /// Bluesky reposts waiting for their subjects, and what every Bluesky
    /// post read says a repost of it carries (SPEC §16); empty for tweets.
    public internal(set) var joins = RepostJoins()

    /// Whether post i's kind and spellings are unknown (a stored tweet
    /// ingested before schema version 4); empty when none is.
    public internal(set) var unknownFacts: [Bool] = []

    /// `spellingTexts` of a spelling that is its mention's key.
    public static let keySpelling: Int32 = -1
    /// `times` of a post whose creation time is unknown.
    public static let unknownTime = Int64.min
    /// `retweetOf`, `quoteOf`, `replyTo` of a post that names none (never an
    /// identity: interned numbers stay far below it).
    public static let noPost = UInt64.max

    public init() {}

    /// An empty part with room for as many of each list as `last` held:
    /// the pieces of a run are alike, so the next one's lists are not
    /// grown (and copied) step by step from nothing.
    init(roomOf last: PostPart) {
        func room<T>(_ list: inout [T], _ n: Int) { if n > 0 { list.reserveCapacity(n) } }
        room(&tweetIDs, last.tweetIDs.count)
        room(&termMasks, last.termMasks.count)
        room(&mentionEnds, last.mentionEnds.count)
        room(&mentions, last.mentions.count)
        room(&keys, last.keys.count)
        room(&retweets, last.retweets.count)
        room(&authors, last.authors.count)
        room(&spellingEnds, last.spellingEnds.count)
        room(&spellingMentions, last.spellingMentions.count)
        room(&spellingTexts, last.spellingTexts.count)
        room(&times, last.times.count)
    }

    /// How many posts the part holds.
    public var count: Int { tweetIDs.count }

    /// The (mention, spelling) indices of post `i`.
    public func spellings(of i: Int) -> Range<Int> {
        (i == 0 ? 0 : Int(spellingEnds[i - 1]))..<Int(spellingEnds[i])
    }

    /// The spelling at index `j` of `spellingTexts`: its string, or its mention's key.
    public func spelling(_ j: Int) -> String {
        let s = spellingTexts[j]
        return s == Self.keySpelling ? keys[Int(spellingMentions[j])] : spellingStrings[Int(s)]
    }

    /// The part's index of spelling `s` in `spellingStrings`, added when new;
    /// `index` is the builder's map of the part's spellings.
    mutating func spellingIndex(of s: String, in index: inout [String: Int32]) -> Int32 {
        if let known = index[s] { return known }
        let i = Int32(spellingStrings.count)
        spellingStrings.append(s)
        index[s] = i
        return i
    }

    /// The mentions of post `i`.
    public func mentions(of i: Int) -> ArraySlice<Int32> {
        let start = i == 0 ? 0 : Int(mentionEnds[i - 1])
        return mentions[start..<Int(mentionEnds[i])]
    }
}

/// What copies of posts say of them (SPEC §15's `author`, `created_at`,
/// `text`), column by column: a tweet's own record (`own`), or a copy
/// another tweet embeds (v1.1 `retweeted_status`, `quoted_status`, v2
/// `includes.tweets`, a reply's `in_reply_to_screen_name`, a CSV export's
/// `retweeted_username`/`quoted_username`/`in_reply_to_username`).
public struct PostCopies: Sendable {
    /// The post a copy is of.
    public internal(set) var ids: [UInt64] = []
    /// Whether copy i is the post's own record (a tweet read), not one embedded in another.
    public internal(set) var own: [Bool] = []
    /// Its author as an index into the part's `keys` (`@name`), or -1 when the copy does not say.
    public internal(set) var authors: [Int32] = []
    /// Its creation time, seconds since 1970 UTC, or `PostPart.unknownTime`:
    /// an own record's is SPEC §12.1's (its snowflake's when it has no
    /// `created_at`), an embedded copy's only what its `created_at` says.
    public internal(set) var times: [Int64] = []
    /// Its full text, when the copy holds one and texts are asked for; empty otherwise.
    public internal(set) var texts: [String?] = []

    public init() {}

    /// How many copies.
    public var count: Int { ids.count }
}

/// Where the ordered merge hands each piece's part, in input order: the
/// `Aggregator` for a report, an `ExtractWriter` for `smashtag extract`.
public protocol PartSink: AnyObject {
    func add(_ e: PostPart)
}

/// A sink that does part of its work on the workers, in parallel, before
/// the ordered merge (`PairAggregator` counts pairs there): what depends on
/// input order stays in `add`, what is a plain sum moves to `prepare`.
public protocol ParallelPartSink: PartSink, Sendable {
    /// Called once, before the workers start.
    func begin(workers: Int)
    /// Called by worker `worker` (in `0..<workers`) with each part it
    /// made, before that part reaches `add`; concurrently for
    /// different workers, never twice at once for one.
    func prepare(_ e: PostPart, worker: Int)
}
