/// The dedup and aggregate stages: merges extractions in input order,
/// counts each tweet at most once per term (SPEC §6), and builds reports
/// (SPEC §7).
///
/// Dedup keeps, per term, the set of tweet ids already counted; the first
/// copy of a tweet in input order is the one that counts, so the result does
/// not depend on how work was spread over cores.
///
/// - Complexity: memory O(distinct matching tweets) for dedup — a `Set<UInt64>`
///   entry costs about 16 bytes per (tweet, term) at its load factor — plus
///   O(distinct mentions × terms) for the counts.
public final class Aggregator {
    public let terms: [Term]
    private var seen: [Set<UInt64>]
    private var tweetCounts: [Int]
    private var counts: [[Int32: Int]]
    private var keys = KeyNumbering()
    /// (tweet, term) pairs dropped because the tweet had been counted already.
    public private(set) var duplicates = 0

    public init(terms: [Term]) {
        self.terms = terms
        seen = Array(repeating: [], count: terms.count)
        tweetCounts = Array(repeating: 0, count: terms.count)
        counts = Array(repeating: [:], count: terms.count)
    }

    /// Adds one unit's matches; call in input order.
    public func add(_ e: Extraction) {
        let global = e.keys.map(globalID)
        for i in 0..<e.tweetIDs.count {
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                guard seen[t].insert(e.tweetIDs[i]).inserted else { duplicates += 1; continue }
                tweetCounts[t] += 1
                for m in e.mentions(of: i) { counts[t][global[Int(m)], default: 0] += 1 }
            }
        }
    }

    /// Adds one tweet for one term with its mentions (signed, normalised keys).
    ///
    /// - Returns: whether it counted (false for a duplicate).
    @discardableResult
    public func add(tweet id: UInt64, term t: Int, mentions: [String]) -> Bool {
        guard seen[t].insert(id).inserted else { duplicates += 1; return false }
        tweetCounts[t] += 1
        var distinct = Set<Int32>()
        for key in mentions {
            let g = globalID(key)
            if distinct.insert(g).inserted { counts[t][g, default: 0] += 1 }
        }
        return true
    }

    /// Adds `count` distinct tweets to a term's tweet count, already
    /// deduplicated elsewhere (the counts format).
    public func add(counted count: Int, term t: Int) {
        tweetCounts[t] += count
    }

    /// Adds `count` distinct tweets carrying `mention` to a term's counts,
    /// already deduplicated elsewhere (the counts format).
    public func add(counted count: Int, term t: Int, mention: String) {
        counts[t][globalID(mention), default: 0] += count
    }

    private func globalID(_ key: String) -> Int32 { keys.number(key) }

    /// The reports of every term, in the order the terms were given.
    ///
    /// - Parameters:
    ///   - minCount: rows counted fewer times are left out.
    ///   - top: keep at most this many rows of each type.
    public func reports(minCount: Int, top: Int?) -> [TermReport] {
        terms.indices.map { t in
            TermReport(term: terms[t], tweets: tweetCounts[t],
                       counts: counts[t].lazy.map { (self.keys.keys[Int($0.key)], $0.value) }, minCount: minCount, top: top)
        }
    }
}

/// One row of a report.
public struct MentionCount: Equatable, Sendable {
    public var mention: String
    public var count: Int

    public init(mention: String, count: Int) {
        self.mention = mention
        self.count = count
    }

    /// Count, highest first; ties by mention in ascending order of UTF-8 bytes.
    static func reportOrder(_ a: MentionCount, _ b: MentionCount) -> Bool {
        if a.count != b.count { return a.count > b.count }
        return a.mention.utf8.lexicographicallyPrecedes(b.mention.utf8)
    }
}

/// The report of one term (SPEC §7).
public struct TermReport: Equatable, Sendable {
    public var term: Term
    /// Distinct matching tweets.
    public var tweets: Int
    public var hashtags: [MentionCount]
    public var users: [MentionCount]

    init(term: Term, tweets: Int, hashtags: [MentionCount], users: [MentionCount]) {
        self.term = term
        self.tweets = tweets
        self.hashtags = hashtags
        self.users = users
    }

    /// The report of a term from its counts (signed key, distinct tweets):
    /// rows counted fewer than `minCount` times left out, hashtags and users
    /// in report order, at most `top` of each.
    init<Counts: Sequence>(term: Term, tweets: Int, counts: Counts, minCount: Int, top: Int?)
    where Counts.Element == (String, Int) {
        var hashtags: [MentionCount] = [], users: [MentionCount] = []
        for (key, count) in counts where count >= minCount {
            let row = MentionCount(mention: key, count: count)
            if key.hasPrefix("#") { hashtags.append(row) } else { users.append(row) }
        }
        hashtags.sort(by: MentionCount.reportOrder)
        users.sort(by: MentionCount.reportOrder)
        if let top {
            hashtags = Array(hashtags.prefix(top))
            users = Array(users.prefix(top))
        }
        self.init(term: term, tweets: tweets, hashtags: hashtags, users: users)
    }
}
