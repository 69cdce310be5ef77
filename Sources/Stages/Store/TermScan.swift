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

        mutating func add(_ other: Counts) {
            tweets += other.tweets
            mentions.merge(other.mentions, uniquingKeysWith: +)
        }
    }

    var targets: [StoredTerm]
    /// The highest mention id of the store: counts are kept in arrays indexed
    /// by mention id when they fit (no hashing in the loop).
    var mentionLimit: Int64

    /// Whether `*` counts its tweets here; a caller that splits the store
    /// into ranges counts them once for all instead.
    var countsAll = true

    /// The terms as stored posts are matched against them.
    let terms: StoredTerms

    init(_ targets: [StoredTerm], mentionLimit: Int64) {
        self.targets = targets
        self.mentionLimit = mentionLimit
        terms = StoredTerms(targets)
    }

    /// Texts are read beside the links only for word terms; `from:` terms
    /// find their tweets first (SQLite filters the authors, no row leaves it
    /// but theirs), `*` counts its tweets apart.
    private var needsText: Bool { terms.needsText }

    /// Counts over the tweets with ids in `range` (all when nil).
    func run(_ db: Database, range: ClosedRange<Int64>? = nil) throws(StoreError) -> [Counts] {
        let (lo, hi) = (range?.lowerBound ?? Int64.min, range?.upperBound ?? Int64.max)
        let tally = Tally(terms: targets.count, mentionLimit: mentionLimit)
        if needsText {
            let set = MentionBuffer()
            var posts = try StoredPosts(db, columns: [.author, .text], range: lo...hi)
            defer { posts.done() }
            while try posts.next() {
                set.removeAll()
                for m in posts.mentions { set.append(m) }
                var mask = posts.mask(terms)
                while mask != 0 {
                    let t = mask.trailingZeroBitCount
                    mask &= mask - 1
                    tally.add(set, term: t)
                }
            }
        } else {
            // The tweets of the authors asked about, in id order as the links come.
            var authored: [(tweet: Int64, author: Int64)] = []
            var written: [Int64: Int] = [:]
            for author in Set(targets.compactMap { $0.term.kind == .author ? $0.mention : nil }) {
                let s = try db.statement("SELECT id FROM tweet WHERE author = ?1 AND id BETWEEN ?2 AND ?3")
                try s.bind(1, author)
                try s.bind(2, lo)
                try s.bind(3, hi)
                var n = 0
                while try s.step() {
                    authored.append((s.int64(0), author))
                    n += 1
                }
                written[author] = n
            }
            if written.count > 1 { authored.sort { $0.tweet < $1.tweet } }
            // A tweet without links matches no #tag or @name term, and adds no
            // mention to the others: only their tweet counts need it, set below.
            let grouper = LinkGrouper(terms.masks, authored: authored, tally: tally)
            // An upper bound costs SQLite a compare per link: given only when there is one.
            let sql = "SELECT \(Database.eachLinkFunction)(id, links) FROM tweet WHERE id >= ?1"
            try withExtendedLifetime(grouper) { () throws(StoreError) in
                try db.eachPair(hi == Int64.max ? sql : sql + " AND id <= ?2", hi == Int64.max ? [lo] : [lo, hi],
                                context: Unmanaged.passUnretained(grouper).toOpaque(), LinkGrouper.receive)
            }
            grouper.finish()
            guard grouper.inOrder else {
                throw StoreError(.other, path: db.path, "cannot read the store: its links came out of tweet order; this is a bug in smashtag")
            }
            for (t, target) in targets.enumerated() {
                switch target.term.kind {
                case .all: tally.setTweets(countsAll ? Int(try tweetCount(db, lo, hi)) : 0, term: t)
                case .author: tally.setTweets(target.mention.flatMap { written[$0] } ?? 0, term: t)
                default: break
                }
            }
        }
        return tally.counts()
    }

    /// Tweets with ids in `lo...hi`: the whole table's count (SQLite reads it
    /// from the B-tree's pages, no row decoded) when the range covers every id.
    private func tweetCount(_ db: Database, _ lo: Int64, _ hi: Int64) throws(StoreError) -> Int64 {
        if lo == Int64.min && hi == Int64.max { return try db.integer("SELECT count(*) FROM tweet") ?? 0 }
        return try db.integer("SELECT count(*) FROM tweet WHERE id BETWEEN ?1 AND ?2", [lo, hi]) ?? 0
    }
}

/// Turns the links of a scan, in tweet order, into mention sets, and counts
/// each tweet's set for the scan's terms when the next tweet starts.
///
/// The hot loop of a report: it runs once per link, called by SQLite
/// (`Database.eachPair`), so it touches only flat arrays of the terms.
final class LinkGrouper {
    /// The mention and author terms by the store's mention ids (word terms scan with the texts, `TermScan.run`).
    private let masks: TermMasks
    private let authored: [(tweet: Int64, author: Int64)]
    private var next = 0
    private let set = MentionBuffer()
    private var tweet = Int64.min
    private var started = false
    let tally: Tally
    /// False when a link came before its predecessor's tweet (SQLite's scan
    /// order is the primary key's; anything else would be a bug).
    private(set) var inOrder = true

    init(_ masks: TermMasks, authored: [(tweet: Int64, author: Int64)], tally: Tally) {
        self.masks = masks
        self.authored = authored
        self.tally = tally
    }

    /// `Database.eachPair`'s receiver.
    static let receive: Database.PairReceiver = { context, tweet, mention in
        Unmanaged<LinkGrouper>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.link(tweet, mention) }
    }

    @inline(__always)
    func link(_ tweet: Int64, _ mention: Int64) {
        if tweet != self.tweet || !started {
            if started {
                if tweet < self.tweet { inOrder = false }
                flush()
            }
            self.tweet = tweet
            started = true
        }
        set.append(mention)
    }

    func finish() {
        if started { flush() }
        started = false
    }

    private func flush() {
        while next < authored.count && authored[next].tweet < tweet { next += 1 }
        let author = next < authored.count && authored[next].tweet == tweet ? Int(authored[next].author) : nil
        var mask = masks.mask(mentions: set.elements, author: author)
        while mask != 0 {
            let t = mask.trailingZeroBitCount
            mask &= mask - 1
            tally.add(set, term: t)
        }
        set.removeAll()
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
    func add(_ set: MentionBuffer, term t: Int) {
        tweets[t] += 1
        if let dense {
            let base = dense + t * stride
            for i in 0..<set.count {
                let m = Int(set.ids[i])
                if m >= 0 && m < stride { base[m] += 1 }
            }
        } else {
            for i in 0..<set.count { sparse[t][set.ids[i], default: 0] += 1 }
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
