import Foundation
import Stages

/// A subcommand of `smashtag` other than `report`: parses its arguments,
/// runs, returns the exit status.
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

/// Options every store command shares: which store, how long to wait for
/// another run, and how much to say.
struct StoreOptions {
    static let environment = "SMASHTAG_STORE"
    static let names = ["--store", "--wait", "--quiet"]

    /// `--store FILE`, else `SMASHTAG_STORE`.
    var path: String?
    /// Whether the path came from `--store` (not the environment).
    var explicit = false
    /// `--wait SECONDS`: how long to wait for a run that holds the store.
    var wait = 5.0
    var quiet = false

    init() {
        if let env = ProcessInfo.processInfo.environment[StoreOptions.environment], !env.isEmpty { path = env }
    }

    /// Takes a store option from `reader`; false when `name` is not one.
    mutating func parse(_ name: String, _ reader: inout OptionReader) throws(UsageError) -> Bool {
        switch name {
        case "--store":
            path = try reader.value()
            explicit = true
        case "--wait": wait = try StoreOptions.seconds(try reader.value())
        case "-q", "--quiet": quiet = true
        default: return false
        }
        return true
    }

    /// The value of `--wait`: seconds, 0 or more.
    static func seconds(_ v: String) throws(UsageError) -> Double {
        guard let s = Double(v), s >= 0, s.isFinite else {
            throw UsageError("--wait takes a number of seconds (0 or more), not '\(v)'")
        }
        return s
    }

    /// The store's path, or a usage error saying how to name one.
    func require(_ command: String) throws(UsageError) -> String {
        guard let path else {
            throw UsageError("\(command) needs a store: give --store FILE or set \(StoreOptions.environment)")
        }
        return path
    }
}

/// Reads a command line option by option; arguments that are not options
/// are collected as positionals (`-` too; everything after `--`).
struct OptionReader {
    private var args: ArraySlice<String>
    private var onlyPositional = false
    private var inline: String?
    private(set) var name = ""
    private(set) var positional: [String] = []

    init(_ arguments: [String]) { args = arguments[...] }

    /// The next option's name (`--jobs` of `--jobs=2` too); nil at the end.
    mutating func next() -> String? {
        while let arg = args.popFirst() {
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") {
                positional.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositional = true
                continue
            }
            name = arg
            inline = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            return name
        }
        return nil
    }

    /// The value of the current option.
    mutating func value() throws(UsageError) -> String {
        if let inline { return inline }
        guard let v = args.popFirst() else { throw UsageError("\(name) needs a value") }
        return v
    }

    /// The value of the current option as a whole number of at least `min`.
    mutating func number(min: Int) throws(UsageError) -> Int {
        let v = try value()
        guard let n = Int(v), n >= min else { throw UsageError("\(name) takes a whole number of at least \(min), not '\(v)'") }
        return n
    }

    /// The value of `--format`.
    mutating func format() throws(UsageError) -> ReportFormat {
        let v = try value()
        guard let f = ReportFormat(rawValue: v) else {
            throw UsageError("--format must be csv, json, ndjson or table, not '\(v)'")
        }
        return f
    }
}

/// Parses terms as given on the command line, each once.
func parseTerms(_ raw: [String]) throws(UsageError) -> [Term] {
    var terms: [Term] = []
    for r in raw {
        let term: Term
        do { term = try Term(parsing: r) } catch { throw UsageError(error.description) }
        if !terms.contains(term) { terms.append(term) }
    }
    return terms
}

/// Prints a store error; exit status 3 (SPEC §9).
func storeFailure(_ error: StoreError) -> Int32 {
    Console.writeStderr("smashtag: \(error)\n")
    return 3
}

/// The default output format: a table on a terminal, CSV otherwise.
func defaultFormat(_ format: ReportFormat?) -> ReportFormat {
    format ?? (isatty(1) == 1 ? .table : .csv)
}
