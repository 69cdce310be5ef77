import Foundation
import Stages

/// Standard output and standard error: the report to one, everything else to the other.
struct Console {
    var quiet: Bool

    /// One line on stderr. Names from the data (files, members, hashtags)
    /// may hold anything: control and bidirectional characters are shown
    /// escaped (`VisibleText`), so a name cannot clear the screen or
    /// overwrite a line.
    func warn(_ message: String) {
        Console.writeStderr("smashtag: \(VisibleText.escaped(message))\n")
    }

    /// Names the paths a plan could not take (missing, unreadable, a loop);
    /// false when `strict` makes the first of them end the run (exit 1).
    func warnAbout(_ plan: InputPlan, strict: Bool) -> Bool {
        for p in plan.problems {
            warn(p.description)
            if strict { return false }
        }
        return true
    }

    /// Bad input per file and member, with the lines of the first few (SPEC §8).
    ///
    /// Damage to a whole stream or container (corrupt, truncated, unreadable)
    /// is always shown, whatever else was; `counts` are the true numbers by
    /// file or member when `problems` holds only the first few of them.
    func reportProblems(_ problems: [InputProblem], counts: [(origin: Origin, count: Int)]? = nil, total: Int) {
        guard total > 0 else { return }
        var order: [Origin] = []
        var byOrigin: [Origin: [InputProblem]] = [:]
        var countByOrigin: [Origin: Int] = [:]
        for (origin, n) in counts ?? problems.map({ ($0.origin, 1) }) {
            if countByOrigin[origin] == nil { order.append(origin) }
            countByOrigin[origin, default: 0] += n
        }
        for p in problems {
            if countByOrigin[p.origin] == nil { order.append(p.origin); countByOrigin[p.origin] = 0 }
            byOrigin[p.origin, default: []].append(p)
        }
        // Records with invalid UTF-8 are kept (repaired), not skipped: say which.
        func verb(_ list: [InputProblem]) -> String {
            let repaired = list.filter { $0.kind == .invalidUTF8 }.count
            return repaired == 0 ? "skipped" : repaired == list.count ? "repaired" : "skipped or repaired"
        }
        var text = "smashtag: \(verb(problems)) \(total) bad \(total == 1 ? "record" : "records") or inputs:\n"
        for origin in order {
            let list = byOrigin[origin] ?? []
            let count = max(countByOrigin[origin] ?? 0, list.count)
            text += "  \(VisibleText.escaped(origin.description)): \(count) \(verb(list))\n"
            let shown = list.enumerated().filter { $0.offset < 5 || $0.element.kind == .corrupt || $0.element.kind == .unreadable }
            for (_, p) in shown {
                text += "    " + (p.line.map { "line \($0): " } ?? "") + VisibleText.escaped(p.reason) + "\n"
            }
            if count > shown.count { text += "    … and \(count - shown.count) more\n" }
        }
        Console.writeStderr(text)
    }

    /// Writes all of `text` to standard output.
    ///
    /// - Returns: false when the reader has gone (EPIPE): the caller ends quietly.
    static func writeStdout(_ text: String) -> Bool {
        writeStdout(Array(text.utf8))
    }

    /// Writes all of `bytes` to standard output; false when the reader has gone.
    static func writeStdout(_ bytes: [UInt8]) -> Bool {
        var bytes = bytes
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
    static func terminalWidth() -> Int { width(of: 1) }

    /// Columns of the terminal on standard error, else `COLUMNS`, else 80.
    static func stderrWidth() -> Int { width(of: 2) }

    private static func width(of fd: Int32) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let c = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(c), n > 0 { return n }
        return 80
    }

    /// Whether to colour a terminal's output: only on a terminal, without
    /// `NO_COLOR`, and with a known terminal type (an unknown one is plain).
    static func wantsColor(fd: Int32) -> Bool {
        guard isatty(fd) == 1 else { return false }
        let env = ProcessInfo.processInfo.environment
        if let v = env["NO_COLOR"], !v.isEmpty { return false }
        guard let term = env["TERM"], !term.isEmpty, term != "dumb" else { return false }
        let known = ["xterm", "screen", "tmux", "vt100", "vt220", "linux", "rxvt", "ansi", "alacritty", "kitty",
                     "foot", "wezterm", "putty", "konsole", "gnome", "st", "eterm", "cygwin", "iterm"]
        return known.contains { term.hasPrefix($0) }
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
