import Foundation
import Stages

/// `smashtag prune`: keeps a scheduled job's store bounded.
struct PruneCommand: Command {
    static let usage = """
    smashtag prune — remove old tweets from a store and give the space back

    USAGE:
        smashtag prune --older-than AGE --store FILE
        smashtag prune --keep-tweets N --store FILE

    Removes tweets and everything that depends on them (their mention links,
    mentions no other tweet uses), counts tracked terms again from the tweets
    kept, then rewrites the file without the freed space (which needs as much
    free disk as the store takes, for a moment). Reports afterwards are those
    of the tweets kept. The run is listed by `smashtag history`.

    WHAT TO REMOVE (one of):
        --older-than AGE    Tweets created more than AGE ago: a number with s,
                            m, h, d or w (30d, 12h, 2w), or before a date
                            (2024-05-01 or 2024-05-01T12:00:00Z, UTC). Tweets
                            whose creation time is unknown are kept
        --keep-tweets N     All but the N newest tweets (by creation time)

    OPTIONS:
    \(StoreOptions.help)
        -q, --quiet         No summary on stderr
    \(Usage.helpOption)

    EXAMPLES:
        smashtag prune --older-than 30d --store tweets.db
        smashtag prune --keep-tweets 10000000 --store tweets.db

    """

    static let usageLine = "usage: smashtag prune (--older-than AGE | --keep-tweets N) --store FILE"

    var storeOptions = StoreOptions()
    var rule: PruneRule?

    init(arguments: [String]) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        var rules: [PruneRule] = []
        while let name = try reader.nextOption() {
            if try storeOptions.parse(name, &reader) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "--older-than": rules.append(.createdBefore(try Self.cutoff(try reader.value(), now: Date())))
            case "--keep-tweets": rules.append(.keepNewest(try reader.number(min: 0)))
            default: throw UsageError.unknownOption(name, known: StoreOptions.names + ["--help", "--older-than", "--keep-tweets"])
            }
        }
        if let extra = reader.positional.first { throw UsageError("prune takes no paths, not '\(extra)'") }
        guard rules.count == 1 else {
            throw UsageError("give one of --older-than AGE or --keep-tweets N, as in: smashtag prune --older-than 30d --store tweets.db")
        }
        rule = rules[0]
        _ = try storeOptions.require("prune")
    }

    /// Seconds since 1970 before which tweets go: `30d` ago, or a date.
    static func cutoff(_ text: String, now: Date) throws(UsageError) -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = text.last.flatMap({ units[$0] }), let n = Int64(text.dropLast()), n >= 0, n < Int64.max / unit {
            return Int64(now.timeIntervalSince1970) - n * unit
        }
        if let t = CreatedAt.parse(text) ?? CreatedAt.parse(text + "T00:00:00Z") { return t }
        throw UsageError("--older-than takes an age such as 30d, 12h or 2w, or a date such as 2024-05-01, not '\(text)'")
    }

    func run() -> Int32 {
        do {
            let store = try Store(path: storeOptions.path!, access: .write(command: "prune"), wait: storeOptions.wait)
            let o = try store.prune(rule!)
            if !storeOptions.quiet {
                Console.writeStderr("smashtag: prune run \(o.run) (\(rule!)): removed \(o.removed) tweets, kept \(o.kept); "
                                    + "store \(o.bytesBefore) → \(o.bytesAfter) bytes\n")
            }
            return 0
        } catch {
            return storeFailure(error)
        }
    }
}
