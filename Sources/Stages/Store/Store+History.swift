import Foundation

/// One past run of `smashtag history` (SPEC §10): when, which inputs, how
/// much, and how it ended.
public struct RunRecord: Equatable, Sendable {
    public var id: Int64
    /// `ingest`, `import` or `prune`.
    public var command: String
    /// Milliseconds since 1970.
    public var startedAt: Int64
    public var finishedAt: Int64?
    /// The paths as given (for prune, what it was asked).
    public var inputs: [String]
    public var totals: RunTotals
    /// Files not read again because they were ingested before, unchanged.
    public var unchanged: Int
    /// `running`, `ok`, `stopped` (--strict), `failed`, or `interrupted`
    /// (killed, power cut: found unfinished by a later run).
    public var outcome: String
    public var message: String?
}

extension Store {
    /// Every run, oldest first. A run still marked `running` while no run
    /// holds the writer lock was cut off (killed, power cut): it is shown
    /// as `interrupted`, as the next writing run will record it.
    public func history() throws(StoreError) -> [RunRecord] {
        let s = try db.statement("""
            SELECT id, command, started_at, finished_at, inputs, files, unchanged, bytes,
                   tweets_read, tweets_new, tweets_known, skipped, outcome, message
            FROM run ORDER BY id
            """)
        var runs: [RunRecord] = []
        while try s.step() {
            var totals = RunTotals()
            totals.files = Int(s.int64(5))
            totals.bytes = s.int64(7)
            totals.read = Int(s.int64(8))
            totals.new = Int(s.int64(9))
            totals.known = Int(s.int64(10))
            totals.skipped = Int(s.int64(11))
            runs.append(RunRecord(id: s.int64(0), command: s.text(1) ?? "", startedAt: s.int64(2),
                                  finishedAt: s.optionalInt64(3), inputs: Store.decodeInputs(s.text(4) ?? "[]"),
                                  totals: totals, unchanged: Int(s.int64(6)), outcome: s.text(12) ?? "",
                                  message: s.text(13)))
        }
        if runs.contains(where: { $0.outcome == "running" }) && !RunLock.isHeld(store: path) {
            for i in runs.indices where runs[i].outcome == "running" { runs[i].outcome = "interrupted" }
        }
        return runs
    }

    /// Adds a run to the history, committed at once so that a run killed
    /// before its first batch is listed too. Runs left `running` by a
    /// process that died are marked `interrupted` first: this run holds the
    /// writer lock, so no other is running.
    func startRun(_ command: String, inputs: [String]) throws(StoreError) -> Int64 {
        try db.transaction { () throws(StoreError) -> Int64 in
            try db.run("""
                UPDATE run SET outcome = 'interrupted',
                    message = 'ended without finishing (killed, crashed or power cut); its committed batches are kept'
                WHERE outcome = 'running'
                """)
            let s = try db.statement("INSERT INTO run(command, started_at, inputs) VALUES (?1, ?2, ?3)")
            try s.bind(1, command)
            try s.bind(2, Store.now())
            try s.bind(3, "[" + inputs.map(JSONText.quoted).joined(separator: ",") + "]")
            try s.run()
            return db.lastInsertRowID
        }
    }

    /// Records how a run ended, in a transaction of its own.
    func endRun(_ run: Int64, outcome: String, message: String?, unchanged: Int? = nil) throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            let s = try db.statement("""
                UPDATE run SET outcome = ?1, message = ?2, finished_at = ?3, unchanged = coalesce(?4, unchanged)
                WHERE id = ?5
                """)
            try s.bind(1, outcome)
            try s.bind(2, message)
            try s.bind(3, Store.now())
            try s.bind(4, unchanged.map(Int64.init))
            try s.bind(5, run)
            try s.run()
        }
    }

    /// Sets a run's count of unchanged files, known before anything is read.
    func setUnchanged(_ run: Int64, _ count: Int) throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            let s = try db.statement("UPDATE run SET unchanged = ?1 WHERE id = ?2")
            try s.bind(1, Int64(count))
            try s.bind(2, run)
            try s.run()
        }
    }

    private static func decodeInputs(_ text: String) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String] ?? [text]
    }
}

extension RunRecord {
    /// `2024-05-01T02:00:13Z`: UTC, to the second.
    static func time(_ ms: Int64) -> String {
        var s = CreatedAt.iso(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        s.removeSubrange(s.index(s.endIndex, offsetBy: -5)..<s.index(before: s.endIndex))
        return s
    }
}
