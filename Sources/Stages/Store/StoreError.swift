/// Why the store cannot be used: locked, corrupt, not writable, too new, or
/// missing. Every one ends a run with exit status 3 (SPEC §9).
///
/// The message names the store and says what to do about it; `sqliteCode`
/// keeps SQLite's extended result code, when there is one, for diagnosis.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        /// Another run holds the store (or SQLite's lock) longer than `--wait`.
        case busy
        /// The file is damaged or is not an SQLite database.
        case corrupt
        /// An SQLite database, but not a smashtag store.
        case notAStore
        /// Written by a newer smashtag whose schema this one does not know.
        case newerSchema
        /// The disk or the file system's quota is full.
        case full
        /// The file, its folder or the file system is read-only.
        case readOnly
        /// The file cannot be opened or created, or does not exist.
        case cannotOpen
        /// A read or write failed (I/O error, file size limit).
        case io
        /// Anything else SQLite reports (a bug, if it happens).
        case other
    }

    public var code: Code
    /// The store's path, as given.
    public var path: String
    /// What went wrong and how to fix it.
    public var message: String
    public var sqliteCode: Int32?

    public init(_ code: Code, path: String, _ message: String, sqliteCode: Int32? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { "store \(path): \(message)" }
}
