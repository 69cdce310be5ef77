import Foundation
import Stages

/// Where a report goes and in which format: `--format` and `-o, --output FILE`.
///
/// Without `-o` the report goes to standard output (a table on a terminal,
/// CSV otherwise). With `-o FILE` it goes to FILE through `OutputFile` (a
/// temporary file renamed into place, or written into a FIFO or device),
/// in the format its name asks for (`.xlsx`, `.html`, `.csv`, `.json`,
/// `.ndjson`, `.txt`) unless `--format` says otherwise, CSV for any other
/// name. A workbook is never written to a terminal or to standard output.
struct ReportOutput {
    var format: OutputFormat?
    var path: String?

    /// Reads `--format` and `-o`/`--output`; false for any other option.
    mutating func parse(_ name: String, _ reader: inout ArgumentReader) throws(UsageError) -> Bool {
        switch name {
        case "--format":
            let v = try reader.value()
            guard let f = OutputFormat(name: v) else {
                throw UsageError("--format must be csv, json, ndjson, table, xlsx or html, not '\(v)'")
            }
            format = f
        case "-o", "--output":
            path = try Self.path(name, &reader)
        default:
            return false
        }
        return true
    }

    /// The value of `-o`/`--output`: a file name, `-` for standard output by name.
    static func path(_ name: String, _ reader: inout ArgumentReader) throws(UsageError) -> String {
        let v = try reader.value()
        guard !v.isEmpty else { throw UsageError("\(name) needs a file name") }
        return v == "-" ? "/dev/stdout" : v  // `-o -`: standard output, asked for by name
    }

    static let options = ["--format", "--output"]

    /// Refuses what cannot be written: a workbook without `-o`.
    func check() throws(UsageError) {
        if format?.isBinary == true && path == nil {
            throw UsageError("--format xlsx writes a workbook to a file: give -o FILE (never a terminal or standard output)")
        }
    }

    /// Whether the format is one of the reports for people (a workbook, a page).
    var isForPeople: Bool {
        switch resolved {
        case .xlsx, .html: return true
        case .report: return false
        }
    }

    /// The format to write.
    var resolved: OutputFormat {
        if let format { return format }
        if let path { return OutputFormat(fileName: path) ?? .report(.csv) }
        return isatty(1) == 1 ? .report(.table) : .report(.csv)
    }

    /// Writes the report; nil when done, else the exit status to end with.
    ///
    /// A reader that went away (a closed pipe, a FIFO's reader) ends the run
    /// quietly with 0; a file that cannot be written is named on stderr, exit 1.
    func write(_ document: ReportDocument, console: Console, interrupts: InterruptHandler?) -> Int32? {
        let format = resolved
        return Self.deliver(to: path, binary: format.isBinary, console: console, interrupts: interrupts) { () throws(OutputFile.Failure) in
            try ReportWriter.bytes(document, as: format, width: Console.terminalWidth(),
                                   color: format.isTable && path == nil && Console.wantsColor(fd: 1))
        }
    }

    /// Writes what `make` makes to `path` (through `OutputFile`) or, without
    /// one, to standard output; nil when done, else the exit status to end with.
    /// Every command that writes a report (`report`, `pairs`, `aggregate`)
    /// writes it here.
    ///
    /// - Parameter binary: a workbook: never to a terminal or standard output.
    static func deliver(to path: String?, binary: Bool, console: Console, interrupts: InterruptHandler?,
                        _ make: () throws -> [UInt8]) -> Int32? {
        // From here a signal ends the run at once, temporary files removed.
        interrupts?.writing(path.map { "no report written, \(VisibleText.escaped($0)) is as it was" }
                            ?? "the report on standard output may be cut short")
        let bytes: [UInt8]
        do {
            bytes = try make()
        } catch var error as OutputFile.Failure {
            // A workbook is put together in a temporary file first: the message names the file asked for.
            if let path { error.path = path }
            return failed(error, console: console, interrupts: interrupts)
        } catch {
            Console.writeStderr("smashtag: \(error)\n")
            return 1
        }
        guard let path else {
            if binary {  // check() rules this out; never write a workbook to a terminal
                console.warn("a workbook is written to a file only: give -o FILE")
                return 2
            }
            return Console.writeStdout(bytes) ? nil : 0  // a closed pipe ends the run quietly
        }
        do {
            try OutputFile.write(bytes, to: path, options: .init(refuseTerminal: binary))
        } catch {
            return failed(error, console: console, interrupts: interrupts)
        }
        return nil
    }

    private static func failed(_ error: OutputFile.Failure, console: Console, interrupts: InterruptHandler?) -> Int32 {
        if error.interrupted, let code = interrupts?.exitStatus() { return code }
        if error.code == EPIPE { return 0 }
        Console.writeStderr("smashtag: \(error.description)\n")  // names already shown escaped
        return 1
    }
}

/// Where the pairs of `smashtag pairs` (and `aggregate --pairs`) go and in
/// which format: `--format` and `-o, --output FILE`, as `ReportOutput` for
/// a report (SPEC §11): with `-o` the format its name asks for (`.gexf`,
/// `.xlsx`, `.csv`, `.json`, `.ndjson`, `.txt`) unless `--format` says
/// otherwise, CSV for any other name; a workbook only ever to a file.
struct PairOutput {
    var format: PairFormat?
    var path: String?

    static let formatNames = PairFormat.allCases.map(\.rawValue)

    /// Reads `--format` and `-o`/`--output`; false for any other option.
    mutating func parse(_ name: String, _ reader: inout ArgumentReader) throws(UsageError) -> Bool {
        switch name {
        case "--format":
            format = try Self.format(try reader.value())
        case "-o", "--output":
            path = try ReportOutput.path(name, &reader)
        default:
            return false
        }
        return true
    }

    static func format(_ v: String) throws(UsageError) -> PairFormat {
        guard let f = PairFormat(rawValue: v) else {
            throw UsageError("--format must be csv, json, ndjson, gexf, table or xlsx, not '\(v)'")
        }
        return f
    }

    /// Refuses what cannot be written: a workbook without `-o`; a graph of several terms.
    func check(terms: [Term]?) throws(UsageError) {
        if resolved == .xlsx && path == nil {
            throw UsageError("--format xlsx writes a workbook to a file: give -o FILE (never a terminal or standard output)")
        }
        guard resolved == .gexf, let terms, terms.count > 1 else { return }
        throw UsageError("--format gexf writes one graph, for one term, and \(terms.count) terms were given "
                         + "(\(terms.map(\.description).joined(separator: " "))): run once per term, "
                         + "or use csv, json, ndjson or xlsx for several")
    }

    /// The format to write.
    var resolved: PairFormat {
        if let format { return format }
        if let path { return PairFormat(fileName: path) ?? .csv }
        return isatty(1) == 1 ? .table : .csv
    }

    /// Writes the pairs; nil when done, else the exit status to end with (as `ReportOutput.write`).
    func write(_ pairs: [TermPairs], console: Console, interrupts: InterruptHandler?) -> Int32? {
        let format = resolved
        return ReportOutput.deliver(to: path, binary: format.isBinary, console: console, interrupts: interrupts) {
            try PairWriter.bytes(pairs, as: format, width: Console.terminalWidth(),
                                 color: format == .table && path == nil && Console.wantsColor(fd: 1))
        }
    }
}

/// `--stats FILE`: the run summary as JSON, through `OutputFile` like `-o`.
/// - Returns: false (after naming the file on stderr) when it cannot be written.
func writeStats(_ json: String, to path: String, console: Console, interrupts: InterruptHandler?) -> Bool {
    interrupts?.writing("--stats \(VisibleText.escaped(path)) not written")
    do {
        try OutputFile.write(Array(json.utf8), to: path)
        return true
    } catch {
        if error.code == EPIPE { return true }
        Console.writeStderr("smashtag: --stats: \(error.description)\n")  // names already shown escaped
        return false
    }
}
