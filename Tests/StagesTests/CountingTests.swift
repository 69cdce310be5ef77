import XCTest
@testable import Stages

/// The counting structures of the merge, held to the plain collections they
/// replace: a `CountTable` to a `Dictionary`, a piece's `LocalKeys` to
/// numbering keys by their text, and the aggregator's per-worker key cache
/// to looking every key up by its text.
final class CountingTests: XCTestCase {
    func testCountTableCountsAsADictionary() {
        var generator = SystemRandomNumberGenerator()
        var table = CountTable<Int>(), pairs = CountTable<Int32>()
        var reference: [UInt64: Int] = [:]
        for step in 0..<60_000 {
            // Mostly small ids, as mention ids are; now and then a wide key, as a pair is.
            let key = step % 7 == 0 ? UInt64.random(in: 0..<(UInt64.max - 1), using: &generator)
                : UInt64.random(in: 0..<3_000, using: &generator)
            let n = step % 11 == 0 ? 0 : Int.random(in: 1...3, using: &generator)
            let new = table.add(key, n)
            pairs.add(key, Int32(n))
            XCTAssertEqual(new, reference[key] == nil, "add says whether the key is new")
            reference[key, default: 0] += n
        }
        XCTAssertEqual(table.count, reference.count)
        XCTAssertEqual(pairs.count, reference.count)
        var seen: [UInt64: Int] = [:], seenPairs: [UInt64: Int] = [:]
        table.forEach { seen[$0] = $1 }
        pairs.forEach { seenPairs[$0] = $1 }
        XCTAssertEqual(seen, reference, "forEach gives every key once with its count, 0 for a key added with 0")
        XCTAssertEqual(seenPairs, reference)
        for (key, count) in reference.prefix(500) { XCTAssertEqual(table[key], count) }
        var absent = 0
        for key in UInt64(3_000)..<UInt64(4_000) where reference[key] == nil {
            XCTAssertNil(table[key])
            absent += 1
        }
        XCTAssertEqual(absent, 1_000, "keys from 3,000 on were only ever added as wide keys")
        // One table folded into another in its slot order, room made first (the pairs' and --by's way),
        // and into a table that already holds some keys and had room made twice.
        var folded = CountTable<Int32>(), partly = CountTable<Int32>()
        partly.add(7, 5)
        partly.add(UInt64.max - 1, 2)
        partly.reserve(10)
        folded.reserve(pairs.count)
        partly.reserve(pairs.count)
        pairs.forEach { folded.add($0, Int32($1)); partly.add($0, Int32($1)) }
        var seenFolded: [UInt64: Int] = [:], seenPartly: [UInt64: Int] = [:]
        folded.forEach { seenFolded[$0] = $1 }
        partly.forEach { seenPartly[$0] = $1 }
        XCTAssertEqual(seenFolded, reference)
        var expected = reference
        expected[7, default: 0] += 5
        expected[UInt64.max - 1, default: 0] += 2
        XCTAssertEqual(seenPartly, expected)
        XCTAssertEqual(partly.count, expected.count)
    }

    func testTweetIDSetKeepsEachIDOnceAsASet() {
        var generator = SystemRandomNumberGenerator()
        var set = TweetIDSet(), reference = Set<UInt64>()
        // Snowflake-like ids, small ids, and the two ends (0 marks an empty slot inside).
        var ids: [UInt64] = [0, UInt64.max, 1, 0, UInt64.max]
        for _ in 0..<40_000 {
            ids.append(Bool.random(using: &generator) ? UInt64.random(in: 1_200_000_000_000_000_000...1_300_000_000_000_000_000, using: &generator)
                       : UInt64.random(in: 0..<5_000, using: &generator))
        }
        ids += ids.prefix(10_000)
        XCTAssertFalse(set.contains(0), "nothing added yet")
        for (n, id) in ids.enumerated() {
            XCTAssertEqual(set.contains(id), reference.contains(id), "id \(id) before its insert")
            XCTAssertEqual(set.insert(id), reference.insert(id).inserted, "id \(id)")
            XCTAssertTrue(set.contains(id), "id \(id) after its insert")
            // An id of the same kind, maybe never added: asked as a set would answer.
            let probe = n.isMultiple(of: 2) ? id &+ 1 : UInt64.random(in: 0..<10_000, using: &generator)
            XCTAssertEqual(set.contains(probe), reference.contains(probe), "probe \(probe)")
        }
        XCTAssertEqual(set.count, reference.count)
    }

    func testKeyNumberingNumbersInOrderWithOneLookUp() {
        var numbering = KeyNumbering()
        XCTAssertEqual(["#a", "@b", "#a", "#é", "@b", "#c"].map { numbering.number($0) }, [0, 1, 0, 2, 1, 3])
        XCTAssertEqual(numbering.keys, ["#a", "@b", "#é", "#c"])
        XCTAssertEqual(numbering.number("#e\u{301}"), 2, "keys are Strings: a canonically equal spelling is the same key")
        XCTAssertEqual(numbering.keys.count, 4)
        XCTAssertEqual(numbering.existing("#c"), 3)
        XCTAssertNil(numbering.existing("#d"))
        XCTAssertEqual(numbering.keys.count, 4, "asking does not add")
    }

    /// ASCII keys are numbered by their bytes, the rest by `String`: every
    /// key must still get the number a `[String: Int32]` (Swift's equality)
    /// gives it, also a non-ASCII key canonically equal to an ASCII one.
    func testKeyNumberingAgreesWithStringEquality() {
        var numbering = KeyNumbering()
        var reference: [String: Int32] = [:]
        var order: [String] = []
        func check(_ key: String, _ why: String = "") {
            let expected = reference[key] ?? Int32(order.count)
            if reference[key] == nil { reference[key] = expected; order.append(key) }
            XCTAssertEqual(numbering.number(key), expected, "\(key.unicodeScalars.map { String($0.value, radix: 16) }) \(why)")
        }
        // U+212A KELVIN SIGN, U+037E GREEK QUESTION MARK and U+1FEF GREEK VARIA are canonically K, ; and `.
        check("#k"); check("#K"); check("#\u{212A}", "Kelvin is K"); check("@a;b"); check("@a\u{037E}b", "is a;b")
        check("#x\u{1FEF}", "is x`"); check("#x`"); check("#\u{212A}\u{212A}é"); check("#KKe\u{301}", "non-ASCII both")
        check("#é"); check("#e\u{301}"); check("#\u{212B}", "Angstrom is Å"); check("#Å"); check(""); check("#")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "K", ";", "`", "\u{212A}", "\u{037E}", "\u{1FEF}", "é", "e\u{301}", "д", "東", "_", "1"]
        for _ in 0..<30_000 {
            let n = Int.random(in: 0...6, using: &generator)
            let key = (Bool.random(using: &generator) ? "#" : "@") + (0..<n).map { _ in pieces.randomElement(using: &generator)! }.joined()
            check(key)
        }
        XCTAssertEqual(numbering.keys, order, "each key as first met")
        for key in reference.keys.shuffled().prefix(2_000) { XCTAssertEqual(numbering.existing(key), reference[key]) }
        XCTAssertNil(numbering.existing("#not-there"))
        XCTAssertNil(numbering.existing("#not-\u{212A}here"))
        XCTAssertEqual(numbering.keys.count, order.count, "asking does not add")
    }

    /// The screen looks spellings up in the worker's table without a trace:
    /// invalid UTF-8 counts only when extraction asks (the tweet is kept).
    func testAnUncountedLookUpLeavesNoTrace() {
        let table = MentionTable()
        let invalid: [UInt8] = [0x61, 0xFF, 0x62]
        invalid.withUnsafeBytes { raw in
            XCTAssertNotNil(table.uncountedID(raw: raw, escaped: false, kind: .hashtag))
            XCTAssertEqual(table.invalidUTF8Lookups, 0, "a new spelling, looked at by the screen")
            XCTAssertNotNil(table.uncountedID(raw: raw, escaped: false, kind: .hashtag))
            XCTAssertEqual(table.invalidUTF8Lookups, 0, "a known one")
            XCTAssertEqual(table.id(raw: raw, escaped: false, kind: .hashtag), table.uncountedID(raw: raw, escaped: false, kind: .hashtag))
            XCTAssertEqual(table.invalidUTF8Lookups, 1, "extraction's look counts it")
        }
        XCTAssertEqual(table.keys, ["#a\u{FFFD}b"])
    }

    /// A table slot compares a spelling by two words and its length (its
    /// bytes themselves up to 16, the first and last 8 beyond): held to a
    /// dictionary of (kind, bytes) over spellings of every length from 0 to
    /// 40, many differing in one byte, long ones sharing their first and last
    /// 8 bytes, invalid UTF-8 among them, through several growths.
    func testTheTableKnowsEachSpellingByItsBytes() {
        let table = MentionTable()
        var generator = SystemRandomNumberGenerator()
        struct Spelling: Hashable { var kind: MentionKind; var bytes: [UInt8] }
        var entries: [Spelling: Int] = [:]
        var invalidLooks = 0
        func look(_ s: Spelling, counting: Bool = true) {
            let (entry, id) = s.bytes.withUnsafeBytes { raw in
                (table.entry(raw: raw, escaped: false, kind: s.kind, counting: counting), table.id(raw: raw, escaped: false, kind: s.kind))
            }
            let expected = entries[s] ?? entries.count
            if entries[s] == nil { entries[s] = expected }
            XCTAssertEqual(entry, expected, "\(s)")
            let text = String(decoding: s.bytes, as: UTF8.self)
            let key = MentionKey.normalize(text)
            XCTAssertEqual(id, key.isEmpty ? nil : table.existingID(forKey: s.kind.sign + key), "\(s)")
            if !text.utf8.elementsEqual(s.bytes) { invalidLooks += counting ? 2 : 1 }
        }
        let alphabet: [UInt8] = [0x00, 0x41, 0x61, 0x62, 0x5F, 0x7A, 0xC3, 0xA9, 0xFF, 0xE6, 0x9D, 0xB1]
        var spellings: [Spelling] = []
        for _ in 0..<12_000 {
            let n = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<n).map { _ in alphabet.randomElement(using: &generator)! }
            spellings.append(Spelling(kind: Bool.random(using: &generator) ? .hashtag : .user, bytes: bytes))
        }
        // Each one byte off, at every place, and of the other kind.
        for s in spellings.prefix(2_000) where !s.bytes.isEmpty {
            var changed = s
            let i = Int.random(in: 0..<s.bytes.count, using: &generator)
            changed.bytes[i] = changed.bytes[i] == 0x61 ? 0x62 : 0x61
            spellings.append(changed)
            spellings.append(Spelling(kind: s.kind == .hashtag ? .user : .hashtag, bytes: s.bytes))
            spellings.append(Spelling(kind: s.kind, bytes: s.bytes + [0x00]))
        }
        // Longer than 16, equal in their first and last 8 bytes: of one
        // length so many that probes pass over slots whose words are theirs.
        let ends = Array("stanford".utf8)
        for middle in 1...30 {
            for k in 0..<3 { spellings.append(Spelling(kind: .hashtag, bytes: ends + Array(repeating: UInt8(0x61 + k), count: middle) + ends)) }
        }
        for _ in 0..<5_000 {
            spellings.append(Spelling(kind: .user, bytes: ends + (0..<8).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) } + ends))
        }
        for (i, s) in spellings.enumerated() { look(s, counting: i % 5 != 0) }
        for s in spellings.shuffled(using: &generator).prefix(6_000) { look(s) }
        XCTAssertEqual(table.invalidUTF8Lookups, invalidLooks, "every counted look at an invalid spelling counts")
        for (s, entry) in entries.shuffled(using: &generator).prefix(500) where !s.bytes.isEmpty {
            let text = table.spelling(ofEntry: entry) ?? table.keys[Int(table.mentionID(ofEntry: entry))]
            XCTAssertEqual(text, s.kind.sign + String(decoding: s.bytes, as: UTF8.self).precomposedStringWithCanonicalMapping, "\(s)")
        }
    }

    /// `keyedID` says a spelling is its key only when `spelling(ofEntry:)`
    /// says so too (the spellings' fast path rests on it), and says so from
    /// the first look for an ASCII spelling written as its key: held over
    /// random spellings of both cases, non-ASCII ones, and ASCII spellings of
    /// a key held as a string that folds to them (U+037E is `;`).
    func testAKeyedLookUpSaysAKeySpellingAsTheSpellingDoes() {
        let table = MentionTable()
        var generator = SystemRandomNumberGenerator()
        func keyed(_ s: String, _ kind: MentionKind) -> (id: Int32?, asKey: Bool, entry: Int) {
            Array(s.utf8).withUnsafeBytes { raw in
                let (id, asKey) = table.keyedID(raw: raw, escaped: false, kind: kind)
                return (id, asKey, table.entry(raw: raw, escaped: false, kind: kind))
            }
        }
        // A key held as a string that folds to ASCII (as Swift compares strings): its ASCII spelling is not that key.
        let foldedID = table.id(forKey: "@a\u{037E}b")
        let folded = keyed("a;b", .user)
        XCTAssertEqual(folded.id, foldedID)
        XCTAssertFalse(folded.asKey, "the key is the string it was numbered by")
        XCTAssertEqual(table.spelling(ofEntry: folded.entry), "@a;b")
        XCTAssertTrue(keyed("stanford", .hashtag).asKey, "lower-case ASCII: its key from the first look")
        XCTAssertFalse(keyed("Stanford", .hashtag).asKey)
        let pieces = ["a", "B", "c", "\u{E9}", "e\u{301}", "_", "1", "Z"]
        for _ in 0..<20_000 {
            let n = Int.random(in: 1...5, using: &generator)
            let text = (0..<n).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let kind: MentionKind = Bool.random(using: &generator) ? .hashtag : .user
            let first = keyed(text, kind)
            guard first.id != nil else { continue }
            let written = table.spelling(ofEntry: first.entry)
            if first.asKey { XCTAssertNil(written, "\(kind) \(text)") }
            if text.utf8.allSatisfy({ $0 < 0x80 }) && text == text.lowercased() { XCTAssertTrue(first.asKey, text) }
            // Once `spellingOf` has found it so, every look says it.
            let spelled = Array(text.utf8).withUnsafeBytes { table.spellingOf(raw: $0, escaped: false, kind: kind).spelling }
            XCTAssertEqual(spelled, written)
            XCTAssertEqual(keyed(text, kind).asKey, written == nil, "\(kind) \(text)")
        }
    }

    func testLocalKeysNumberEachPieceAfresh() {
        let table = MentionTable()
        let ids = ["#a", "#b", "@c", "#d"].map { table.id(forKey: $0) }
        var local = LocalKeys(), keys: [String] = []
        XCTAssertEqual([ids[2], ids[0], ids[2], ids[3], ids[0]].map { local.local($0, table: table, into: &keys) }, [0, 1, 0, 2, 1])
        XCTAssertEqual(keys, ["@c", "#a", "#d"])
        XCTAssertEqual(local.numbers, [ids[2], ids[0], ids[3]])
        local.reset()
        keys = []
        XCTAssertEqual([ids[3], ids[1], ids[3]].map { local.local($0, table: table, into: &keys) }, [0, 1, 0],
                       "a new piece numbers its keys from 0, whatever the piece before met")
        XCTAssertEqual(keys, ["#d", "#b"])
        XCTAssertEqual(local.numbers, [ids[3], ids[1]])
        // Far past what was met: the arrays grow.
        let far = (0..<5_000).map { table.id(forKey: "#k\($0)") }.last!
        XCTAssertEqual(local.local(far, table: table, into: &keys), 2)
        XCTAssertEqual(keys.last, "#k4999")
    }

    /// Pieces of two workers (two tables that number the same keys
    /// differently), merged with the cache and without it (the keys' texts
    /// alone, as an extract read back or a store's scan gives them): the same
    /// reports, with the columns too.
    func testTheKeyCacheMergesAsTheKeysTexts() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        var records: [[UInt8]] = []
        for name in ["twarc-csv/flat.jsonl", "twarc-csv/kpop.jsonl", "twarc-csv/brexit.jsonl", "python-twitter/streaming/lines.json"] {
            guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path) else { continue }
            records += data.split(separator: UInt8(ascii: "\n")).map(Array.init)
        }
        XCTAssertGreaterThan(records.count, 150, "the corpus should be at ../shared/corpus")
        let terms = try ["*", "#kpop", "#brexit", "@bts_twt", "love"].map { try Term(parsing: $0) }
        let facts = ReportColumns.Facts(spellings: true, kinds: true, authors: true)
        // Two workers: the records dealt out in runs of 37, each run a piece.
        let workers = [UnitScanner(terms: terms, control: RunControl(strict: false), facts: facts),
                       UnitScanner(terms: terms, control: RunControl(strict: false), facts: facts)]
        var pieces: [PostPart] = []
        for (n, start) in stride(from: 0, to: records.count, by: 37).enumerated() {
            let worker = workers[n % 2]
            worker.begin()
            for (line, record) in records[start..<min(start + 37, records.count)].enumerated() {
                record.withUnsafeBytes { worker.record($0, line: line + 1, origin: Origin(path: "piece \(n)")) }
            }
            pieces.append(worker.finish(lines: 37))
        }
        XCTAssertEqual(Set(pieces.map(\.keySource)).count, 2, "each worker's pieces name its own table")
        XCTAssertTrue(pieces.allSatisfy { $0.keySource != 0 && $0.keyNumbers.count == $0.keys.count })
        let cached = Aggregator(terms: terms, facts: facts)
        let texts = Aggregator(terms: terms, facts: facts)
        for piece in pieces {
            cached.add(piece)
            var plain = piece
            plain.keySource = 0
            plain.keyNumbers = []
            texts.add(plain)
        }
        let (a, b) = (cached.reports(minCount: 1, top: nil), texts.reports(minCount: 1, top: nil))
        XCTAssertEqual(a, b)
        XCTAssertGreaterThan(a.map { $0.hashtags.count + $0.users.count }.reduce(0, +), 500, "the pieces hold many mentions")
        XCTAssertEqual(cached.reports(minCount: 2, top: 10), texts.reports(minCount: 2, top: 10))
    }
}
