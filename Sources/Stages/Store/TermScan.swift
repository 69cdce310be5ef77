/// Counts the reports of many terms in one pass over the store, in tweet id
/// order: the links (`tweet_mention`, whose primary key starts with the
/// tweet) give each tweet's mention set; the tweets themselves are read
/// beside them only when a term needs an author (`from:`) or text (a word).
///
///     tweet_mention  (1,#a) (1,@b) (2,#a) (4,#c) …   ─┐ grouped by tweet
///     tweet          1:author,text  2:…  3:…  4:…   ─┘ merged on id (when needed)
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

    init(_ targets: [StoredTerm], mentionLimit: Int64) {
        self.targets = targets
        self.mentionLimit = mentionLimit
    }

    /// Texts are read beside the links only for word terms; `from:` terms
    /// find their tweets first (SQLite filters the authors, no row leaves it
    /// but theirs), `*` counts its tweets apart.
    private var needsText: Bool { targets.contains { $0.term.kind == .word } }

    /// Counts over the tweets with ids in `range` (all when nil).
    func run(_ db: Database, range: ClosedRange<Int64>? = nil) throws(StoreError) -> [Counts] {
        let (lo, hi) = (range?.lowerBound ?? Int64.min, range?.upperBound ?? Int64.max)
        var tally = Tally(terms: targets.count, mentionLimit: mentionLimit)
        // Scans start at `lo` and stop past `hi` here, which costs SQLite no compare per row.
        let links = try db.statement("SELECT tweet, mention FROM tweet_mention WHERE tweet >= ?1")
        defer { links.done() }
        try links.bind(1, lo)
        let set = MentionBuffer()
        // The link the scan stands on (read once: every column read is a call into SQLite).
        var linkReady = try links.step()
        var link = (tweet: Int64(0), mention: Int64(0))
        if linkReady { link = (links.int64(0), links.int64(1)) }
        func nextLink() throws(StoreError) {
            linkReady = try links.step()
            if linkReady { link = (links.int64(0), links.int64(1)) }
        }
        linkReady = linkReady && link.tweet <= hi

        if needsText {
            let tweets = try db.statement("SELECT id, author, text FROM tweet WHERE id >= ?1")
            defer { tweets.done() }
            try tweets.bind(1, lo)
            while try tweets.step() {
                let id = tweets.int64(0)
                if id > hi { break }
                set.removeAll()
                while linkReady && link.tweet < id { try nextLink() }
                while linkReady && link.tweet == id {
                    set.append(link.mention)
                    try nextLink()
                }
                add(set, author: tweets.optionalInt64(1), text: tweets.text(2), to: &tally)
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
            var next = 0
            // A tweet without links matches no #tag or @name term, and adds no
            // mention to the others: only their tweet counts need it, set below.
            while linkReady {
                let id = link.tweet
                if id > hi { break }
                set.removeAll()
                while linkReady && link.tweet == id {
                    set.append(link.mention)
                    try nextLink()
                }
                while next < authored.count && authored[next].tweet < id { next += 1 }
                let author = next < authored.count && authored[next].tweet == id ? authored[next].author : nil
                add(set, author: author, text: nil, to: &tally)
            }
            for (t, target) in targets.enumerated() {
                switch target.term.kind {
                case .all: tally.tweets[t] = Int(try db.integer("SELECT count(*) FROM tweet WHERE id BETWEEN ?1 AND ?2", [lo, hi]) ?? 0)
                case .author: tally.tweets[t] = target.mention.flatMap { written[$0] } ?? 0
                default: break
                }
            }
        }
        return tally.counts()
    }

    @inline(__always)
    private func add(_ set: MentionBuffer, author: Int64?, text: String?, to tally: inout Tally) {
        var prepared: [Unicode.Scalar]?
        for (t, target) in targets.enumerated() {
            let hit = target.matches(carries: set.contains, author: author) {
                if prepared == nil, let text { prepared = WordMatch.prepare(text) }
                return prepared
            }
            if hit { tally.add(set, term: t) }
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
struct Tally {
    static let denseLimit: Int64 = 1 << 25

    var tweets: [Int]
    private var dense: [Int32]
    private var sparse: [[Int64: Int]]
    private let stride: Int
    private let isDense: Bool

    init(terms: Int, mentionLimit: Int64) {
        tweets = Array(repeating: 0, count: terms)
        isDense = Int64(terms) * (mentionLimit + 1) <= Tally.denseLimit
        stride = isDense ? Int(mentionLimit) + 1 : 0
        dense = isDense ? Array(repeating: 0, count: terms * stride) : []
        sparse = isDense ? [] : Array(repeating: [:], count: terms)
    }

    @inline(__always)
    mutating func add(_ set: MentionBuffer, term t: Int) {
        tweets[t] += 1
        if isDense {
            let base = t * stride, stride = self.stride
            dense.withUnsafeMutableBufferPointer { counts in
                for i in 0..<set.count {
                    let m = Int(set.ids[i])
                    if m >= 0 && m < stride { counts[base + m] += 1 }
                }
            }
        } else {
            for i in 0..<set.count { sparse[t][set.ids[i], default: 0] += 1 }
        }
    }

    func counts() -> [TermScan.Counts] {
        tweets.indices.map { t in
            var c = TermScan.Counts()
            c.tweets = tweets[t]
            if isDense {
                for m in 0..<stride where dense[t * stride + m] > 0 { c.mentions[Int64(m)] = Int(dense[t * stride + m]) }
            } else {
                c.mentions = sparse[t]
            }
            return c
        }
    }
}
