import Foundation
import XCTest

/// `smashtag pairs` (SPEC §12.5) end to end: hand-worked fixtures for each
/// rule, the independent reference on the corpus, the same bytes from dumps,
/// a store and `extract | aggregate --pairs`, and the GEXF read back by
/// networkx.
final class PairsTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-pairs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A v1.1 tweet line with these hashtags and user mentions.
    static func tweet(_ id: Int, tags: [String], users: [String] = [], author: String = "someone") -> String {
        let h = tags.map { #"{"text":"\#($0)"}"# }.joined(separator: ",")
        let u = users.map { #"{"screen_name":"\#($0)"}"# }.joined(separator: ",")
        return #"{"id_str":"\#(id)","text":"t","user":{"screen_name":"\#(author)"},"entities":{"hashtags":[\#(h)],"user_mentions":[\#(u)]}}"#
    }

    static func lines(_ tweets: [String]) -> Data { Data((tweets.joined(separator: "\n") + "\n").utf8) }

    /// `smashtag pairs ARGS…` on `stdin`, failing the test unless it exits `status`.
    @discardableResult
    func pairs(_ args: [String], stdin: Data? = nil, status: Int32 = 0, environment: [String: String] = [:],
               file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let r = try Smashtag.run(["pairs"] + args, stdin: stdin, environment: environment)
        XCTAssertEqual(r.status, status, "smashtag pairs \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    // MARK: The rules, on fixtures worked out by hand

    func testOneTweetWritingFooAndfooCarriesOneMentionAndNoSelfPair() throws {
        let data = Self.lines([Self.tweet(1, tags: ["Foo", "foo", "bar"]), Self.tweet(2, tags: ["FOO", "foo"])])
        let r = try pairs(["*", "--min-count", "1", "--format", "csv"], stdin: data)
        XCTAssertEqual(r.stdout, "term,source,target,weight\n*,#bar,#foo,1\n")
    }

    func testTheSamePairInBothOrdersIsOneEdgeOfWeightTwo() throws {
        let data = Self.lines([Self.tweet(1, tags: ["a", "b"]), Self.tweet(2, tags: ["b", "a"]), Self.tweet(3, tags: ["b"])])
        XCTAssertEqual(try pairs(["*", "--format", "csv"], stdin: data).stdout, "term,source,target,weight\n*,#a,#b,2\n")
    }

    func testHashtagAndUserOfOneNameAreTwoMentionsHashFirst() throws {
        let data = Self.lines([Self.tweet(1, tags: ["x"], users: ["x"]), Self.tweet(2, tags: ["Y"], users: ["X"]),
                               Self.tweet(3, tags: ["x", "y"], users: ["x"])])
        let r = try pairs(["*", "--min-count", "1", "--format", "csv"], stdin: data)
        // Weights: #x-@x 2 (tweets 1, 3), #y-@x 2 (2, 3), #x-#y 1 (3).
        XCTAssertEqual(r.stdout, "term,source,target,weight\n*,#x,@x,2\n*,#y,@x,2\n*,#x,#y,1\n")
    }

    func testWithoutTermLeavesOutPairsOfTheTermsOwnMentionOnly() throws {
        let data = Self.lines([Self.tweet(1, tags: ["a", "b"], users: ["c"], author: "c"),
                               Self.tweet(2, tags: ["A", "b"], users: ["c"], author: "c"),
                               Self.tweet(3, tags: ["b"], users: ["c"], author: "d")])
        let args = ["-t", "#a", "-t", "@c", "-t", "from:c", "--format", "csv"]
        XCTAssertEqual(try pairs(args, stdin: data).stdout, """
            term,source,target,weight
            #a,#a,#b,2
            #a,#a,@c,2
            #a,#b,@c,2
            @c,#b,@c,3
            @c,#a,#b,2
            @c,#a,@c,2
            from:c,#a,#b,2
            from:c,#a,@c,2
            from:c,#b,@c,2

            """)
        // #a drops pairs with #a, @c pairs with @c; from:c has no mention of its own (SPEC §12.5).
        XCTAssertEqual(try pairs(args + ["--without-term"], stdin: data).stdout, """
            term,source,target,weight
            #a,#b,@c,2
            @c,#a,#b,2
            from:c,#a,#b,2
            from:c,#a,@c,2
            from:c,#b,@c,2

            """)
    }

    func testMinCountAppliesToTheWeightAndTopKeepsTheHeaviestWithTiesByName() throws {
        // #a-#b in 4 tweets, #c-#d and #b-#c in 2, #a-#d in 3, #e-#f in 1.
        var tweets: [String] = []
        for i in 0..<4 { tweets.append(Self.tweet(10 + i, tags: ["a", "b"])) }
        for i in 0..<2 { tweets.append(Self.tweet(20 + i, tags: ["d", "c"])) }
        for i in 0..<2 { tweets.append(Self.tweet(30 + i, tags: ["c", "b"])) }
        for i in 0..<3 { tweets.append(Self.tweet(40 + i, tags: ["d", "a"])) }
        tweets.append(Self.tweet(50, tags: ["e", "f"]))
        let data = Self.lines(tweets)
        XCTAssertEqual(try pairs(["*", "--format", "csv"], stdin: data).stdout,
                       "term,source,target,weight\n*,#a,#b,4\n*,#a,#d,3\n*,#b,#c,2\n*,#c,#d,2\n",
                       "default --min-count 2 drops weight 1")
        XCTAssertTrue(try pairs(["*", "--format", "csv", "--min-count", "1"], stdin: data).stdout.hasSuffix("*,#c,#d,2\n*,#e,#f,1\n"))
        XCTAssertEqual(try pairs(["*", "--format", "csv", "--min-count", "3"], stdin: data).stdout,
                       "term,source,target,weight\n*,#a,#b,4\n*,#a,#d,3\n")
        XCTAssertEqual(try pairs(["*", "--format", "csv", "--top", "3"], stdin: data).stdout,
                       "term,source,target,weight\n*,#a,#b,4\n*,#a,#d,3\n*,#b,#c,2\n")
        XCTAssertEqual(try pairs(["*", "--format", "csv", "--top", "1", "--min-count", "1"], stdin: data).stdout,
                       "term,source,target,weight\n*,#a,#b,4\n")
    }

    func testJSONAndNDJSONCarryTheTweetsAndTheSamePairs() throws {
        let data = Self.lines([Self.tweet(1, tags: ["a", "b"]), Self.tweet(2, tags: ["b", "a"]), Self.tweet(3, tags: ["z"])])
        let json = try pairs(["-t", "*", "-t", "#z", "--format", "json"], stdin: data).stdout
        XCTAssertEqual(json, ##"[{"term":"*","tweets":3,"pairs":[{"source":"#a","target":"#b","weight":2}]},{"term":"#z","tweets":1,"pairs":[]}]"## + "\n")
        let nd = try pairs(["-t", "*", "-t", "#z", "--format", "ndjson"], stdin: data).stdout
        XCTAssertEqual(json, "[" + nd.split(separator: "\n").joined(separator: ",") + "]\n")
        let table = try pairs(["*", "--format", "table"], stdin: data).stdout
        XCTAssertTrue(table.hasPrefix("* · 3 tweets · 1 pair\n\n  source"), table)
        XCTAssertTrue(table.contains("\n  #a                  #b                       2\n"), table)
    }

    // MARK: Dedup

    /// The first copy of a tweet counts: a later copy with more mentions adds
    /// no pair, also when the copies are read by different workers (the
    /// workers count every copy; the merge subtracts the later ones).
    func testFirstCopyWinsAcrossWorkersAndRanges() throws {
        var tweets: [String] = []
        for i in 1...400 { tweets.append(Self.tweet(i, tags: ["a", "b"])) }
        for i in 1...400 { tweets.append(Self.tweet(i, tags: ["a", "b", "c"], users: ["u"])) }
        for i in 1...400 { tweets.append(Self.tweet(i, tags: ["a"])) }
        let file = path("copies.jsonl")
        try Self.lines(tweets).write(to: URL(fileURLWithPath: file))
        let expected = "term,source,target,weight\n*,#a,#b,400\n#c,#a,#b,400\n#c,#a,#c,400\n#c,#a,@u,400\n#c,#b,#c,400\n#c,#b,@u,400\n#c,#c,@u,400\n"
        for jobs in ["1", "2", "4"] {
            let r = try pairs(["-t", "*", "-t", "#c", file, "--format", "csv", "--jobs", jobs],
                              environment: ["SMASHTAG_SPLIT_BYTES": "8192"])
            XCTAssertEqual(r.stdout, expected, "--jobs \(jobs)")
        }
        // Compressed: record batches parsed by any worker.
        try Smashtag.gzip(["-k", file])
        let r = try pairs(["-t", "*", "-t", "#c", file + ".gz", "--format", "csv", "--jobs", "3"],
                          environment: ["SMASHTAG_BATCH_BYTES": "5000"])
        XCTAssertEqual(r.stdout, expected)
        // Read the other way round, the richer copies come first.
        let reversed = path("reversed.jsonl")
        try Self.lines(Array(tweets[400..<800]) + Array(tweets[0..<400])).write(to: URL(fileURLWithPath: reversed))
        let back = try pairs(["*", reversed, "--format", "csv", "--jobs", "2"], environment: ["SMASHTAG_SPLIT_BYTES": "8192"])
        XCTAssertEqual(back.stdout, "term,source,target,weight\n*,#a,#b,400\n*,#a,#c,400\n*,#a,@u,400\n*,#b,#c,400\n*,#b,@u,400\n*,#c,@u,400\n")
    }

    /// The whole corpus, cut into small ranges: the same bytes for every --jobs.
    func testJobsGiveByteIdenticalPairs() throws {
        let args = ["-t", "*", "-t", "#Brexit", "-t", "@BTS_twt", Smashtag.corpus.path, "--format", "csv", "--min-count", "1", "-q"]
        let outputs = try ["1", "2", "4"].map {
            try pairs(args + ["--jobs", $0], environment: ["SMASHTAG_SPLIT_BYTES": "65536"]).stdout
        }
        XCTAssertGreaterThan(outputs[0].split(separator: "\n").count, 1000)
        XCTAssertEqual(outputs[1], outputs[0])
        XCTAssertEqual(outputs[2], outputs[0])
    }

    // MARK: The reference

    struct Case: Decodable {
        var name: String
        var paths: [String]
        var terms: [String]
        var min_count: Int
        var top: Int?
        var without_term: Bool
        var expected: String
        var expected_json: String

        var options: [String] {
            var o = ["--min-count", String(min_count)]
            if let top { o += ["--top", String(top)] }
            if without_term { o.append("--without-term") }
            return o
        }
    }

    static let reference = Smashtag.root.appendingPathComponent("Tests/Reference")

    static func cases() throws -> [Case] {
        try JSONDecoder().decode([Case].self, from: Data(contentsOf: reference.appendingPathComponent("pair_cases.json")))
    }

    /// Every corpus case of `reference.py --pairs`, as CSV and JSON.
    func testEveryCorpusCaseMatchesTheReference() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 16)
        for c in cases {
            let args = c.terms.flatMap { ["-t", $0] } + c.paths.map { Smashtag.corpus.appendingPathComponent($0).path } + c.options
            for (format, expected) in [("csv", c.expected), ("json", c.expected_json)] {
                let r = try pairs(args + ["--format", format, "-q"])
                XCTAssertEqual(r.stdout, try fixtureText(Self.reference.appendingPathComponent(expected)), "\(c.name) as \(format)")
            }
        }
    }

    // MARK: Dumps, store, extract | aggregate

    private lazy var halves = [
        ["twarc-csv/flat.jsonl", "twarc-csv/brexit.jsonl", "python-twitter/streaming/lines.json", "darkliquid-twoo/tweets.js"],
        ["twarc-csv/kpop.jsonl", "twarc-csv/streaming_output_with_error.jsonl", "sferik-twitter/premium_search_next.json",
         "python-twitter/get_search_raw.json", "python-twitter/streaming/lines.json"],
    ].map { $0.map { Smashtag.corpus.appendingPathComponent($0).path } }

    /// The same bytes from the dumps, a store built in two ingests, and
    /// extracts of the halves aggregated in either order, in every format.
    func testDumpsStoreAndExtractAggregateGiveTheSameBytes() throws {
        let terms = ["-t", "*", "-t", "#Brexit", "-t", "@BTS_twt", "-t", "from:jack", "-t", "obama", "-t", "#nowhere"]
        let store = path("pairs.db")
        for half in halves {
            let r = try Smashtag.run(["ingest"] + half + ["--store", store, "--keep-text", "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let a = try Smashtag.run(["extract"] + terms + halves[0]).stdout
        let b = try Smashtag.run(["extract"] + terms + halves[1] + ["--jobs", "1"]).stdout
        for options in [["--format", "csv", "--min-count", "1"], ["--format", "json"], ["--format", "ndjson", "--top", "7"],
                        ["--format", "csv", "--without-term", "--min-count", "1"], ["--format", "table", "--top", "3"]] {
            let dumps = try pairs(terms + halves[0] + halves[1] + options + ["-q"]).stdout
            XCTAssertGreaterThan(dumps.count, 200, "\(options)")
            XCTAssertEqual(try pairs(terms + ["--store", store, "-q"] + options).stdout, dumps, "store, \(options)")
            for (name, lines) in [("a + b", a + b), ("b + a", b + a)] {
                let r = try Smashtag.run(["aggregate", "--pairs"] + options, stdin: Data(lines.utf8))
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertEqual(r.stdout, dumps, "aggregate \(name), \(options)")
            }
        }
        for term in ["#Brexit", "*"] {
            let options = ["--format", "gexf", "--min-count", "1"]
            let dumps = try pairs([term] + halves[0] + halves[1] + options + ["-q"]).stdout
            XCTAssertTrue(dumps.hasPrefix("<?xml"), dumps)
            XCTAssertEqual(try pairs([term, "--store", store, "-q"] + options).stdout, dumps, "store, gexf \(term)")
            let one = try Smashtag.run(["extract", term] + halves[1]).stdout + Smashtag.run(["extract", term] + halves[0]).stdout
            XCTAssertEqual(try Smashtag.run(["aggregate", "--pairs"] + options, stdin: Data(one.utf8)).stdout, dumps, "aggregate, gexf \(term)")
        }
    }

    /// SPEC §12.2's filters apply to pairs (§12.5) before matching and
    /// dedup, with the same bytes from the dumps, a store built in two
    /// ingests and extracts of the halves aggregated in either order, equal
    /// to the independent reference.
    func testFiltersApplyToPairsOnEveryPath() throws {
        let fixtures = Smashtag.fixtures.appendingPathComponent("filters/filters.jsonl").path
        let halves = [self.halves[0] + [fixtures], self.halves[1]]
        let terms = ["-t", "*", "-t", "#Brexit", "-t", "#stanford", "-t", "from:jack"]
        let store = path("filtered.db")
        for half in halves {
            let r = try Smashtag.run(["ingest"] + half + ["--store", store, "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        for filters in [["--since", "2016-01-01", "--until", "2019-06-01T00:00:00+02:00"], ["--retweets", "exclude"],
                        ["--retweets", "only", "--lang", "en,und"]] {
            let options = filters + ["--format", "csv", "--min-count", "1"]
            let dumps = try pairs(terms + halves[0] + halves[1] + options + ["-q"]).stdout
            let all = try pairs(terms + halves[0] + halves[1] + ["--format", "csv", "--min-count", "1", "-q"]).stdout
            XCTAssertNotEqual(dumps, all, "\(filters) leaves something out")
            let reference = Process()
            reference.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            reference.arguments = ["python3", Self.reference.appendingPathComponent("reference.py").path, "--pairs"]
                + terms + filters + ["--min-count", "1", "--format", "csv"] + halves[0] + halves[1]
            let out = Pipe()
            reference.standardOutput = out
            reference.standardError = FileHandle.nullDevice
            try reference.run()
            let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            reference.waitUntilExit()
            XCTAssertEqual(dumps, expected, "dumps against the reference, \(filters)")
            XCTAssertEqual(try pairs(terms + ["--store", store, "-q"] + options).stdout, dumps, "store, \(filters)")
            let a = try Smashtag.run(["extract"] + terms + filters + halves[0]).stdout
            let b = try Smashtag.run(["extract"] + terms + filters + halves[1]).stdout
            for (name, lines) in [("a + b", a + b), ("b + a", b + a)] {
                let r = try Smashtag.run(["aggregate", "--pairs", "--format", "csv", "--min-count", "1"], stdin: Data(lines.utf8))
                XCTAssertEqual(r.stdout, dumps, "aggregate \(name), \(filters): \(r.stderr)")
            }
        }
    }

    /// Pair counts made elsewhere (the Spark job) are formatted as they are.
    func testPairCountLinesAreAddedAsTheyAre() throws {
        let lines = "H\tsmashtag-pairs\t1\t#a\nN\t#a\t5\nC\t#a\t#a\t5\nC\t#a\t@b\t3\nP\t#a\t@b\t#a\t3\nP\t#a\t#a\t#c\t2\n"
        let r = try Smashtag.run(["aggregate", "--pairs", "--format", "json"], stdin: Data(lines.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, ##"[{"term":"#a","tweets":5,"pairs":[{"source":"#a","target":"@b","weight":3},{"source":"#a","target":"#c","weight":2}]}]"## + "\n")
        let plain = try Smashtag.run(["aggregate", "--strict"], stdin: Data(lines.utf8))
        XCTAssertEqual(plain.status, 1, "pair counts without --pairs are refused")
        XCTAssertTrue(plain.stderr.contains("with --pairs"), plain.stderr)
        let counts = try Smashtag.run(["aggregate", "--pairs", "--strict"], stdin: Data("H\tsmashtag-counts\t1\t#a\nN\t#a\t5\n".utf8))
        XCTAssertEqual(counts.status, 1, "mention counts carry no pairs")
    }

    // MARK: GEXF

    /// The GEXF, read back by networkx (`read_gexf`), holds the CSV's edges
    /// and weights, and nodes typed and counted as the report counts them.
    func testGEXFReadBackByNetworkXHasTheCSVsEdgesAndTheReportsCounts() throws {
        let python = ProcessInfo.processInfo.environment["SMASHTAG_NETWORKX_PYTHON"]
            ?? Smashtag.root.appendingPathComponent(".build/gexf-venv/bin/python").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: python),
                      "no Python with networkx at \(python): make gexf-venv makes it (make test-fast does)")
        // Names that XML must escape.
        let odd = Self.lines([Self.tweet(1, tags: ["a&b", "<x>", "q\\\"uote", "tab\\there", "x"], users: ["x"]),
                              Self.tweet(2, tags: ["a&b", "<x>", "ünï"], users: ["x"]),
                              Self.tweet(3, tags: ["a&b", "x"], users: ["x", "o'k"])])
        try odd.write(to: URL(fileURLWithPath: path("odd.jsonl")))
        let inputs: [(String, [String])] = [
            ("#stanford", [Smashtag.root.appendingPathComponent("samples").path]),
            ("#Brexit", halves[0] + halves[1]),
            ("*", [path("odd.jsonl")]),
        ]
        let script = """
            import json, sys
            import networkx as nx
            g = nx.read_gexf(sys.argv[1])
            assert not g.is_directed(), "undirected"
            edges = sorted([min(a, b), max(a, b), d["weight"]] for a, b, d in g.edges(data=True))
            nodes = sorted([n, d["label"], d["type"], d["count"]] for n, d in g.nodes(data=True))
            json.dump({"edges": edges, "nodes": nodes}, sys.stdout, ensure_ascii=False)
            """
        try script.write(toFile: path("read.py"), atomically: false, encoding: .utf8)
        for (term, paths) in inputs {
            let gexf = try pairs([term] + paths + ["--format", "gexf", "--min-count", "1", "-q"]).stdout
            try gexf.write(toFile: path("g.gexf"), atomically: false, encoding: .utf8)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: python)
            p.arguments = [path("read.py"), path("g.gexf")]
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "networkx could not read the GEXF of \(term): \(errText)")
            guard p.terminationStatus == 0 else { continue }
            let read = try JSONSerialization.jsonObject(with: data) as! [String: [[Any]]]

            // Edges: the CSV's rows (source < target in bytes; Python sorts by code point, the same order).
            let csv = try pairs([term] + paths + ["--format", "json", "--min-count", "1", "-q"]).stdout
            let rows = ((try JSONSerialization.jsonObject(with: Data(csv.utf8)) as! [[String: Any]])[0]["pairs"] as! [[String: Any]])
            let want = rows.map { [$0["source"] as! String, $0["target"] as! String, String($0["weight"] as! Int)] }
                .sorted { $0.lexicographicallyPrecedes($1) { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) } }
            let got = read["edges"]!.map { [$0[0] as! String, $0[1] as! String, String(Int(($0[2] as! NSNumber).doubleValue))] }
                .sorted { $0.lexicographicallyPrecedes($1) { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) } }
            XCTAssertEqual(got.count, rows.count, term)
            XCTAssertEqual(got, want, "edges of \(term)")

            // Nodes: every mention of an edge, labelled with its key, with the report's type and count.
            let report = try Smashtag.report([term] + paths + ["--format", "json", "--min-count", "1", "-q"]).stdout
            let object = (try JSONSerialization.jsonObject(with: Data(report.utf8)) as! [[String: Any]])[0]
            var counts: [String: (String, Int)] = [:]
            for (type, key) in [("hashtag", "hashtags"), ("user", "users")] {
                for row in object[key] as! [[String: Any]] { counts[row["mention"] as! String] = (type, row["count"] as! Int) }
            }
            let mentions = Set(rows.flatMap { [$0["source"] as! String, $0["target"] as! String] })
            XCTAssertEqual(Set(read["nodes"]!.map { $0[0] as! String }), mentions, "nodes of \(term)")
            for node in read["nodes"]! {
                let key = node[0] as! String
                XCTAssertEqual(node[1] as? String, key, "label of \(key)")
                XCTAssertEqual(node[2] as? String, counts[key]?.0, "type of \(key)")
                XCTAssertEqual((node[3] as? NSNumber)?.intValue, counts[key]?.1, "count of \(key)")
            }
            if term == "*" {
                XCTAssertTrue(mentions.isSuperset(of: ["#a&b", "#<x>", "#q\"uote", "#tab\there", "#x", "@x", "#ünï"]), "\(mentions)")
                XCTAssertTrue(gexf.contains("&lt;x&gt;") && gexf.contains("&amp;b") && gexf.contains("&#9;"), gexf)
            }
        }
    }

    func testGEXFIsOneGraphForOneTerm() throws {
        let r = try pairs(["-t", "#a", "-t", "#b", "--format", "gexf"], stdin: Data(), status: 2)
        XCTAssertTrue(r.stderr.contains("--format gexf writes one graph, for one term"), r.stderr)
        let data = Self.lines([Self.tweet(1, tags: ["a", "b"]), Self.tweet(2, tags: ["a", "b"])])
        let gexf = try pairs(["#a", "--format", "gexf"], stdin: data).stdout
        XCTAssertTrue(gexf.contains(#"<gexf xmlns="http://gexf.net/1.3""#) && gexf.contains(#"version="1.3""#), gexf)
        XCTAssertTrue(gexf.contains(#"<graph mode="static" defaultedgetype="undirected">"#), gexf)
        XCTAssertTrue(gexf.contains(##"<edge id="0" source="#a" target="#b" weight="2"/>"##), gexf)
        XCTAssertEqual(gexf.components(separatedBy: "<node ").count - 1, 2)
        // A character XML 1.0 cannot hold at all is written as U+FFFD.
        let control = Self.lines([Self.tweet(1, tags: ["a", "\\u0001z"]), Self.tweet(2, tags: ["a", "\\u0001z"])])
        let replaced = try pairs(["#a", "--format", "gexf"], stdin: control).stdout
        XCTAssertTrue(replaced.contains("source=\"#\u{FFFD}z\" target=\"#a\""), replaced)
    }

    // MARK: The bound on a tweet's mentions (SPEC §12.5)

    /// One line holding a tweet of 20,000 distinct hashtags would ask for
    /// 200 million pairs: it adds none, on every path, and is counted once
    /// and named with its file and line; its mentions still count. Eight
    /// gzip copies of it are one tweet. Pairs worked out by hand: only the
    /// small tweet's three hashtags pair up.
    func testATweetOfTwentyThousandMentionsAddsNoPairsOnEveryPath() throws {
        let bomb = Self.tweet(1234567890, tags: (0..<20000).map { "t\($0)" })
        let lines = Self.lines([bomb, Self.tweet(2, tags: ["a", "b", "t0"])])
        let dumps = folder.appendingPathComponent("dumps")
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        try lines.write(to: dumps.appendingPathComponent("bomb.jsonl"))
        for i in 1...8 {
            let copy = dumps.appendingPathComponent("copy\(i).jsonl")
            try lines.write(to: copy)
            try Smashtag.gzip([copy.path])
        }
        let expected = "term,source,target,weight\n*,#a,#b,1\n*,#a,#t0,1\n*,#b,#t0,1\n"
        let stats = path("stats.json")
        let r = try pairs(["*", dumps.path, "--format", "csv", "--min-count", "1", "--stats", stats])
        XCTAssertEqual(r.stdout, expected)
        XCTAssertTrue(r.stderr.contains("1 matching tweet carried more than 200 distinct mentions and added no pairs "
                                        + "(--max-pair-mentions 200)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("bomb.jsonl, line 1: tweet 1234567890 carries 20000 distinct mentions"), r.stderr)
        XCTAssertFalse(r.stderr.contains("copy1.jsonl.gz, line 1"), "a tweet is named once: \(r.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        XCTAssertEqual(summary["pair_limit_tweets"] as? Int, 1)
        XCTAssertEqual(summary["matched"] as? [String: Int], ["*": 2])
        // The store, and extract lines (the tweet's line is its T line, the second of the extract).
        let store = path("bomb.db")
        XCTAssertEqual(try Smashtag.run(["ingest", dumps.path, "--store", store, "-q"]).status, 0)
        let fromStore = try pairs(["*", "--store", store, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(fromStore.stdout, expected)
        XCTAssertTrue(fromStore.stderr.contains("tweet 1234567890 carries 20000 distinct mentions"), fromStore.stderr)
        let extracted = path("bomb.tsv")
        let x = try Smashtag.run(["extract", "*", dumps.appendingPathComponent("copy3.jsonl.gz").path, "-q"])
        try Data(x.stdout.utf8).write(to: URL(fileURLWithPath: extracted))
        let aggregated = try Smashtag.run(["aggregate", "--pairs", extracted, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(aggregated.stdout, expected, aggregated.stderr)
        XCTAssertTrue(aggregated.stderr.contains("bomb.tsv, line 2: tweet 1234567890 carries 20000 distinct mentions"),
                      aggregated.stderr)
        // Its mentions still count as the report's do; a lower bound leaves the small tweet out too.
        for args in [["*", dumps.path], ["*", "--store", store]] {
            let json = try pairs(args + ["--format", "json", "--min-count", "1", "--max-pair-mentions", "2", "-q"])
            XCTAssertEqual(json.stdout, #"[{"term":"*","tweets":2,"pairs":[]}]"# + "\n", "\(args)")
            XCTAssertEqual(json.stderr, "", "--quiet says nothing of them")
            let gexf = try pairs(args + ["--format", "gexf", "--min-count", "1", "--max-pair-mentions", "3", "-q"]).stdout
            XCTAssertTrue(gexf.contains(##"<edge id="0" source="#a" target="#b" weight="1"/>"##), gexf)
        }
        let low = try Smashtag.run(["aggregate", "--pairs", extracted, "--min-count", "1", "--max-pair-mentions", "2"])
        XCTAssertEqual(low.stdout, "term,source,target,weight\n", low.stderr)
        XCTAssertTrue(low.stderr.contains("2 matching tweets carried more than 2 distinct mentions"), low.stderr)
    }

    // MARK: -o and the workbook (SPEC §11)

    /// `-o FILE` writes what standard output would get, in the format the
    /// file's name asks for unless --format says otherwise; xlsx needs -o.
    func testOutputFileTakesItsFormatFromItsName() throws {
        let data = Self.lines([Self.tweet(1, tags: ["a", "b"], users: ["c"]), Self.tweet(2, tags: ["a", "b"])])
        let input = path("in.jsonl")
        try data.write(to: URL(fileURLWithPath: input))
        for (name, format) in [("net.gexf", "gexf"), ("p.json", "json"), ("p.ndjson", "ndjson"), ("p.csv", "csv"),
                               ("p.unknown", "csv"), ("p.txt", "table")] {
            let out = path(name)
            let r = try pairs(["#a", input, "--min-count", "1", "-o", out, "-q"])
            XCTAssertEqual(r.stdout, "", "\(name): nothing on stdout")
            let stdout = try pairs(["#a", input, "--min-count", "1", "--format", format, "-q"]).stdout
            XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), stdout, name)
        }
        // --format wins over the name; aggregate --pairs takes -o too.
        try pairs(["#a", input, "-o", path("p.gexf"), "--format", "csv", "-q"])
        XCTAssertEqual(try String(contentsOfFile: path("p.gexf"), encoding: .utf8), "term,source,target,weight\n#a,#a,#b,2\n")
        let lines = try Smashtag.run(["extract", "#a", input, "-q"]).stdout
        let agg = try Smashtag.run(["aggregate", "--pairs", "-o", path("agg.json")], stdin: Data(lines.utf8))
        XCTAssertEqual(agg.status, 0, agg.stderr)
        XCTAssertEqual(try String(contentsOfFile: path("agg.json"), encoding: .utf8),
                       try pairs(["#a", input, "--format", "json", "-q"]).stdout)
        let xlsx = try pairs(["#a", input, "--format", "xlsx"], status: 2)
        XCTAssertTrue(xlsx.stderr.contains("--format xlsx writes a workbook to a file: give -o FILE"), xlsx.stderr)
        let book = path("p.xlsx")
        try pairs(["#a", input, "-o", book, "-q"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: book))
        XCTAssertEqual(Array(bytes.prefix(2)), [0x50, 0x4B], "a workbook is a zip")
    }

    // MARK: Command line

    func testUsageErrorsNameTheOption() throws {
        let cases: [([String], String)] = [
            (["#a", "--by", "day"], "--by does not apply to pairs"),
            (["#a", "--columns", "term,count"], "--columns does not apply to pairs"),
            (["#a", "--format", "html"], "--format must be csv, json, ndjson, gexf, table or xlsx"),
            (["#a", "--max-pair-mentions", "1"], "--max-pair-mentions takes a whole number"),
            (["#a", "--min-count", "0"], "--min-count takes a whole number"),
            (["#a", "--wihtout-term"], "did you mean --without-term"),
            ([], "give a term"),
        ]
        for (args, message) in cases {
            let r = try pairs(args, stdin: Data(), status: 2)
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        let agg = try Smashtag.run(["aggregate", "--without-term"], stdin: Data())
        XCTAssertEqual(agg.status, 2)
        XCTAssertTrue(agg.stderr.contains("give it with --pairs"), agg.stderr)
    }

    func testStrictStopsAtBadInputAndStatsCountTheMatches() throws {
        let data = Data((Self.tweet(1, tags: ["a", "b"]) + "\n{not json\n" + Self.tweet(2, tags: ["a", "b"]) + "\n").utf8)
        let strict = try pairs(["*", "--strict"], stdin: data, status: 1)
        XCTAssertEqual(strict.stdout, "", "no pairs under --strict after bad input")
        XCTAssertTrue(strict.stderr.contains("line 2: invalid JSON"), strict.stderr)
        let stats = path("stats.json")
        let r = try pairs(["-t", "*", "-t", "#b", "--stats", stats, "--format", "csv"], stdin: data)
        XCTAssertEqual(r.stdout, "term,source,target,weight\n*,#a,#b,2\n#b,#a,#b,2\n")
        XCTAssertTrue(r.stderr.contains("1 skipped"), r.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        XCTAssertEqual(summary["matched"] as? [String: Int], ["*": 2, "#b": 2])
        XCTAssertEqual(summary["bad_records"] as? Int, 1)
    }

    func testHelpIsTheSnapshot() throws {
        let snapshots = Smashtag.root.appendingPathComponent("Tests/PipelineTests/Snapshots")
        XCTAssertEqual(try pairs(["--help"]).stdout, try fixtureText(snapshots.appendingPathComponent("pairs-help.txt")))
    }
}
