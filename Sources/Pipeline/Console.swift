import Foundation
import Stages

/// Standard output and standard error: the report to one, everything else to the other.
struct Console {
    var quiet: Bool

    func warn(_ message: String) {
        Console.writeStderr("smashtag: \(message)\n")
    }

    /// Bad input per file and member, with the lines of the first few (SPEC §8).
    func reportProblems(_ problems: [InputProblem], total: Int) {
        guard total > 0 else { return }
        var order: [Origin] = []
        var byOrigin: [Origin: [InputProblem]] = [:]
        for p in problems {
            if byOrigin[p.origin] == nil { order.append(p.origin) }
            byOrigin[p.origin, default: []].append(p)
        }
        var text = "smashtag: skipped \(total) bad \(total == 1 ? "record" : "records") or inputs:\n"
        for origin in order {
            let list = byOrigin[origin]!
            text += "  \(origin): \(list.count) skipped\n"
            for p in list.prefix(5) {
                text += "    " + (p.line.map { "line \($0): " } ?? "") + p.reason + "\n"
            }
            if list.count > 5 { text += "    … and \(list.count - 5) more\n" }
        }
        if total > problems.count { text += "  (details of the first \(problems.count) shown)\n" }
        Console.writeStderr(text)
    }

    func summary(_ o: ParallelRun.Outcome, reports: [TermReport], elapsed: Double) {
        guard !quiet else { return }
        let s = o.stats
        let mb = Double(s.bytes) / 1e6
        var text = "smashtag: \(s.inputs) \(s.inputs == 1 ? "input" : "inputs"), "
            + String(format: "%.1f MB, %d tweets", mb, s.tweets)
        if s.notices > 0 { text += " (\(s.notices) stream notices skipped)" }
        text += "; matched " + reports.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
        if o.aggregator.duplicates > 0 { text += "; \(o.aggregator.duplicates) duplicates dropped" }
        if s.skippedMembers > 0 { text += "; \(s.skippedMembers) non-tweet files or members passed over" }
        text += String(format: "; %.2f s", elapsed)
        if elapsed > 0 && mb > 0 { text += String(format: " (%.0f MB/s)", mb / elapsed) }
        Console.writeStderr(text + "\n")
    }

    /// Writes all of `text` to standard output.
    ///
    /// - Returns: false when the reader has gone (EPIPE): the caller ends quietly.
    static func writeStdout(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    static func writeStderr(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }

    /// Columns of the terminal on standard output, else `COLUMNS`, else 80.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let c = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(c), n > 0 { return n }
        return 80
    }
}

/// A command line that cannot be run; exit status 2 (or 0 for `--help`).
struct UsageError: Error {
    var message: String
    var isHelp = false

    init(_ message: String) { self.message = message }

    static func help(_ text: String) -> UsageError {
        var e = UsageError(text)
        e.isHelp = true
        return e
    }

    /// An unknown option, with the nearest known one as a hint.
    static func unknownOption(_ name: String, known: [String]) -> UsageError {
        let best = known.min { editDistance($0, name) < editDistance($1, name) }
        if let best, editDistance(best, name) <= 3 {
            return UsageError("unknown option '\(name)' (did you mean \(best)?)")
        }
        return UsageError("unknown option '\(name)'")
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var prev = row[0]
        row[0] = i
        for j in 1...max(1, b.count) where !b.isEmpty {
            let old = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
            prev = old
        }
    }
    return a.isEmpty ? b.count : row[b.count]
}
