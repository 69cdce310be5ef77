import Foundation
import Stages

/// `smashtag track` and `smashtag untrack`: terms whose counts the store keeps up to date.
struct TrackCommand: Command {
    static let usage = """
    smashtag track — keep a term's counts up to date at every ingest

    USAGE:
        smashtag track TERM... --store FILE [options]
        smashtag untrack TERM... --store FILE [options]

    A tracked term is counted once over the tweets the store holds, and every
    later ingest adds its new tweets to the counts in the same transaction, so
    `smashtag report TERM --store FILE` reads a few rows instead of scanning.
    Reports are the same tracked or not. `untrack` drops a term and its counts.
    `smashtag terms` lists the tracked terms. Terms are as for `smashtag report`;
    a word term needs a store that keeps text (`ingest --keep-text`). Tracking
    creates the store when it is missing, so a scheduled job can start with it.

    OPTIONS:
    \(StoreOptions.help)
        -q, --quiet         Say nothing on stderr
    \(Usage.helpOption)

    EXAMPLES:
        smashtag track '#stanford' from:nasa --store tweets.db
        smashtag untrack from:nasa --store tweets.db

    """

    static let usageLine = "usage: smashtag track TERM... --store FILE"

    var untrack = false
    var terms: [Term] = []
    var storeOptions = StoreOptions()

    init(arguments: [String]) throws(UsageError) {
        try self.init(arguments: arguments, untrack: false)
    }

    init(arguments: [String], untrack: Bool) throws(UsageError) {
        self.untrack = untrack
        let positional: [String]
        (storeOptions, positional) = try StoreOptions.read(arguments, usage: Self.usage)
        let verb = untrack ? "untrack" : "track"
        guard !positional.isEmpty else {
            throw UsageError("give the terms to \(verb), as in: smashtag \(verb) '#stanford' --store tweets.db")
        }
        terms = try parseTerms(positional)
        _ = try storeOptions.require(verb)
    }

    func run() -> Int32 {
        let console = Console(quiet: storeOptions.quiet)
        let verb = untrack ? "untrack" : "track"
        do {
            let store = try Store(path: storeOptions.path!, access: .write(command: verb), create: !untrack, wait: storeOptions.wait)
            if untrack {
                let removed = try store.untrack(terms)
                for term in terms where !removed.contains(term) { console.warn("\(term) was not tracked") }
                if !storeOptions.quiet && !removed.isEmpty { console.warn("untracked " + removed.map(\.description).joined(separator: ", ")) }
            } else {
                let added = try store.track(terms)
                if !storeOptions.quiet {
                    let counts = Dictionary(try store.terms().map { ($0.term, $0.tweets) }, uniquingKeysWith: { a, _ in a })
                    for term in terms {
                        console.warn(added.contains(term) ? "tracking \(term): \(counts[term] ?? 0) tweets so far"
                                                          : "\(term) was tracked already")
                    }
                }
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: Self.usageLine)
        }
    }
}

/// `smashtag untrack`.
struct UntrackCommand: Command {
    static let usageLine = "usage: smashtag untrack TERM... --store FILE"
    let track: TrackCommand

    init(arguments: [String]) throws(UsageError) {
        track = try TrackCommand(arguments: arguments, untrack: true)
    }

    func run() -> Int32 { track.run() }
}

/// `smashtag terms`: the tracked terms.
struct TermsCommand: StoreListingCommand {
    static let name = "terms"
    static let usage = """
    smashtag terms — list the terms a store tracks

    USAGE:
        smashtag terms --store FILE [--format FORMAT]

    One row per tracked term with the number of tweets it matches, in the order
    they were tracked.

    OPTIONS:
    \(StoreOptions.listingHelp)

    """

    let listing: StoreListing

    static func rows(of store: Store) throws(StoreError) -> Listing { Store.listing(try store.terms()) }
}
