import Dispatch
import XCTest
@testable import Stages

/// `AuthorBook` numbers an author as a worker's `MentionTable` keys it:
/// the same key (as Swift compares strings), the same invalid UTF-8 counted,
/// and one number for one key whichever worker asks, in whatever order.
final class AuthorBookTests: XCTestCase {
    /// Random spellings as records write them — cases, precomposed and
    /// combining accents, a dotted capital I, JSON escapes, bytes that are
    /// no UTF-8, nothing at all — through a fresh table and a
    /// fresh book: the book's key is the table's, a number is shared exactly
    /// when an id is, and the book says invalid exactly when the table counts it.
    func testAnAuthorIsNumberedByTheKeyAWorkersTableMakes() {
        let table = MentionTable(), book = AuthorBook()
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = ["a", "B", "c", "_", "1", "Z", "\u{E9}", "e\u{301}", "E\u{301}", "\u{130}", "\\u0041", "\\u00e9", ".", "x"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3]]  // bytes that are no UTF-8
        var idOfNumber: [Int32: Int32] = [:], numberOfID: [Int32: Int32] = [:]
        var invalids = 0, escapedOnes = 0, none = 0
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...4, using: &generator)
            let chosen = (0..<n).map { _ in pieces.randomElement(using: &generator)! }
            let bytes = chosen.flatMap { $0 }, text = String(decoding: bytes, as: UTF8.self)
            let escaped = chosen.contains { $0.first == UInt8(ascii: "\\") }
            let (id, number, invalid, counted): (Int32?, Int32?, Bool, Bool) = bytes.withUnsafeBytes { raw in
                let before = table.invalidUTF8Lookups
                let id = table.id(raw: raw, escaped: escaped, kind: .user)
                let (number, invalid) = book.number(raw: raw, escaped: escaped)
                return (id, number, invalid, table.invalidUTF8Lookups != before)
            }
            XCTAssertEqual(number == nil, id == nil, text)
            XCTAssertEqual(invalid, counted, text)
            if invalid { invalids += 1 }
            if escaped { escapedOnes += 1 }
            guard let id, let number else { none += 1; continue }
            XCTAssertEqual(book.key(number), table.key(Int(id)), text)
            XCTAssertEqual(idOfNumber[number, default: id], id, "two keys, one number: \(text)")
            XCTAssertEqual(numberOfID[id, default: number], number, "one key, two numbers: \(text)")
            idOfNumber[number] = id
            numberOfID[id] = number
        }
        XCTAssertEqual(Set(idOfNumber.keys), Set(0..<Int32(book.count)), "numbers are dense from 0")
        XCTAssertGreaterThan(invalids, 100)
        XCTAssertGreaterThan(escapedOnes, 1_000)
        XCTAssertGreaterThan(none, 100)
        // A key held as a string that folds to ASCII is the ASCII key's author (Swift's equality).
        XCTAssertEqual(book.number(key: "@a\u{037E}b"), Array("a;b".utf8).withUnsafeBytes { book.number(raw: $0, escaped: false).number })
    }

    /// Four threads number the same 20,000 keys, each in an order of its own (each
    /// shard's slots grow meanwhile): every key gets one number, the numbers are
    /// 0..<20,000, and each names its key.
    func testEveryThreadGetsOneNumberForAKey() {
        let book = AuthorBook()
        // Short keys (compared in their slot), non-ASCII ones (by their strings), and long ones alike in
        // their first and last 8 bytes and length (told apart by their bytes alone).
        let keys = (0..<20_000).map { i in
            i % 7 == 0 ? "@d\u{E9}j\u{E0}-\(i)" : i % 3 == 0 ? "@did:plc:\(10_000 + i)-middle-xxxxxxxx" : "@author\(i)"
        }
        let box = UncheckedBox(UnsafeMutableBufferPointer<Int32>.allocate(capacity: 4 * keys.count))
        let results = box.value
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            let results = box.value
            var order = Array(keys.indices)
            var generator = SystemRandomNumberGenerator()
            order.shuffle(using: &generator)
            for k in order {
                // Half by the key, half by the bytes a record would hold (ASCII ones written in capitals).
                if keys[k].utf8.allSatisfy({ $0 < 0x80 }) && k % 2 == 0 {
                    let raw = Array(keys[k].dropFirst().uppercased().utf8)
                    results[t * keys.count + k] = raw.withUnsafeBytes { book.number(raw: $0, escaped: false).number! }
                } else {
                    results[t * keys.count + k] = book.number(key: keys[k])
                }
            }
        }
        for k in keys.indices {
            let n = results[k]
            for t in 1..<4 { XCTAssertEqual(results[t * keys.count + k], n, keys[k]) }
            XCTAssertEqual(book.key(n), keys[k])
        }
        XCTAssertEqual(Set(results[0..<keys.count]), Set(0..<Int32(keys.count)))
        XCTAssertEqual(book.keys.count, keys.count)
    }

    /// Names of every length from 1 to 20 (a key of 16 bytes made in
    /// registers, longer ones from bytes), each byte in turn a capital, a
    /// digit, `_` or a letter near `A`, `Z`, `a` and `z`: a name read raw
    /// and the key written out get one number, the key kept is `@` and the
    /// name lowercased, and names that differ in any one byte get two.
    func testNamesOfEveryLengthAreKeyedAsTheirText() {
        let book = AuthorBook()
        let alphabet = Array("AZaz@[`{_09Mm".utf8)
        var numbers: [Int32: String] = [:]
        for length in 1...20 {
            for variant in 0..<alphabet.count {
                // The same base name, one byte changed per variant, at a place moving with it.
                var name = (0..<length).map { UInt8(ascii: "k") &+ UInt8($0 % 10) }
                name[(variant * 7) % length] = alphabet[variant]
                let key = "@" + String(decoding: name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
                let byRaw = name.withUnsafeBytes { book.number(raw: $0, escaped: false).number }
                XCTAssertEqual(byRaw, book.number(key: key), key)
                guard let byRaw else { continue }
                XCTAssertEqual(book.key(byRaw), key)
                XCTAssertEqual(numbers[byRaw, default: key], key, "two keys, one number")
                numbers[byRaw] = key
            }
        }
        XCTAssertEqual(Set(numbers.values).count, numbers.count)
        XCTAssertGreaterThan(numbers.count, 200)
        // A key canonically equal to an ASCII one, met first, is kept as written, short or long.
        for written in ["@a\u{037E}b", "@\u{1FEF}ay", "@long\u{037E}name_past_sixteen"] {
            let n = book.number(key: written)
            // By bytes: Swift's `==` takes the folded form and the written one as one string.
            XCTAssertEqual(Array(book.key(n).utf8), Array(written.utf8))
            // The ASCII it folds to (U+037E is `;`, U+1FEF a backquote), read raw: the same author.
            var ascii = ""
            ascii.unicodeScalars.append(contentsOf: written.unicodeScalars.map { $0 == "\u{037E}" ? ";" : $0 == "\u{1FEF}" ? "`" : $0 })
            XCTAssertEqual(Array(ascii.dropFirst().utf8).withUnsafeBytes { book.number(raw: $0, escaped: false).number }, n, ascii)
        }
        // Eight bytes lowercased at once, each lane as the byte rule lowers it, for every ASCII byte.
        for b in 0..<UInt64(0x80) {
            let lanes = (0..<8).reduce(UInt64(0)) { $0 | ((b &+ UInt64($1)) % 0x80) << UInt64(8 * $1) }
            let lowered = ShortKey.lowercased(lanes)
            for lane in 0..<8 {
                let byte = UInt8(truncatingIfNeeded: lanes >> UInt64(8 * lane))
                XCTAssertEqual(UInt8(truncatingIfNeeded: lowered >> UInt64(8 * lane)), MentionKey.lowercasedASCII(byte), "byte \(byte)")
            }
        }
    }
}
