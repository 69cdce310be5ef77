/// Counts the reports of many terms in one pass over the store, in tweet id
/// order: each tweet's links (its row's blob, `Links`) give its mention
/// set; its author and text are read beside them only when a term needs an
/// author (`from:`) or text (a word).
///
///     tweet   1:[#a,@b]  2:[#a]  3:[]  4:[#c] …   (author, text beside, when needed)
///                                   ▼
///     per term: matching tweets, count per mention id
///
/// A scan covers a range of tweet ids, so a report can split the store
/// between threads (each with its own connection) and add the parts up.
///
/// - Complexity: O(links + tweets read) time; memory O(terms × distinct
///   mentions) for the counts.
struct TermScan {
    /// What one term counted.
    struct Counts {
        var tweets = 0
        var mentions: [Int64: Int] = [:]
    }

    var targets: [StoredTerm]
    /// The highest mention id of the store: counts are kept in arrays indexed
    /// by mention id when they fit (no hashing in the loop).
    var mentionLimit: Int64

    /// The terms as stored posts are matched against them.
    let terms: StoredTerms

    init(_ targets: [StoredTerm], mentionLimit: Int64) {
        self.targets = targets
        self.mentionLimit = mentionLimit
        terms = StoredTerms(targets)
    }

    /// Texts are read beside the links only for word terms, authors only for
    /// `from:` terms.
    private var columns: StoredPosts.Columns {
        if terms.needsText { return [.author, .text] }
        return targets.contains { $0.term.kind == .author } ? [.author] : []
    }

    /// Counts over the tweets with ids in `range` (all when nil).
    func run(_ db: Database, range: ClosedRange<Int64>? = nil) throws(StoreError) -> [Counts] {
        let tally = self.tally()
        try run(db, range: range ?? Int64.min...Int64.max, into: tally)
        return tally.counts()
    }

    /// An empty tally of this scan's terms, for `run(_:range:into:)`.
    func tally() -> Tally { Tally(terms: targets.count, mentionLimit: mentionLimit) }

    /// Adds the counts over the tweets with ids in `range` to `tally`.
    func run(_ db: Database, range: ClosedRange<Int64>, into tally: Tally) throws(StoreError) {
        var posts = try StoredPosts(db, columns: columns, range: range)
        defer { posts.done() }
        while try posts.next() {
            var mask = posts.mask(terms)
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                tally.add(posts.mentions, term: t)
            }
        }
    }
}

/// A tweet's mention ids, in a buffer reused from tweet to tweet (a class
/// over raw memory: the scan's inner loop does no copy-on-write checks).
final class MentionBuffer {
    private(set) var ids: UnsafeMutablePointer<Int64>
    private var capacity = 64
    private(set) var count = 0

    init() { ids = .allocate(capacity: capacity) }

    deinit { ids.deallocate() }

    func removeAll() { count = 0 }

    /// The ids, as a collection (valid until the next `append` or `removeAll`).
    var elements: UnsafeBufferPointer<Int64> { UnsafeBufferPointer(start: ids, count: count) }

    @inline(__always)
    func append(_ id: Int64) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Int64>.allocate(capacity: capacity * 2)
            bigger.update(from: ids, count: count)
            ids.deallocate()
            ids = bigger
            capacity *= 2
        }
        ids[count] = id
        count += 1
    }

    @inline(__always)
    func contains(_ id: Int64) -> Bool {
        for i in 0..<count where ids[i] == id { return true }
        return false
    }
}

/// Tweet and mention counts of a scan's terms: one flat array indexed by
/// term and mention id while terms × mentions stay under `denseLimit`
/// entries (no hashing in the loop), else a dictionary per term.
///
/// A class over raw memory, like `MentionBuffer`: the scan adds to it once
/// per matching tweet, with no copy-on-write or exclusivity checks.
final class Tally {
    static let denseLimit: Int64 = 1 << 25

    private(set) var tweets: [Int]
    private let dense: UnsafeMutablePointer<Int32>?
    private var sparse: [[Int64: Int]]
    private let stride: Int

    init(terms: Int, mentionLimit: Int64) {
        tweets = Array(repeating: 0, count: terms)
        let isDense = Int64(terms) * (mentionLimit + 1) <= Tally.denseLimit
        stride = isDense ? Int(mentionLimit) + 1 : 0
        if isDense {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, terms * stride))
            p.initialize(repeating: 0, count: max(1, terms * stride))
            dense = p
        } else {
            dense = nil
        }
        sparse = isDense ? [] : Array(repeating: [:], count: terms)
    }

    deinit { dense?.deallocate() }

    func setTweets(_ n: Int, term t: Int) { tweets[t] = n }

    @inline(__always)
    func add(_ set: UnsafeBufferPointer<Int64>, term t: Int) {
        tweets[t] += 1
        if let dense {
            let base = dense + t * stride
            for id in set {
                let m = Int(id)
                if m >= 0 && m < stride { base[m] += 1 }
            }
        } else {
            for id in set { sparse[t][id, default: 0] += 1 }
        }
    }

    /// Adds what `other` (of the same terms and mentions) counted.
    func add(_ other: Tally) {
        for t in tweets.indices { tweets[t] += other.tweets[t] }
        if let dense, let theirs = other.dense {
            for i in 0..<max(1, tweets.count * stride) { dense[i] += theirs[i] }
        } else {
            for t in sparse.indices { sparse[t].merge(other.sparse[t], uniquingKeysWith: +) }
        }
    }

    func counts() -> [TermScan.Counts] {
        tweets.indices.map { t in
            var c = TermScan.Counts()
            c.tweets = tweets[t]
            if let dense {
                for m in 0..<stride where dense[t * stride + m] > 0 { c.mentions[Int64(m)] = Int(dense[t * stride + m]) }
            } else {
                c.mentions = sparse[t]
            }
            return c
        }
    }
}
