import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// One connection to an SQLite database file.
///
/// Every SQLite call of the project is in this file (`sqlite3_open_v2`,
/// `sqlite3_exec`, `sqlite3_prepare_v3`, `sqlite3_bind_*`, `sqlite3_step`,
/// `sqlite3_column_*`, …) and every return code goes through one function,
/// `check`, which turns a failure into a `StoreError` naming the store.
/// Three are let go on purpose: `sqlite3_reset` and `sqlite3_finalize`
/// repeat the error of the statement's last step (already thrown), and
/// `sqlite3_close_v2` cannot fail; a `ROLLBACK` after a failure is best effort.
///
/// Statements are prepared once per connection and reused (`statement(_:)`
/// caches them by their SQL text), so a hot loop binds and steps only.
///
/// A connection is used by one thread at a time (SQLite's "multi-thread"
/// mode); a process that reads in parallel opens one connection per thread.
///
/// (The file is longer than most: `Database` and its `Statement` share the
/// one `check`, and keeping every C call in one file is the point.)
final class Database {
    let path: String
    private(set) var handle: OpaquePointer?
    private var statements: [String: Statement] = [:]
    /// The rows `link_blob` gathers (see `linkBlobFunction`).
    private let blobs = LinkBlobBuilder()

    /// Opens (or creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - create: create the file when it does not exist; otherwise a
    ///     missing file is a `.cannotOpen` error.
    ///   - busyTimeout: how long a statement waits for another connection's
    ///     lock before failing with `.busy`.
    /// - Throws: `StoreError`.
    init(path: String, create: Bool, busyTimeout: Double, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        if !create && access(path, F_OK) != 0 {
            throw StoreError(.cannotOpen, path: path,
                             "there is no store here; `smashtag ingest PATH... --store \(path)` creates one")
        }
        let flags = readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        try open(path, flags: flags)
        if readOnly, (try? integer("PRAGMA user_version")) == nil, access(path + "-wal", F_OK) != 0 {
            // A WAL store that this user cannot write, in a folder it cannot
            // write, with no writer at work (no -wal file): SQLite cannot make
            // the shared-memory file a WAL reader needs, so the store is read
            // as the unchanging file it is.
            close()
            try open("file:" + Database.uriPath(path) + "?immutable=1", flags: flags | SQLITE_OPEN_URI)
        }
        try check(sqlite3_extended_result_codes(handle, 1), "open the store")
        try check(sqlite3_busy_timeout(handle, Int32(min(max(0, busyTimeout), 86_400) * 1000)), "open the store")
        try check(sqlite3_create_function_v2(handle, Database.linkBlobFunction, 3, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                             Unmanaged.passUnretained(blobs).toOpaque(), nil,
                                             linkBlobStep, linkBlobFinal, nil),
                  "open the store")
    }

    private func open(_ name: String, flags: Int32) throws(StoreError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        handle = db
        if rc != SQLITE_OK {
            defer { sqlite3_close_v2(db); handle = nil }
            try check(rc, "open the store")
        }
    }

    /// `path` for a `file:` URI: `%`, `?` and `#` escaped, relative paths kept.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            if b == 0x25 || b == 0x3F || b == 0x23 || b < 0x21 || b >= 0x7F {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }

    deinit { close() }

    /// Finalises every statement and closes the connection.
    func close() {
        for s in statements.values { s.finalize() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    // MARK: The one place return codes are checked

    /// Returns quietly for `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE`;
    /// throws a `StoreError` that says what was being done and what to do
    /// for anything else.
    ///
    /// - Parameter action: what was being done, as in "cannot *write the store*".
    func check(_ rc: Int32, _ action: @autoclosure () -> String) throws(StoreError) {
        if rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE { return }
        throw error(rc, action())
    }

    /// The `StoreError` for a failed SQLite call.
    func error(_ rc: Int32, _ action: String) -> StoreError {
        let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        let code: StoreError.Code
        let hint: String
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            code = .busy
            hint = "another process is using it; try again later or give a longer --wait"
        case SQLITE_CORRUPT:
            code = .corrupt
            hint = "the file is damaged; restore it from a copy or an export, or start a new store"
        case SQLITE_NOTADB:
            code = .corrupt
            hint = "the file is not a smashtag store (not an SQLite database at all); give the path of a store, or a new path to make one"
        case SQLITE_FULL:
            code = .full
            hint = "the disk is full; free space on it (or move the store to a disk with room) and run again: the store is as its last committed batch left it"
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            code = .readOnly
            hint = "the store (or its folder) cannot be written; check its permissions"
        case SQLITE_CANTOPEN:
            code = .cannotOpen
            hint = "check that the path and its folder exist and can be written"
        case SQLITE_IOERR:
            code = .io
            hint = "a read or write failed (a full disk, a file size limit or a failing device?)"
        default:
            code = .other
            hint = "this is a bug in smashtag if it happens again"
        }
        return StoreError(code, path: path, "cannot \(action): \(detail); \(hint)", sqliteCode: rc)
    }

    // MARK: Statements

    /// Runs SQL text once, without results: a script of statements separated
    /// by `;` (schema steps, pragmas). Statements run again and again go
    /// through `run` or `statement`, which prepare them once.
    ///
    /// - Parameter action: what it does, for an error message ("cannot *rewrite …*").
    func execute(_ sql: String, _ action: String? = nil) throws(StoreError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), action ?? "run \(sql.prefix(60))")
    }

    /// Starts a write transaction, taking SQLite's write lock at once.
    func begin() throws(StoreError) { try run("BEGIN IMMEDIATE", action: "start writing to the store") }

    /// Commits the open transaction: from here on it survives a crash.
    func commit() throws(StoreError) { try run("COMMIT", action: "commit a batch to the store") }

    /// Starts a read transaction: every query until `endRead` sees one committed snapshot.
    func beginRead() throws(StoreError) { try run("BEGIN") }

    /// Ends a read transaction (a failure to end one is not worth reporting).
    func endRead() { try? run("COMMIT") }

    /// The prepared statement for `sql`, prepared on first use and reset on
    /// every later one, ready to bind (every parameter: bindings stay from
    /// the last use) and step.
    func statement(_ sql: String) throws(StoreError) -> Statement {
        if let s = statements[sql] {
            s.reset()
            return s
        }
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil),
                  "prepare \(sql.prefix(60))")
        let s = Statement(stmt!, database: self)
        statements[sql] = s
        return s
    }

    /// A single integer from a query (`SELECT count(*) …`, `PRAGMA user_version`).
    func integer(_ sql: String, _ bindings: [Int64] = []) throws(StoreError) -> Int64? {
        let s = try statement(sql)
        for (i, v) in bindings.enumerated() { try s.bind(Int32(i + 1), v) }
        return try s.first { $0.optionalInt64(0) } ?? nil
    }

    /// Runs one statement that returns no rows, with integer bindings.
    ///
    /// - Parameter action: what it does, for an error message.
    func run(_ sql: String, _ bindings: [Int64] = [], action: String = "read or write the store") throws(StoreError) {
        let s = try statement(sql)
        for (i, v) in bindings.enumerated() { try s.bind(Int32(i + 1), v) }
        try s.run(action: action)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at once, so two writers wait
    /// for each other at the start instead of failing halfway.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back the open transaction, if any (after a failure: its own
    /// failure cannot be reported better than the one that caused it).
    func rollback() {
        if let handle, sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    // MARK: The upgrade's SQL function

    /// The aggregate SQL function `link_blob(mention, spelling, extra)` that
    /// makes a tweet's links blob (`Links`) from its rows of schema v4 (a
    /// `spelling` id or NULL for the key; `extra` 1 for a row of
    /// `extra_spelling`), in any order; NULL for no row. Used by the upgrade
    /// to version 5, one tweet at a time.
    static let linkBlobFunction = "link_blob"

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// SQLite's version, for `smashtag --version`.
    static var version: String { String(cString: sqlite3_libversion()) }
}

/// The rows of the `link_blob` being computed (one at a time: the upgrade's
/// correlated subquery finishes each tweet's before the next starts).
private final class LinkBlobBuilder {
    var rows: [(mention: Int64, extra: Bool, order: Int, spelling: Links.Spelling)] = []
    var bytes: [UInt8] = []
}

private func linkBlobStep(_ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
    Unmanaged<LinkBlobBuilder>.fromOpaque(sqlite3_user_data(context))._withUnsafeGuaranteedRef { b in
        guard let values else { return }
        let spelling: Links.Spelling = sqlite3_value_type(values[1]) == SQLITE_NULL ? .key : .stored(sqlite3_value_int64(values[1]))
        b.rows.append((sqlite3_value_int64(values[0]), sqlite3_value_int64(values[2]) != 0, b.rows.count, spelling))
    }
}

private func linkBlobFinal(_ context: OpaquePointer?) {
    Unmanaged<LinkBlobBuilder>.fromOpaque(sqlite3_user_data(context))._withUnsafeGuaranteedRef { b in
        defer { b.rows.removeAll(keepingCapacity: true); b.bytes.removeAll(keepingCapacity: true) }
        guard !b.rows.isEmpty else { return sqlite3_result_null(context) }
        b.rows.sort { ($0.mention, $0.extra ? 1 : 0, $0.order) < ($1.mention, $1.extra ? 1 : 0, $1.order) }
        Links.encode(ArraySlice(b.rows.map { (mention: $0.mention, spelling: $0.spelling) }), into: &b.bytes)
        b.bytes.withUnsafeBytes { p in sqlite3_result_blob(context, p.baseAddress, Int32(p.count), csqlite_transient()) }
    }
}

/// A prepared statement of a `Database`, reused across executions.
///
/// Column and bind indices follow SQLite: columns from 0, parameters from 1.
final class Statement {
    private var handle: OpaquePointer?
    /// Unowned without the checks (no reference count touched per bind or
    /// step): a statement never outlives its database, which finalises its
    /// statements when it closes.
    private unowned(unsafe) let database: Database

    init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Makes the statement ready to run again with new bindings.
    ///
    /// `sqlite3_reset` repeats the error of a failed last step, which was
    /// already thrown by `step`; it is not reported twice.
    func reset() {
        sqlite3_reset(handle)
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try database.check(sqlite3_bind_int64(handle, index, value), "bind a value")
    }

    func bind(_ index: Int32, _ value: Int64?) throws(StoreError) {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    func bind(_ index: Int32, _ value: String?) throws(StoreError) {
        guard let value else { return try bindNull(index) }
        var v = value
        let rc = v.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty string still needs a pointer: an empty text is not NULL.
                chars.baseAddress.map { sqlite3_bind_text(handle, index, $0, Int32(chars.count), csqlite_transient()) }
                    ?? sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
        }
        try database.check(rc, "bind a value")
    }

    /// Binds bytes as a blob (none: NULL); SQLite copies them.
    func bind(_ index: Int32, blob: ArraySlice<UInt8>) throws(StoreError) {
        guard !blob.isEmpty else { return try bindNull(index) }
        let rc = blob.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        try database.check(rc, "bind a value")
    }

    func bindNull(_ index: Int32) throws(StoreError) {
        try database.check(sqlite3_bind_null(handle, index), "bind a value")
    }

    /// Runs the statement to its next row.
    ///
    /// - Returns: true when a row is ready to read, false when done.
    @discardableResult
    func step(action: @autoclosure () -> String = "read or write the store") throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        try database.check(rc, action())
        return false
    }

    /// The first row read by `read`, or nil when there is none. The
    /// statement is reset afterwards: a statement left on a row would keep
    /// its read transaction (and the WAL snapshot) open.
    func first<T>(_ read: (Statement) -> T) throws(StoreError) -> T? {
        defer { sqlite3_reset(handle) }
        return try step() ? read(self) : nil
    }

    /// Ends the statement's execution early (see `first`).
    func done() { sqlite3_reset(handle) }

    /// Steps to the end, for statements that return no rows.
    func run(action: @autoclosure () -> String = "read or write the store") throws(StoreError) {
        while try step(action: action()) {}
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// A blob column's bytes, valid until the next step (no copy); nil for NULL.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard let p = sqlite3_column_blob(handle, column) else { return nil }
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The text of a column as bytes valid until the next step (no copy).
    func textBytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, column)))
    }
}

extension Database {
    /// Inserts `count` rows into `table`, `rowsPerStatement` at a time with
    /// one multi-row `INSERT … VALUES (…), (…), …` (prepared once per size):
    /// one statement step for many rows is about twice as fast as one each,
    /// and 200 rows a step take 3% fewer instructions than 64 (callgrind, an
    /// ingest's writer). 200 rows of 4 values stay under 999 parameters, the
    /// limit of SQLite before 3.32.
    ///
    /// - Parameter bind: binds row `row`'s values from parameter `first` on.
    func insert(into table: String, columns: [String], count: Int, rowsPerStatement: Int = 200,
                bind: (_ statement: Statement, _ row: Int, _ first: Int32) throws(StoreError) -> Void) throws(StoreError) {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        func sql(_ rows: Int) -> String {
            "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: rows).joined(separator: ",")
        }
        var row = 0
        if count >= rowsPerStatement {
            let bulk = try statement(sql(rowsPerStatement))
            while count - row >= rowsPerStatement {
                bulk.reset()
                for k in 0..<rowsPerStatement { try bind(bulk, row + k, Int32(k * columns.count + 1)) }
                try bulk.run()
                row += rowsPerStatement
            }
        }
        if row < count {
            let single = try statement(sql(1))
            while row < count {
                single.reset()
                try bind(single, row, 1)
                try single.run()
                row += 1
            }
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
