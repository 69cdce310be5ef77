import Foundation
import Stages

extension ReportCommand {
    /// `report --store --by`: the series, bucketed at query time (SPEC §12.4).
    func seriesFromStore(_ store: Store, _ path: String, _ buckets: TimeBuckets, started: DispatchTime) throws -> Int32 {
        let series = try store.series(terms, buckets: buckets, minCount: minCount, top: top,
                                      since: filters.filter.since, until: filters.filter.until, filter: filters.filter)
        let interrupts = InterruptHandler(control: RunControl(strict: false))
        defer { interrupts.cancel() }
        let document = ReportDocument(reports: series.reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                      bucketed: true)
        if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
        if !quiet {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets (\(series.unknownTime) of unknown time left out "
                                + "by \(buckets.description)); matched "
                                + series.totals.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                + String(format: "; %.2f s\n", elapsed))
        }
        return 0
    }

    /// `report --store`: the same report, from the store alone (SPEC §10).
    func reportFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            if let buckets { return try seriesFromStore(store, path, buckets, started: started) }
            let filter = filters.filter, columns = filters.columns
            var filtered: Store.FilteredReports?
            let reports: [TermReport]
            if filter.isActive || !columns.isStandard {
                // SPEC §12's options: one pass over the stored tweets with their kind, language and spellings.
                filtered = try store.reports(terms, minCount: minCount, top: top, filter: filter, columns: columns)
                reports = filtered!.reports
            } else {
                reports = try store.reports(terms, minCount: minCount, top: top)
            }
            let interrupts = InterruptHandler(control: RunControl(strict: false))
            defer { interrupts.cancel() }
            let document = ReportDocument(reports: reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                          columns: columns)
            if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
            if let f = filtered, f.unknownFacts > 0, filter.retweets != .include || filter.languages != nil || columns.facts.any {
                // Said even with --quiet: it changes what the numbers mean.
                Console.writeStderr("smashtag: \(f.unknownFacts) of the matching tweets were ingested before schema version 4, "
                                    + "which kept no kind, language or spellings: they have no language, --retweets exclude|only "
                                    + "leaves them out, and they add to count and authors but not to originals, retweets or "
                                    + "display (ingest their dumps into a new store to have them)\n")
            }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                var line = "smashtag: store \(VisibleText.escaped(path)), \(try store.tweetCount) tweets; matched "
                    + reports.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                if let f = filtered, filter.isActive {
                    line += "; left out \(f.leftOut) by \(filter.description)"
                    if filter.byTime { line += " (\(f.unknownTime) of unknown time)" }
                }
                Console.writeStderr(line + String(format: "; %.2f s\n", elapsed))
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag report TERM... --store FILE [options]")
        }
    }
}
