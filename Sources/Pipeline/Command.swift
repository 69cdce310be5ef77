import Foundation
import Stages

/// A subcommand of `smashtag`: parses its arguments (`--help` prints its
/// `usage`, which opens its file), runs, returns the exit status.
protocol Command {
    /// `usage: smashtag …`, printed under a usage error.
    static var usageLine: String { get }
    init(arguments: [String]) throws(UsageError)
    func run() -> Int32
}

/// Parses and runs a command; a usage error exits 2 (0 for `--help`).
func runCommand<C: Command>(_ type: C.Type, _ arguments: [String]) -> Int32 {
    do {
        return try C(arguments: arguments).run()
    } catch {
        return usageFailure(error, usageLine: C.usageLine)
    }
}
