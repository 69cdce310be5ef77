import Foundation
import XCTest

/// Reports for people (SPEC §12.6) as real readers see them: the workbook
/// read back by openpyxl, the page rendered by headless Chromium, the table
/// shown by a terminal emulator (pyte) under a real pseudo-terminal. The
/// readers are Python programs in Tests/Readers, run from the venv that
/// `make test-people` makes (`.build/people-venv`), which runs these tests
/// (`make test-fast` leaves them out); without the readers they fail, saying so.
final class PeopleReportTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-people-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    // MARK: - The workbook

    /// Every term of the corpus case: the sheets hold the rows of `--format csv`
    /// and of the reference's expectations, typed, with the header frozen and a chart.
    func testWorkbookHoldsTheRowsOfCSVAndTheReference() throws {
        let python = try Readers.python()
        let c = try Self.corpusCase("corpus_all_terms")
        let args = c.terms.flatMap { ["-t", $0] } + c.paths + ["--min-count", "\(c.minCount)", "-q"]
        let csv = try Smashtag.report(args + ["--format", "csv"]).stdout
        let reference = try String(contentsOf: Smashtag.root.appendingPathComponent("Tests/Reference/" + c.expected), encoding: .utf8)
        XCTAssertEqual(csv, reference, "the CSV this test compares with is the reference's")
        let book = dir + "/corpus.xlsx", stats = dir + "/stats.json"
        _ = try Smashtag.report(args + ["-o", book, "--stats", stats])
        let read = try Readers.json(python, "read_xlsx.py", [book])
        let sheets = try XCTUnwrap(read["sheets"] as? [[String: Any]])

        let rows = CSV.parse(csv).dropFirst()
        var terms: [String] = []
        for row in rows where !terms.contains(row[0]) { terms.append(row[0]) }
        XCTAssertEqual(sheets.first?["title"] as? String, "Summary")
        XCTAssertEqual(sheets.count, 1 + Set(c.terms.map { $0.lowercased() }).count, "a sheet per term, after the summary")
        for sheet in sheets.dropFirst() {
            let title = sheet["title"] as! String
            let cells = sheet["rows"] as! [[[Any]]]
            XCTAssertEqual(cells.first?.prefix(4).map { $0[0] as? String }, ["term", "type", "mention", "count"], title)
            XCTAssertEqual(sheet["freeze"] as? String, "A2", "\(title): header row frozen")
            let body = cells.dropFirst().filter { !($0[0][0] is NSNull) }
            guard let term = body.first?[0][0] as? String else { continue }  // a term without rows
            let expected = rows.filter { $0[0] == term }
            XCTAssertEqual(body.count, expected.count, title)
            for (got, want) in zip(body, expected) {
                XCTAssertEqual(got.prefix(3).map { $0[0] as? String }, Array(want.prefix(3)), title)
                XCTAssertEqual(got.prefix(4).map { $0[1] as? String }, ["s", "s", "s", "n"], "\(title): typed cells")
                XCTAssertEqual((got[3][0] as? NSNumber)?.intValue, Int(want[3]), "\(title): \(want[2])")
            }
            // Column C is as wide as the longest mention (up to 60).
            let longest = expected.map { $0[2].count }.max() ?? 0
            XCTAssertGreaterThanOrEqual((sheet["widths"] as? [String: Double])?["C"] ?? 0, Double(min(60, longest)), title)
            // One chart: the top 20 of each type, hashtags and users as two series.
            let charts = sheet["charts"] as! [[String: Any]]
            XCTAssertEqual(charts.count, 1, "\(title): one chart")
            let series = charts.first?["series"] as? [[String: Any]] ?? []
            XCTAssertEqual(charts.first?["kind"] as? String, "BarChart")
            XCTAssertEqual(series.count, 2)
            let hashtags = expected.filter { $0[1] == "hashtag" }.prefix(20), users = expected.filter { $0[1] == "user" }.prefix(20)
            let charted = Array(hashtags) + Array(users)
            XCTAssertEqual(cells.first?.count ?? 0 > 5 ? cells.first?[5][0] as? String : nil,
                           "chart (top \(max(hashtags.count, users.count)))", "\(title): the chart block's header says how many it shows")
            for s in series {
                XCTAssertEqual((s["category_cells"] as? [Any])?.map { $0 as? String }, charted.map { $0[2] }, title)
            }
            let values = series.map { ($0["value_cells"] as? [Any] ?? []).map { ($0 as? NSNumber)?.intValue } }
            XCTAssertEqual(values.first, hashtags.map { Int($0[3]) } + users.map { _ in nil }, "\(title): hashtag series")
            XCTAssertEqual(values.last, hashtags.map { _ in nil } + users.map { Int($0[3]) }, "\(title): user series")
        }
        // The summary's numbers are numbers, and those of --stats.
        let s = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        let summary = (sheets[0]["rows"] as! [[[Any]]]).map { ($0[0][0] as? String, $0[1]) }
        let tweets = summary.first { $0.0 == "tweets read" }?.1
        XCTAssertEqual((tweets?[0] as? NSNumber)?.intValue, s["tweets"] as? Int)
        XCTAssertEqual(tweets?[1] as? String, "n")
        XCTAssertEqual(summary.first { $0.0 == "when" }?.1[1] as? String, "d", "the time is a date cell")
    }

    /// Mentions that a spreadsheet would run as formulas are text cells.
    func testFormulaLookingMentionsAreText() throws {
        let python = try Readers.python()
        let input = try Self.nastyInput(in: dir)
        let csv = CSV.parse(try Smashtag.report(["*", input, "--format", "csv", "-q"]).stdout).dropFirst()
        let mentions = csv.map { $0[2] }
        for m in ["@=cmd|' /c calc'!a0", "@+sum", "@-minus", "#=1+1", "@plain_name"] {
            XCTAssertTrue(mentions.contains(m), "\(m) in \(mentions)")
        }
        let book = dir + "/nasty.xlsx"
        _ = try Smashtag.report(["*", input, "-o", book, "-q"])
        let sheets = try XCTUnwrap(try Readers.json(python, "read_xlsx.py", [book])["sheets"] as? [[String: Any]])
        let cells = sheets.flatMap { $0["rows"] as! [[[Any]]] }.flatMap { $0 }
        XCTAssertFalse(cells.contains { $0[1] as? String == "f" }, "no formula anywhere")
        let sheet = sheets[1]["rows"] as! [[[Any]]]
        XCTAssertEqual(sheet.dropFirst().map { $0[2][0] as? String }, mentions.map { Optional($0) })
        XCTAssertEqual(Set(sheet.dropFirst().map { $0[2][1] as? String }), ["s"])
        // The chart's labels are shown escaped (raw control characters would
        // make the chart's XML unreadable: openpyxl would have failed above).
        let labels = ((sheets[1]["charts"] as? [[String: Any]])?.first?["series"] as? [[String: Any]])?.first?["category_cells"] as? [String]
        XCTAssertTrue(labels?.contains("@evil\\u001b[2jx") == true, "\(labels ?? [])")
        XCTAssertTrue(labels?.contains("#a\\rb") == true, "\(labels ?? [])")
    }

    // MARK: - The workbook of pairs

    /// `pairs -o FILE.xlsx` (SPEC §11): openpyxl reads a Summary sheet (a
    /// line per term: its sheet, tweets and pairs) and a sheet per term
    /// holding the rows of `--format csv`, mentions as text (`=cmd` too)
    /// and weights as numbers, the header row frozen.
    func testPairsWorkbookHoldsTheRowsOfCSV() throws {
        let python = try Readers.python()
        let input = dir + "/in.jsonl"
        let lines = [#"{"id_str":"1","text":"t","entities":{"hashtags":[{"text":"a"},{"text":"b"}],"user_mentions":[{"screen_name":"c"}]}}"#,
                     #"{"id_str":"2","text":"t","entities":{"hashtags":[{"text":"a"},{"text":"b"}]}}"#,
                     #"{"id_str":"3","text":"t","entities":{"hashtags":[{"text":"=cmd"},{"text":"a"}]}}"#]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let args = ["-t", "#a", "-t", "*", "-t", "#none", input, "--min-count", "1", "-q"]
        let csv = try Smashtag.run(["pairs"] + args + ["--format", "csv"]).stdout
        XCTAssertEqual(csv, "term,source,target,weight\n#a,#a,#b,2\n#a,#=cmd,#a,1\n#a,#a,@c,1\n#a,#b,@c,1\n"
                       + "*,#a,#b,2\n*,#=cmd,#a,1\n*,#a,@c,1\n*,#b,@c,1\n")
        let book = dir + "/pairs.xlsx"
        let r = try Smashtag.run(["pairs"] + args + ["-o", book])
        XCTAssertEqual(r.status, 0, r.stderr)
        let sheets = try XCTUnwrap(try Readers.json(python, "read_xlsx.py", [book])["sheets"] as? [[String: Any]])
        XCTAssertEqual(sheets.map { $0["title"] as? String }, ["Summary", "#a", "all tweets", "#none"])
        let summary = sheets[0]["rows"] as! [[[Any]]]
        let termRows = summary.filter { ($0.first?[0] as? String).map { ["#a", "*", "#none"].contains($0) } ?? false }
        XCTAssertEqual(termRows.map { $0.prefix(4).map { "\($0[0])" } },
                       [["#a", "#a", "3", "4"], ["*", "all tweets", "3", "4"], ["#none", "#none", "0", "0"]])
        let rows = CSV.parse(csv).dropFirst()
        for sheet in sheets.dropFirst() {
            let cells = sheet["rows"] as! [[[Any]]]
            XCTAssertEqual(cells.first?.map { $0[0] as? String }, ["term", "source", "target", "weight"])
            XCTAssertEqual(sheet["freeze"] as? String, "A2")
            let body = Array(cells.dropFirst())
            let term = sheet["title"] as! String == "all tweets" ? "*" : sheet["title"] as! String
            let expected = rows.filter { $0[0] == term }
            XCTAssertEqual(body.count, expected.count, term)
            for (got, want) in zip(body, expected) {
                XCTAssertEqual(got.prefix(3).map { $0[0] as? String }, Array(want.prefix(3)), term)
                XCTAssertEqual(got.map { $0[1] as? String }, ["s", "s", "s", "n"], "\(term): typed cells, =cmd is text")
                XCTAssertEqual((got[3][0] as? NSNumber)?.intValue, Int(want[3]), term)
            }
        }
    }

    // MARK: - A series (--by)

    /// The series' arguments: two terms of the samples by month, more than
    /// five mentions of each type, so that the chart shows a top of them.
    static let seriesArgs = ["-t", "#stanford", "-t", "@stanford", Smashtag.root.appendingPathComponent("samples").path,
                             "--by", "month", "--top", "8", "-q"]

    /// The top `n` mentions of a type by total count over a term's CSV rows (ties by mention).
    static func top(_ rows: [[String]], _ type: String, _ n: Int) -> [String] {
        var totals: [String: Int] = [:]
        for r in rows where r[2] == type { totals[r[3], default: 0] += Int(r[4])! }
        return totals.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .prefix(n).map(\.key)
    }

    /// `--by month` as a workbook, from the dumps, a store and `extract | aggregate`: each term's
    /// sheet holds the rows of `--format csv --by month`, typed, and one line
    /// chart whose series are the top 5 hashtags and users over the buckets.
    static let everyColumn = "term,type,mention,display,count,originals,retweets,authors"

    func testSeriesWorkbookHoldsTheRowsOfCSVAndALineChart() throws {
        let python = try Readers.python()
        let csv = CSV.parse(try Smashtag.report(Self.seriesArgs + ["--format", "csv"]).stdout)
        XCTAssertEqual(csv.first, ["term", "bucket", "type", "mention", "count"])
        let rows = Array(csv.dropFirst())
        let store = dir + "/store"
        _ = try Smashtag.run(["ingest", Smashtag.root.appendingPathComponent("samples").path, "--store", store, "-q"])
        let fromStore = CSV.parse(try Smashtag.report(["-t", "#stanford", "-t", "@stanford", "--store", store, "--by", "month",
                                                       "--top", "8", "-q", "--format", "csv"]).stdout).dropFirst()
        XCTAssertEqual(Array(fromStore), rows, "the store's series is the dumps'")
        let extract = try Smashtag.run(["extract", "-t", "#stanford", "-t", "@stanford",
                                        Smashtag.root.appendingPathComponent("samples").path, "--by", "month", "-q"])
        XCTAssertEqual(extract.status, 0)
        for (label, args) in [("dumps", ["report"] + Self.seriesArgs),
                              ("store", ["report", "-t", "#stanford", "-t", "@stanford", "--store", store, "--by", "month", "--top", "8", "-q"]),
                              ("aggregate", ["aggregate", "--by", "month", "--top", "8", "-q"]),
                              // A workbook shows the standard columns whatever --columns picks, from a store too.
                              ("dumps with --columns", ["report"] + Self.seriesArgs + ["--columns", Self.everyColumn]),
                              ("store with --columns", ["report", "-t", "#stanford", "-t", "@stanford", "--store", store, "--by", "month",
                                                        "--top", "8", "-q", "--columns", Self.everyColumn])] {
            let book = dir + "/series-\(label).xlsx"
            let made = try Smashtag.run(args + ["-o", book], stdin: label == "aggregate" ? Data(extract.stdout.utf8) : nil)
            XCTAssertEqual(made.status, 0, "\(label): \(made.stderr)")
            let sheets = try XCTUnwrap(try Readers.json(python, "read_xlsx.py", [book])["sheets"] as? [[String: Any]])
            XCTAssertEqual(sheets.map { $0["title"] as? String }, ["Summary", "#stanford", "@stanford"], label)
            for sheet in sheets.dropFirst() {
                let title = sheet["title"] as! String
                let cells = sheet["rows"] as! [[[Any]]]
                XCTAssertEqual(cells.first?.prefix(5).map { $0[0] as? String }, ["term", "bucket", "type", "mention", "count"], title)
                XCTAssertEqual(sheet["freeze"] as? String, "A2", "\(title): header row frozen")
                let body = cells.dropFirst().filter { !($0[0][0] is NSNull) }
                let expected = rows.filter { $0[0] == title }
                XCTAssertGreaterThan(expected.count, 20, title)
                XCTAssertEqual(body.count, expected.count, "\(label) \(title)")
                for (got, want) in zip(body, expected) {
                    XCTAssertEqual(got.prefix(4).map { $0[0] as? String }, Array(want.prefix(4)), title)
                    XCTAssertEqual(got.prefix(5).map { $0[1] as? String }, ["s", "s", "s", "s", "n"], "\(title): typed cells")
                    XCTAssertEqual((got[4][0] as? NSNumber)?.intValue, Int(want[4]), "\(title): \(want[1]) \(want[3])")
                }
                var buckets: [String] = []
                for r in expected where !buckets.contains(r[1]) { buckets.append(r[1]) }
                XCTAssertGreaterThan(buckets.count, 2, title)
                let charted = Self.top(expected, "hashtag", 5) + Self.top(expected, "user", 5)
                XCTAssertEqual(charted.count, 10, "\(title): five of each type to chart")
                let charts = sheet["charts"] as! [[String: Any]]
                XCTAssertEqual(charts.count, 1, "\(title): one chart")
                XCTAssertEqual(charts.first?["kind"] as? String, "LineChart", title)
                let series = charts.first?["series"] as? [[String: Any]] ?? []
                XCTAssertEqual(series.map { $0["name"] as? String }, charted, "\(title): a series per top mention")
                for (s, mention) in zip(series, charted) {
                    XCTAssertEqual((s["category_cells"] as? [Any])?.map { $0 as? String }, buckets, "\(title): the buckets")
                    let values = (s["value_cells"] as? [Any] ?? []).map { ($0 as? NSNumber)?.intValue }
                    let want = buckets.map { b in expected.first { $0[1] == b && $0[3] == mention }.map { Int($0[4])! } ?? 0 }
                    XCTAssertEqual(values, want, "\(title): \(mention) over the buckets")
                }
            }
            // The summary: a line per term with its sheet and its tweets over the series.
            let summary = sheets[0]["rows"] as! [[[Any]]]
            XCTAssertTrue(summary.contains { $0[0][0] as? String == "#stanford" && $0[1][0] as? String == "#stanford" }, label)
        }
    }

    /// `--by month` as a page in Chromium: per term a polyline for each
    /// charted mention, the top mentions in the DOM, every row, no request.
    func testSeriesPageInChromiumDrawsTheLinesAndFetchesNothing() throws {
        let python = try Readers.python()
        try Readers.requireChromium()
        let rows = CSV.parse(try Smashtag.report(Self.seriesArgs + ["--format", "csv"]).stdout).dropFirst()
        let page = dir + "/series.html"
        _ = try Smashtag.report(Self.seriesArgs + ["-o", page])
        let read = try Readers.json(python, "read_page.py", [page, dir + "/chromium", "1200", "1400"])
        XCTAssertEqual(read["requests"] as? [String], [], "the page asks for nothing")
        let tags = read["tags"] as? [String: Int] ?? [:]
        XCTAssertNil(tags["script"])
        XCTAssertEqual(tags["svg"], 2, "a line chart per term")
        XCTAssertEqual(tags["polyline"], 20, "a line per charted mention: five hashtags and five users of each term")
        XCTAssertEqual(tags["tr"].map { $0 >= rows.count }, true, "every row in a table")
        let texts = read["texts"] as? [String] ?? []
        for term in ["#stanford", "@stanford"] {
            let expected = rows.filter { $0[0] == term }
            XCTAssertTrue(texts.contains(term), "heading \(term)")
            for type in ["hashtag", "user"] {
                let top = try XCTUnwrap(Self.top(Array(expected), type, 1).first)
                XCTAssertTrue(texts.contains(top), "\(term): top \(type) \(top) in the DOM")
            }
            let first = try XCTUnwrap(expected.first?[1]), last = try XCTUnwrap(expected.last?[1])
            XCTAssertTrue(texts.contains(first) && texts.contains(last), "\(term): buckets \(first) and \(last) on the axis")
        }
        let points = (read["attributes"] as? [[Any]] ?? []).filter { $0.first as? String == "polyline" && $0[1] as? String == "points" }
        let buckets = Set(rows.filter { $0[0] == "#stanford" }.map { $0[1] }).count
        XCTAssertEqual(points.first.map { ($0[2] as? String ?? "").split(separator: " ").count }, buckets, "a point per bucket")
        let shot = read["screenshot"] as? [String: Double] ?? [:]
        // On a screen 1200 pixels wide: the lines of the top hashtag and the top user in their colours.
        XCTAssertGreaterThan(shot["hashtag_bar_pixels"] ?? 0, 300, "the top hashtag's line drawn")
        XCTAssertGreaterThan(shot["user_bar_pixels"] ?? 0, 150, "the top user's line drawn")
    }

    // MARK: - The page

    /// Chromium renders the corpus page: a screenshot with its bars, each
    /// term's top mentions in the DOM, no script, and no request at all.
    func testPageInChromiumShowsTheTopMentionsAndFetchesNothing() throws {
        let python = try Readers.python()
        try Readers.requireChromium()
        let c = try Self.corpusCase("corpus_default_top3")
        let page = dir + "/corpus.html"
        _ = try Smashtag.report(c.terms.flatMap { ["-t", $0] } + c.paths
                                + ["--min-count", "\(c.minCount)", "--top", "\(c.top!)", "-o", page, "-q"])
        let read = try Readers.json(python, "read_page.py", [page, dir + "/chromium"])
        XCTAssertEqual(read["requests"] as? [String], [], "the page asks for nothing")
        let tags = read["tags"] as? [String: Int] ?? [:]
        XCTAssertNil(tags["script"])
        XCTAssertNil(tags["img"])
        XCTAssertNil(tags["link"])
        let reference = CSV.parse(try String(contentsOf: Smashtag.root.appendingPathComponent("Tests/Reference/" + c.expected),
                                             encoding: .utf8)).dropFirst()
        XCTAssertEqual(tags["svg"], Set(reference.map { $0[0] + $0[1] }).count, "a chart per term and type with rows")
        let shot = read["screenshot"] as? [String: Double] ?? [:]
        XCTAssertGreaterThan(shot["not_background"] ?? 0, 0.02, "not blank")
        XCTAssertGreaterThan(shot["hashtag_bar_pixels"] ?? 0, 200, "hashtag bars drawn")
        XCTAssertGreaterThan(shot["user_bar_pixels"] ?? 0, 200, "user bars drawn")
        // The reference's top hashtag and user of each term are text in the DOM.
        let texts = read["texts"] as? [String] ?? []
        var checked = 0
        for term in Set(reference.map { $0[0] }) {
            XCTAssertTrue(texts.contains(term), "heading \(term)")
            for type in ["hashtag", "user"] {
                guard let top = reference.first(where: { $0[0] == term && $0[1] == type }) else { continue }
                XCTAssertTrue(texts.contains(top[2]), "\(term): top \(type) \(top[2]) in the DOM")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 4)
        // For a phone: the viewport is the device's; for print: a page per term after the summary.
        let attributes = (read["attributes"] as? [[Any]] ?? []).map { $0.map { "\($0)" } }
        XCTAssertTrue(attributes.contains(["meta", "content", "width=device-width, initial-scale=1"]))
        XCTAssertTrue(attributes.contains { $0.first == "meta" && $0.last?.hasPrefix("default-src 'none'") == true }, "a CSP that fetches nothing")
        XCTAssertGreaterThanOrEqual(read["printed_pages"] as? Int ?? 0, 1 + Set(reference.map { $0[0] }).count)
    }

    /// A hashtag holding `<script>` and a name holding an `<img onerror>` are text.
    func testMarkupInTheDataIsShownAsText() throws {
        let python = try Readers.python()
        try Readers.requireChromium()
        let input = try Self.nastyInput(in: dir)
        let page = dir + "/nasty.html"
        _ = try Smashtag.report(["*", input, "-o", page, "-q"])
        let read = try Readers.json(python, "read_page.py", [page, dir + "/chromium"])
        let tags = read["tags"] as? [String: Int] ?? [:]
        XCTAssertNil(tags["script"], "no script element")
        XCTAssertNil(tags["img"], "no img element")
        let attributes = (read["attributes"] as? [[Any]] ?? []).map { "\($0[1])" }
        XCTAssertFalse(attributes.contains("onerror"))
        let texts = read["texts"] as? [String] ?? []
        XCTAssertTrue(texts.contains("#<script>alert(1)</script>"), "\(texts)")
        XCTAssertTrue(texts.contains("@<img src=x onerror=alert(2)>"), "\(texts)")
        XCTAssertTrue(texts.contains("@evil\\u001b[2jx"), "control characters shown escaped")
        XCTAssertEqual(read["requests"] as? [String], [])
    }

    /// The network check can fail: a page that loads an image is caught.
    func testNetworkCheckSeesAPageThatFetches() throws {
        let python = try Readers.python()
        try Readers.requireChromium()
        let page = dir + "/fetches.html"
        try "<!DOCTYPE html><p>x</p><img src=\"http://127.0.0.1:9/probe.png\">".write(toFile: page, atomically: false, encoding: .utf8)
        let read = try Readers.json(python, "read_page.py", [page, dir + "/chromium"])
        XCTAssertEqual(read["requests"] as? [String], ["http://127.0.0.1:9/probe.png"])
    }

    // MARK: - The table

    /// Under a real pseudo-terminal, read by a terminal emulator: a name
    /// holding `ESC[2J` does not clear the screen, it and a right-to-left
    /// override are shown escaped, and columns stay aligned with CJK mentions.
    func testTableOnATerminalShowsControlsEscapedAndStaysAligned() throws {
        let python = try Readers.python()
        let input = try Self.nastyInput(in: dir)
        let raw = dir + "/screen.bytes"
        let command = "printf 'BEFORE-MARKER\\n'; '\(Smashtag.binary.path)' report '*' '\(input)' --format table -q"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qfec", command, "/dev/null"]
        p.environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm", "NO_COLOR": "", "COLUMNS": "100"]) { _, new in new }
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try p.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        try bytes.write(to: URL(fileURLWithPath: raw))
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("\u{1B}[2J"), "no clear-screen sequence from the data")
        let withoutBold = text.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        XCTAssertFalse(withoutBold.contains("\u{1B}"), "no escape character but the table's own bold")
        XCTAssertFalse(text.unicodeScalars.contains("\u{202E}"), "no right-to-left override")
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"), "no bare carriage return")

        let screen = try Readers.json(python, "read_screen.py", [raw, "100", "60"])
        let lines = (screen["lines"] as! [[String]])
        let shown = lines.map { $0.joined() }
        XCTAssertEqual(shown.first?.trimmingCharacters(in: .whitespaces), "BEFORE-MARKER", "the screen was not cleared")
        for escaped in ["@evil\\u001b[2jx", "@reset\\u001bcx", "@abc\\u202edef", "#a\\rb", "#東京タワー", "@日本語ユーザー"] {
            XCTAssertTrue(shown.contains { $0.contains(escaped) }, "\(escaped) on the screen:\n" + shown.joined(separator: "\n"))
        }
        // In each section the counts end in one column, and mentions start in column 2.
        for title in ["Hashtags", "Users"] {
            guard let start = shown.firstIndex(where: { $0.hasPrefix("  \(title)") }) else {
                XCTFail("no \(title) section:\n" + shown.joined(separator: "\n"))
                continue
            }
            let section = lines[start...].prefix { !$0.joined().trimmingCharacters(in: .whitespaces).isEmpty }
            XCTAssertGreaterThan(section.count, 3, title)
            let ends = section.map { cells in cells.lastIndex { !$0.isEmpty && $0 != " " }! }
            XCTAssertEqual(Set(ends).count, 1, "\(title): counts aligned:\n" + section.map { $0.joined() }.joined(separator: "\n"))
            for cells in section.dropFirst() {
                XCTAssertEqual(cells[0...1], [" ", " "])
                XCTAssertNotEqual(cells[2], " ")
            }
        }
    }

    // MARK: - Inputs

    /// Tweets (each twice, so every mention counts 2) whose mentions a
    /// spreadsheet, a browser or a terminal would take for something else.
    static func nastyInput(in dir: String) throws -> String {
        let hashtags = ["<script>alert(1)</script>", "東京タワー", "=1+1", "cafe\u{301}", "a\rb"]
        // Names are lowercased (SPEC §5): ESC[2J becomes ESC[2j, which clears
        // nothing; ESC c (a full reset, which clears the screen) survives it.
        let users = ["=cmd|' /C calc'!A0", "evil\u{1B}[2Jx", "reset\u{1B}cx", "abc\u{202E}def", "+sum", "-minus", "日本語ユーザー",
                     "plain_name", "<img src=x onerror=alert(2)>"]
        var lines = ""
        for id in 1...2 {
            let tweet: [String: Any] = [
                "id": id, "id_str": "\(id)", "text": "t", "user": ["screen_name": "author"],
                "entities": ["hashtags": hashtags.map { ["text": $0] }, "user_mentions": users.map { ["screen_name": $0] }],
            ]
            lines += String(decoding: try JSONSerialization.data(withJSONObject: tweet), as: UTF8.self) + "\n"
        }
        let path = dir + "/nasty.jsonl"
        try lines.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    struct CorpusCase {
        var paths: [String]
        var terms: [String]
        var minCount: Int
        var top: Int?
        var expected: String
    }

    /// A case of Tests/Reference/corpus_cases.json, paths into ../shared/corpus.
    static func corpusCase(_ name: String) throws -> CorpusCase {
        let url = Smashtag.root.appendingPathComponent("Tests/Reference/corpus_cases.json")
        let cases = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
        let c = try XCTUnwrap(cases.first { $0["name"] as? String == name })
        return CorpusCase(paths: (c["paths"] as! [String]).map { Smashtag.corpus.appendingPathComponent($0).path },
                          terms: c["terms"] as! [String], minCount: c["min_count"] as! Int, top: c["top"] as? Int,
                          expected: c["expected"] as! String)
    }
}

/// The Python readers of Tests/Readers and the browser.
enum Readers {

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The venv's Python (SMASHTAG_READERS_PYTHON, else .build/people-venv).
    static func python() throws -> String {
        let path = ProcessInfo.processInfo.environment["SMASHTAG_READERS_PYTHON"]
            ?? Smashtag.root.appendingPathComponent(".build/people-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "no readers' Python at \(path): run make test-people")
        }
        return path
    }

    static func requireChromium() throws {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/chromium") }
        guard found else {
            throw Missing(description: "no chromium on PATH: run make test-people")
        }
    }

    /// Runs a reader and returns the JSON object it prints.
    static func json(_ python: String, _ script: String, _ args: [String]) throws -> [String: Any] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [Smashtag.root.appendingPathComponent("Tests/Readers/" + script).path] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let box = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.data = err.fileHandleForReading.readDataToEndOfFile() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Missing(description: "\(script) failed (\(p.terminationStatus)): " + String(decoding: box.data, as: UTF8.self))
        }
        return object
    }
}

/// RFC 4180 fields, for comparing with what the readers see.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false, wasQuoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if c == "," {
                row.append(field); field = ""; wasQuoted = false
            } else if c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""; wasQuoted = false
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
