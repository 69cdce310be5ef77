extension Store {
    /// Whether a file with this state was ingested whole before.
    func isIngested(_ state: FileState) throws(StoreError) -> Bool {
        let s = try db.statement("SELECT 1 FROM source WHERE size = ?1 AND mtime_ns = ?2 AND fingerprint = ?3")
        try s.bind(1, state.size)
        try s.bind(2, state.mtimeNanoseconds)
        try s.bind(3, state.fingerprint)
        return try s.first { _ in true } ?? false
    }

    /// Writes the WAL back into the database file and empties it, so the
    /// store is one file at rest (skipped quietly when readers are in the way).
    func checkpoint() throws(StoreError) {
        let s = try db.statement("PRAGMA wal_checkpoint(TRUNCATE)")
        while try s.step() {}
    }
}
