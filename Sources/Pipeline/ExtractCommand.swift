import Foundation
import Stages

/// `smashtag extract`: the read, parse, extract and match stages alone,
/// writing extract lines (`ExtractFormat`) for `smashtag aggregate`, so the
/// work can be spread over processes or machines (a Spark job pipes
/// partitions through it).
struct ExtractCommand {
    var terms: [Term] = []
    var paths: [String] = []
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    /// `--since`, `--until`, `--retweets`, `--lang` (applied here, before matching) and `--columns` (what the lines carry).
    var filters = FilterOptions()
    /// `--by` (and `--tz`): the lines carry each tweet's creation time, and tweets of unknown time are left out.
    var buckets: TimeBuckets?
    var quiet = false
    var pathsFromStdin = false
    var listInputs = false
    /// `-0`/`--null`: paths end with NUL, not a line break (so any path can be listed and read back).
    var nullSeparated = false

    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let option = try a.nextOption() {
            if try input.parse(option, &a) { continue }
            if try filters.parse(option, &a) { continue }
            switch option {
            case "-h", "--help": throw UsageError.help(Usage.extract)
            case "-t", "--term": termFlags.append(try a.value())
            case "-q", "--quiet": quiet = true
            case "--paths-from-stdin": pathsFromStdin = true
            case "--list-inputs": listInputs = true
            case "-0", "--null": nullSeparated = true
            default:
                throw UsageError.unknownOption(option, known: ["--help", "--term", "--jobs", "--max-record", "--strict",
                                                               "--quiet", "--paths-from-stdin", "--list-inputs", "--mentions-from",
                                                               "--id-column", "--text-column", "--author-column", "--null",
                                                               "--deleted", "--no-input-limits"]
                                                 + FilterOptions.names)
            }
        }
        var positional = a.positional
        // A listing reads no tweet, so it needs no term: every argument is a path.
        if !(listInputs && termFlags.isEmpty) {
            terms = try Terms.parse(flags: termFlags, positional: &positional, command: "extract")
        }
        paths = positional
        buckets = try filters.timeBuckets()
        if pathsFromStdin && paths.contains("-") {
            throw UsageError("--paths-from-stdin reads paths from standard input, so '-' cannot name it too")
        }
    }

    func run() -> Int32 {
        var inputs = paths
        if pathsFromStdin && nullSeparated {
            // Paths as `find -print0` and `--list-inputs --null` write them: any byte but NUL.
            let all = FileHandle.standardInput.readDataToEndOfFile()
            for path in all.split(separator: 0, omittingEmptySubsequences: true) {
                inputs.append(String(decoding: path, as: UTF8.self))
            }
        } else if pathsFromStdin {
            while let line = readLine(strippingNewline: true) {
                let path = line.hasSuffix("\r") ? String(line.dropLast()) : line
                if !path.isEmpty { inputs.append(path) }
            }
        }
        if inputs.isEmpty && !pathsFromStdin { inputs = ["-"] }
        if listInputs { return list(inputs) }
        let plan = InputPlan(paths: inputs, splitSize: Terms.splitSize())
        let control = RunControl(strict: input.strict)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: input.strict) else { return 1 }
        console.noteStandardInput(inputs)
        let interrupts = InterruptHandler(control: control)
        // Columns beyond the counts need each tweet's kind, author and spellings: format version 2.
        let facts = filters.columns.facts.any
        let writer = ExtractWriter(terms: terms, facts: facts, times: buckets != nil) { Console.writeStdout($0) }
        var run = ParallelRun(terms: terms, jobs: input.jobs, maxRecord: input.maxRecord, extractor: input.extractor,
                              csvColumns: input.csvColumns)
        run.policy = input.policy
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        run.filter = filters.filter
        run.times = buckets != nil
        if facts { run.facts = .all }
        let ledger = run.run(plan.units, control: control, into: writer, ledger: ProblemLedger(plan: plan))
        if let code = interrupts.exitStatus() { return code }
        interrupts.cancel()
        if input.strict, let p = control.stoppingProblem {
            console.warn(p.description)
            return 1
        }
        writer.flush()
        if writer.closed { return 0 }
        console.reportProblems(ledger)
        console.hintWithoutEntities(ledger, mentionsFrom: input.mentionsFrom)
        return ledger.nothingRead ? 1 : 0
    }
}

extension ExtractCommand {
    /// `--list-inputs`: the files a run would read, in the order it reads
    /// them (folders walked, files that are plainly not dumps left out), one
    /// a line, for a framework that spreads them over machines and hands them
    /// back through `--paths-from-stdin`. Nothing is read.
    ///
    /// - Complexity: one `stat` per walked entry, plus a look at the members
    ///   of each uncompressed tar of 1 MiB or more; memory O(paths).
    func list(_ inputs: [String]) -> Int32 {
        let plan = InputPlan(paths: inputs, splitSize: .max)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: input.strict) else { return 1 }
        var out = ""
        var previous: String?
        for unit in plan.units {
            let path: String
            switch unit.kind {
            case .standardInput: path = "-"
            case .file(let p), .range(let p, _), .tarMember(let p, _, _): path = p
            }
            // The members of a tar are units of their own: list the tar once.
            if !unit.startsInput && path == previous { continue }
            previous = path
            if nullSeparated {
                out += path + "\0"
                continue
            }
            guard !path.contains(where: \.isNewline) else {
                console.warn("\(path): a path with a line break cannot be listed one a line; left out (--null lists it)")
                if input.strict { return 1 }
                continue
            }
            out += path + "\n"
        }
        guard Console.writeStdout(out) else { return 0 }
        return plan.units.isEmpty && !plan.problems.isEmpty ? 1 : 0
    }
}

/// `smashtag aggregate`: reads extract lines (files or standard input, any
/// compression), dedups on (term, tweet id), counts, and writes the report
/// exactly as `smashtag report` would.
struct AggregateCommand {
    var paths: [String] = []
    /// `--format` and `-o, --output FILE`, as for `report`.
    var output = ReportOutput()
    var minCount = 2
    var top: Int?
    var strict = false
    var quiet = false
    /// `--pairs`: what `smashtag pairs` writes (SPEC §12.5), with its formats and `--without-term`.
    var pairs = false
    var pairFormat: PairFormat?
    var withoutTerm = false
    /// `--columns` (SPEC §12.3), `--by` and `--tz` (§12.4, with `--since`
    /// and `--until` for the series' span); the other filters belong to `extract`.
    var filters = FilterOptions()
    var buckets: TimeBuckets?

    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var formatName: String?
        var window: [String] = []
        while let option = try a.nextOption() {
            // With --pairs, --format names a pair format (gexf too): read once the options are known.
            if option == "--format" { formatName = try a.value(); continue }
            if option == "--columns" || FilterOptions.seriesNames.contains(option), try filters.parse(option, &a) { continue }
            if option == "--since" || option == "--until", try filters.parse(option, &a) {
                window.append(option)
                continue
            }
            if try output.parse(option, &a) { continue }
            switch option {
            case "-h", "--help": throw UsageError.help(Usage.aggregate)
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "--strict": strict = true
            case "-q", "--quiet": quiet = true
            case "--pairs": pairs = true
            case "--without-term": withoutTerm = true
            default:
                if FilterOptions.filterNames.contains(option) {
                    throw UsageError("\(option) is applied by extract, before matching: give it to smashtag extract")
                }
                throw UsageError.unknownOption(option, known: ["--help", "--format", "--output", "--min-count", "--top", "--strict",
                                                               "--quiet", "--pairs", "--without-term", "--columns"]
                                                      + FilterOptions.seriesNames)
            }
        }
        if let formatName {
            if pairs {
                pairFormat = try PairsCommand.format(formatName)
            } else {
                var reader = ArgumentReader(["--format", formatName])
                _ = try reader.nextOption()
                _ = try output.parse("--format", &reader)
            }
        }
        if withoutTerm && !pairs { throw UsageError("--without-term leaves out pairs: give it with --pairs") }
        if pairs && !filters.columns.isStandard { throw UsageError("--columns does not apply to pairs (SPEC §12.5)") }
        if pairs && output.path != nil {
            throw UsageError("aggregate --pairs writes to standard output: leave out -o and redirect it (> FILE)")
        }
        try output.check()
        paths = a.positional.isEmpty ? ["-"] : a.positional
        buckets = try filters.timeBuckets()
        if pairs && buckets != nil { throw UsageError("--by does not apply to pairs (SPEC §12.5)") }
        if buckets == nil, let option = window.first {
            throw UsageError("\(option) is applied by extract, before matching: give it to smashtag extract "
                             + "(aggregate takes it only with --by, for the span of the series)")
        }
    }

    func run() -> Int32 {
        let plan = InputPlan(paths: paths, splitSize: .max)
        let control = RunControl(strict: strict)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: strict) else { return 1 }
        let interrupts = InterruptHandler(control: control)
        let reader = ExtractReader(control: control, pairs: pairs, facts: filters.columns.facts, buckets: buckets,
                                   since: filters.filter.since, until: filters.filter.until)
        let input = InputReader()
        for unit in plan.units where !control.isStopped {
            input.read(unit, handler: reader)
            reader.finishTweet()
        }
        if let code = interrupts.exitStatus() { return code }
        defer { interrupts.cancel() }
        if strict, let p = control.stoppingProblem {
            console.warn(p.description)
            return 1
        }
        if pairs { return writePairs(reader, plan: plan, console: console) }
        guard let aggregator = reader.aggregator else {
            let problems = plan.problems + reader.problems
            console.reportProblems(problems, total: problems.count)
            console.warn("no extract header found: aggregate reads the output of 'smashtag extract'")
            return 1
        }
        if reader.lacksFacts || reader.lacksTimes {
            console.reportProblems(reader.problems, total: reader.problems.count)
            return 1
        }
        let reports = buckets == nil ? aggregator.reports(minCount: minCount, top: top)
            : aggregator.seriesReports(minCount: minCount, top: top, since: filters.filter.since, until: filters.filter.until)
        let summary: [ReportDocument.Item] = [
            .init("terms", .text(reports.map(\.term.description).joined(separator: ", "))),
            .init("extracts", .text(paths.joined(separator: ", "))),
            .init("options", .text("--min-count \(minCount)" + (top.map { " --top \($0)" } ?? ""))),
            .init("when", .time(Date())),
            .init("smashtag", .text(Usage.version)),
        ]
        let document = ReportDocument(reports: reports, summary: summary, columns: filters.columns, bucketed: buckets != nil)
        if let code = output.write(document, console: console, interrupts: interrupts) { return code }
        let problems = plan.problems + reader.problems
        console.reportProblems(problems, total: problems.count)
        return 0
    }
}

extension AggregateCommand {
    /// `aggregate --pairs`: the pairs of what was read, as `smashtag pairs` writes them.
    func writePairs(_ reader: ExtractReader, plan: InputPlan, console: Console) -> Int32 {
        guard let aggregator = reader.pairAggregator else {
            console.warn("no extract header found: aggregate --pairs reads the output of 'smashtag extract' (or smashtag-pairs lines)")
            return 1
        }
        do {
            try PairsCommand.checkGraph(pairFormat, terms: aggregator.terms)
        } catch {
            return usageFailure(error, usageLine: "usage: smashtag aggregate --pairs [FILE...] [options]")
        }
        let result = aggregator.pairs(minCount: minCount, top: top, withoutTerm: withoutTerm)
        if let status = PairsCommand.write(result, format: pairFormat) { return status }
        let problems = plan.problems + reader.problems
        console.reportProblems(problems, total: problems.count)
        return 0
    }
}

/// Terms from the command line, shared by report and extract.
enum Terms {
    /// `-t` flags, or else the first positional argument (removed from `positional`).
    static func parse(flags: [String], positional: inout [String], command: String) throws(UsageError) -> [Term] {
        var raw = flags
        if raw.isEmpty {
            guard !positional.isEmpty else {
                throw UsageError("give a term to search for, as in: smashtag \(command) '#stanford' dumps/")
            }
            // `smashtag report dumps/`: the folder is not the term, a term is missing.
            if positional.count == 1, positional[0] != "-", access(positional[0], F_OK) == 0 {
                let path = positional[0]
                throw UsageError("'\(path)' is a path, and a term is missing: smashtag \(command) TERM \(path)"
                                 + (path.contains("/") ? "" : " (a word term that is also a file's name goes with -t: -t \(path))"))
            }
            raw.append(positional.removeFirst())
        }
        let terms = try parseTerms(raw)
        guard terms.count <= TermMatcher.maxTerms else {
            throw UsageError("at most \(TermMatcher.maxTerms) terms in one run; split them over several runs")
        }
        return terms
    }

    /// The terms and paths of a command that reads dumps or a store (`report`,
    /// `pairs`): with `--store` every positional is a term (a path among them is
    /// a mistake worth naming); with neither a path nor `--store`,
    /// `SMASHTAG_STORE` names the store.
    ///
    /// - Parameters:
    ///   - reads: what the command does with the store, for the message (`reports from the store alone`).
    ///   - then: how to ask again without paths (`report without paths`).
    /// - Returns: the terms, the paths (`-` when none), and whether the store came from the environment.
    static func parse(flags: [String], positional: [String], store: inout String?, command: String,
                      reads: String, then: String) throws(UsageError) -> (terms: [Term], paths: [String], fromEnvironment: Bool) {
        var flags = flags, positional = positional
        if let store {
            if let path = positional.first(where: { $0 == "-" || access($0, F_OK) == 0 }) {
                throw UsageError("--store \(reads), and '\(path)' is a path: ingest it first "
                                 + "(smashtag ingest \(path) --store \(store)), then \(then)")
            }
            flags += positional
            positional = []
        }
        let terms = try parse(flags: flags, positional: &positional, command: command)
        var fromEnvironment = false
        if store == nil && positional.isEmpty,
           let env = ProcessInfo.processInfo.environment[StoreOptions.environment], !env.isEmpty {
            store = env
            fromEnvironment = true
        }
        return (terms, positional.isEmpty ? ["-"] : positional, fromEnvironment)
    }

    /// Byte ranges big JSON-lines files are cut into (SMASHTAG_SPLIT_BYTES lets tests cut small files).
    static func splitSize() -> Int64 {
        let split = ProcessInfo.processInfo.environment["SMASHTAG_SPLIT_BYTES"].flatMap { Int64($0) } ?? InputPlan.defaultSplitSize
        return max(1, split)
    }
}
