/// A post's identity in the store (schema v7, SPEC §16): a tweet id below
/// 2^63 is the row id itself; any other identity (an AT-URI, a status URI,
/// a tweet id of 2^63 or more) is a row of `identity`, and the post's row
/// id is minus that row's id. Both ways are cached for the life of a scan
/// or an ingest.
///
/// - Complexity: O(1) for a tweet; one indexed look-up per other identity
///   the first time it is met.
final class StoredIdentities {
    private let db: Database
    private var byText: [String: Int64] = [:]
    private var byID: [Int64: UInt64] = [:]

    init(_ db: Database) { self.db = db }

    /// The row id of the post whose `PostIdentity` number is `n`; a new
    /// identity gets its row (in the caller's write transaction).
    func storedID(of n: UInt64) throws(StoreError) -> Int64 {
        try storedID(of: n, create: true)!
    }

    /// The row id of `n` if the store holds its identity (nil when not: no post names it).
    func existingID(of n: UInt64) throws(StoreError) -> Int64? {
        try storedID(of: n, create: false)
    }

    private func storedID(of n: UInt64, create: Bool) throws(StoreError) -> Int64? {
        if n < PostIdentity.internedBase { return Int64(n) }
        let text = PostIdentity.text(of: n)
        if let id = byText[text] { return id }
        let find = try db.statement("SELECT id FROM identity WHERE text = ?1")
        try find.bind(1, text)
        var row = try find.first { $0.int64(0) }
        if row == nil {
            guard create else { return nil }
            let add = try db.statement("INSERT INTO identity(text) VALUES (?1)")
            try add.bind(1, text)
            try add.run()
            row = db.lastInsertRowID
        }
        byText[text] = -row!
        return -row!
    }

    /// The `PostIdentity` number of the post stored with row id `id`.
    func number(_ id: Int64) throws(StoreError) -> UInt64 {
        if id >= 0 { return UInt64(id) }
        if let n = byID[id] { return n }
        let written = try text(id)
        let n = PostIdentity.parse(Substring(written)) ?? PostIdentity.interned(written)
        byID[id] = n
        return n
    }

    /// The identity as written (a tweet's decimal id, a URI) of row id `id`.
    func text(_ id: Int64) throws(StoreError) -> String {
        if id >= 0 { return String(id) }
        let find = try db.statement("SELECT text FROM identity WHERE id = ?1")
        try find.bind(1, -id)
        guard let text = try find.first({ $0.text(0) }) ?? nil else {
            throw StoreError(.corrupt, path: db.path, "a post refers to identity \(-id), which the store does not hold; export what can be read and import it into a new store")
        }
        return text
    }
}
