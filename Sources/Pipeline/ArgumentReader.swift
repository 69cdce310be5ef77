import Stages

/// Walks a command line: options (`--name value`, `--name=value`, `-x value`)
/// one at a time, positional arguments collected on the way (`--` ends options).
struct ArgumentReader {
    private var args: ArraySlice<String>
    private(set) var positional: [String] = []
    private var onlyPositional = false
    private var inline: String?
    private(set) var name = ""

    init(_ arguments: [String]) { args = arguments[...] }

    /// The next option's name, or nil when none are left.
    mutating func nextOption() -> String? {
        while let arg = args.popFirst() {
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") {
                positional.append(arg)
                continue
            }
            if arg == "--" { onlyPositional = true; continue }
            name = arg
            inline = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            return name
        }
        return nil
    }

    /// The current option's `=value`, if it was written that way.
    var inlineValue: String? { inline }

    /// The current option's value.
    mutating func value() throws(UsageError) -> String {
        if let inline { return inline }
        guard let v = args.popFirst() else { throw UsageError("\(name) needs a value") }
        return v
    }

    /// The current option's value as a report format (`--format`).
    mutating func format() throws(UsageError) -> ReportFormat {
        let v = try value()
        guard let f = ReportFormat(rawValue: v) else {
            throw UsageError("--format must be csv, json, ndjson or table, not '\(v)'")
        }
        return f
    }

    /// The current option's value as a whole number of at least `min`.
    mutating func number(min: Int) throws(UsageError) -> Int {
        try Self.number(try value(), name, min: min)
    }

    static func number(_ s: String, _ name: String, min: Int) throws(UsageError) -> Int {
        guard let n = Int(s), n >= min else { throw UsageError("\(name) takes a whole number of at least \(min), not '\(s)'") }
        return n
    }

    /// The current option's value as a size in bytes (`16M`, `512K`, `1G`).
    mutating func bytes() throws(UsageError) -> Int {
        try Self.bytes(try value(), name)
    }

    static func bytes(_ s: String, _ name: String) throws(UsageError) -> Int {
        var digits = s.uppercased()
        var scale = 1
        if let last = digits.last, let shift = ["K": 10, "M": 20, "G": 30][String(last)] {
            scale = 1 << shift
            digits.removeLast()
        }
        guard let n = Int(digits), n >= 1, n <= (1 << 40) / scale else {
            throw UsageError("\(name) takes a size in bytes such as 16M, not '\(s)'")
        }
        return n * scale
    }
}

/// Parses terms as given on the command line, each once (report, extract,
/// track, untrack).
func parseTerms(_ raw: [String]) throws(UsageError) -> [Term] {
    var terms: [Term] = []
    for r in raw {
        let term: Term
        do { term = try Term(parsing: r) } catch { throw UsageError(error.description) }
        if !terms.contains(term) { terms.append(term) }
    }
    return terms
}
