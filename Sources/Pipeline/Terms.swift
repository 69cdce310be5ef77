import Foundation
import Stages

/// Terms from the command line, shared by report and extract.
enum Terms {
    /// `-t` flags, or else the first positional argument (removed from `positional`).
    static func parse(flags: [String], positional: inout [String], command: String) throws(UsageError) -> [Term] {
        var raw = flags
        if raw.isEmpty {
            guard !positional.isEmpty else {
                throw UsageError("give a term to search for, as in: smashtag \(command) '#stanford' dumps/")
            }
            // `smashtag report dumps/`: the folder is not the term, a term is missing.
            if positional.count == 1, positional[0] != "-", access(positional[0], F_OK) == 0 {
                let path = positional[0]
                throw UsageError("'\(path)' is a path, and a term is missing: smashtag \(command) TERM \(path)"
                                 + (path.contains("/") ? "" : " (a word term that is also a file's name goes with -t: -t \(path))"))
            }
            raw.append(positional.removeFirst())
        }
        let terms = try parseTerms(raw)
        guard terms.count <= TermMatcher.maxTerms else {
            throw UsageError("at most \(TermMatcher.maxTerms) terms in one run; split them over several runs")
        }
        return terms
    }

    /// The terms and paths of a command that reads dumps or a store (`report`,
    /// `pairs`): with `--store` every positional is a term (a path among them is
    /// a mistake worth naming); with neither a path nor `--store`,
    /// `SMASHTAG_STORE` names the store.
    ///
    /// - Parameters:
    ///   - reads: what the command does with the store, for the message (`reports from the store alone`).
    ///   - then: how to ask again without paths (`report without paths`).
    /// - Returns: the terms, the paths (`-` when none), and whether the store came from the environment.
    static func parse(flags: [String], positional: [String], store: inout String?, command: String,
                      reads: String, then: String) throws(UsageError) -> (terms: [Term], paths: [String], fromEnvironment: Bool) {
        var flags = flags, positional = positional
        if let store {
            if let path = positional.first(where: { $0 == "-" || access($0, F_OK) == 0 }) {
                throw UsageError("--store \(reads), and '\(path)' is a path: ingest it first "
                                 + "(smashtag ingest \(path) --store \(store)), then \(then)")
            }
            flags += positional
            positional = []
        }
        let terms = try parse(flags: flags, positional: &positional, command: command)
        var fromEnvironment = false
        if store == nil && positional.isEmpty,
           let env = ProcessInfo.processInfo.environment[StoreOptions.environment], !env.isEmpty {
            store = env
            fromEnvironment = true
        }
        return (terms, positional.isEmpty ? ["-"] : positional, fromEnvironment)
    }

    /// Byte ranges big JSON-lines files are cut into (SMASHTAG_SPLIT_BYTES lets tests cut small files).
    static func splitSize() -> Int64 {
        let split = ProcessInfo.processInfo.environment["SMASHTAG_SPLIT_BYTES"].flatMap { Int64($0) } ?? InputPlan.defaultSplitSize
        return max(1, split)
    }
}
