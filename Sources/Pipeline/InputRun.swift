import Foundation
import Stages

/// What every command that reads inputs (`report`, `pairs`, `extract`,
/// `ingest`, `import`, `aggregate`) does around its run, written once: plan
/// the inputs and name the paths that cannot be read (the first of them
/// ends a `--strict` run), say when a terminal is read, catch SIGINT and
/// SIGTERM, and after the run end it for an interrupt or, under
/// `--strict`, for the first bad input — the same lines, in the same order,
/// for every command.
struct InputRun {
    let plan: InputPlan
    let control: RunControl
    let console: Console
    let interrupts: InterruptHandler
    let strict: Bool

    /// The line every command ends a `--strict` run with, after naming the bad input.
    static let strictStop = "stopped: --strict stops at the first bad input (leave it off to skip and count bad input)"

    /// Plans `paths` and starts catching signals; nil when the plan's
    /// problems end a `--strict` run (named, exit 1).
    ///
    /// - Parameters:
    ///   - splitSize: the plan's byte ranges (`Terms.splitSize()`; `.max` for none).
    ///   - unwritten: what a signal during the run leaves undone, for its line.
    static func start(paths: [String], strict: Bool, quiet: Bool, splitSize: Int64,
                      unwritten: String = "no report written") -> InputRun? {
        let plan = InputPlan(paths: paths, splitSize: splitSize)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: strict) else { return nil }
        console.noteStandardInput(paths)
        let control = RunControl(strict: strict)
        return InputRun(plan: plan, control: control, console: console,
                        interrupts: InterruptHandler(control: control, unwritten: unwritten), strict: strict)
    }

    /// A fresh ledger holding the plan's problems, for the run to fill.
    func ledger() -> ProblemLedger { ProblemLedger(plan: plan) }

    /// After the run: the exit status when it was interrupted (128 + the
    /// signal) or stopped by `--strict` at bad input (1, the input named,
    /// then `strictStop` and what is kept, if anything); nil to go on.
    ///
    /// - Parameter kept: what a stopped run keeps (ingest: its committed batches).
    func stopped(kept: String? = nil) -> Int32? {
        if let code = interrupts.exitStatus() { return code }
        guard strict, let p = control.stoppingProblem else { return nil }
        console.warn(p.description)
        console.warn(Self.strictStop + (kept.map { "; " + $0 } ?? ""))
        return 1
    }
}
