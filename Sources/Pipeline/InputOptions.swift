import Foundation
import Stages

/// The options of every command that reads dumps (`report`, `extract`,
/// `ingest`): how the inputs are read, parsed in one place so that each
/// command takes them alike.
///
///     -j, --jobs N              worker threads [default: all cores]
///     --max-record BYTES        longest record read [default: 16M]
///     --strict                  the first bad input stops the run
///     --mentions-from SOURCE    entities or text [default: entities]
///     --id-column, --text-column, --author-column NAME   a CSV export's columns
///     --deleted skip|include    an account archive's deleted tweets [default: skip]
///     --no-input-limits         lift the bounds on one input's work (bombs)
struct InputOptions {
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Whether `--jobs` was given (a store's span is then read on that many connections, whatever its size).
    var jobsGiven = false
    var maxRecord = 16 << 20
    var strict = false
    var mentionsFrom = MentionSource.entities
    var csvColumns = CSVColumns()
    var policy: ReadPolicy = {
        var p = ReadPolicy()
        // SMASHTAG_MAX_MEMBERS lets tests reach the member budget with a small archive.
        if let n = ProcessInfo.processInfo.environment["SMASHTAG_MAX_MEMBERS"].flatMap(Int.init), n > 0 { p.maxMembers = n }
        return p
    }()

    static let names = ["--jobs", "--max-record", "--strict", "--mentions-from", "--id-column", "--text-column",
                        "--author-column", "--deleted", "--no-input-limits"]

    /// Takes option `name` (and its value) when it is one of these.
    ///
    /// - Returns: whether it was.
    mutating func parse(_ name: String, _ a: inout ArgumentReader) throws(UsageError) -> Bool {
        switch name {
        case "-j", "--jobs":
            jobs = try a.number(min: 1)
            jobsGiven = true
        case "--max-record": maxRecord = try a.bytes()
        case "--strict": strict = true
        case "--mentions-from":
            let v = try a.value()
            guard let m = MentionSource(rawValue: v) else {
                throw UsageError("--mentions-from must be entities or text, not '\(v)'")
            }
            mentionsFrom = m
        case "--id-column": csvColumns.id = [try Self.column(try a.value(), name)]
        case "--text-column": csvColumns.text = [try Self.column(try a.value(), name)]
        case "--author-column": csvColumns.author = [try Self.column(try a.value(), name)]
        case "--deleted":
            let v = try a.value()
            guard v == "skip" || v == "include" else { throw UsageError("--deleted must be skip or include, not '\(v)'") }
            policy.includeDeleted = v == "include"
        case "--no-input-limits":
            let deleted = policy.includeDeleted
            policy = .unlimited
            policy.includeDeleted = deleted
        default: return false
        }
        return true
    }

    /// A new extractor per worker, as `--mentions-from` says.
    var extractor: @Sendable (MentionKinds) -> MentionExtractor {
        let source = mentionsFrom
        return { source.makeExtractor(kinds: $0) }
    }

    /// Record batches of `SMASHTAG_BATCH_BYTES` when set (tests make them tiny), else the default.
    static var batchBytes: Int? {
        ProcessInfo.processInfo.environment["SMASHTAG_BATCH_BYTES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func column(_ s: String, _ name: String) throws(UsageError) -> String {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("\(name) needs a column name") }
        return s
    }
}
