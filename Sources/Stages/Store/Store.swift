#if canImport(Glibc)
import Glibc
#endif

/// The store of SPEC §10: an embedded SQLite database that lasts between
/// runs, so a scheduled job ingests each day's dumps once and every report
/// stays exact.
///
/// Opening a store brings its schema up to date (`Schema`). A run that
/// changes the store (`Access.write`) first takes the store's `RunLock`,
/// for the whole run; readers take none and see the last committed batch.
/// The operations live in extensions: `Store+Ingest`, `Store+Report`,
/// `Store+Terms`, `Store+History`, `Store+Prune`, `Store+Export`.
public final class Store {
    public enum Access: Sendable {
        /// Report, history, export, terms: no lock, no writes (but a schema upgrade).
        case read
        /// Ingest, import, prune, track, untrack: the writer lock for the whole run.
        case write(command: String)
    }

    public let path: String
    let db: Database
    private var lock: RunLock?
    let wait: Double
    /// Stores with at least this many tweets are scanned on several cores
    /// (below it, starting the threads costs more than it saves).
    var parallelScanThreshold = 100_000
    /// The connections a scan of a span of time reads with (`trend --store
    /// --jobs N`, at most 16); nil: one per core, up to 4, on stores of at
    /// least `parallelScanThreshold` posts.
    public var spanReaders: Int?
    /// Whether this store's Bluesky handles were added to `HandleBook.shared`.
    var handlesLoaded = false

    /// Opens the store at `path`.
    ///
    /// - Parameters:
    ///   - create: create an empty store when there is none (ingest, import, track).
    ///   - wait: seconds to wait for another run's lock, then fail with `.busy`.
    /// - Throws: `StoreError` when the store is busy, missing, corrupt,
    ///   newer than this smashtag, or cannot be written.
    public init(path: String, access: Access, create: Bool = false, wait: Double = 5) throws(StoreError) {
        self.path = path
        self.wait = wait
        // No lock file is made beside a store that is missing and not to be created.
        if case .write(let command) = access, create || Glibc.access(path, F_OK) == 0 {
            lock = try RunLock(store: path, command: command, wait: wait)
        }
        // A reader that may not write the store or its folder (a store kept
        // by another user's cron job) opens it read-only.
        var readOnly = false
        if case .read = access {
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            readOnly = Glibc.access(path, W_OK) != 0 || Glibc.access(folder.isEmpty ? "/" : folder, W_OK) != 0
        }
        db = try Database(path: path, create: create, busyTimeout: wait, readOnly: readOnly)
        try db.execute("PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536", "open it")
        if readOnly, try Schema.needsMigration(db) {
            throw StoreError(.readOnly, path: path, "it was made by an older smashtag and must be upgraded before it is read, "
                             + "which needs write access: run any smashtag command on it as a user who may write it and its folder")
        }
        if lock == nil, try Schema.needsMigration(db) {
            // A schema upgrade is a write: it waits for a running ingest like any writer.
            let upgrade = try RunLock(store: path, command: "schema upgrade", wait: wait)
            defer { upgrade.release() }
            try Schema.migrate(db)
        } else {
            try Schema.migrate(db)
        }
        if lock != nil {
            // WAL with synchronous = FULL: every committed batch is flushed to
            // the disk before the commit returns, so even a power cut leaves the
            // store as its last committed batch left it (SPEC §10). A batch is
            // 50,000 tweets: one flush each costs next to nothing.
            try db.execute("PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 4096")
        } else {
            // Reports scan whole indexes: read them through the page cache of the kernel.
            try db.execute("PRAGMA mmap_size = 1073741824")
        }
    }

    deinit { close() }

    /// Closes the database, then gives the writer lock back.
    public func close() {
        db.close()
        lock?.release()
        lock = nil
    }

    // MARK: Settings

    /// Whether the store keeps every tweet's full text (`--keep-text` at its
    /// first ingest): word terms need it.
    public var keepsText: Bool {
        get throws(StoreError) { try setting("keep_text") == "1" }
    }

    /// Tweets in the store.
    public var tweetCount: Int {
        get throws(StoreError) { Int(try db.integer("SELECT count(*) FROM tweet") ?? 0) }
    }

    func setting(_ key: String) throws(StoreError) -> String? {
        let s = try db.statement("SELECT value FROM setting WHERE key = ?1")
        try s.bind(1, key)
        return try s.first { $0.text(0) } ?? nil
    }

    func setSetting(_ key: String, _ value: String) throws(StoreError) {
        let s = try db.statement("INSERT INTO setting(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        try s.bind(1, key)
        try s.bind(2, value)
        try s.run()
    }

    /// Makes an empty store keep text (the first ingest's `--keep-text`).
    ///
    /// - Returns: false when the store already holds tweets without their text.
    public func enableText() throws(StoreError) -> Bool {
        if try keepsText { return true }
        guard try tweetCount == 0 else { return false }
        try db.transaction { () throws(StoreError) in try setSetting("keep_text", "1") }
        return true
    }

    /// Milliseconds since 1970, for run times.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
