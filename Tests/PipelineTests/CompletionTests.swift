import Foundation
import XCTest

/// The man page and the bash and zsh completions list every option the
/// parsers of `report`, `pairs` and `posts` take, and none they do not: the options
/// a parser takes are found by asking the binary (an option it does not
/// know is a usage error that says so), among every option any usage text
/// names.
final class CompletionTests: XCTestCase {
    static let commands = ["report", "pairs", "trend", "posts", "extract", "aggregate", "ingest", "import", "track", "terms", "history",
                           "prune", "export"]

    /// `--name` tokens of `text` (`--progress=plain` is `--progress`).
    static func longOptions(_ text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "--[a-z][a-z-]*[a-z]")
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
    }

    /// Whether `command`'s parser takes `option` (it may still want a value or a term).
    static func takes(_ command: String, _ option: String) throws -> Bool {
        let r = try Smashtag.run([command, option], environment: ["SMASHTAG_STORE": ""])
        return !r.stderr.contains("unknown option '\(option)'") && !r.stderr.contains("does not apply")
    }

    /// The man page's options of a section: the item lines (`.TP`'s next line) between `.SH name` and the next `.SH`.
    static func manOptions(section: String) throws -> Set<String> {
        let page = try fixtureText(Smashtag.root.appendingPathComponent("doc/smashtag.1"))
        let lines = page.replacingOccurrences(of: "\\-", with: "-").split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(".SH \(section)")) else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.endIndex
        var items = ""
        for i in (start + 1)..<end where lines[i - 1] == ".TP" { items += lines[i] + "\n" }
        return longOptions(items)
    }

    /// `bash`: the `report_options`/`pairs_options` list, `$input_options` spelt out.
    static func bashOptions(_ command: String) throws -> Set<String> {
        let script = try fixtureText(Smashtag.root.appendingPathComponent("completions/smashtag.bash"))
        func list(_ name: String) -> String {
            guard let line = script.split(separator: "\n").first(where: { $0.contains("local \(name)=\"") }) else { return "" }
            return String(line.split(separator: "\"", omittingEmptySubsequences: false)[1])
        }
        return longOptions(list("\(command)_options").replacingOccurrences(of: "$input_options", with: list("input_options")))
    }

    /// `zsh`: the command's case, `$input_options` spelt out.
    static func zshOptions(_ command: String) throws -> Set<String> {
        let script = try fixtureText(Smashtag.root.appendingPathComponent("completions/_smashtag"))
        func block(from start: String, to end: String) -> String {
            guard let a = script.range(of: start), let b = script.range(of: end, range: a.upperBound..<script.endIndex) else {
                return ""
            }
            return String(script[a.upperBound..<b.lowerBound])
        }
        let own = block(from: "        \(command))\n", to: ";;")
        let shared = own.contains("$input_options") ? block(from: "input_options=(", to: "\n    )") : ""
        return longOptions(own + shared)
    }

    func testManPageAndCompletionsListWhatTheParsersTake() throws {
        var named = Set<String>()
        for command in Self.commands { named.formUnion(Self.longOptions(try Smashtag.run([command, "--help"]).stdout)) }
        let sources: [(String, (String) throws -> Set<String>)] = [
            ("doc/smashtag.1", { try Self.manOptions(section: $0 == "report" ? "OPTIONS" : $0.uppercased()) }),
            ("completions/smashtag.bash", Self.bashOptions),
            ("completions/_smashtag", Self.zshOptions),
        ]
        for command in ["report", "pairs", "trend", "posts"] {
            var candidates = named
            for (_, listed) in sources { candidates.formUnion(try listed(command)) }
            let taken = Set(try candidates.filter { try Self.takes(command, $0) })
            XCTAssertTrue(taken.isSuperset(of: ["--since", "--until", "--retweets", "--lang", "--format", "--output", "--top"]),
                          "\(command): \(taken.sorted())")
            for (file, listed) in sources {
                let options = try listed(command)
                XCTAssertEqual(options.subtracting(taken).sorted(), [], "\(file) lists for \(command) what its parser does not take")
                XCTAssertEqual(taken.subtracting(options).sorted(), [], "\(file) leaves out options of \(command)")
            }
            // The usage text names -t, not --term.
            let help = Self.longOptions(try Smashtag.run([command, "--help"]).stdout)
            XCTAssertEqual(taken.subtracting(help).subtracting(["--term"]).sorted(), [], "\(command) --help leaves out options")
        }
    }

    /// The formats of SPEC §12.5 and §12.6 are offered where `--format` is completed.
    func testCompletionsOfferEveryFormat() throws {
        let bash = try fixtureText(Smashtag.root.appendingPathComponent("completions/smashtag.bash"))
        let zsh = try fixtureText(Smashtag.root.appendingPathComponent("completions/_smashtag"))
        for script in [bash, zsh] {
            XCTAssertTrue(script.contains("csv json ndjson table xlsx html"))
            XCTAssertTrue(script.contains("csv json ndjson gexf table"))
            XCTAssertTrue(script.contains("hour day week month year"))
        }
    }
}
