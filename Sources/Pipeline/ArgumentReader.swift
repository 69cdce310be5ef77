import Stages

/// Walks a command line: options one at a time, in the usual forms
/// (`--name value`, `--name=value`, `-x value`, `-xvalue`), positional
/// arguments collected on the way (`--` ends options).
struct ArgumentReader {
    private var args: ArraySlice<String>
    private(set) var positional: [String] = []
    private var onlyPositional = false
    private var inline: String?
    /// Whether the current option's inline value was taken.
    private var inlineTaken = true
    private(set) var name = ""

    init(_ arguments: [String]) { args = arguments[...] }

    /// The next option's name, or nil when none are left.
    ///
    /// - Throws: `UsageError` when the option before took no value but was
    ///   given one inline (`--quiet=yes`, `-q2`).
    mutating func nextOption() throws(UsageError) -> String? {
        if !inlineTaken, let inline {
            throw UsageError("\(name) takes no value, not '\(inline)'")
        }
        while let arg = args.popFirst() {
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") {
                positional.append(arg)
                continue
            }
            if arg == "--" { onlyPositional = true; continue }
            name = arg
            inline = nil
            inlineTaken = true
            if arg.hasPrefix("--") {
                if let eq = arg.firstIndex(of: "=") {
                    name = String(arg[..<eq])
                    inline = String(arg[arg.index(after: eq)...])
                    inlineTaken = false
                }
            } else if arg.unicodeScalars.count > 2, let letter = arg.unicodeScalars.dropFirst().first,
                      letter.properties.isAlphabetic {
                // `-j2`, `-tfoo`: a short option with its value attached.
                let split = arg.index(arg.startIndex, offsetBy: 2)
                name = String(arg[..<split])
                inline = String(arg[split...])
                inlineTaken = false
            }
            return name
        }
        return nil
    }

    /// The current option's value.
    mutating func value() throws(UsageError) -> String {
        if let inline { inlineTaken = true; return inline }
        guard let v = args.popFirst() else { throw UsageError("\(name) needs a value") }
        return v
    }

    /// The current option's value when it has one: written inline, or the
    /// next argument when that is one of `choices` (`--progress off`).
    mutating func optionalValue(among choices: [String]) -> String? {
        if let inline { inlineTaken = true; return inline }
        if let next = args.first, choices.contains(next) { return args.popFirst() }
        return nil
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
