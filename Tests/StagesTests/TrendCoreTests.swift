import XCTest
@testable import Stages

/// SPEC §14's computation, worked by hand: the score, the exact numbers,
/// the windows (DST included) and the aggregator's rows.
final class TrendCoreTests: XCTestCase {
    // MARK: The score (the SPEC's own numbers)

    func testSpecNumbersBTwoOTen() {
        let s = TrendScore(current: 9, baseline: Fraction(2), minimum: 5)
        XCTAssertEqual(s.expected.description, "2")
        XCTAssertEqual(s.score.description, "24.5")  // (9 − 2)² / 2
        XCTAssertEqual(s.ratio.description, "3.3333")  // 10 / 3
        XCTAssertEqual(s.status, .rising)
    }

    func testSpecNumbersNewMention() {
        let s = TrendScore(current: 5, baseline: .zero, minimum: 5)
        XCTAssertEqual(s.expected.description, "1")
        XCTAssertEqual(s.score.description, "16")  // (5 − 1)² / 1
        XCTAssertEqual(s.ratio.description, "6")
        XCTAssertEqual(s.status, .new)
    }

    func testUnderMinimumScoresZero() {
        let s = TrendScore(current: 4, baseline: .zero, minimum: 5)
        XCTAssertEqual(s.score.description, "0")
        XCTAssertEqual(s.status, .steady)
        XCTAssertEqual(TrendScore(current: 4, baseline: .zero, minimum: 4).status, .new)
    }

    func testFallingAndSteady() {
        let falling = TrendScore(current: 1, baseline: Fraction(3), minimum: 5)
        XCTAssertEqual(falling.status, .falling)
        XCTAssertEqual(falling.ratio.description, "0.5")
        XCTAssertEqual(falling.expected.description, "3")
        let steady = TrendScore(current: 6, baseline: Fraction(6), minimum: 5)
        XCTAssertEqual(steady.status, .steady)
        XCTAssertEqual(steady.score.description, "0")
        // e > o scores 0 even above N.
        XCTAssertEqual(TrendScore(current: 6, baseline: Fraction(7), minimum: 5).score, .zero)
    }

    func testFractionalBaselineUnderOneExpectsOne() {
        // mean:2 of 1 and 0 authors: b = 0.5, e = 1.
        let s = TrendScore(current: 5, baseline: Fraction(1, 2), minimum: 5)
        XCTAssertEqual(s.expected.description, "1")
        XCTAssertEqual(s.score.description, "16")
        XCTAssertEqual(s.ratio.description, "4")  // 6 / 1.5
        XCTAssertEqual(s.status, .rising)  // b is not 0
    }

    func testFractionalBaselineScore() {
        // b = 1.5: (9 − 1.5)² / 1.5 = 37.5; ratio 10 / 2.5 = 4.
        let s = TrendScore(current: 9, baseline: Fraction(3, 2), minimum: 5)
        XCTAssertEqual(s.score.description, "37.5")
        XCTAssertEqual(s.ratio.description, "4")
    }

    // MARK: Rounding: half to even on the exact value

    func testRoundingHalfToEvenOnExactValues() {
        XCTAssertEqual(Fraction(1, 6).description, "0.1667")
        XCTAssertEqual(Fraction(1, 3).description, "0.3333")
        XCTAssertEqual(Fraction(1, 20_000).description, "0")  // 0.00005 → 0.0000 (even)
        XCTAssertEqual(Fraction(3, 20_000).description, "0.0002")  // 0.00015 → 0.0002 (even)
        XCTAssertEqual(Fraction(5, 20_000).description, "0.0002")  // 0.00025 → 0.0002
        XCTAssertEqual(Fraction(7, 20_000).description, "0.0004")
        XCTAssertEqual(Fraction(50_001, 200_000_000).description, "0.0003")  // just past half
        XCTAssertEqual(Fraction(49, 2).description, "24.5")
        XCTAssertEqual(Fraction(3).description, "3")
        XCTAssertEqual(Fraction(0).description, "0")
        XCTAssertEqual(Fraction(19_999, 20_000).description, "1")  // 0.99995 → 1.0000 (even) → 1
        XCTAssertEqual(Fraction(10, 4).description, "2.5")
    }

    func testPrintedFractionsAgreeWithDecimalRoundingOnEveryPath() {
        // Foundation's Decimal, rounded half to even (bankers) at 4 places, as an independent reference:
        // every n/d below 400, past 64 bits scaled (the 128-bit path), and negative values.
        func reference(_ n: Int128, _ d: Int128) -> String {
            var exact = Decimal(string: String(n))! / Decimal(string: String(d))!
            var rounded = Decimal()
            NSDecimalRound(&rounded, &exact, 4, .bankers)
            return NSDecimalNumber(decimal: rounded).stringValue
        }
        for n in Int128(0)..<400 {
            for d in Int128(1)..<400 where Fraction(n, d).description != reference(n, d) {
                XCTFail("\(n)/\(d): \(Fraction(n, d).description), Decimal says \(reference(n, d))")
                return
            }
        }
        let wide: [(Int128, Int128)] = [(Int128(1) << 80, 3), ((Int128(1) << 70) + 1, 7), (Int128(UInt64.max), 2), (-7, 3), (-(Int128(1) << 66), 5)]
        for (n, d) in wide { XCTAssertEqual(Fraction(n, d).description, reference(n, d), "\(n)/\(d)") }
    }

    func testFractionArithmeticIsExact() {
        let third = Fraction(1, 3)
        XCTAssertEqual(third + third + third, .one)
        XCTAssertEqual((Fraction(7) - Fraction(3, 2)) * (Fraction(7) - Fraction(3, 2)) / Fraction(3, 2), Fraction(121, 6))
        XCTAssertTrue(Fraction(1, 3) < Fraction(34, 100))
        XCTAssertEqual(Fraction(2, -4), Fraction(-1, 2))
    }

    // MARK: Windows

    static let utc = try! ZoneOffsets("UTC")

    static func t(_ s: String) -> Int64 { try! TweetFilter.time(s) }

    func testDaysInUTC() throws {
        let w = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        XCTAssertEqual(w.current, .init(Self.t("2020-03-07"), Self.t("2020-03-08")))
        XCTAssertEqual(w.baselines, [.init(Self.t("2020-03-06"), Self.t("2020-03-07"))])
        let seven = try TrendWindows(current: .last(7, .day), baseline: .weekago, now: Self.t("2020-03-08T00:00:00Z"), zone: Self.utc)
        XCTAssertEqual(seven.current, .init(Self.t("2020-03-01"), Self.t("2020-03-08")))
        XCTAssertEqual(seven.baselines, [.init(Self.t("2020-02-23"), Self.t("2020-03-01"))])
    }

    func testHoursEndAtThePresentHour() throws {
        let w = try TrendWindows(current: .last(6, .hour), baseline: .mean(2), now: Self.t("2020-03-08T10:59:59Z"), zone: Self.utc)
        XCTAssertEqual(w.current, .init(Self.t("2020-03-08T04:00:00Z"), Self.t("2020-03-08T10:00:00Z")))
        XCTAssertEqual(w.baselines, [.init(Self.t("2020-03-07T22:00:00Z"), Self.t("2020-03-08T04:00:00Z")),
                                     .init(Self.t("2020-03-07T16:00:00Z"), Self.t("2020-03-07T22:00:00Z"))])
        XCTAssertEqual(w.baselineSpan, .init(Self.t("2020-03-07T16:00:00Z"), Self.t("2020-03-08T04:00:00Z")))
    }

    func testWeeksEndOnMonday() throws {
        // 2020-03-08 is a Sunday: the present ISO week began on Monday 2020-03-02.
        let w = try TrendWindows(current: .last(1, .week), baseline: .previous, now: Self.t("2020-03-08T23:00:00Z"), zone: Self.utc)
        XCTAssertEqual(w.current, .init(Self.t("2020-02-24"), Self.t("2020-03-02")))
        XCTAssertEqual(w.baselines, [.init(Self.t("2020-02-17"), Self.t("2020-02-24"))])
    }

    func testBerlinDayAcrossSpringChangeHas23Hours() throws {
        let berlin = try ZoneOffsets("Europe/Berlin")
        let w = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2021-03-29T10:00:00+02:00"), zone: berlin)
        XCTAssertEqual(w.current, .init(Self.t("2021-03-27T23:00:00Z"), Self.t("2021-03-28T22:00:00Z")))
        XCTAssertEqual(w.current.length, 23 * 3600)
        XCTAssertEqual(w.baselines, [.init(Self.t("2021-03-26T23:00:00Z"), Self.t("2021-03-27T23:00:00Z"))])
        // weekago: each bound 7 calendar days back, in winter time (+01:00).
        let ago = try TrendWindows(current: .last(1, .day), baseline: .weekago, now: Self.t("2021-03-29T10:00:00+02:00"), zone: berlin)
        XCTAssertEqual(ago.baselines, [.init(Self.t("2021-03-20T23:00:00Z"), Self.t("2021-03-21T23:00:00Z"))])
        XCTAssertEqual(ago.scale.numerator, 1)
        XCTAssertEqual(ago.scale.denominator, 1)
    }

    func testBerlinAutumnDayHas25Hours() throws {
        let berlin = try ZoneOffsets("Europe/Berlin")
        let w = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2021-11-01T00:30:00+01:00"), zone: berlin)
        XCTAssertEqual(w.current, .init(Self.t("2021-10-30T22:00:00Z"), Self.t("2021-10-31T23:00:00Z")))
        XCTAssertEqual(w.current.length, 25 * 3600)
    }

    func testExplicitWindowsAndScaledBaseline() throws {
        let w = try TrendWindows(current: .span(Self.t("2020-03-01"), Self.t("2020-03-08")),
                                 baseline: .span(Self.t("2020-01-01"), Self.t("2020-03-01")), now: 0, zone: Self.utc)
        // 7 days against 60 days: b × 7/60.
        XCTAssertEqual(w.scale.numerator, 7)
        XCTAssertEqual(w.scale.denominator, 60)
        let previous = try TrendWindows(current: .span(Self.t("2020-03-01T12:00:00Z"), Self.t("2020-03-01T18:00:00Z")),
                                        baseline: .previous, now: 0, zone: Self.utc)
        XCTAssertEqual(previous.baselines, [.init(Self.t("2020-03-01T06:00:00Z"), Self.t("2020-03-01T12:00:00Z"))])
        XCTAssertThrowsError(try TrendWindows(current: .span(5, 5), baseline: .previous, now: 0, zone: Self.utc))
    }

    func testParsingTheOptions() throws {
        let time: (String) throws -> Int64 = { try TweetFilter.time($0) }
        XCTAssertEqual(try TrendWindows.parseCurrent("7d", time: time), .last(7, .day))
        XCTAssertEqual(try TrendWindows.parseCurrent("6h", time: time), .last(6, .hour))
        XCTAssertEqual(try TrendWindows.parseCurrent("2w", time: time), .last(2, .week))
        XCTAssertNil(try TrendWindows.parseCurrent("0d", time: time))
        XCTAssertNil(try TrendWindows.parseCurrent("d", time: time))
        XCTAssertNil(try TrendWindows.parseCurrent("7m", time: time))
        XCTAssertEqual(try TrendWindows.parseCurrent("2020-03-01..2020-03-08", time: time), .span(Self.t("2020-03-01"), Self.t("2020-03-08")))
        XCTAssertEqual(try TrendWindows.parseBaseline("mean:4", time: time), .mean(4))
        XCTAssertNil(try TrendWindows.parseBaseline("mean:0", time: time))
        XCTAssertNil(try TrendWindows.parseBaseline("yesterday", time: time))
        XCTAssertThrowsError(try TrendWindows.parseCurrent("2020-03-01..later", time: time))
    }

    // MARK: The aggregator

    /// A part of posts (id, time, author, hashtags as written), every one matching term 0.
    static func part(_ posts: [(id: UInt64, time: Int64, author: String?, tags: [String])]) -> PostPart {
        var b = PartBuilder<KeyedNumbering<String>>(fields: TrendAggregator.fields(kinds: .standard))
        for p in posts {
            let keys = p.tags.map { "#" + $0.lowercased() }
            b.append(id: p.id, mask: 1, mentions: keys, text: { $0 }, author: p.author.map { "@" + $0 },
                     spellings: zip(keys, p.tags.map { "#" + $0 }).map { ($0, $1) }, time: p.time)
        }
        return b.take()
    }

    func testOneAuthorFiftyTimesLeavesTheScoreByAuthorsUnmoved() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        let base = Self.t("2020-03-07T12:00:00Z")
        var posts = (0..<50).map { (id: UInt64(1000 + $0), time: base + Int64($0), author: Optional("spammer"), tags: ["spam"]) }
        posts += (1...5).map { (id: UInt64($0), time: base, author: Optional("u\($0)"), tags: ["fine"]) }
        let agg = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
        agg.add(Self.part(posts))
        let byAuthors = agg.trends(minimum: 5, byTweets: false, all: true, top: nil)[0].rows
        XCTAssertEqual(byAuthors.map(\.mention), ["#fine", "#spam"])
        let spam = byAuthors[1]
        XCTAssertEqual(spam.currentTweets, 50)
        XCTAssertEqual(spam.currentAuthors, 1)
        XCTAssertEqual(spam.score.score, .zero)
        XCTAssertEqual(spam.topAuthorShare, .one)
        XCTAssertEqual(spam.topAuthors, ["@spammer"])
        XCTAssertEqual(spam.exampleIDs, ["1000", "1001", "1002"])
        let fine = byAuthors[0]
        XCTAssertEqual(fine.score.score.description, "16")
        // Ties of authors by bytes; the earliest tweets tie on time, then by id.
        XCTAssertEqual(fine.topAuthors, ["@u1", "@u2", "@u3"])
        XCTAssertEqual(fine.exampleIDs, ["1", "2", "3"])
        XCTAssertEqual(fine.topAuthorShare.description, "0.2")
        let byTweets = agg.trends(minimum: 5, byTweets: true, all: false, top: nil)[0].rows
        XCTAssertEqual(byTweets.map(\.mention), ["#spam", "#fine"])
        XCTAssertEqual(byTweets[0].score.score.description, "2401")
    }

    /// Top authors tied on tweets go by their names' bytes, also where two
    /// names share their first 16 bytes (decided past them, or by length
    /// when one is the other's start) and where a name is longer than 16.
    func testTopAuthorsTiedOnTweetsGoByTheirWholeNames() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        let now = Self.t("2020-03-07T12:00:00Z")
        // Keys are `@` and the name lowercased: `@longnameauthor1` is exactly 16 bytes.
        let names = ["longnameauthor1b", "longnameauthor1a", "longnameauthor1", "longnameauthor2", "zed", "longnameauthor1aa"]
        let posts = names.enumerated().map { (id: UInt64($0.offset + 1), time: now, author: Optional($0.element), tags: ["t"]) }
        // Two more tweets by the last name: it leads; the rest tie on one tweet.
        let more = [(id: UInt64(100), time: now, author: Optional("zed"), tags: ["t"]),
                    (id: UInt64(101), time: now, author: Optional("zed"), tags: ["t"])]
        for order in [posts + more, (posts + more).reversed()] {
            let agg = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
            agg.add(Self.part(Array(order)))
            let row = agg.trends(minimum: 1, byTweets: false, all: true, top: nil)[0].rows[0]
            XCTAssertEqual(row.topAuthors, ["@zed", "@longnameauthor1", "@longnameauthor1a"])
        }
        let agg = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
        agg.add(Self.part(Array(posts.prefix(4))))
        // Past the 16th byte: `…1a` < `…1aa` < `…1b`; `…1` (16 bytes) before all three.
        XCTAssertEqual(agg.trends(minimum: 1, byTweets: false, all: true, top: nil)[0].rows[0].topAuthors,
                       ["@longnameauthor1", "@longnameauthor1a", "@longnameauthor1b"])
        let agg2 = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
        agg2.add(Self.part([posts[0], posts[5], posts[3]]))
        XCTAssertEqual(agg2.trends(minimum: 1, byTweets: false, all: true, top: nil)[0].rows[0].topAuthors,
                       ["@longnameauthor1aa", "@longnameauthor1b", "@longnameauthor2"])
    }

    func testTiesOrderByAuthorsThenBytesAndTopCutsPerType() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        let now = Self.t("2020-03-07T12:00:00Z")
        var posts: [(id: UInt64, time: Int64, author: String?, tags: [String])] = []
        // #b and #a: 5 authors each, no baseline: both 16; #c: 6 authors, 1 in the baseline: (6 − 1)² = 25.
        for i in 1...5 { posts.append((UInt64(i), now, "x\(i)", ["b", "a", "c"])) }
        posts.append((6, now, "x6", ["c"]))
        posts.append((7, now - 86_400, "y", ["c"]))
        // Unknown author: a tweet but no author.
        posts.append((8, now, nil, ["a"]))
        let agg = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
        agg.add(Self.part(posts))
        let rows = agg.trends(minimum: 5, byTweets: false, all: false, top: nil)[0].rows
        XCTAssertEqual(rows.map(\.mention), ["#c", "#a", "#b"])
        XCTAssertEqual(rows.map(\.score.score.description), ["25", "16", "16"])
        XCTAssertEqual(rows[1].currentTweets, 6)
        XCTAssertEqual(rows[1].currentAuthors, 5)
        XCTAssertEqual(rows[1].topAuthorShare.description, "0.1667")
        XCTAssertEqual(agg.trends(minimum: 5, byTweets: false, all: false, top: 2)[0].rows.map(\.mention), ["#c", "#a"])
    }

    func testCopiesCountOnceAndUnknownTimesAreLeftOut() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        let now = Self.t("2020-03-07T12:00:00Z")
        let agg = TrendAggregator(terms: [try Term(parsing: "*")], windows: windows, kinds: .standard)
        agg.add(Self.part((1...5).map { (UInt64($0), now, "x\($0)", ["a"]) }))
        agg.add(Self.part([(1, now, "x1", ["a"]), (9, PostPart.unknownTime, "z", ["a"])]))
        XCTAssertEqual(agg.duplicates, 1)
        XCTAssertEqual(agg.unknownTime, 1)
        XCTAssertEqual(agg.trends(minimum: 5, byTweets: false, all: false, top: nil)[0].rows.map(\.currentTweets), [5])
    }

    /// The parallel path (SPEC §6 on workers): each worker counts every copy
    /// it matched, the merge takes a later copy back out. Later copies here
    /// differ from the first in time (one in the baseline), author, tags and
    /// spelling; had they counted, #b would show, the baseline would not be
    /// empty and the display would be `#A` (4 against 4, `A` before `a`).
    func testWorkersCountEveryCopyAndTheMergeTakesLaterCopiesBackOut() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        let now = Self.t("2020-03-07T12:00:00Z")
        let first = Self.part([(1, now, "x1", ["A"]), (2, now, "x2", ["A"]), (3, now, "x3", ["a"]), (4, now, "x4", ["a"]),
                               (5, now, "x5", ["a"])])
        let later = Self.part([(1, now - 86_400, "x9", ["a", "b"]), (6, now + 60, "x1", ["a"]), (1, now, "x1", ["A"]),
                               (2, now, "x2", ["A"])])
        let term = try Term(parsing: "*")
        let parallel = TrendAggregator(terms: [term], windows: windows, kinds: .standard)
        parallel.begin(workers: 2)
        parallel.prepare(later, worker: 1)
        parallel.prepare(first, worker: 0)
        parallel.add(first)
        parallel.add(later)
        let serial = TrendAggregator(terms: [term], windows: windows, kinds: .standard)
        serial.add(first)
        serial.add(later)
        XCTAssertEqual(parallel.duplicates, 3)
        for agg in [parallel, serial] {
            let rows = agg.trends(minimum: 1, byTweets: false, all: true, top: nil)[0].rows
            XCTAssertEqual(rows.map(\.mention), ["#a"])
            let a = try XCTUnwrap(rows.first)
            XCTAssertEqual(a.currentTweets, 6)
            XCTAssertEqual(a.currentAuthors, 5)  // x1 twice
            XCTAssertEqual(a.baselineTweets, .zero)
            XCTAssertEqual(a.score.status, .new)
            XCTAssertEqual(a.score.score.description, "16")  // (5 − 1)² / 1
            XCTAssertEqual(a.topAuthors, ["@x1", "@x2", "@x3"])
            XCTAssertEqual(a.topAuthorShare.description, "0.3333")  // 2 of 6
            XCTAssertEqual(a.display, "#a")  // 4 against 2
            XCTAssertEqual(a.exampleIDs, ["1", "2", "3"])
        }
    }

    /// A mention's spellings, read from tweets by the workers' tables,
    /// counted in an array by id (written as its key) or in a table (any
    /// other, and every id past the arrays' budget) show alike, and later
    /// copies' key spellings are taken back out. By hand: #a written `A` by
    /// tweets 1 and 2 and `a` by 3, 4 and 5 shows `#a`; #b written `B` by 2,
    /// 3 and 5 and `b` by 1, 4 and 6, a tie, shows `#B` (`B` before `b`); #c
    /// once, `c`. The second file's copies of 2 (spelling `b`) and 4
    /// (`C`) do not count: had they, #b would show `#b` and #c `#C`. The same
    /// rows with one worker and two, the arrays' budget at its default and at
    /// 1 (every id but the first in the table).
    func testSpellingsByArrayAndByTableShowAlike() throws {
        let windows = try TrendWindows(current: .last(1, .day), baseline: .previous, now: Self.t("2020-03-08T10:00:00Z"), zone: Self.utc)
        func tweet(_ id: Int, _ author: String, _ tags: [String]) -> String {
            var text = "", entities: [String] = []
            for tag in tags {
                if !text.isEmpty { text += " " }
                let start = text.count
                text += "#" + tag
                entities.append(#"{"text":"\#(tag)","indices":[\#(start),\#(text.count)]}"#)
            }
            return #"{"id":\#(id),"id_str":"\#(id)","created_at":"Sat Mar 07 12:00:00 +0000 2020","text":"\#(text)","user":{"screen_name":"\#(author)"},"#
                + #""entities":{"hashtags":[\#(entities.joined(separator: ","))],"user_mentions":[],"urls":[],"symbols":[]}}"#
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trend-spellings-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("1.jsonl").path, later = dir.appendingPathComponent("2.jsonl").path
        try ([tweet(1, "x1", ["A", "b"]), tweet(2, "x2", ["A", "B"]), tweet(3, "x3", ["a", "B"]), tweet(4, "x4", ["a", "b", "c"]),
              tweet(5, "x5", ["a", "B"])].joined(separator: "\n") + "\n").write(toFile: first, atomically: true, encoding: .utf8)
        try ([tweet(2, "x2", ["b"]), tweet(4, "x4", ["C"]), tweet(6, "x6", ["b"])].joined(separator: "\n") + "\n")
            .write(toFile: later, atomically: true, encoding: .utf8)
        let terms = [try Term(parsing: "*")]
        let budget = TrendCounts.keySpelledBudget
        defer { TrendCounts.keySpelledBudget = budget }
        var shown: [[String]] = []
        for b in [budget, 1] {
            TrendCounts.keySpelledBudget = b
            for jobs in [1, 2] {
                let agg = TrendAggregator(terms: terms, windows: windows, kinds: .standard)
                var run = ParallelRun(terms: terms, jobs: jobs)
                run.facts = TrendAggregator.fields(kinds: .standard)
                run.facts.spellingsWithin = windows.current.start..<windows.current.end
                run.times = true
                run.run(InputPlan(paths: [first, later]).units, control: RunControl(strict: false), into: agg)
                XCTAssertEqual(agg.duplicates, 2)
                let rows = agg.trends(minimum: 1, byTweets: false, all: true, top: nil)[0].rows
                shown.append(rows.map { "\($0.mention) \($0.display ?? "-") \($0.currentTweets)" }.sorted())
            }
        }
        XCTAssertEqual(shown[0], ["#a #a 5", "#b #B 6", "#c #c 1"])
        for s in shown { XCTAssertEqual(s, shown[0]) }
    }

    /// Fractions reduced in 64 bits (Stein's gcd) and compared without
    /// overflow checks agree with the 128-bit arithmetic, on values within
    /// 64 bits and beyond.
    func testFractionFastPathsAgreeWithWideArithmetic() {
        func wideGCD(_ a: Int128, _ b: Int128) -> Int128 {
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            return x == 0 ? 1 : x
        }
        var g = SystemRandomNumberGenerator()
        for round in 0..<20_000 {
            let wide = round % 4 == 0
            let n = wide ? Int128(Int64.random(in: -Int64.max...Int64.max, using: &g)) * Int128(UInt32.random(in: 1...UInt32.max, using: &g))
                         : Int128(Int64.random(in: -1_000_000...1_000_000, using: &g)) * Int128([1, 2, 6, 12, 1 << 20][round % 5])
            let d = Int128(UInt64.random(in: 1...(wide ? UInt64.max : 5_000_000), using: &g))
            let f = Fraction(n, d)
            let k = wideGCD(n.magnitude <= UInt128(Int128.max) ? (n < 0 ? -n : n) : 0, d)
            XCTAssertEqual(f.numerator, n / k, "\(n)/\(d)")
            XCTAssertEqual(f.denominator, d / k, "\(n)/\(d)")
            let h = Fraction(Int128(Int64.random(in: -1000...1000, using: &g)), Int128(Int64.random(in: 1...1000, using: &g)))
            XCTAssertEqual(f < h, f.numerator * h.denominator < h.numerator * f.denominator)
            XCTAssertEqual(h < f, h.numerator * f.denominator < f.numerator * h.denominator)
            // A product: the value of the wide product, reduced (the 64-bit path when every part fits).
            let p = f * h, wn = f.numerator * h.numerator, wd = f.denominator * h.denominator
            let r = wideGCD(wn < 0 ? -wn : wn, wd)
            XCTAssertEqual(p.numerator, wn / r, "\(f) × \(h)")
            XCTAssertEqual(p.denominator, wd / r, "\(f) × \(h)")
        }
        XCTAssertEqual(Fraction.gcd(UInt64(0), UInt64(0)), 1)
        XCTAssertEqual(Fraction.gcd(UInt64(0), UInt64(12)), 12)
        XCTAssertEqual(Fraction.gcd(UInt64(48), UInt64(0)), 48)
        XCTAssertEqual(Fraction.gcd(UInt64(1) << 63, UInt64(3) << 40), UInt64(1) << 40)
    }

    /// Rows ordered by keys taken out of them agree with `TrendRow.order`,
    /// scores close enough that their doubles tie included.
    func testRowsOrderedByIndexAgreeWithTheRowOrder() {
        var g = SystemRandomNumberGenerator()
        let near = Fraction(Int128(1) << 60, (Int128(1) << 60) + 1)
        let rows = (0..<3_000).map { i -> TrendRow in
            let score = i % 7 == 0 ? (i % 2 == 0 ? near : .one)
                : Fraction(Int128(Int.random(in: 0...40, using: &g)), Int128(Int.random(in: 1...6, using: &g)))
            let kind: MentionKind = i % 3 == 0 ? .user : .hashtag
            let mention = (kind == .user ? "@" : "#") + "m\(Int.random(in: 0...500, using: &g))_\(i)"
            let s = TrendScore(current: 5, baseline: .zero, minimum: 5)
            let row = TrendRow(mentionID: Int32(i), mention: mention, kind: kind, currentTweets: 1,
                               currentAuthors: Int.random(in: 1...3, using: &g), baselineTweets: .zero, baselineAuthors: .zero,
                               score: TrendScore(expected: s.expected, score: score, ratio: s.ratio, status: s.status))
            return row
        }
        XCTAssertEqual(TrendRow.ordered(rows).map(\.mention), rows.sorted(by: TrendRow.order).map(\.mention))
    }
}
