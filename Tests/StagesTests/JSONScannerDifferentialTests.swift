import XCTest
@testable import Stages

/// The fast scanner against `ReferenceJSONScanner` (the scanner before the
/// speed work of issue 16) on records that are valid, broken and in
/// between: the same values accepted, the same members found, and the same
/// error, reason and offset, for every bad one (its message names the byte).
///
/// Each record is walked as the tweet decoder walks one (members, the
/// `user` and entity objects by `stringMember`, everything else skipped),
/// from the top and from every object inside it, and skipped whole; both
/// scanners write what they met into a trace, and the traces must be equal.
final class JSONScannerDifferentialTests: XCTestCase {
    /// One step of a walk, as both scanners report it.
    enum Step: Equatable {
        case key(Int, Int, Bool), found(ByteSpan?), end(Int), failed(JSONError)
    }

    // MARK: The walks

    static func walk(fast bytes: UnsafeRawBufferPointer, from: Int) -> [Step] { walk(JSONScanner.self, bytes, from: from) }

    static func walk(reference bytes: UnsafeRawBufferPointer, from: Int) -> [Step] {
        walk(ReferenceJSONScanner.self, bytes, from: from)
    }

    /// The walk of a record from `from` by a scanner of type `S`: as the decoder walks it, skipped whole, and three members sought.
    private static func walk<S: WalkedScanner>(_: S.Type, _ bytes: UnsafeRawBufferPointer, from: Int) -> [Step] {
        var s = S(bytes)
        s.pos = from
        var steps: [Step] = []
        do {
            try walkValue(&s, depth: 0, &steps)
            steps.append(.end(s.pos))
        } catch {
            steps.append(.failed(error))
        }
        var t = S(bytes)
        t.pos = from
        do {
            try t.skipValue()
            t.skipWhitespace()
            steps.append(.end(t.pos))
        } catch {
            steps.append(.failed(error))
        }
        for (name, other) in [("screen_name", nil), ("text", "tag"), ("a", "id_str")] as [(StaticString, StaticString?)] {
            var u = S(bytes)
            u.pos = from
            do {
                steps.append(.found(try u.stringMember(name, or: other)))
                steps.append(.end(u.pos))
            } catch {
                steps.append(.failed(error))
            }
        }
        return steps
    }

    private static func walkValue<S: WalkedScanner>(_ s: inout S, depth: Int, _ steps: inout [Step]) throws(JSONError) {
        switch try s.peek() {
        case UInt8(ascii: "{") where depth < 3:
            try s.forEachMember { (s: inout S, key: ByteSpan) throws(JSONError) in
                steps.append(.key(key.start, key.end, key.escaped))
                if s.key(key, is: "user") || s.key(key, is: "author") {
                    if try s.peek() == UInt8(ascii: "{") { steps.append(.found(try s.stringMember("screen_name", or: nil))) } else { try s.skipValue() }
                } else if s.key(key, is: "text") || s.key(key, is: "id_str") {
                    steps.append(.found(try s.stringOrSkip()))
                } else if s.key(key, is: "other") {
                    try s.skipValue()
                } else {
                    try walkValue(&s, depth: depth + 1, &steps)
                }
            }
        case UInt8(ascii: "[") where depth < 3:
            try s.forEachElement { (s: inout S) throws(JSONError) in
                if try s.peek() == UInt8(ascii: "{"), depth == 1 {
                    steps.append(.found(try s.stringMember("text", or: "tag")))
                } else {
                    try walkValue(&s, depth: depth + 1, &steps)
                }
            }
        default:
            try s.skipValue()
        }
    }

    // MARK: Records

    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let keys = ["id", "id_str", "text", "user", "screen_name", "tag", "a", "other", "entities", "hashtags",
                       "profile_background_image_url_https", "name", "t\\u0065xt", "scr\\u0065en_name", "description",
                       "a_key_of_exactly_16", "k", "", "\\\"", "user_mentions", "author", "0123456789abcdef0123456789abcdef"]
    static let strings = ["", "x", "RT @a: b", "caf\\u00e9 \\ud83d\\ude00", "https:\\/\\/t.co\\/abc", "\\\\\\\"", "é東😀",
                          "sixteen bytes!!!", "a string that is longer than thirty-two bytes, easily",
                          "\\u03b1\\u03c0\\u03cc \\u03c4\\u03b7\\u03bd", "tab\\tnew\\nline", "\\b\\f\\r\\/"]
    static let scalars = ["0", "-0", "12", "-7", "3.25", "1e9", "-2.5E-3", "2126828484833067018", "18446744073709551616",
                          "true", "false", "null", "0.0", "1E+2"]

    static func value(_ r: inout Random, depth: Int, into out: inout String) {
        func space() { if r.below(6) == 0 { out += [" ", "\n", "\t", "\r\n ", "  "][r.below(5)] } }
        space()
        switch depth > 3 ? r.below(3) : r.below(6) {
        case 0: out += "\"" + strings[r.below(strings.count)] + "\""
        case 1, 2: out += scalars[r.below(scalars.count)]
        case 3, 4:
            out += "{"
            let n = r.below(7)
            for k in 0..<n {
                if k > 0 { out += "," }
                space()
                out += "\"" + keys[r.below(keys.count)] + "\""
                space()
                out += ":"
                value(&r, depth: depth + 1, into: &out)
                space()
            }
            out += "}"
        default:
            out += "["
            let n = r.below(5)
            for k in 0..<n {
                if k > 0 { out += "," }
                value(&r, depth: depth + 1, into: &out)
            }
            space()
            out += "]"
        }
        space()
    }

    /// A few bytes changed, dropped, added or cut: the bytes JSON's grammar turns on.
    static func mutate(_ bytes: [UInt8], _ r: inout Random) -> [UInt8] {
        var b = bytes
        let alphabet = Array("\"\\{}[]:,0123456789-+.eEtrufalsn u\t\r\n".utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xA0, 0xF0, 0x9F, 0xFF]
        for _ in 0...r.below(3) where !b.isEmpty {
            let p = r.below(b.count)
            switch r.below(10) {
            case 0...3: b[p] = alphabet[r.below(alphabet.count)]
            case 4, 5: b.remove(at: p)
            case 6, 7: b.insert(alphabet[r.below(alphabet.count)], at: p)
            case 8: b.removeSubrange(p...)
            default: b.insert(contentsOf: Array(" \t ".utf8), at: p)
            }
        }
        return b
    }

    private func compare(_ bytes: [UInt8], _ failures: inout Int, file: StaticString = #filePath, line: UInt = #line) {
        bytes.withUnsafeBytes { raw in
            // From the top, and from every object and array inside (the first 40).
            var starts = [0]
            for (i, c) in bytes.enumerated() where (c == UInt8(ascii: "{") || c == UInt8(ascii: "[")) && starts.count < 40 { starts.append(i) }
            for start in starts {
                let fast = Self.walk(fast: raw, from: start), reference = Self.walk(reference: raw, from: start)
                if fast != reference {
                    failures += 1
                    if failures <= 5 {
                        let k = (0..<min(fast.count, reference.count)).first { fast[$0] != reference[$0] } ?? min(fast.count, reference.count)
                        let record = String(decoding: bytes.prefix(400), as: UTF8.self).debugDescription
                        XCTFail("from \(start) of \(record): step \(k): fast \(fast.dropFirst(k).prefix(2)), reference \(reference.dropFirst(k).prefix(2))",
                                file: file, line: line)
                    }
                }
            }
        }
    }

    func testGeneratedRecordsWalkAsTheReferenceWalksThem() {
        var r = Random(state: 0x16_5EED)
        var failures = 0, broken = 0
        for _ in 0..<6_000 {
            var text = ""
            Self.value(&r, depth: 0, into: &text)
            let bytes = Array(text.utf8)
            compare(bytes, &failures)
            for _ in 0..<4 {
                let m = Self.mutate(bytes, &r)
                compare(m, &failures)
                let failed = m.withUnsafeBytes { raw in
                    Self.walk(reference: raw, from: 0).contains { if case .failed = $0 { return true } else { return false } }
                }
                if failed { broken += 1 }
            }
        }
        XCTAssertEqual(failures, 0)
        XCTAssertGreaterThan(broken, 5_000, "the mutations should break most records")
    }

    func testCorpusRecordsAndTheirMutationsWalkAsTheReferenceWalksThem() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let files = ["twarc-csv/flat.jsonl", "twarc-csv/kpop.jsonl", "twarc-csv/brexit.jsonl", "python-twitter/streaming/lines.json",
                     "python-twitter/get_search_raw.json", "sferik-twitter/premium_search_next.json", "twitter4j/streamingapi-testcase.json"]
        var r = Random(state: 0xC0_4905)
        var failures = 0, records = 0
        for name in files {
            guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path) else { continue }
            for line in data.split(separator: UInt8(ascii: "\n")).prefix(150) {
                let bytes = Array(line)
                records += 1
                compare(bytes, &failures)
                for _ in 0..<6 { compare(Self.mutate(bytes, &r), &failures) }
            }
        }
        XCTAssertGreaterThan(records, 100, "the corpus should be at ../shared/corpus")
        XCTAssertEqual(failures, 0)
    }
}

/// What the walks ask of a scanner: the fast one and the reference alike.
protocol WalkedScanner {
    init(_ bytes: UnsafeRawBufferPointer)
    var pos: Int { get set }
    mutating func skipWhitespace()
    mutating func peek() throws(JSONError) -> UInt8
    mutating func skipValue() throws(JSONError)
    mutating func stringMember(_ name: StaticString, or other: StaticString?) throws(JSONError) -> ByteSpan?
    mutating func forEachMember(_ body: (inout Self, ByteSpan) throws(JSONError) -> Void) throws(JSONError)
    mutating func forEachElement(_ body: (inout Self) throws(JSONError) -> Void) throws(JSONError)
    mutating func stringOrSkip() throws(JSONError) -> ByteSpan?
    func key(_ span: ByteSpan, is name: StaticString) -> Bool
}

extension JSONScanner: WalkedScanner {}
extension ReferenceJSONScanner: WalkedScanner {}
