import Foundation
import Stages

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
    mutating func parse(_ name: String, _ reader: inout ArgumentReader) throws(UsageError) -> Bool {
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

    /// Reads the arguments of a command whose only options are the store's
    /// (and `--help`, which prints `usage`).
    ///
    /// - Returns: the options and the positional arguments.
    static func read(_ arguments: [String], usage: String) throws(UsageError) -> (options: StoreOptions, positional: [String]) {
        var options = StoreOptions()
        var reader = ArgumentReader(arguments)
        while let name = try reader.nextOption() {
            if try options.parse(name, &reader) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(usage)
            default: throw UsageError.unknownOption(name, known: StoreOptions.names + ["--help"])
            }
        }
        return (options, reader.positional)
    }

    /// How the usage texts of the store commands name the store options.
    static let help = """
            --store FILE        The store [default: $SMASHTAG_STORE]
            --wait SECONDS      Wait this long for a run that holds the store, then
                                exit 3 [default: 5]
        """

    /// The options of a listing (`history`, `terms`), as its usage text names them.
    static let listingHelp = """
            --store FILE        The store [default: $SMASHTAG_STORE]
            --format FORMAT     csv, json, ndjson or table
                                [default: table on a terminal, csv otherwise]
            --wait SECONDS      Wait this long for a locked store [default: 5]
        \(Usage.helpOption)
        """

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

/// Prints a store error; exit status 3 (SPEC §9).
func storeFailure(_ error: StoreError) -> Int32 {
    Console.writeStderr("smashtag: \(error)\n")
    return 3
}

/// The default output format: a table on a terminal, CSV otherwise.
func defaultFormat(_ format: ReportFormat?) -> ReportFormat {
    format ?? (isatty(1) == 1 ? .table : .csv)
}
