/// SPEC §16's join in the store: a Bluesky repost carries its subject's
/// mentions once the subject is stored, whichever was ingested first.
///
/// A repost is stored as it is read (its poster, `retweet_of` its subject's
/// row id). At the end of every ingest that stored a Bluesky post or repost
/// (a `setting` row, written with the batch, says so, so a run killed before
/// its end leaves the work to the next), each stored repost whose subject is
/// stored gets, in its row, the subject's links but its poster (with their
/// spellings) beside its own poster, and the subject's text: then every scan,
/// count, pair and trend of the store reads it as a report of the dumps
/// counts it, and the kept counts of tracked terms take the difference. A
/// repost already joined is left as it is (its links come out the same).
///
/// - Complexity: one pass over the stored reposts whose subject is stored,
///   by the rowid range of non-tweet posts, at the end of such an ingest.
extension IngestWriter {
    static let joinPendingSetting = "reposts_to_join"

    /// Notes, in the open batch's transaction, that reposts may have a subject to join.
    func noteBlueskyStored() throws(StoreError) {
        let s = try db.statement("INSERT OR REPLACE INTO setting(key, value) VALUES (?1, '1')")
        try s.bind(1, Self.joinPendingSetting)
        try s.run()
    }

    /// Joins the stored reposts with their stored subjects (in the caller's transaction).
    func joinReposts() throws(StoreError) {
        let pending = try db.statement("SELECT 1 FROM setting WHERE key = ?1")
        try pending.bind(1, Self.joinPendingSetting)
        guard try pending.first({ _ in true }) != nil else { return }
        let rows = try db.statement("""
            SELECT r.id, r.links, r.author, r.text, s.links, s.text FROM tweet r
            JOIN identity i ON i.id = -r.id JOIN tweet s ON s.id = r.retweet_of
            WHERE r.id < 0 AND r.retweet = 1 AND r.retweet_of IS NOT NULL AND i.text GLOB 'at://*/app.bsky.feed.repost/*'
            """)
        var changes: [(id: Int64, author: Int64?, old: [UInt8], new: [UInt8], oldText: String?, newText: String?)] = []
        var kinds: [Int64: MentionKind] = [:]
        let keyOf = try db.statement("SELECT key FROM mention WHERE id = ?1")
        func kind(_ m: Int64) throws(StoreError) -> MentionKind? {
            if let k = kinds[m] { return k }
            keyOf.reset()
            try keyOf.bind(1, m)
            let k = (try keyOf.first { $0.text(0) } ?? nil)?.signedKind
            if let k { kinds[m] = k }
            return k
        }
        while try rows.step() {
            let old = rows.blob(1).map { Array($0) } ?? []
            var own: [(mention: Int64, spelling: Links.Spelling)] = []
            var carried: [(mention: Int64, spelling: Links.Spelling)] = []
            Links.entries(rows.blob(1) ?? UnsafeRawBufferPointer(start: nil, count: 0)) { m, s, _ in own.append((m, s)) }
            Links.entries(rows.blob(4) ?? UnsafeRawBufferPointer(start: nil, count: 0)) { m, s, _ in carried.append((m, s)) }
            var links: [(mention: Int64, spelling: Links.Spelling)] = []
            for e in own where try kind(e.mention) == .poster { links.append(e) }
            for e in carried where try kind(e.mention) != .poster { links.append(e) }
            // Sorted by mention, stably: each mention's spellings stay in their order.
            let order = links.indices.sorted { a, b in links[a].mention != links[b].mention ? links[a].mention < links[b].mention : a < b }
            var new: [UInt8] = []
            Links.encode(order.map { links[$0] }[...], into: &new)
            let (oldText, newText) = (rows.text(3), rows.text(5))
            if new == old && oldText == newText { continue }
            changes.append((rows.int64(0), rows.optionalInt64(2), old, new, oldText, newText))
        }
        rows.done()
        let update = try db.statement("UPDATE tweet SET links = ?1, text = ?2 WHERE id = ?3")
        for c in changes {
            update.reset()
            try update.bind(1, blob: c.new[...])
            try update.bind(2, c.newText)
            try update.bind(3, c.id)
            try update.run()
        }
        if !changes.isEmpty { try recount(changes.map { ($0.author, $0.old, $0.new, $0.oldText, $0.newText) }) }
        let done = try db.statement("DELETE FROM setting WHERE key = ?1")
        try done.bind(1, Self.joinPendingSetting)
        try done.run()
    }
}
