import Foundation
import Stages

/// What `report` and `pairs` do between their options and their output:
/// plan the inputs and name those that cannot be read, say when a terminal
/// is read, show progress, run the engine into a sink, and stop for an
/// interrupt or, under `--strict`, for the first bad input.
struct DumpScan {
    let console: Console
    let interrupts: InterruptHandler
    /// How progress was shown (the summary follows the same rule).
    let mode: ProgressDisplay.Mode
    let ledger: ProblemLedger
    /// `--mentions-from`, for the hint a run without entities gets.
    let mentionsFrom: MentionSource

    /// What a scan ended in: done, its output still to write, or an exit status.
    enum Outcome {
        case scanned(DumpScan)
        case exit(Int32)
    }

    /// Scans `paths` for `run`'s terms into `sink`.
    static func run(_ run: ParallelRun, input: InputOptions, paths: [String], quiet: Bool, progress: ProgressDisplay.Mode,
                    into sink: PartSink) -> Outcome {
        guard let setup = InputRun.start(paths: paths, strict: input.strict, quiet: quiet, splitSize: Terms.splitSize()) else {
            return .exit(1)
        }
        let (plan, control, console, interrupts) = (setup.plan, setup.control, setup.console, setup.interrupts)
        let mode: ProgressDisplay.Mode = quiet ? .off
            : progress == .auto ? (isatty(2) == 1 ? .terminal : .off) : progress
        let total: Int64? = plan.units.contains { $0.size == nil } ? nil : plan.units.reduce(0) { $0 + ($1.size ?? 0) }
        let display = ProgressDisplay(control: control, total: total, units: plan.units.count, mode: mode)
        display.start()
        var run = run
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        // The command ends after this scan's output: the process's end gives the join's memory back at once.
        run.keepUntilExit = { ProcessEnd.keep($0) }
        let ledger = run.run(plan.units, control: control, into: sink, ledger: setup.ledger())
        display.finish()
        if let code = setup.stopped() { return .exit(code) }
        return .scanned(DumpScan(console: console, interrupts: interrupts, mode: mode, ledger: ledger,
                                 mentionsFrom: input.mentionsFrom))
    }

    /// Names the bad input, prints the summary where it belongs (stderr a
    /// terminal, or `--progress=plain`) and writes `--stats`; the exit status.
    func finish(_ summary: RunSummary, quiet: Bool, progress: ProgressDisplay.Mode, statsPath: String?) -> Int32 {
        console.reportProblems(ledger)
        console.hintWithoutEntities(ledger, mentionsFrom: mentionsFrom)
        if !quiet && (mode == .terminal || mode == .plain || (progress == .auto && isatty(2) == 1)) {
            Console.writeStderr(summary.text)
        }
        if let statsPath, !console.writeStats(summary, to: statsPath, interrupts: interrupts) { return 1 }
        interrupts.cancel()
        return ledger.nothingRead ? 1 : 0
    }
}

extension InputOptions {
    /// The engine for `terms`, read as these options say.
    func parallelRun(_ terms: [Term]) -> ParallelRun {
        var run = ParallelRun(terms: terms, jobs: jobs, maxRecord: maxRecord, extractor: extractor, csvColumns: csvColumns)
        run.policy = policy
        return run
    }
}
