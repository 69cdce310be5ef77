/// The aggregator's counts for SPEC §12.3's columns, per term, over the
/// tweets it counted (each once, after dedup): retweets (originals are the
/// rest), distinct authors, and how often each spelling of a mention was
/// written. Only a report that asks for these columns keeps them.
///
/// Mentions, authors and spellings are the aggregator's global ids.
///
/// - Complexity: memory O(distinct (mention, author) pairs + distinct
///   (mention, spelling) pairs) per term: a `Set<UInt64>` entry each, about
///   16 bytes at its load factor, so `'*'` with `authors` over millions of
///   tweets stays within tens of megabytes.
struct ColumnCounts {
    private var termRetweets: [Int]
    /// Counted tweets whose kind is unknown (stored before schema v4): neither originals nor retweets.
    private var termUnknown: [Int]
    private var unknown: [DenseCounts]
    private var termAuthors: [Set<Int32>]
    private var termAuthorCounts: [Int]
    private var retweets: [DenseCounts]
    private var authorPairs: [Set<UInt64>]
    private var authors: [DenseCounts]
    /// (mention << 32 | spelling) → tweets writing it so.
    private var spellingCounts: [[UInt64: Int]]
    /// Display spellings counted elsewhere (the counts format).
    private var displays: [[Int32: String]]
    private var spellings: [String] = []
    private var spellingIDs: [String: Int32] = [:]

    init(terms: Int) {
        termRetweets = Array(repeating: 0, count: terms)
        termUnknown = Array(repeating: 0, count: terms)
        unknown = Array(repeating: DenseCounts(), count: terms)
        termAuthors = Array(repeating: [], count: terms)
        termAuthorCounts = Array(repeating: 0, count: terms)
        retweets = Array(repeating: DenseCounts(), count: terms)
        authorPairs = Array(repeating: [], count: terms)
        authors = Array(repeating: DenseCounts(), count: terms)
        spellingCounts = Array(repeating: [:], count: terms)
        displays = Array(repeating: [:], count: terms)
    }

    /// One more slot (a term's bucket, with `--by`), counted like a term.
    mutating func addSlot() {
        termRetweets.append(0)
        termUnknown.append(0)
        unknown.append(DenseCounts())
        termAuthors.append([])
        termAuthorCounts.append(0)
        retweets.append(DenseCounts())
        authorPairs.append([])
        authors.append(DenseCounts())
        spellingCounts.append([:])
        displays.append([:])
    }

    mutating func spellingID(_ s: String) -> Int32 {
        if let id = spellingIDs[s] { return id }
        let id = Int32(spellings.count)
        spellings.append(s)
        spellingIDs[s] = id
        return id
    }

    /// One counted tweet of term `t` with its distinct mentions, its kind, its
    /// author (nil: unknown, adds no author) and its distinct (mention, spelling) pairs.
    mutating func add(term t: Int, mentions: [Int32], retweet: Bool, author: Int32?, spellings: [(Int32, Int32)],
                      unknownKind: Bool = false) {
        addTweet(term: t, retweet: retweet, author: author, unknownKind: unknownKind)
        for m in mentions { addMention(m, term: t, retweet: retweet, author: author, unknownKind: unknownKind) }
        for (m, s) in spellings { addSpelling(s, of: m, term: t) }
    }

    /// One counted tweet of term `t`: its kind (unknown: stored before schema
    /// v4) and author (nil: unknown, adds no author). Then `addMention` for
    /// each of its distinct mentions and `addSpelling` for each distinct
    /// (mention, spelling) it carries.
    @inline(__always)
    mutating func addTweet(term t: Int, retweet: Bool, author: Int32?, unknownKind: Bool) {
        if unknownKind { termUnknown[t] += 1 }
        if retweet { termRetweets[t] += 1 }
        if let author, termAuthors[t].insert(author).inserted { termAuthorCounts[t] += 1 }
    }

    @inline(__always)
    mutating func addMention(_ m: Int32, term t: Int, retweet: Bool, author: Int32?, unknownKind: Bool) {
        if unknownKind { unknown[t].add(1, at: m) }
        if retweet { retweets[t].add(1, at: m) }
        if let author, authorPairs[t].insert(UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: author))).inserted {
            authors[t].add(1, at: m)
        }
    }

    @inline(__always)
    mutating func addSpelling(_ s: Int32, of m: Int32, term t: Int) {
        spellingCounts[t][UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: s)), default: 0] += 1
    }

    /// Counts made elsewhere, added as they are.
    mutating func add(counted c: CountedColumns, term t: Int, mention: Int32?) {
        guard let m = mention else {
            termRetweets[t] += c.retweets
            termAuthorCounts[t] += c.authors
            return
        }
        retweets[t].add(c.retweets, at: m)
        authors[t].add(c.authors, at: m)
        if let d = c.display, !d.isEmpty { displays[t][m] = d }
    }

    /// Fills the columns of report `r` of term `t` (its rows already chosen).
    func fill(_ r: inout TermReport, term t: Int, facts: ReportColumns.Facts, id: (String) -> Int32) {
        r.retweets = termRetweets[t]
        r.originals = r.tweets - r.retweets - termUnknown[t]
        r.authors = termAuthorCounts[t]
        var wanted: [Int32: Int] = [:]  // mention → its best spelling's count
        var best: [Int32: Int32] = [:]
        if facts.spellings {
            for row in r.hashtags + r.users { wanted[id(row.mention)] = 0 }
            for (pair, n) in spellingCounts[t] {
                let m = Int32(bitPattern: UInt32(pair >> 32)), s = Int32(bitPattern: UInt32(truncatingIfNeeded: pair))
                guard let have = wanted[m] else { continue }
                // Most frequent; ties by ascending UTF-8 bytes.
                if n > have || (n == have && best[m].map({ spellings[Int(s)].precedesInUTF8(spellings[Int($0)]) }) ?? true) {
                    wanted[m] = n
                    best[m] = s
                }
            }
        }
        func columns(_ rows: [MentionCount]) -> [RowColumns] {
            rows.map { row in
                let m = id(row.mention)
                var c = RowColumns()
                c.retweets = retweets[t][m]
                c.originals = row.count - c.retweets - unknown[t][m]
                c.authors = authors[t][m]
                c.display = best[m].map { spellings[Int($0)] } ?? displays[t][m]
                return c
            }
        }
        r.hashtagColumns = columns(r.hashtags)
        r.userColumns = columns(r.users)
    }
}

/// Counts indexed by the aggregator's mention id (dense, small integers):
/// an array, grown as ids come, so the per-mention adds of a report with
/// columns do no hashing.
struct DenseCounts {
    private var counts: [Int] = []

    @inline(__always)
    mutating func add(_ n: Int, at m: Int32) {
        let i = Int(m)
        if i >= counts.count { counts += Array(repeating: 0, count: max(i + 1 - counts.count, counts.count)) }
        counts[i] += n
    }

    subscript(_ m: Int32) -> Int { Int(m) < counts.count ? counts[Int(m)] : 0 }
}
