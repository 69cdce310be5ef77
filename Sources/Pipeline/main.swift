import Foundation
import Stages

// A closed pipe shows up as EPIPE from write(2), handled where the report is written.
signal(SIGPIPE, SIG_IGN)
// Past a file size limit (ulimit -f) a write fails with EFBIG and the store
// reports it (exit 3), instead of the process dying in mid-batch.
signal(SIGXFSZ, SIG_IGN)
// A closed standard descriptor would be given to the next file opened (an
// input, the store), and the report written into it: hold 0, 1 and 2.
Console.reserveStandardDescriptors()

let arguments = Array(CommandLine.arguments.dropFirst())

func usageFailure(_ e: UsageError, usageLine: String) -> Int32 {
    if e.isHelp {
        _ = Console.writeStdout(e.message)
        return 0
    }
    // The message may quote an argument: shown escaped, so it cannot drive the terminal.
    Console.writeStderr("smashtag: \(VisibleText.escaped(e.message))\n\(usageLine)\nRun 'smashtag --help' for more.\n")
    return 2
}

let status: Int32
switch arguments.first {
case nil:
    Console.writeStderr(Usage.main)
    status = 2
case "-h", "--help", "help":
    _ = Console.writeStdout(Usage.main)
    status = 0
case "--version", "-V":
    _ = Console.writeStdout("smashtag \(Usage.version)\n\(Versions.libraries)\n")
    status = 0
case "report": status = runCommand(ReportCommand.self, Array(arguments.dropFirst()))
case "pairs": status = runCommand(PairsCommand.self, Array(arguments.dropFirst()))
case "trend": status = runCommand(TrendCommand.self, Array(arguments.dropFirst()))
case "posts": status = runCommand(PostsCommand.self, Array(arguments.dropFirst()))
case "extract": status = runCommand(ExtractCommand.self, Array(arguments.dropFirst()))
case "aggregate": status = runCommand(AggregateCommand.self, Array(arguments.dropFirst()))
case "ingest": status = runCommand(IngestCommand.self, Array(arguments.dropFirst()))
case "import": status = runCommand(ImportCommand.self, Array(arguments.dropFirst()))
case "track": status = runCommand(TrackCommand.self, Array(arguments.dropFirst()))
case "untrack": status = runCommand(UntrackCommand.self, Array(arguments.dropFirst()))
case "terms": status = runCommand(TermsCommand.self, Array(arguments.dropFirst()))
case "history": status = runCommand(HistoryCommand.self, Array(arguments.dropFirst()))
case "prune": status = runCommand(PruneCommand.self, Array(arguments.dropFirst()))
case "export": status = runCommand(ExportCommand.self, Array(arguments.dropFirst()))
default:
    let hint = arguments[0].hasPrefix("-") ? ""
        : " (commands: report, pairs, trend, posts, extract, aggregate, ingest, track, untrack, terms, history, prune, export, import)"
    status = usageFailure(UsageError("unknown command '\(arguments[0])'\(hint)"),
                          usageLine: ReportCommand.usageLine)
}
exit(Console.exitStatus(status))
