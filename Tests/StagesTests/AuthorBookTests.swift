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
        // Numbers below the book's bound, which is nearly their count (each shard numbers a space of its own).
        XCTAssertTrue(idOfNumber.keys.allSatisfy { $0 >= 0 && Int($0) < book.count })
        XCTAssertEqual(book.keys.filter { !$0.isEmpty }.count, idOfNumber.count)
        XCTAssertGreaterThan(invalids, 100)
        XCTAssertGreaterThan(escapedOnes, 1_000)
        XCTAssertGreaterThan(none, 100)
        // A key held as a string that folds to ASCII is the ASCII key's author (Swift's equality).
        XCTAssertEqual(book.number(key: "@a\u{037E}b"), Array("a;b".utf8).withUnsafeBytes { book.number(raw: $0, escaped: false).number })
    }

    /// Four threads number the same 20,000 keys, each in an order of its own (each
    /// shard's slots grow meanwhile): every key gets one number, the numbers are
    /// distinct and below the book's bound (within 5/4 of 20,000), and each names its key.
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
        // 20,000 numbers, one a key, all below the bound, which is nearly 20,000 (the shards hold about as many each).
        XCTAssertEqual(Set(results[0..<keys.count]).count, keys.count)
        XCTAssertTrue(results[0..<keys.count].allSatisfy { $0 >= 0 && Int($0) < book.count })
        XCTAssertLessThan(book.count, keys.count * 5 / 4)
        let all = book.keys
        XCTAssertEqual(all.count, book.count)
        XCTAssertEqual(all.filter { !$0.isEmpty }.count, keys.count)
        for k in keys.indices { XCTAssertEqual(Array(all[Int(results[k])].utf8), Array(keys[k].utf8)) }
    }

    /// Authors numbered a part at a time (`number(of:into:)`, each shard's
    /// under one taking of its lock) get the numbers the keys get one by one,
    /// each at its own index, whichever comes first: 20,000 names of 4 to 15
    /// bytes (half read in capitals; every shard's slots grow within the
    /// batch), 500 of them numbered by key before and all after, an index
    /// holding no name left alone, and no escaped or 16-byte name pending.
    func testAuthorsNumberedAPartAtATimeAreNumberedByTheirKeys() {
        let book = AuthorBook()
        let names = (0..<20_000).map { i in i % 3 == 0 ? "Name\(i / 3)" : "n\(i)_" + String(repeating: "x", count: i % 9) }
        let early = (0..<500).map { book.number(key: "@" + names[$0 * 7].lowercased()) }
        var pending: [AuthorBook.Pending] = []
        var numbers = [Int32](repeating: -7, count: names.count + 1)
        for (i, name) in names.enumerated() {
            let bytes = Array((i % 2 == 0 ? name.uppercased() : name).utf8)
            pending.append(bytes.withUnsafeBytes { AuthorBook.pending(raw: $0, escaped: false, index: Int32(i + 1))! })
        }
        XCTAssertNil(Array("ab\\u0041".utf8).withUnsafeBytes { AuthorBook.pending(raw: $0, escaped: true, index: 0) })
        XCTAssertNil(Array("sixteen_letters_".utf8).withUnsafeBytes { AuthorBook.pending(raw: $0, escaped: false, index: 0) })
        book.number(of: pending, into: &numbers)
        XCTAssertEqual(numbers[0], -7)
        for (i, name) in names.enumerated() {
            XCTAssertEqual(numbers[i + 1], book.number(key: "@" + name.lowercased()), name)
            XCTAssertEqual(book.key(numbers[i + 1]), "@" + name.lowercased())
        }
        for k in 0..<500 { XCTAssertEqual(early[k], numbers[k * 7 + 1]) }
        XCTAssertEqual(Set(numbers.dropFirst()).count, Set(names.map { $0.lowercased() }).count)
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
