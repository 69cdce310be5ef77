/// Tracked terms (SPEC §10): terms whose counts the store keeps up to date
/// at every ingest, so that reporting them reads a few rows.
///
/// `track` counts the tweets already stored once; every ingest then adds
/// its new tweets in the same transaction as the tweets themselves (so the
/// kept counts never disagree with the tweets), `prune` counts again, and
/// `untrack` deletes the term, its counts going with it (ON DELETE CASCADE).
extension Store {
    /// The tracked terms, in the order they were tracked, with their tweet counts.
    public func terms() throws(StoreError) -> [(term: Term, tweets: Int)] {
        let s = try db.statement("SELECT term, tweets FROM term ORDER BY id")
        var out: [(Term, Int)] = []
        while try s.step() {
            if let text = s.text(0), let term = try? Term(parsing: text) { out.append((term, Int(s.int64(1)))) }
        }
        return out
    }

    /// Starts keeping counts for `terms`; terms tracked already are left as they are.
    ///
    /// - Returns: the terms newly tracked.
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one report's work per new term.
    public func track(_ terms: [Term]) throws -> [Term] {
        if !(try keepsText), let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        return try db.transaction { () throws(StoreError) -> [Term] in
            let kept = try keptTerms()
            var added: [Term] = []
            for term in terms where kept[term] == nil && !added.contains(term) {
                let s = try db.statement("INSERT INTO term(term, tracked_at) VALUES (?1, ?2)")
                try s.bind(1, term.description)
                try s.bind(2, Store.now())
                try s.run()
                try recount(db.lastInsertRowID, term)
                added.append(term)
            }
            try db.run(Store.bumpGeneration)
            return added
        }
    }

    /// Stops keeping counts for `terms`.
    ///
    /// - Returns: the terms that were tracked (and are no longer).
    public func untrack(_ terms: [Term]) throws(StoreError) -> [Term] {
        try db.transaction { () throws(StoreError) -> [Term] in
            var removed: [Term] = []
            let s = try db.statement("DELETE FROM term WHERE term = ?1")
            for term in terms {
                s.reset()
                try s.bind(1, term.description)
                try s.run()
                if db.changes > 0 { removed.append(term) }
            }
            try db.run(Store.bumpGeneration)
            return removed
        }
    }

    /// Tracked terms by term, with their row ids.
    func keptTerms() throws(StoreError) -> [Term: Int64] {
        let s = try db.statement("SELECT id, term FROM term")
        var out: [Term: Int64] = [:]
        while try s.step() {
            if let text = s.text(1), let term = try? Term(parsing: text) { out[term] = s.int64(0) }
        }
        return out
    }

    /// The kept counts of tracked term `id`.
    func keptCounts(_ id: Int64) throws(StoreError) -> TermScan.Counts {
        var counts = TermScan.Counts()
        counts.tweets = Int(try db.integer("SELECT tweets FROM term WHERE id = ?1", [id]) ?? 0)
        let s = try db.statement("SELECT mention, count FROM term_count WHERE term = ?1")
        try s.bind(1, id)
        while try s.step() { counts.mentions[s.int64(0)] = Int(s.int64(1)) }
        return counts
    }

    /// The tracked terms as the ingest writer matches them.
    func trackedTerms() throws(StoreError) -> [(id: Int64, term: StoredTerm)] {
        var out: [(Int64, StoredTerm)] = []
        for (term, id) in try keptTerms().sorted(by: { $0.value < $1.value }) {
            out.append((id, try storedTerm(term)))
        }
        return out
    }

    /// Counts tracked term `id` from the stored tweets again (in the caller's transaction).
    func recount(_ id: Int64, _ term: Term) throws(StoreError) {
        let c = try counts(of: [term], parallel: false)[term]!
        let (tweets, counts) = (c.tweets, c.mentions)
        try db.run("DELETE FROM term_count WHERE term = ?1", [id])
        let insert = try db.statement("INSERT INTO term_count(term, mention, count) VALUES (?1, ?2, ?3)")
        for (mention, count) in counts.sorted(by: { $0.key < $1.key }) {
            insert.reset()
            try insert.bind(1, id)
            try insert.bind(2, mention)
            try insert.bind(3, Int64(count))
            try insert.run()
        }
        try db.run("UPDATE term SET tweets = ?1 WHERE id = ?2", [Int64(tweets), id])
    }
}
