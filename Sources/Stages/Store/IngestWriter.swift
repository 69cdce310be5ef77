/// The store's single writer during an ingest: takes chunks in input order
/// and writes them in batches, one transaction per batch.
///
/// A batch commits, all together, its new tweets, their mention links, the
/// kept counts of tracked terms, the files it finished and the run's
/// counters; so a run killed at any moment leaves the store exactly as
/// after a committed batch, and the history saying how far it got.
///
/// Per batch: one existence query per `existenceSlice` tweet ids (never one
/// per tweet), then multi-row inserts in key order (tweets by id, links by
/// tweet), so the B-trees are written where their pages already are.
final class IngestWriter {
    let db: Database
    private let run: Int64
    private let batchSize: Int
    private let keepText: Bool
    private var tracked: [(id: Int64, term: StoredTerm)]

    // The open batch, in input order.
    private var ids: [Int64] = []
    private var createdAt: [Int64?] = []
    private var authors: [Int64?] = []
    private var mentionEnds: [Int] = []
    private var mentions: [Int64] = []
    private var texts: [String?] = []
    private var retweets: [Bool] = []
    private var langs: [String?] = []
    /// Per tweet (ends in `spellingEnds`): (mention id, how the tweet writes it).
    private var spellingEnds: [Int] = []
    private var spellings: [(mention: Int64, spelling: Links.Spelling)] = []
    private var finishedFiles: [(state: FileState, path: String)] = []
    private var inTransaction = false
    /// SPEC §15: each tweet's retweeted, quoted and replied-to post (ids' bits, nil for none) …
    private var references: [(retweet: Int64?, quote: Int64?, reply: Int64?)] = []
    /// … and what the batch's embedded copies say of posts, merged per post, the first copy read first.
    private var copies: [Int64: (author: Int64?, time: Int64?, text: String?)] = [:]

    /// The Bluesky handles written so far (SPEC §16).
    private var handles = HandleLedger()
    /// The batch's posts by their identities in this process, beside `ids`.
    private var identitiesRead: [UInt64] = []
    /// The posts of other platforms the last batch stored anew (their texts' spellings of handles count, SPEC §16).
    private var freshPosts: [UInt64] = []
    /// Row ids of the posts' identities (SPEC §16).
    private lazy var identities = StoredIdentities(db)
    /// Mention ids of the store by key, as far as this run has met them.
    private var mentionIDs: [String: Int64] = [:]
    /// How a spelling is stored (`Links.Spelling`), by its text, as far as this run has met it.
    private var spellingCodes: [String: Links.Spelling] = [:]
    /// Whether the store held mentions before this run added any (nil: not asked yet).
    private var heldMentions: Bool?
    /// The same for spellings.
    private var heldSpellings: Bool?

    /// Whether the open batch holds a Bluesky post (its reposts may then join their subjects, SPEC §16).
    private var batchHasBluesky = false

    /// Counters of the run, as of the last commit (and the open batch).
    private(set) var totals = RunTotals()
    private var batchRead = 0
    private var batchFiles = 0
    private var batchBytes: Int64 = 0
    private var batchSkipped = 0

    /// Ids asked about in one existence query, keys in one mention query.
    static let existenceSlice = 500
    static let mentionSlice = 200
    private static let existenceQuery = "SELECT id FROM tweet WHERE id IN (" + Array(repeating: "?", count: existenceSlice).joined(separator: ",") + ")"
    private static let mentionQuery = "SELECT id, key FROM mention WHERE key IN (" + Array(repeating: "?", count: mentionSlice).joined(separator: ",") + ")"

    init(db: Database, run: Int64, batchSize: Int, keepText: Bool, tracked: [(id: Int64, term: StoredTerm)]) {
        self.db = db
        self.run = run
        self.batchSize = max(1, batchSize)
        self.keepText = keepText
        self.tracked = tracked
    }

    /// Adds a part's tweets (a `StoreCollector`'s: every field) to the open
    /// batch, with the bytes and bad records of the piece they came from;
    /// commits when it is full.
    func add(_ chunk: PostPart, bytes: Int64, skipped: Int) throws(StoreError) {
        try begin()
        let global = try mentionIDs(for: chunk.keys)
        for i in 0..<chunk.count {
            // A tweet id below 2^63 is its row id; any other identity is a row of `identity` (schema v7).
            ids.append(try identities.storedID(of: chunk.tweetIDs[i]))
            identitiesRead.append(chunk.tweetIDs[i])
            if !batchHasBluesky && chunk.tweetIDs[i] >= PostIdentity.internedBase
                && PostIdentity.text(of: chunk.tweetIDs[i]).hasPrefix("at://") {
                batchHasBluesky = true
            }
            createdAt.append(chunk.times[i] == PostPart.unknownTime ? nil : chunk.times[i])
            authors.append(chunk.authors[i] < 0 ? nil : global[Int(chunk.authors[i])])
            for m in chunk.mentions(of: i) { mentions.append(global[Int(m)]) }
            mentionEnds.append(mentions.count)
            if keepText { texts.append(chunk.texts[i]) }
            retweets.append(chunk.retweets[i])
            langs.append(chunk.langs[i])
            for j in chunk.spellings(of: i) {
                let m = Int(chunk.spellingMentions[j])
                let s = chunk.spellingTexts[j]
                let code: Links.Spelling
                if s == PostPart.keySpelling { code = .key } else { code = try spelling(chunk.spellingStrings[Int(s)], key: chunk.keys[m]) }
                spellings.append((global[m], code))
            }
            spellingEnds.append(spellings.count)
            // A referenced post is kept by its identity's row id, as a post is (schema v7).
            func stored(_ n: UInt64) throws(StoreError) -> Int64? {
                n == PostPart.noPost ? nil : try identities.storedID(of: n)
            }
            references.append(i < chunk.retweetOf.count
                              ? (try stored(chunk.retweetOf[i]), try stored(chunk.quoteOf[i]), try stored(chunk.replyTo[i])) : (nil, nil, nil))
        }
        let c = chunk.copies
        for k in 0..<c.count where !c.own[k] {
            let post = try identities.storedID(of: c.ids[k])
            let author = c.authors[k] < 0 ? nil : global[Int(c.authors[k])]
            let time = c.times[k] == PostPart.unknownTime ? nil : c.times[k]
            let text = keepText && k < c.texts.count ? c.texts[k] : nil
            if let had = copies[post] {
                copies[post] = (had.author ?? author, had.time ?? time, had.text ?? text)
            } else {
                copies[post] = (author, time, text)
            }
        }
        batchRead += chunk.count
        batchBytes += bytes
        batchSkipped += skipped
        if ids.count >= batchSize { try commit() }
    }

    /// A file read to its end: recorded with the batch holding its last tweets.
    func fileDone(_ state: FileState?, path: String) {
        batchFiles += 1
        if let state { finishedFiles.append((state, path)) }
    }

    /// Writes the open batch and commits it, with the run's counters and,
    /// when given, how the run ended.
    func commit(outcome: String? = nil) throws(StoreError) {
        try begin()
        let new = try writeBatch()
        // The run's end: stored reposts take their stored subjects' mentions (SPEC §16).
        if outcome != nil { try joinReposts() }
        let s = try db.statement("""
            UPDATE run SET files = files + ?1, bytes = bytes + ?2, tweets_read = tweets_read + ?3,
                tweets_new = tweets_new + ?4, tweets_known = tweets_known + ?5, skipped = skipped + ?6,
                outcome = coalesce(?7, outcome), finished_at = CASE WHEN ?7 IS NULL THEN finished_at ELSE ?8 END
            WHERE id = ?9
            """)
        try s.bind(1, Int64(batchFiles))
        try s.bind(2, batchBytes)
        try s.bind(3, Int64(batchRead))
        try s.bind(4, Int64(new))
        try s.bind(5, Int64(batchRead - new))
        try s.bind(6, Int64(batchSkipped))
        try s.bind(7, outcome)
        try s.bind(8, Store.now())
        try s.bind(9, run)
        try s.run()
        try handles.save(.shared, to: db, posts: freshPosts)
        try db.run(Store.bumpGeneration)
        try db.commit()
        inTransaction = false
        totals.files += batchFiles
        totals.bytes += batchBytes
        totals.read += batchRead
        totals.new += new
        totals.known += batchRead - new
        totals.skipped += batchSkipped
        batchFiles = 0; batchBytes = 0; batchRead = 0; batchSkipped = 0
    }

    /// Drops the open batch (the run failed or was stopped).
    func abandon() {
        db.rollback()
        inTransaction = false
    }

    private func begin() throws(StoreError) {
        guard !inTransaction else { return }
        try db.begin()
        inTransaction = true
    }

    // MARK: Writing a batch

    /// Writes the open batch's new tweets, links, kept counts and finished files.
    ///
    /// - Returns: how many of the batch's tweets were new.
    private func writeBatch() throws(StoreError) -> Int {
        defer {
            ids.removeAll(keepingCapacity: true)
            identitiesRead.removeAll(keepingCapacity: true)
            createdAt.removeAll(keepingCapacity: true)
            authors.removeAll(keepingCapacity: true)
            mentionEnds.removeAll(keepingCapacity: true)
            mentions.removeAll(keepingCapacity: true)
            texts.removeAll(keepingCapacity: true)
            retweets.removeAll(keepingCapacity: true)
            langs.removeAll(keepingCapacity: true)
            spellingEnds.removeAll(keepingCapacity: true)
            spellings.removeAll(keepingCapacity: true)
            references.removeAll(keepingCapacity: true)
            copies.removeAll(keepingCapacity: true)
            finishedFiles.removeAll()
        }
        // The first copy of a tweet wins: the store's, else the batch's first.
        let known = try existing(ids)
        var fresh: [Int] = []
        fresh.reserveCapacity(ids.count)
        if isIncreasing(ids) {
            // A stream's batch: no id twice, already in key order.
            for i in ids.indices where known.isEmpty || !known.contains(ids[i]) { fresh.append(i) }
        } else {
            var taken = Set<Int64>(minimumCapacity: ids.count)
            for i in ids.indices where !known.contains(ids[i]) && taken.insert(ids[i]).inserted {
                fresh.append(i)
            }
            fresh.sort { ids[$0] < ids[$1] }
        }
        // A post already stored, or stored by this batch already, spells nothing more (SPEC §6).
        freshPosts = fresh.compactMap { identitiesRead[$0] >= PostIdentity.internedBase ? identitiesRead[$0] : nil }

        // A tweet's links, one blob in its row (`Links`): its mentions sorted,
        // each with its first spelling in the tweet, then (rare) its others.
        var links: [(mention: Int64, spelling: Links.Spelling)] = []
        var blobs: [UInt8] = []
        var blobEnds: [Int] = []
        blobs.reserveCapacity(mentions.count * 3)
        blobEnds.reserveCapacity(fresh.count)
        for i in fresh {
            links.removeAll(keepingCapacity: true)
            let written = spellingsOf(i)
            let tweetMentions = mentionsOf(i)
            if tweetMentions.count <= Self.fewLinks && written.count <= Self.fewLinks {
                for m in tweetMentions {
                    var none = true
                    for w in written where w.mention == m {
                        links.append((m, w.spelling))
                        none = false
                    }
                    if none { links.append((m, .key)) }
                }
                // Sorted in place by mention, stably (a tweet's few mentions, no array per tweet).
                for j in links.indices.dropFirst() {
                    var k = j
                    while k > 0 && links[k - 1].mention > links[k].mention {
                        links.swapAt(k - 1, k)
                        k -= 1
                    }
                }
            } else {
                Self.manyLinks(tweetMentions, written, into: &links)
            }
            Links.encode(links[...], into: &blobs)
            blobEnds.append(blobs.count)
        }
        try db.insert(into: "tweet", columns: ["id", "created_delta", "author", "text", "lang", "retweet", "links",
                                               "retweet_of", "quote_of", "reply_to"],
                      count: fresh.count) { (s, row, p) throws(StoreError) in
            let i = fresh[row]
            try s.bind(p, ids[i])
            try s.bind(p + 1, Schema.createdDelta(id: ids[i], time: createdAt[i]))
            try s.bind(p + 2, authors[i])
            try s.bind(p + 3, keepText ? texts[i] : nil)
            try s.bind(p + 4, langs[i])
            try s.bind(p + 5, Int64(retweets[i] ? 1 : 0))
            try s.bind(p + 6, blob: blobs[(row == 0 ? 0 : blobEnds[row - 1])..<blobEnds[row]])
            try s.bind(p + 7, references[i].retweet)
            try s.bind(p + 8, references[i].quote)
            try s.bind(p + 9, references[i].reply)
        }
        try writeCopies()
        if !tracked.isEmpty { try keepCounts(fresh) }
        if batchHasBluesky && !fresh.isEmpty {
            try noteBlueskyStored()
            batchHasBluesky = false
        }
        let insertSource = try db.statement("""
            INSERT INTO source(size, mtime_ns, fingerprint, path, run) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(size, mtime_ns, fingerprint) DO UPDATE SET path = excluded.path, run = excluded.run
            """)
        for (state, path) in finishedFiles {
            insertSource.reset()
            try insertSource.bind(1, state.size)
            try insertSource.bind(2, state.mtimeNanoseconds)
            try insertSource.bind(3, state.fingerprint)
            try insertSource.bind(4, path)
            try insertSource.bind(5, run)
            try insertSource.run()
        }
        return fresh.count
    }

    /// The batch's copies (SPEC §15), in post order: what the store already
    /// says of a post stays, a copy fills only what it lacks.
    private func writeCopies() throws(StoreError) {
        guard !copies.isEmpty else { return }
        let upsert = try db.statement("""
            INSERT INTO post_copy(post, author, created_at, text) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(post) DO UPDATE SET author = coalesce(author, excluded.author),
                created_at = coalesce(created_at, excluded.created_at), text = coalesce(text, excluded.text)
            """)
        for post in copies.keys.sorted() {
            let c = copies[post]!
            upsert.reset()
            try upsert.bind(1, post)
            try upsert.bind(2, c.author)
            try upsert.bind(3, c.time)
            try upsert.bind(4, c.text)
            try upsert.run()
        }
    }

    private func isIncreasing(_ ids: [Int64]) -> Bool {
        ids.withUnsafeBufferPointer { p in
            for k in p.indices.dropFirst() where p[k - 1] >= p[k] { return false }
            return true
        }
    }

    /// Up to this many mentions and spellings a tweet's links are paired
    /// and sorted by looks along them (the handful a real tweet has).
    static let fewLinks = 16

    /// A tweet's links when it has many mentions (a hostile tweet of 20,000
    /// hashtags): the same as the few-links path, each mention with its
    /// spellings in the order written (else its key), sorted by mention,
    /// stably, in O(n log n) rather than O(n²).
    static func manyLinks(_ mentions: ArraySlice<Int64>, _ written: ArraySlice<(mention: Int64, spelling: Links.Spelling)>,
                          into links: inout [(mention: Int64, spelling: Links.Spelling)]) {
        var spellings: [Int64: [Links.Spelling]] = [:]
        for w in written { spellings[w.mention, default: []].append(w.spelling) }
        var unsorted: [(mention: Int64, spelling: Links.Spelling)] = []
        unsorted.reserveCapacity(mentions.count)
        for m in mentions {
            if let ws = spellings[m] { for s in ws { unsorted.append((m, s)) } } else { unsorted.append((m, .key)) }
        }
        let order = unsorted.indices.sorted { a, b in
            unsorted[a].mention != unsorted[b].mention ? unsorted[a].mention < unsorted[b].mention : a < b
        }
        for k in order { links.append(unsorted[k]) }
    }

    private func mentionsOf(_ i: Int) -> ArraySlice<Int64> {
        mentions[(i == 0 ? 0 : mentionEnds[i - 1])..<mentionEnds[i]]
    }

    private func spellingsOf(_ i: Int) -> ArraySlice<(mention: Int64, spelling: Links.Spelling)> {
        spellings[(i == 0 ? 0 : spellingEnds[i - 1])..<spellingEnds[i]]
    }

    /// How the store keeps a spelling (`#Stanford`) of `key`: its capitals as a
    /// mask when they are all that differs, else its `spelling` row, added when new.
    private func spelling(_ text: String, key: String) throws(StoreError) -> Links.Spelling {
        if let code = spellingCodes[text] { return code }
        if let mask = Links.caseMask(key: key, spelling: text) {
            spellingCodes[text] = .cased(mask)
            return .cased(mask)
        }
        if heldSpellings == nil {
            heldSpellings = try db.statement("SELECT EXISTS (SELECT 1 FROM spelling)").first { $0.int64(0) != 0 } ?? true
        }
        // A spelling the run has not met can be in the store only when the store held spellings as the run began.
        var code: Links.Spelling?
        if heldSpellings == true {
            let find = try db.statement("SELECT id FROM spelling WHERE text = ?1")
            try find.bind(1, text)
            if let found = try find.first({ $0.int64(0) }) { code = .stored(found) }
        }
        if code == nil {
            let insert = try db.statement("INSERT INTO spelling(text) VALUES (?1)")
            try insert.bind(1, text)
            try insert.run()
            code = .stored(db.lastInsertRowID)
        }
        spellingCodes[text] = code!
        return code!
    }

    /// Which of `ids` the store holds: one query per slice of ids, none at
    /// all when the batch lies outside the stored ids (a stream appends newer ids).
    private func existing(_ ids: [Int64]) throws(StoreError) -> Set<Int64> {
        guard let low = ids.min(), let high = ids.max() else { return [] }
        let bounds = try db.statement("SELECT min(id), max(id) FROM tweet")
        let stored = try bounds.first { s in s.isNull(0) ? nil : s.int64(0)...s.int64(1) } ?? nil
        guard let stored, stored.overlaps(low...high) else { return [] }
        let n = IngestWriter.existenceSlice
        let query = try db.statement(IngestWriter.existenceQuery)
        var found = Set<Int64>()
        var start = 0
        while start < ids.count {
            let slice = ids[start..<min(ids.count, start + n)]
            query.reset()
            // A short last slice repeats its last id: IN ignores repeats.
            for k in 0..<n { try query.bind(Int32(k + 1), slice[slice.startIndex + min(k, slice.count - 1)]) }
            while try query.step() { found.insert(query.int64(0)) }
            start += n
        }
        return found
    }

    /// The store's mention ids for a chunk's keys, adding the new ones.
    ///
    /// Keys the run has not met are looked up in slices (not when the store
    /// held no mention as the run began: then every one is new); the new
    /// ones get the ids SQLite would give them one `INSERT` at a time (after
    /// the highest, in order), written by multi-row inserts. The run holds
    /// the store's writer lock, so no one else adds a mention meanwhile.
    private func mentionIDs(for keys: [String]) throws(StoreError) -> [Int64] {
        var result = [Int64](repeating: 0, count: keys.count)
        var missing: [Int] = []
        for (i, key) in keys.enumerated() {
            if let id = mentionIDs[key] { result[i] = id } else { missing.append(i) }
        }
        guard !missing.isEmpty else { return result }
        if try storeHeldMentions() {
            let n = IngestWriter.mentionSlice
            let query = try db.statement(IngestWriter.mentionQuery)
            var start = 0
            while start < missing.count {
                let slice = missing[start..<min(missing.count, start + n)]
                query.reset()
                for k in 0..<n { try query.bind(Int32(k + 1), keys[slice[slice.startIndex + min(k, slice.count - 1)]]) }
                while try query.step() {
                    if let key = query.text(1) { mentionIDs[key] = query.int64(0) }
                }
                start += n
            }
        }
        var next = try db.statement("SELECT max(id) FROM mention").first { $0.isNull(0) ? 0 : $0.int64(0) }.map { $0 + 1 } ?? 1
        var new: [(id: Int64, key: String)] = []
        for i in missing {
            if let id = mentionIDs[keys[i]] {
                result[i] = id
                continue
            }
            mentionIDs[keys[i]] = next
            result[i] = next
            new.append((next, keys[i]))
            next += 1
        }
        try db.insert(into: "mention", columns: ["id", "key"], count: new.count) { (s, row, p) throws(StoreError) in
            try s.bind(p, new[row].id)
            try s.bind(p + 1, new[row].key)
        }
        // A tracked `domain:` term matches the hosts under it, new ones among them.
        for t in tracked.indices where tracked[t].term.term.kind == .domain {
            let name = tracked[t].term.term.key
            for (id, key) in new where key.signedKind == .host && TermMasks.host(key.unsigned, isUnder: name) {
                tracked[t].term.hosts.append(id)
            }
        }
        return result
    }

    /// Whether the store held any mention when this run began (asked once,
    /// before the run adds one).
    private func storeHeldMentions() throws(StoreError) -> Bool {
        if let held = heldMentions { return held }
        let held = try db.statement("SELECT EXISTS (SELECT 1 FROM mention)").first { $0.int64(0) != 0 } ?? true
        heldMentions = held
        return held
    }

    // MARK: Tracked terms

    /// Adds the batch's new tweets to the kept counts of every tracked term.
    private func keepCounts(_ fresh: [Int]) throws(StoreError) {
        for t in tracked.indices where tracked[t].term.mention == nil {
            if let key = tracked[t].term.term.mentionKey { tracked[t].term.mention = mentionIDs[key] }
        }
        let upsert = try db.statement("""
            INSERT INTO term_count(term, mention, count) VALUES (?1, ?2, ?3)
            ON CONFLICT(term, mention) DO UPDATE SET count = count + excluded.count
            """)
        let addTweets = try db.statement("UPDATE term SET tweets = tweets + ?1 WHERE id = ?2")
        // Each new tweet matched against the tracked terms, as a store scan
        // matches: 64 terms at a time (a mask's bits), its text prepared once.
        var tweetCounts = [Int](repeating: 0, count: tracked.count)
        var counts = [[Int64: Int64]](repeating: [:], count: tracked.count)
        var prepared: [[Unicode.Scalar]?] = Array(repeating: nil, count: ids.count)
        for first in stride(from: 0, to: tracked.count, by: TermMatcher.maxTerms) {
            let group = first..<min(first + TermMatcher.maxTerms, tracked.count)
            let terms = StoredTerms(tracked[group].map(\.term))
            for i in fresh {
                let set = mentionsOf(i)
                var mask = terms.mask(mentions: set, author: authors[i]) {
                    if prepared[i] == nil, keepText, let text = texts[i] { prepared[i] = WordMatch.prepare(text) }
                    return prepared[i]
                }
                while mask != 0 {
                    let t = first + mask.trailingZeroBitCount
                    mask &= mask - 1
                    tweetCounts[t] += 1
                    for m in set { counts[t][m, default: 0] += 1 }
                }
            }
        }
        for (t, (id, _)) in tracked.enumerated() {
            let tweets = tweetCounts[t]
            guard tweets > 0 else { continue }
            for (mention, count) in counts[t].sorted(by: { $0.key < $1.key }) {
                upsert.reset()
                try upsert.bind(1, id)
                try upsert.bind(2, mention)
                try upsert.bind(3, count)
                try upsert.run()
            }
            addTweets.reset()
            try addTweets.bind(1, Int64(tweets))
            try addTweets.bind(2, id)
            try addTweets.run()
        }
    }
}

extension IngestWriter {
    /// The kept counts of tracked terms after reposts took their subjects'
    /// mentions (`joinReposts`): each repost as it was stored (`old` links and
    /// text) taken out, as it is now (`new`) put in.
    func recount(_ changed: [(author: Int64?, old: [UInt8], new: [UInt8], oldText: String?, newText: String?)]) throws(StoreError) {
        guard !tracked.isEmpty else { return }
        for t in tracked.indices where tracked[t].term.mention == nil {
            if let key = tracked[t].term.term.mentionKey {
                let find = try db.statement("SELECT id FROM mention WHERE key = ?1")
                try find.bind(1, key)
                tracked[t].term.mention = try find.first { $0.int64(0) }
            }
        }
        var tweetCounts = [Int64](repeating: 0, count: tracked.count)
        var counts = [[Int64: Int64]](repeating: [:], count: tracked.count)
        var set: [Int64] = []
        for first in stride(from: 0, to: tracked.count, by: TermMatcher.maxTerms) {
            let group = first..<min(first + TermMatcher.maxTerms, tracked.count)
            let terms = StoredTerms(tracked[group].map(\.term))
            for c in changed {
                for (blob, text, sign) in [(c.old, c.oldText, Int64(-1)), (c.new, c.newText, Int64(1))] {
                    blob.withUnsafeBytes { Links.mentions($0, into: &set) }
                    var mask = terms.mask(mentions: set, author: c.author) { text.map(WordMatch.prepare) }
                    while mask != 0 {
                        let t = first + mask.trailingZeroBitCount
                        mask &= mask - 1
                        tweetCounts[t] += sign
                        for m in set { counts[t][m, default: 0] += sign }
                    }
                }
            }
        }
        let upsert = try db.statement("""
            INSERT INTO term_count(term, mention, count) VALUES (?1, ?2, ?3)
            ON CONFLICT(term, mention) DO UPDATE SET count = count + excluded.count
            """)
        let lower = try db.statement("UPDATE term_count SET count = count + ?3 WHERE term = ?1 AND mention = ?2")
        let drop = try db.statement("DELETE FROM term_count WHERE term = ?1 AND mention = ?2 AND count <= 0")
        let addTweets = try db.statement("UPDATE term SET tweets = tweets + ?1 WHERE id = ?2")
        for (t, (id, _)) in tracked.enumerated() {
            for (mention, count) in counts[t].sorted(by: { $0.key < $1.key }) where count != 0 {
                let s = count > 0 ? upsert : lower
                s.reset()
                try s.bind(1, id)
                try s.bind(2, mention)
                try s.bind(3, count)
                try s.run()
                if count < 0 {
                    drop.reset()
                    try drop.bind(1, id)
                    try drop.bind(2, mention)
                    try drop.run()
                }
            }
            guard tweetCounts[t] != 0 else { continue }
            addTweets.reset()
            try addTweets.bind(1, tweetCounts[t])
            try addTweets.bind(2, id)
            try addTweets.run()
        }
    }
}

/// A run's counters: files read whole, bytes, tweets read / new / already
/// known, bad records skipped.
public struct RunTotals: Equatable, Sendable {
    public var files = 0
    public var bytes: Int64 = 0
    public var read = 0
    public var new = 0
    public var known = 0
    public var skipped = 0

    public init() {}
}
