/// The kinds of mention of SPEC §13 in the store (schema v6): every kind is
/// a mention in a tweet's links, told apart by its key's sign, so a report
/// picks the kinds it counts by the keys it reads (`CountedMentions`), and
/// the new terms resolve to mention ids as `#tag` does — `$aapl` and
/// `url:S` to one id each, `domain:NAME` to the ids of every host under
/// NAME (`StoredTerm.hosts`).
///
/// Tweets stored before version 6 carry hashtags and users only: a store
/// that holds any answers a report that needs another kind with
/// `KindsNotKept`, a usage error saying how to have them.
extension Store {
    /// Why a report cannot be answered from this store: it needs kinds of
    /// mention that tweets ingested before schema version 6 lack (exit 2).
    public struct KindsNotKept: Error, CustomStringConvertible {
        /// The kinds the report needs besides hashtags and users.
        public var kinds: MentionKinds
        /// The tweets stored before the store kept them.
        public var tweets: Int
        public var path: String

        public var description: String {
            "the store \(path) holds \(tweets) tweets ingested before smashtag kept symbols, links and posters "
                + "(schema version 5 or older), so it cannot report \(kinds.ordered.map(\.plural).joined(separator: ", ")) "
                + "(SPEC §13) without leaving them out: ingest the dumps into a new store "
                + "(smashtag ingest PATH... --store NEW.db) and report from that, or report from the dumps themselves"
        }
    }

    /// Refuses, before anything is read, a report whose kinds or terms need
    /// a kind that some stored tweets were never given.
    ///
    /// - Throws: `KindsNotKept`; `StoreError`.
    public func checkKinds(_ kinds: MentionKinds, terms: [Term]) throws {
        let needed = kinds.union(Term.kinds(matching: terms)).subtracting(.standard)
        guard !needed.isEmpty, let old = try setting(Schema.withoutKindsSetting).flatMap({ Int($0) }), old > 0 else { return }
        throw KindsNotKept(kinds: needed, tweets: old, path: path)
    }

    /// `term` with the store's ids of what it matches: its mention key's id,
    /// or, for `domain:NAME`, the ids of the hosts that are NAME or end in `.NAME`.
    func storedTerm(_ term: Term) throws(StoreError) -> StoredTerm {
        var stored = StoredTerm(term, mention: try term.mentionKey.flatMap(mentionID))
        if term.kind == .domain { stored.hosts = try hostIDs(under: term.key) }
        return stored
    }

    /// The ids of the stored hosts (`^example.com`) that are `name` or lie under it.
    ///
    /// - Complexity: one pass over the hosts (a range of the key index).
    func hostIDs(under name: String) throws(StoreError) -> [Int64] {
        let sign = MentionKind.host.sign
        let next = String(UnicodeScalar(MentionKind.host.signByte + 1))
        let s = try db.statement("SELECT id, key FROM mention WHERE key >= ?1 AND key < ?2")
        try s.bind(1, sign)
        try s.bind(2, next)
        var ids: [Int64] = []
        while try s.step() {
            if let key = s.text(1), TermMasks.host(key.unsigned, isUnder: name) { ids.append(s.int64(0)) }
        }
        return ids
    }

    /// Which stored mentions a report of `kinds` counts.
    func countedMentions(_ kinds: MentionKinds) throws(StoreError) -> CountedMentions {
        if kinds == .every { return CountedMentions(ids: nil) }
        let highest = try db.integer("SELECT max(id) FROM mention") ?? 0
        var counted = [Bool](repeating: false, count: Int(max(0, highest)) + 1)
        let s = try db.statement("SELECT id FROM mention WHERE key >= ?1 AND key < ?2")
        for kind in kinds.ordered {
            s.reset()
            try s.bind(1, kind.sign)
            try s.bind(2, String(UnicodeScalar(kind.signByte + 1)))
            while try s.step() {
                let id = Int(s.int64(0))
                if id >= 0 && id < counted.count { counted[id] = true }
            }
        }
        return CountedMentions(ids: counted)
    }
}

/// The stored mentions of the kinds a report counts (`--kinds`), by id.
struct CountedMentions {
    /// Whether mention id i is counted; nil: every mention is.
    let ids: [Bool]?

    @inline(__always)
    func counts(_ id: Int64) -> Bool {
        guard let ids else { return true }
        return id >= 0 && Int(id) < ids.count && ids[Int(id)]
    }

    /// `set` without the mentions of other kinds (`set` itself when every kind counts).
    @inline(__always)
    func filter(_ set: UnsafeBufferPointer<Int64>, into out: inout [Int64]) -> [Int64] {
        out.removeAll(keepingCapacity: true)
        if ids == nil { out.append(contentsOf: set) } else { for m in set where counts(m) { out.append(m) } }
        return out
    }
}

/// Bluesky handles in the store (schema v7, SPEC §16): what `HandleBook`
/// learnt from the ingested inputs, so a report of the store shows
/// accounts by the handles a report of its dumps shows.
extension Store {
    /// Adds the store's handles to the process's book, once per store opened.
    func loadHandles() throws(StoreError) {
        guard !handlesLoaded else { return }
        handlesLoaded = true
        let named = try db.statement("SELECT did, handle, time FROM handle")
        while try named.step() {
            if let did = named.text(0), let handle = named.text(1) { HandleBook.shared.name(did: did, handle: handle, time: named.int64(2)) }
        }
        let spelled = try db.statement("SELECT did, handle, count FROM handle_spelling")
        while try spelled.step() {
            if let did = spelled.text(0), let handle = spelled.text(1) {
                HandleBook.shared.spelled(did: did, handle: handle, count: Int(spelled.int64(2)))
            }
        }
    }
}

/// What an ingest has written of the book, so each commit writes only what
/// is new: a handle named later than the stored one, the spellings of the
/// posts the commit stored anew (a post stored before spells nothing more),
/// and spellings of no post known counted since.
struct HandleLedger {
    private var savedSpellings: [String: Int] = [:]

    mutating func save(_ book: HandleBook, to db: Database, posts: [UInt64]) throws(StoreError) {
        let named = book.named
        // The spellings of the posts this commit stored anew, and those of no post known not saved yet.
        let spelled = book.spellings(ofPosts: posts, looseSaved: &savedSpellings)
        guard !named.isEmpty || !spelled.isEmpty else { return }
        let name = try db.statement("""
            INSERT INTO handle(did, handle, time) VALUES (?1, ?2, ?3)
            ON CONFLICT(did) DO UPDATE SET handle = excluded.handle, time = excluded.time
            WHERE excluded.time > handle.time OR (excluded.time = handle.time AND excluded.handle < handle.handle)
            """)
        for n in named {
            name.reset()
            try name.bind(1, n.did)
            try name.bind(2, n.handle)
            try name.bind(3, n.time)
            try name.run()
        }
        let spell = try db.statement("""
            INSERT INTO handle_spelling(did, handle, count) VALUES (?1, ?2, ?3)
            ON CONFLICT(did, handle) DO UPDATE SET count = count + excluded.count
            """)
        for s in spelled {
            spell.reset()
            try spell.bind(1, s.did)
            try spell.bind(2, s.handle)
            try spell.bind(3, Int64(s.count))
            try spell.run()
        }
    }
}
