import Foundation
import Stages

extension ReportCommand {
    /// `report --store --by`: the series, bucketed at query time, with the
    /// filters and the columns (SPEC §12.2 to §12.4).
    func seriesFromStore(_ store: Store, _ path: String, _ buckets: TimeBuckets, started: DispatchTime) throws -> Int32 {
        let series = try store.series(terms, buckets: buckets, minCount: minCount, top: top, filter: filters.filter,
                                      facts: filters.facts)
        let interrupts = InterruptHandler(control: RunControl(strict: false))
        defer { interrupts.cancel() }
        let document = ReportDocument(reports: series.reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                      columns: filters.columns, bucketed: true)
        if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
        warnOfUnknownFacts(series.unknownFacts)
        if !quiet {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets (\(series.unknownTime) of unknown time left out "
                                + "by \(buckets.description)); matched "
                                + series.totals.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                + String(format: "; %.2f s\n", elapsed))
        }
        return 0
    }

    /// Says how many of the matching tweets were ingested before schema
    /// version 4, when the report's filters or columns would need what they
    /// lack; even with --quiet: it changes what the numbers mean.
    func warnOfUnknownFacts(_ count: Int) {
        let filter = filters.filter
        guard count > 0, filter.retweets != .include || filter.languages != nil || filters.columns.facts.any else { return }
        Console.writeStderr("smashtag: \(count) of the matching tweets were ingested before schema version 4, "
                            + "which kept no kind, language or spellings: they have no language, --retweets exclude|only "
                            + "leaves them out, and they add to count and authors but not to originals, retweets or "
                            + "display (ingest their dumps into a new store to have them)\n")
    }

    /// `report --store`: the same report, from the store alone (SPEC §10).
    func reportFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            if input.jobsGiven { store.spanReaders = input.jobs }
            if let buckets { return try seriesFromStore(store, path, buckets, started: started) }
            let filter = filters.filter, columns = filters.columns
            var filtered: Store.FilteredReports?
            let reports: [TermReport]
            if filter.isActive || !columns.isStandard {
                // SPEC §12's options: one pass over the stored tweets with their kind, language and spellings.
                filtered = try store.reports(terms, minCount: minCount, top: top, filter: filter, facts: filters.facts)
                reports = filtered!.reports
            } else {
                reports = try store.reports(terms, minCount: minCount, top: top, kinds: filters.kinds)
            }
            let interrupts = InterruptHandler(control: RunControl(strict: false))
            defer { interrupts.cancel() }
            let document = ReportDocument(reports: reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                          columns: columns)
            if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
            if let f = filtered { warnOfUnknownFacts(f.unknownFacts) }
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
        } catch let error as SeriesTooLong {
            Console.writeStderr("smashtag: \(VisibleText.escaped(error.message))\n")
            return 1
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag report TERM... --store FILE [options]")
        }
    }
}
