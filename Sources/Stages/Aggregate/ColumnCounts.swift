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
    private var termAuthors: [Set<Int32>]
    private var termAuthorCounts: [Int]
    private var retweets: [[Int32: Int]]
    private var authorPairs: [Set<UInt64>]
    private var authors: [[Int32: Int]]
    /// (mention << 32 | spelling) → tweets writing it so.
    private var spellingCounts: [[UInt64: Int]]
    /// Display spellings counted elsewhere (the counts format).
    private var displays: [[Int32: String]]
    private var spellings: [String] = []
    private var spellingIDs: [String: Int32] = [:]

    init(terms: Int) {
        termRetweets = Array(repeating: 0, count: terms)
        termAuthors = Array(repeating: [], count: terms)
        termAuthorCounts = Array(repeating: 0, count: terms)
        retweets = Array(repeating: [:], count: terms)
        authorPairs = Array(repeating: [], count: terms)
        authors = Array(repeating: [:], count: terms)
        spellingCounts = Array(repeating: [:], count: terms)
        displays = Array(repeating: [:], count: terms)
    }

    /// One more slot (a term's bucket, with `--by`), counted like a term.
    mutating func addSlot() {
        termRetweets.append(0)
        termAuthors.append([])
        termAuthorCounts.append(0)
        retweets.append([:])
        authorPairs.append([])
        authors.append([:])
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
    mutating func add(term t: Int, mentions: [Int32], retweet: Bool, author: Int32?, spellings: [(Int32, Int32)]) {
        if retweet {
            termRetweets[t] += 1
            for m in mentions { retweets[t][m, default: 0] += 1 }
        }
        if let author {
            if termAuthors[t].insert(author).inserted { termAuthorCounts[t] += 1 }
            for m in mentions where authorPairs[t].insert(UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: author))).inserted {
                authors[t][m, default: 0] += 1
            }
        }
        for (m, s) in spellings {
            spellingCounts[t][UInt64(UInt32(bitPattern: m)) << 32 | UInt64(UInt32(bitPattern: s)), default: 0] += 1
        }
    }

    /// Counts made elsewhere, added as they are.
    mutating func add(counted c: CountedColumns, term t: Int, mention: Int32?) {
        guard let m = mention else {
            termRetweets[t] += c.retweets
            termAuthorCounts[t] += c.authors
            return
        }
        retweets[t][m, default: 0] += c.retweets
        authors[t][m, default: 0] += c.authors
        if let d = c.display, !d.isEmpty { displays[t][m] = d }
    }

    /// Fills the columns of report `r` of term `t` (its rows already chosen).
    func fill(_ r: inout TermReport, term t: Int, facts: ReportColumns.Facts, id: (String) -> Int32) {
        r.retweets = termRetweets[t]
        r.authors = termAuthorCounts[t]
        var wanted: [Int32: Int] = [:]  // mention → its best spelling's count
        var best: [Int32: Int32] = [:]
        if facts.spellings {
            for row in r.hashtags + r.users { wanted[id(row.mention)] = 0 }
            for (pair, n) in spellingCounts[t] {
                let m = Int32(bitPattern: UInt32(pair >> 32)), s = Int32(bitPattern: UInt32(truncatingIfNeeded: pair))
                guard let have = wanted[m] else { continue }
                // Most frequent; ties by ascending UTF-8 bytes.
                if n > have || (n == have && best[m].map({ spellings[Int(s)].utf8.lexicographicallyPrecedes(spellings[Int($0)].utf8) }) ?? true) {
                    wanted[m] = n
                    best[m] = s
                }
            }
        }
        func fill(_ rows: inout [MentionCount]) {
            for k in rows.indices {
                let m = id(rows[k].mention)
                rows[k].retweets = retweets[t][m] ?? 0
                rows[k].authors = authors[t][m] ?? 0
                rows[k].display = best[m].map { spellings[Int($0)] } ?? displays[t][m]
            }
        }
        fill(&r.hashtags)
        fill(&r.users)
    }
}
