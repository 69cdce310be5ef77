import Foundation
import Stages

/// `history` and `terms`: a table of what a store holds, read without
/// taking the writers' lock; the store options, `--format` and `--help`, no
/// arguments.
struct StoreListing {
    var storeOptions = StoreOptions()
    var format: ReportFormat?

    init(_ arguments: [String], command: String, usage: String) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        while let name = try reader.nextOption() {
            if try storeOptions.parse(name, &reader) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(usage)
            case "--format": format = try reader.format()
            default: throw UsageError.unknownOption(name, known: StoreOptions.names + ["--help", "--format"])
            }
        }
        if let extra = reader.positional.first { throw UsageError("\(command) takes no arguments, not '\(extra)'") }
        _ = try storeOptions.require(command)
    }

    /// Opens the store for reading and prints `rows` of it; exit status 0, or 3.
    func run(_ rows: (Store) throws(StoreError) -> Listing) -> Int32 {
        do {
            let store = try Store(path: storeOptions.path!, access: .read, wait: storeOptions.wait)
            _ = Console.writeStdout(try rows(store).render(as: defaultFormat(format)))
            return 0
        } catch {
            return storeFailure(error)
        }
    }
}

/// A command that prints a table of what a store holds (`history`, `terms`):
/// its name, usage and rows; parsing and running are `StoreListing`'s.
protocol StoreListingCommand: Command {
    /// `history`: the command's name, in messages and its usage line.
    static var name: String { get }
    static var usage: String { get }
    /// The rows to print, read from the open store.
    static func rows(of store: Store) throws(StoreError) -> Listing
    var listing: StoreListing { get }
    init(listing: StoreListing)
}

extension StoreListingCommand {
    static var usageLine: String { "usage: smashtag \(name) --store FILE [--format FORMAT]" }

    init(arguments: [String]) throws(UsageError) {
        self.init(listing: try StoreListing(arguments, command: Self.name, usage: Self.usage))
    }

    func run() -> Int32 { listing.run(Self.rows) }
}
