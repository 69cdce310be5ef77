import Foundation
import Stages
import Synchronization

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

    /// Says that standard input is read when it is a terminal (a run that
    /// seems to hang is waiting for it).
    func noteStandardInput(_ paths: [String]) {
        if !quiet && paths.contains("-") && isatty(0) == 1 {
            warn("reading standard input (Ctrl-D ends)")
        }
    }

    /// Names the paths a plan could not take (missing, unreadable, a loop);
    /// false when `strict` makes the first of them end the run (exit 1).
    func warnAbout(_ plan: InputPlan, strict: Bool) -> Bool {
        for p in plan.problems {
            warn(p.description)
            if strict { return false }
        }
        if plan.unlistedProblems > 0 {
            warn("… and \(plan.unlistedProblems) more paths that cannot be read (the first \(InputPlan.listLimit) are named)")
        }
        return true
    }

    /// A run's bad input, from its ledger: per file and member, with the
    /// lines of the first few (SPEC §8).
    ///
    /// Damage to a whole stream or container (corrupt, truncated, unreadable)
    /// is always shown, whatever else was; the ledger's counts are the true
    /// numbers by file or member when it kept only the first problems, and
    /// bad input in files or members it does not name (past the first
    /// `ProblemLedger.originLimit`) is counted in a last line.
    func reportProblems(_ ledger: ProblemLedger) {
        let problems = ledger.problems, total = ledger.badRecords, unnamed = ledger.unnamedProblems
        guard total > 0 else { return }
        var order: [Origin] = []
        var byOrigin: [Origin: [InputProblem]] = [:]
        var countByOrigin: [Origin: Int] = [:]
        for (origin, n) in ledger.problemCounts {
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
        // Whole inputs (empty, unreadable, corrupt) and records are named as what they are.
        let inputKinds: Set<InputProblem.Kind> = [.empty, .unreadable, .corrupt, .limit]
        let wholeInputs = problems.filter { inputKinds.contains($0.kind) }.count
        let noun = wholeInputs == 0 ? (total == 1 ? "record" : "records")
            : wholeInputs >= total ? (total == 1 ? "input" : "inputs")
            : "records or inputs"
        var text = "smashtag: \(verb(problems)) \(total) bad \(noun):\n"
        for origin in order {
            let list = byOrigin[origin] ?? []
            let count = max(countByOrigin[origin] ?? 0, list.count)
            text += "  \(VisibleText.escaped(origin.description)): \(count) \(verb(list))\n"
            let shown = list.enumerated().filter { $0.offset < 5 || $0.element.kind.stopsStream }
            for (_, p) in shown {
                text += "    " + (p.place.map { "\($0): " } ?? "") + VisibleText.escaped(p.reason) + "\n"
            }
            if count > list.count {
                // Past what a run keeps with lines: say so, rather than a bare count.
                text += "    … and \(count - shown.count) more, counted but not kept (only a run's first problems keep "
                    + "their lines; --stats FILE counts every one by reason)\n"
            } else if count > shown.count {
                text += "    … and \(count - shown.count) more\n"
            }
        }
        if unnamed > 0 {
            text += "  … and \(unnamed) more in other files or members, counted but not named (a run names the first "
                + "\(ProblemLedger.originLimit) files or members with bad input)\n"
        }
        Console.writeStderr(text)
    }

    /// Says why a report from entities is empty when no tweet read had any
    /// (v2 fetched without `tweet.fields=entities`, a stripped v1.1 dump).
    func hintWithoutEntities(_ ledger: ProblemLedger, mentionsFrom: MentionSource) {
        let s = ledger.stats
        guard !quiet, mentionsFrom == .entities, s.tweets > 0, s.tweetsWithEntities == 0 else { return }
        warn("none of the \(s.tweets) tweets read has entities (v2 fetched without tweet.fields=entities, or a stripped "
             + "dump), so their hashtags and mentions are not seen: try --mentions-from text")
    }

    /// `--stats FILE`: the run summary as one JSON object, through `OutputFile`
    /// as `-o` is (a FIFO, device or linked file is written into, never replaced).
    ///
    /// - Returns: false (the file named on stderr) when it cannot be written.
    func writeStats(_ summary: RunSummary, to path: String, interrupts: InterruptHandler? = nil) -> Bool {
        Pipeline.writeStats(summary.json, to: path, console: self, interrupts: interrupts)
    }

    /// Writes all of `text` to standard output.
    ///
    /// - Returns: false when nothing more should be written: the reader has
    ///   gone (EPIPE: the caller ends quietly), or the write failed another
    ///   way (a full disk, `/dev/full`, a closed descriptor), which is said on
    ///   stderr once and turns the exit status into 1 (`Console.exitStatus`).
    static func writeStdout(_ text: String) -> Bool {
        writeStdout(Array(text.utf8))
    }

    /// Writes all of `bytes` to standard output; false as `writeStdout(_: String)` says.
    static func writeStdout(_ bytes: [UInt8]) -> Bool {
        guard outputFailure.load(ordering: .relaxed) == 0 else { return false }
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                if e != EPIPE, outputFailure.compareExchange(expected: 0, desired: e, ordering: .relaxed).exchanged {
                    writeStderr("smashtag: cannot write standard output: \(String(cString: strerror(e)))"
                                + (e == ENOSPC ? " (the disk is full: free space or write elsewhere)" : "") + "\n")
                }
                return false
            }
            offset += n
        }
        return true
    }

    /// Opens `/dev/null` read-only on each of descriptors 0, 1 and 2 that
    /// is closed, so no file the run opens can take its number. A closed
    /// standard output stays an error: writes to the read-only placeholder
    /// fail with EBADF, as they would on the closed descriptor.
    static func reserveStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            let placeholder = open("/dev/null", O_RDONLY)
            if placeholder >= 0 && placeholder != fd {
                dup2(placeholder, fd)
                close(placeholder)
            }
        }
    }

    /// The errno of the first failed write to standard output other than a
    /// closed pipe, or 0.
    private static let outputFailure = Atomic<Int32>(0)

    /// The process's exit status: `status`, or 1 when standard output could
    /// not be written (what was asked for did not reach its reader).
    static func exitStatus(_ status: Int32) -> Int32 {
        outputFailure.load(ordering: .relaxed) != 0 && status == 0 ? 1 : status
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
        if let best = closest(name, among: known) {
            return UsageError("unknown option '\(name)' (did you mean \(best)?)")
        }
        return UsageError("unknown option '\(name)'")
    }

    /// The known option `name` is most likely a slip for: one it begins
    /// (`--min` for `--min-count`), or one a typo or two away (one for a
    /// name of up to four letters), else none: a hint must be close to help.
    static func closest(_ name: String, among known: [String]) -> String? {
        let bare = { (s: String) in String(s.drop { $0 == "-" }) }
        let typed = bare(name)
        guard !typed.isEmpty else { return nil }
        let starts = known.filter { bare($0).hasPrefix(typed) && name.hasPrefix("--") == $0.hasPrefix("--") }
        if starts.count == 1 { return starts[0] }
        let allowed = typed.count <= 4 ? 1 : 2
        let best = known.map { ($0, editDistance(bare($0), typed)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= allowed, best.1 < typed.count else { return nil }
        return best.0
    }
}

/// Edit distance with adjacent transpositions (`--jbos` is one slip from
/// `--jobs`), for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        row[0] = i
        for j in 1...b.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], before[j - 2] + 1) }
        }
        (before, previous, row) = (previous, row, before)
    }
    return previous[b.count]
}
