/// The posts the data amplified (SPEC §15): among the distinct tweets
/// matching each term, how many retweet, quote and reply to each post X,
/// and what the copies read say of X (author, time, text).
///
/// A sink of the ordered merge, like `Aggregator`, fed the same `PostPart`s
/// (built with `PostFields.references`):
///
///     PostPart ─┬─ posts (matching, filtered) ─▶ dedup on (tweet id, term) ─▶ per term: X → retweets, quotes, replies
///               └─ copies (every tweet read, every copy it embeds) ─▶ kept in order, resolved for the Xs at the end
///
/// **What is said of X.** X's own record, when X was read as a tweet
/// (matching or not, filtered or not; the first read), says its author, its
/// time (SPEC §12.1: `created_at`, else the snowflake's) and its text; what
/// it leaves unsaid comes from the first embedded copy read that says it
/// (a retweet's `retweeted_status`, a quote's `quoted_status`, v2
/// `includes.tweets`, a reply's `in_reply_to_screen_name`); a time nobody
/// says is X's snowflake time, if any. "First" is input order, so the
/// answer does not depend on `--jobs`.
///
/// - Complexity: time O(1) amortised per tweet read and per reference;
///   memory O(distinct (tweet, term)) for dedup, O(distinct X per term) for
///   the counts (about 40 bytes each), and about 24 bytes per copy read
///   (every tweet read, and the copies it embeds), plus the texts when asked.
public final class PostsAggregator {
    public let terms: [Term]
    private var seen: [TweetIDSet]
    private var tweetCounts: [Int]
    /// Per term: X → its retweets, quotes and replies among the term's tweets.
    private var counts: [[UInt64: PostCounts]]
    /// Authors of copies, numbered (`@name`).
    private var authorNumbers: [String: Int32] = [:]
    private var authorNames: [String] = []
    /// Every copy read, in order: own records and embedded copies.
    private var copyIDs: [UInt64] = []
    private var copyOwn: [Bool] = []
    private var copyAuthors: [Int32] = []
    private var copyTimes: [Int64] = []
    private var copyTexts: [String?] = []
    /// Whether texts are kept (`--columns text`).
    public let texts: Bool
    /// (tweet, term) copies dropped because the tweet had been counted already.
    public private(set) var duplicates = 0

    struct PostCounts {
        var retweets: Int32 = 0
        var quotes: Int32 = 0
        var replies: Int32 = 0
    }

    public init(terms: [Term], texts: Bool = false) {
        self.terms = terms
        self.texts = texts
        seen = Array(repeating: TweetIDSet(), count: terms.count)
        tweetCounts = Array(repeating: 0, count: terms.count)
        counts = Array(repeating: [:], count: terms.count)
    }

    /// Distinct matching tweets of term `t` so far.
    public func tweets(term t: Int) -> Int { tweetCounts[t] }

    private func author(_ key: String) -> Int32 {
        if let n = authorNumbers[key] { return n }
        let n = Int32(authorNames.count)
        authorNames.append(key)
        authorNumbers[key] = n
        return n
    }

    // MARK: Adding

    /// Adds one piece's posts and copies; call in input order.
    public func add(_ e: PostPart) {
        var numbers: [Int32?] = Array(repeating: nil, count: e.keys.count)
        func number(_ k: Int32) -> Int32 {
            guard k >= 0 else { return -1 }
            if let n = numbers[Int(k)] { return n }
            let n = author(e.keys[Int(k)])
            numbers[Int(k)] = n
            return n
        }
        let c = e.copies
        for i in 0..<c.count {
            copyIDs.append(c.ids[i])
            copyOwn.append(c.own[i])
            copyAuthors.append(number(c.authors[i]))
            copyTimes.append(c.times[i])
            if texts { copyTexts.append(i < c.texts.count ? c.texts[i] : nil) }
        }
        for i in 0..<e.tweetIDs.count {
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                guard seen[t].insert(e.tweetIDs[i]) else { duplicates += 1; continue }
                tweetCounts[t] += 1
                guard i < e.retweetOf.count else { continue }
                add(retweetOf: e.retweetOf[i], quoteOf: e.quoteOf[i], replyTo: e.replyTo[i], term: t)
            }
        }
    }

    /// Counts one distinct matching tweet's references for term `t`
    /// (`PostPart.noPost` for none); deduplicated by the caller.
    public func add(retweetOf rt: UInt64, quoteOf q: UInt64, replyTo r: UInt64, term t: Int) {
        if rt != PostPart.noPost { counts[t][rt, default: PostCounts()].retweets += 1 }
        if q != PostPart.noPost { counts[t][q, default: PostCounts()].quotes += 1 }
        if r != PostPart.noPost { counts[t][r, default: PostCounts()].replies += 1 }
    }

    /// Adds counts made elsewhere (the Spark job): `retweets`, `quotes` and
    /// `replies` more distinct matching tweets of term `t` that name `post`.
    public func add(counted post: UInt64, retweets: Int, quotes: Int, replies: Int, term t: Int) {
        var c = counts[t][post, default: PostCounts()]
        c.retweets += Int32(clamping: retweets)
        c.quotes += Int32(clamping: quotes)
        c.replies += Int32(clamping: replies)
        counts[t][post] = c
    }

    /// Adds `count` distinct matching tweets to term `t`, deduplicated elsewhere (extract lines, the store).
    public func add(counted count: Int, term t: Int) { tweetCounts[t] += count }

    /// Whether (tweet, term) is new, marking it seen (for sources that dedup here: extract lines).
    public func firstCopy(_ id: UInt64, term t: Int) -> Bool {
        if seen[t].insert(id) { tweetCounts[t] += 1; return true }
        duplicates += 1
        return false
    }

    /// Adds what one copy of post `id` says (extract lines, the store), in input order.
    public func addCopy(of id: UInt64, own: Bool, author: String?, time: Int64?, text: String?) {
        copyIDs.append(id)
        copyOwn.append(own)
        copyAuthors.append(author.map(self.author) ?? -1)
        copyTimes.append(time ?? PostPart.unknownTime)
        if texts { copyTexts.append(text) }
    }

    // MARK: Results

    /// What the copies say of each post in `wanted`: own records first, then embedded copies, each field first-read.
    private func facts(of wanted: [UInt64: Int]) -> [PostFacts] {
        var out = Array(repeating: PostFacts(), count: wanted.count)
        // X's first own record alone (the copy of X that counts, the one a store keeps), whole.
        var ownRead = Array(repeating: false, count: wanted.count)
        for i in copyIDs.indices where copyOwn[i] {
            guard let w = wanted[copyIDs[i]], !ownRead[w] else { continue }
            ownRead[w] = true
            out[w] = PostFacts(author: copyAuthors[i], time: copyTimes[i], text: texts ? copyTexts[i] : nil)
        }
        // Then, field by field, the first embedded copy that says it.
        for i in copyIDs.indices where !copyOwn[i] {
            guard let w = wanted[copyIDs[i]] else { continue }
            if out[w].author < 0 { out[w].author = copyAuthors[i] }
            if out[w].time == PostPart.unknownTime { out[w].time = copyTimes[i] }
            if texts, out[w].text == nil { out[w].text = copyTexts[i] }
        }
        return out
    }

    struct PostFacts {
        var author: Int32 = -1
        var time = PostPart.unknownTime
        var text: String?
    }

    /// The posts of every term, in the order the terms were given.
    ///
    /// - Parameters:
    ///   - minCount: posts with fewer retweets + quotes + replies are left out.
    ///   - top: keep at most this many posts per term, the first in order.
    public func posts(minCount: Int, top: Int?) -> [TermPosts] {
        let (chosen, wanted) = choose(minCount: minCount, top: top)
        let known = facts(of: wanted)
        return terms.indices.map { t in
            TermPosts(term: terms[t], tweets: tweetCounts[t], posts: chosen[t].map { x, c in
                let f = known[wanted[x]!]
                let time = f.time != PostPart.unknownTime ? f.time : PostIdentity.tweetID(of: x).flatMap(CreatedAt.fromSnowflake)
                // A Bluesky author by handle (SPEC §16), as `report` shows accounts.
                return PostRow(id: PostIdentity.text(of: x), author: f.author < 0 ? nil : HandleBook.shared.printedAuthor(authorNames[Int(f.author)]),
                               createdAt: time, text: f.text, retweets: Int(c.retweets), quotes: Int(c.quotes),
                               replies: Int(c.replies))
            })
        }
    }

    /// The posts `posts(minCount:top:)` will write, before anything is said
    /// of them (a store reads their copies for these alone).
    public func chosenPosts(minCount: Int, top: Int?) -> [UInt64] {
        let wanted = choose(minCount: minCount, top: top).wanted
        return wanted.keys.sorted { wanted[$0]! < wanted[$1]! }
    }

    /// Each term's rows in order, and every post among them with its index.
    private func choose(minCount: Int, top: Int?) -> (rows: [[(UInt64, PostCounts)]], wanted: [UInt64: Int]) {
        var chosen: [[(UInt64, PostCounts)]] = []
        var wanted: [UInt64: Int] = [:]
        for t in terms.indices {
            var rows = counts[t].filter { Int($0.value.retweets) + Int($0.value.quotes) + Int($0.value.replies) >= minCount }
                .map { ($0.key, $0.value) }
            rows.sort { a, b in
                if a.1.retweets != b.1.retweets { return a.1.retweets > b.1.retweets }
                if a.1.quotes != b.1.quotes { return a.1.quotes > b.1.quotes }
                if a.1.replies != b.1.replies { return a.1.replies > b.1.replies }
                return PostsAggregator.idPrecedes(a.0, b.0)
            }
            if let top, rows.count > top { rows.removeSubrange(top...) }
            for (x, _) in rows where wanted[x] == nil { wanted[x] = wanted.count }
            chosen.append(rows)
        }
        return (chosen, wanted)
    }

    /// Ids in ascending order: tweet ids numerically, before any other identity (by its bytes).
    static func idPrecedes(_ a: UInt64, _ b: UInt64) -> Bool {
        if a < PostIdentity.internedBase && b < PostIdentity.internedBase { return a < b }
        switch (PostIdentity.tweetID(of: a), PostIdentity.tweetID(of: b)) {
        case let (x?, y?): return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return PostIdentity.bytesPrecede(a, b)
        }
    }
}

extension PostsAggregator: PartSink {}

/// One post of a term's `posts` answer (SPEC §15).
public struct PostRow: Sendable, Equatable {
    /// The post's id as written (a tweet's decimal id).
    public var id: String
    /// Its author, `@name` normalised, when a copy says.
    public var author: String?
    /// Its creation time, seconds since 1970 UTC, when known.
    public var createdAt: Int64?
    /// Its full text, when a copy read holds it (and it was asked for).
    public var text: String?
    public var retweets: Int
    public var quotes: Int
    public var replies: Int
}

/// A term's posts, in order.
public struct TermPosts: Sendable {
    public var term: Term
    /// Distinct matching tweets.
    public var tweets: Int
    public var posts: [PostRow]
}
