import Foundation
import Stages

/// `smashtag export`: the whole store as portable NDJSON on standard output.
struct ExportCommand: Command {
    static let usage = """
    smashtag export — write a store as portable NDJSON

    USAGE:
        smashtag export --store FILE > snapshot.ndjson

    One line per tweet, in id order: an API v2 tweet object with the tweet's
    id, creation time, author, mentions (as entities) and, in a store that
    keeps text, its full text. `smashtag import snapshot.ndjson --store NEW`
    makes the same store on another machine or version, and since a snapshot
    is itself a dump, `smashtag report TERM snapshot.ndjson` gives the same
    reports as the store. Tracked terms and the history are not exported.
    Memory stays small: tweets are written as they are read.

    OPTIONS:
        --store FILE        The store [default: $SMASHTAG_STORE]
        --wait SECONDS      Wait this long for a locked store [default: 5]
        -q, --quiet         No summary on stderr
    \(Usage.helpOption)

    """

    static let usageLine = "usage: smashtag export --store FILE > snapshot.ndjson"

    var storeOptions = StoreOptions()

    init(arguments: [String]) throws(UsageError) {
        let positional: [String]
        (storeOptions, positional) = try StoreOptions.read(arguments, usage: Self.usage)
        if let extra = positional.first {
            throw UsageError("export writes to standard output and takes no paths, not '\(extra)': smashtag export > \(extra)")
        }
        _ = try storeOptions.require("export")
    }

    func run() -> Int32 {
        do {
            let store = try Store(path: storeOptions.path!, access: .read, wait: storeOptions.wait)
            var closed = false
            let n = try store.export { lines in
                closed = !Console.writeStdout(lines)
                return !closed
            }
            if !storeOptions.quiet && !closed { Console.writeStderr("smashtag: exported \(n) tweets from \(storeOptions.path!)\n") }
            return 0
        } catch {
            return storeFailure(error)
        }
    }
}
