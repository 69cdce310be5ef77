import Foundation
import Stages

/// `smashtag ingest` and `smashtag import`: read dumps (or a snapshot) into the store.
struct IngestCommand: Command {
    static let usage = """
    smashtag ingest — read tweet dumps into a store, once

    USAGE:
        smashtag ingest PATH... --store FILE [options]

    Keeps, for every tweet read, its id, author, creation time and mentions of
    every kind a report's --kinds can pick (hashtags, users, symbols, links
    with their hosts and domains, its poster), and its full text with
    --keep-text, in FILE, an SQLite database created when missing. A tweet already in the store adds nothing; a file ingested
    before and unchanged since (same size, modification time and content
    fingerprint) is not read again; a changed file is read again and only its
    new tweets count. Reports then come from the store alone:
    `smashtag report TERM --store FILE`. Paths are read as by `smashtag report`.

    STORE:
        --store FILE        The store [default: $SMASHTAG_STORE]
        --keep-text         Keep every tweet's full text, so word terms can be
                            reported (about 150 more bytes a tweet). Chosen by a
                            store's first ingest; later ingests follow the store
        --wait SECONDS      Wait this long for another run that holds the store,
                            then exit 3 [default: 5]
        --batch N           Tweets per committed batch [default: 50000]; a run
                            killed midway keeps every batch it committed

    INPUTS (as for `smashtag report`):
        --mentions-from SOURCE
                            entities or text [default: entities]; see
                            `smashtag report --help`
    \(Usage.idColumnOption)
    \(Usage.textColumnOption)
        --author-column NAME
                            CSV author column [default: author.username,
                            user_screen_name, screen_name, username, user.screen_name]
        --max-record BYTES  Longest record read (suffixes K, M, G) [default: 16M]
        --no-input-limits   Read every input to its end (see `smashtag report --help`)
        --deleted WHAT      skip or include an account archive's deleted tweets [default: skip]

    RUNNING:
        -j, --jobs N        Worker threads reading dumps [default: all cores];
                            the store's writer keeps a core of its own
        --strict            Stop at the first bad input with exit status 1
                            (batches committed before it are kept)
        -q, --quiet         No summary on stderr (bad input is still reported)
        --stats FILE        Write the run summary to FILE as one JSON object
                            (as `smashtag report --stats`, with tweets_new and
                            tweets_known)
    \(Usage.helpOption)

    Every run is listed by `smashtag history`. Exit status 3 when the store is
    busy past --wait, corrupt, or cannot be written (a full disk, a read-only
    file): the store stays as its last committed batch left it.

    EXAMPLES:
        smashtag ingest dumps/2024-05-01/ --store tweets.db
        SMASHTAG_STORE=tweets.db smashtag ingest stream.jsonl.gz archive.tar

    """

    static let importUsage = """
    smashtag import — read a snapshot written by `smashtag export` into a store

    USAGE:
        smashtag import FILE... --store FILE [options]

    A snapshot is NDJSON, one API v2 tweet object per line, so importing it is
    ingesting it: tweets the store holds already add nothing, and the run is
    listed by `smashtag history` as an import. Give --keep-text to keep the
    snapshot's texts in a new store. Options as for `smashtag ingest`.

    EXAMPLES:
        smashtag export --store old.db > snapshot.ndjson
        smashtag import snapshot.ndjson --store new.db

    """

    static let usageLine = "usage: smashtag ingest PATH... --store FILE [--keep-text] [options]"

    var command = "ingest"
    var paths: [String] = []
    var storeOptions = StoreOptions()
    var keepText = false
    var options = IngestOptions(jobs: ProcessInfo.processInfo.activeProcessorCount)
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    var statsPath: String?

    static let optionNames = StoreOptions.names + ["--help", "--keep-text", "--batch", "--stats"] + InputOptions.names

    init(arguments: [String]) throws(UsageError) {
        try self.init(arguments: arguments, command: "ingest")
    }

    init(arguments: [String], command: String) throws(UsageError) {
        self.command = command
        options.command = command
        var reader = ArgumentReader(arguments)
        while let name = try reader.nextOption() {
            if try storeOptions.parse(name, &reader) { continue }
            if try input.parse(name, &reader) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(command == "import" ? Self.importUsage : Self.usage)
            case "--keep-text": keepText = true
            case "--batch": options.batchSize = try reader.number(min: 1)
            case "--stats": statsPath = try reader.value()
            default: throw UsageError.unknownOption(name, known: Self.optionNames)
            }
        }
        options.jobs = input.jobs
        options.maxRecord = input.maxRecord
        options.extractor = input.extractor
        options.csvColumns = input.csvColumns
        options.policy = input.policy
        if let b = InputOptions.batchBytes { options.batchBytes = b }
        paths = reader.positional
        guard !paths.isEmpty else {
            throw UsageError(command == "import"
                             ? "give the snapshot to import, as in: smashtag import snapshot.ndjson --store tweets.db"
                             : "give the dumps to ingest, as in: smashtag ingest dumps/ --store tweets.db (`-` reads standard input)")
        }
        _ = try storeOptions.require(command)
    }

    func run() -> Int32 {
        let started = DispatchTime.now()
        let console = Console(quiet: storeOptions.quiet)
        let path = storeOptions.path!
        do {
            let store = try Store(path: path, access: .write(command: "\(command) \(paths.joined(separator: " "))"),
                                  create: true, wait: storeOptions.wait)
            if keepText, !(try store.enableText()) {
                return usageFailure(UsageError("--keep-text: the store \(path) already holds tweets without their text, "
                                               + "and a store keeps text for all its tweets or none; start a new store to keep text"),
                                    usageLine: Self.usageLine)
            }
            // As a report does: SIGINT or SIGTERM stops the workers; the batches committed stay.
            guard let setup = InputRun.start(paths: paths, strict: input.strict, quiet: storeOptions.quiet,
                                             splitSize: Terms.splitSize(), unwritten: "the batches committed so far are kept") else {
                return 1
            }
            defer { setup.interrupts.cancel() }
            let outcome = try store.ingest(setup.plan, inputs: paths, options: options, control: setup.control,
                                           ledger: setup.ledger())
            if let code = setup.stopped(kept: "the batches committed before it are kept") { return code }
            console.reportProblems(outcome.ledger)
            console.hintWithoutEntities(outcome.ledger, mentionsFrom: input.mentionsFrom)
            summary(outcome, console: console, started: started)
            if let statsPath {
                var stats = RunSummary(outcome.ledger, reports: [], duplicates: outcome.totals.known,
                                       elapsed: Self.seconds(since: started))
                stats.extra = [("tweets_new", outcome.totals.new), ("tweets_known", outcome.totals.known),
                               ("unchanged_files", outcome.unchanged)]
                if !console.writeStats(stats, to: statsPath) { return 1 }
            }
            // Files not read again because they are in the store already are no failure.
            return outcome.ledger.nothingRead && outcome.unchanged == 0 ? 1 : 0
        } catch {
            return storeFailure(error)
        }
    }

    private func summary(_ o: IngestOutcome, console: Console, started: DispatchTime) {
        guard !storeOptions.quiet else { return }
        let elapsed = Self.seconds(since: started)
        let s = o.stats, t = o.totals
        var text = "\(command) run \(o.run) into \(storeOptions.path!): \(s.inputs) \(s.inputs == 1 ? "input" : "inputs"), "
            + String(format: "%.1f MB, %d tweets read: %d new, %d already known", Double(s.bytes) / 1e6, t.read, t.new, t.known)
        if s.notices > 0 { text += " (\(s.notices) stream notices skipped)" }
        if o.unchanged > 0 { text += "; \(o.unchanged) unchanged \(o.unchanged == 1 ? "file" : "files") not read again" }
        if s.skippedMembers > 0 { text += "; \(s.skippedMembers) non-tweet files or members passed over" }
        text += String(format: "; %.2f s", elapsed)
        if elapsed > 0 && t.read > 0 { text += String(format: " (%.0f tweets/s)", Double(t.read) / elapsed) }
        console.warn(text)
    }
}

extension IngestCommand {
    static func seconds(since started: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    }
}

/// `smashtag import`: `ingest` of a snapshot, named so in the history.
struct ImportCommand: Command {
    static let usageLine = "usage: smashtag import FILE... --store FILE [--keep-text]"
    let ingest: IngestCommand

    init(arguments: [String]) throws(UsageError) {
        ingest = try IngestCommand(arguments: arguments, command: "import")
    }

    func run() -> Int32 { ingest.run() }
}
