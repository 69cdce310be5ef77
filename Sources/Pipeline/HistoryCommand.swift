import Foundation
import Stages

/// `smashtag history`: one row per past run of the store.
struct HistoryCommand: StoreListingCommand {
    static let name = "history"
    static let usage = """
    smashtag history — the runs that wrote to a store

    USAGE:
        smashtag history --store FILE [--format FORMAT]

    One row per ingest, import and prune, oldest first: its number, when it
    started and finished (UTC), the inputs as given, files read whole and files
    skipped as unchanged, bytes, tweets read / new / already known, bad records
    skipped, and the outcome: ok, running, stopped (--strict), failed (with the
    reason), or interrupted (killed or cut off; its committed batches are kept,
    and running the same ingest again finishes the job).

    OPTIONS:
    \(StoreOptions.listingHelp)

    """

    let listing: StoreListing

    static func rows(of store: Store) throws(StoreError) -> Listing { RunRecord.listing(try store.history()) }
}
