/// What `prune` removes: tweets created before a time, or all but the newest N.
public enum PruneRule: Sendable, Equatable, CustomStringConvertible {
    /// Tweets created before this many seconds since 1970; tweets with no
    /// known creation time are kept.
    case createdBefore(Int64)
    /// All but the `n` newest tweets by creation time (ties: the higher id
    /// is newer; tweets with no known creation time count as the oldest).
    case keepNewest(Int)

    public var description: String {
        switch self {
        case .createdBefore(let t): return "tweets created before \(CreatedAt.iso(t))"
        case .keepNewest(let n): return "all but the newest \(n) tweets"
        }
    }
}

/// What a prune did.
public struct PruneOutcome: Sendable {
    public var run: Int64
    public var removed: Int
    public var kept: Int
    public var bytesBefore: Int64
    public var bytesAfter: Int64
}

extension Store {
    /// Removes old tweets and everything that depends on them, then gives
    /// the space back to the file system (SPEC §10).
    ///
    /// Deleting a tweet deletes its mention links (in its row);
    /// mentions no tweet uses any more go too; tracked terms are counted
    /// again from the tweets kept, in the same transaction. `VACUUM` then
    /// rewrites the file without the freed pages.
    ///
    /// - Complexity: one pass over the tweets and the links removed; the
    ///   vacuum rewrites the whole store (it needs as much free disk).
    public func prune(_ rule: PruneRule) throws(StoreError) -> PruneOutcome {
        let run = try startRun("prune", inputs: [rule.description])
        let before = fileSize()
        do {
            let (removed, kept) = try db.transaction { () throws(StoreError) -> (Int, Int) in
                switch rule {
                case .createdBefore(let t):
                    try db.run("DELETE FROM tweet WHERE created_at < ?1", [t])
                case .keepNewest(let n):
                    try db.run("""
                        DELETE FROM tweet WHERE id NOT IN (
                            SELECT id FROM tweet ORDER BY created_at IS NULL, created_at DESC, id DESC LIMIT ?1)
                        """, [Int64(n)])
                }
                let removed = db.changes
                // A post's copy goes with the last kept tweet that names it (SPEC §15).
                try db.run("""
                    DELETE FROM post_copy WHERE post NOT IN (
                        SELECT retweet_of FROM tweet WHERE retweet_of IS NOT NULL
                        UNION SELECT quote_of FROM tweet WHERE quote_of IS NOT NULL
                        UNION SELECT reply_to FROM tweet WHERE reply_to IS NOT NULL)
                    """)
                // The identities (URIs, SPEC §16) no post nor reference holds any more go too.
                try db.run("""
                    DELETE FROM identity WHERE -id NOT IN (
                        SELECT id FROM tweet WHERE id < 0 UNION SELECT retweet_of FROM tweet WHERE retweet_of < 0
                        UNION SELECT quote_of FROM tweet WHERE quote_of < 0 UNION SELECT reply_to FROM tweet WHERE reply_to < 0
                        UNION SELECT post FROM post_copy WHERE post < 0)
                    """)
                for (term, id) in try keptTerms() { try recount(id, term) }
                try db.run(Store.bumpGeneration)
                try removeUnused()
                return (removed, try tweetCount)
            }
            try db.execute("VACUUM", "rewrite the store without the freed space (it needs as much free disk as the store)")
            try checkpoint()
            let after = fileSize()
            try endRun(run, outcome: "ok",
                       message: "removed \(removed) tweets, kept \(kept); \(before) → \(after) bytes")
            return PruneOutcome(run: run, removed: removed, kept: kept, bytesBefore: before, bytesAfter: after)
        } catch {
            try? endRun(run, outcome: "failed", message: error.message)
            throw error
        }
    }

    /// Deletes the mentions and spellings no tweet, author or kept count uses
    /// any more: the links' own are read from the tweets' blobs into a
    /// temporary table each, for SQLite to compare.
    private func removeUnused() throws(StoreError) {
        var mentions = Set<Int64>(), spellings = Set<Int64>()
        let all = try db.statement("SELECT links FROM tweet WHERE links IS NOT NULL")
        while try all.step() {
            guard let blob = all.blob(0) else { continue }
            Links.entries(blob) { m, spelling, _ in
                mentions.insert(m)
                if case .stored(let id) = spelling { spellings.insert(id) }
            }
        }
        try db.execute("""
            CREATE TEMP TABLE used_mention(id INTEGER PRIMARY KEY);
            CREATE TEMP TABLE used_spelling(id INTEGER PRIMARY KEY)
            """)
        defer { try? db.execute("DROP TABLE temp.used_mention; DROP TABLE temp.used_spelling") }
        for (table, ids) in [("used_mention", mentions), ("used_spelling", spellings)] {
            let sorted = ids.sorted()
            try db.insert(into: "temp." + table, columns: ["id"], count: sorted.count) { (s, row, p) throws(StoreError) in
                try s.bind(p, sorted[row])
            }
        }
        try db.run("""
            DELETE FROM mention WHERE id NOT IN (SELECT id FROM temp.used_mention)
                AND id NOT IN (SELECT author FROM tweet WHERE author IS NOT NULL)
                AND id NOT IN (SELECT author FROM post_copy WHERE author IS NOT NULL)
                AND id NOT IN (SELECT mention FROM term_count)
            """)
        try db.run("DELETE FROM spelling WHERE id NOT IN (SELECT id FROM temp.used_spelling)")
    }

    /// Bytes of the store's file and its write-ahead log.
    public func fileSize() -> Int64 {
        var total: Int64 = 0
        for p in [path, path + "-wal"] {
            var st = stat()
            if stat(p, &st) == 0 { total += Int64(st.st_size) }
        }
        return total
    }
}

#if canImport(Glibc)
import Glibc
#endif
