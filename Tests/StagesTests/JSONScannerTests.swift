import Foundation
import XCTest
@testable import Stages

final class JSONScannerTests: XCTestCase {
    private func skip(_ text: String) -> JSONError? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw -> JSONError? in
            var s = JSONScanner(raw)
            do {
                try s.skipValue()
                s.skipWhitespace()
                return s.pos == s.count ? nil : JSONError(offset: s.pos, reason: .trailingBytes)
            } catch {
                return error as? JSONError
            }
        }
    }

    func testSkipsValidValues() {
        for valid in [#"{"a":[1,-2.5e3,true,false,null,"x\"y\u00e9"],"b":{}}"#, "[]", "0", #""""#, " [ [ ] , { } ] "] {
            XCTAssertNil(skip(valid), valid)
        }
    }

    func testRejectsInvalidValues() {
        let invalid = [#"{"a":1"#, #"{"a" 1}"#, "[1,]", "[01]", "01", "-", "1.", "1e", "tru", #""\x""#, #""\u12G4""#,
                       "{\"a\":\"line\nbreak\"}", "[1 2]", #"{"a":1,}"#, "{1:2}", "]"]
        for bad in invalid {
            XCTAssertNotNil(skip(bad), bad)
        }
    }

    /// Long numbers take the eight-digits-at-a-time path: its end must be
    /// found exactly whatever byte follows the digits.
    func testLongNumbersEndAtTheirFirstNonDigit() {
        for digits in [1, 7, 8, 9, 15, 16, 17, 19, 20, 40] {
            let number = "9" + String(repeating: "1234567890", count: 4).prefix(digits - 1)
            XCTAssertNil(skip("[" + number + "]"), number)
            XCTAssertNil(skip(#"{"id":"# + number + #","x":-"# + number + ".5e-3}"), number)
            for after: UInt8 in [0x2F, 0x3A, 0x40, 0x60, 0x7F, 0x80, 0xB9, 0xBA, 0xFF, 0x00, 0x61] {
                let bytes = Array(("[" + number).utf8) + [after] + Array("1234567890]".utf8)
                let error = bytes.withUnsafeBytes { raw -> JSONError? in
                    var s = JSONScanner(raw)
                    do { try s.skipValue(); return nil } catch { return error as? JSONError }
                }
                XCTAssertEqual(error?.offset, number.utf8.count + 1, "\(number) then \(after)")
            }
        }
    }

    func testMillionDeepArrayNeitherRecursesNorPasses() {
        let deep = String(repeating: "[", count: 1_000_000)
        XCTAssertEqual(skip(deep)?.reason, .unexpectedEnd)
        let balanced = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertNil(skip(balanced))
        let mixed = String(repeating: "[{\"a\":", count: 70) + "1" + String(repeating: "}]", count: 70)
        XCTAssertNil(skip(mixed))
        let wrongClose = String(repeating: "[{\"a\":", count: 70) + "1" + String(repeating: "]}", count: 70)
        XCTAssertNotNil(skip(wrongClose))
    }

    func testDecodesEscapesAndSurrogatePairs() {
        let raw = Array(#"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n lone:\ud800 end"#.utf8)
        let s = raw.withUnsafeBufferPointer { JSONText.decode(ByteSpan(start: 0, end: raw.count, escaped: true), in: $0.baseAddress!) }
        XCTAssertEqual(s, "café 😀 \"q\" \\ / \n lone:\u{FFFD} end")
        func decoded(_ raw: [UInt8]) -> String {
            raw.withUnsafeBufferPointer { JSONText.decode(ByteSpan(start: 0, end: raw.count, escaped: true), in: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!) }
        }
        // A backslash that ends the bytes is kept; runs between escapes come through whole.
        XCTAssertEqual(decoded(Array(#"ab\"#.utf8)), "ab\\")
        XCTAssertEqual(decoded(Array(#"\n"#.utf8)), "\n")
        XCTAssertEqual(decoded([]), "")
        // What a JSON writer escapes comes back as it was.
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "plain text ", "é", "日本", "😀", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7F}", "<&>", "\u{2028}"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...30, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let json = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            let raw = Array(json.dropFirst(2).dropLast(2))  // ["…"] less its brackets and quotes
            XCTAssertEqual(decoded(raw), text, "\(raw)")
        }
    }

    func testReadsIDsWithoutFloatingPoint() {
        func id(_ text: String) -> UInt64? {
            let raw = Array(text.utf8)
            return raw.withUnsafeBufferPointer { JSONText.uint64(ByteSpan(start: 0, end: raw.count, escaped: false), in: $0.baseAddress!) }
        }
        XCTAssertEqual(id("1377650090978992134"), 1_377_650_090_978_992_134)
        XCTAssertEqual(id("18446744073709551615"), UInt64.max)
        XCTAssertNil(id("18446744073709551616"))
        XCTAssertNil(id("-5"))
        XCTAssertNil(id("12a"))
        XCTAssertNil(id("1.0"))
        XCTAssertNil(id(""))
    }
}

/// UTF-8 is checked by the scanner as it scans strings (outside strings any
/// non-ASCII byte is a syntax error): the offsets are those of the bad byte.
final class UTF8CheckTests: XCTestCase {
    /// Where the scanner finds ill-formed UTF-8 in a string holding `bytes`
    /// (the offset within `bytes`), nil when it accepts the string.
    private func invalid(_ bytes: [UInt8]) -> Int? {
        let record = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
        return record.withUnsafeBytes { raw -> Int? in
            var s = JSONScanner(raw)
            do {
                try s.skipValue()
                XCTAssertEqual(s.pos, raw.count)
                return nil
            } catch let error as JSONError {
                XCTAssertEqual(error.reason, .invalidUTF8)
                return error.offset - 1
            } catch {
                XCTFail("\(error)")
                return nil
            }
        }
    }

    func testNonASCIIOutsideStringsIsASyntaxError() {
        for bytes: [UInt8] in [[0xC3, 0xA9], [0x5B, 0xC3, 0xA9, 0x5D], [0x7B, 0x22, 0x61, 0x22, 0x3A, 0xE2, 0x80, 0x8B, 0x31, 0x7D]] {
            let error = bytes.withUnsafeBytes { raw -> JSONError? in
                var s = JSONScanner(raw)
                do { try s.skipValue(); return nil } catch { return error as? JSONError }
            }
            XCTAssertEqual(error?.reason, .unexpectedByte(bytes.first { $0 >= 0x80 }!), "\(bytes)")
        }
    }

    func testDecoderRejectsARecordWithIllFormedUTF8AnywhereInAString() throws {
        let decoder = TweetDecoder()
        let good = Array(#"{"id_str":"1","user":{"screen_name":"ana","bio":"é 東京 😀"},"entities":{"hashtags":[{"text":"Россия"}]}}"#.utf8)
        XCTAssertNoThrow(try good.withUnsafeBytes { try decoder.decode($0) })
        XCTAssertEqual(decoder.outputs.count, 1)
        // The bad byte (0xFF, written `~` here) in a skipped member, in a key, and in a mention.
        for bad in [#"{"id_str":"1","x":"ab~"}"#, #"{"id_str":"1","k~":1}"#,
                    #"{"id_str":"1","entities":{"hashtags":[{"text":"a~"}]}}"#] {
            let bytes = Array(bad.utf8).map { $0 == UInt8(ascii: "~") ? 0xFF : $0 }
            let error = bytes.withUnsafeBytes { raw -> JSONError? in
                do { try decoder.decode(raw); return nil } catch { return error as? JSONError }
            }
            XCTAssertEqual(error?.reason, .invalidUTF8, bad)
            XCTAssertEqual(error?.offset, bytes.firstIndex(of: 0xFF), bad)
        }
    }

    func testWellFormedAndIllFormedUTF8() {
        XCTAssertNil(invalid(Array("plain ascii, then é 東京 😀 #Россия".utf8)))
        XCTAssertNil(invalid([]))
        XCTAssertEqual(invalid(Array("Stan".utf8) + [0xFF] + Array("ford".utf8)), 4)
        XCTAssertEqual(invalid([0x41, 0xC3]), 1, "truncated sequence")
        XCTAssertEqual(invalid([0xC0, 0xAF]), 0, "overlong")
        XCTAssertEqual(invalid([0xED, 0xA0, 0x80]), 0, "a surrogate")
        XCTAssertEqual(invalid([0xF4, 0x90, 0x80, 0x80]), 0, "past U+10FFFF")
        XCTAssertEqual(invalid(Array(repeating: 0x61, count: 20) + [0xE2, 0x28, 0xA1]), 20)
        // Runs of characters beyond ASCII, checked to their end: the bad byte found where it is.
        XCTAssertNil(invalid(Array("Ελληνικά日本語😀😀é".utf8)))
        XCTAssertEqual(invalid(Array("Ελλ".utf8) + [0x80] + Array("ηνικά".utf8)), 6, "a continuation byte after a run")
        XCTAssertEqual(invalid(Array("日本".utf8) + [0xE6, 0x9C]), 6, "a run cut short by the string's end")
        XCTAssertEqual(invalid(Array("éé".utf8) + [0xC3]), 4, "a two-byte lead at the end")
    }

    /// Every one- and two-byte string of bytes after a plain prefix, and
    /// three-byte ones after a lead beyond ASCII: the scanner accepts exactly
    /// the strings Swift's own UTF-8 validation accepts.
    func testAgreesWithSwiftsValidationOnShortSequences() {
        let allowed = (0...255).map(UInt8.init).filter { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }
        func check(_ bytes: [UInt8]) {
            let swift = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(invalid(bytes) == nil, swift, "\(bytes)")
        }
        for x in allowed {
            check([0x61, x])
            for y in allowed where x >= 0x80 { check([x, y]) }
        }
        for x in allowed where x >= 0xE0 {
            for y in [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0x41] as [UInt8] {
                for z in [0x80, 0xBF, 0xC0, 0x41] as [UInt8] { check([x, y, z]); check([x, y, z, 0x80]); check([0xCE, 0xB1, x, y, z]) }
            }
        }
    }
}

final class HexDigitTests: XCTestCase {
    /// The four-at-once test agrees with the byte test on every byte in
    /// every position, among hex digits and next to them.
    func testFourAtOnceAgreesWithOneAtATime() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for byte in 0...255 {
            for position in 0..<4 {
                var bytes: [UInt8] = [digits[byte % 22], digits[(byte / 3) % 22], digits[(byte / 7) % 22], digits[(byte / 11) % 22]]
                bytes[position] = UInt8(byte)
                let w = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
                XCTAssertEqual(areHexDigits(w), bytes.allSatisfy(isHexDigit), "\(bytes)")
            }
        }
        XCTAssertTrue(areHexDigits(UInt32(0x6634_3330)))   // "034f"
        XCTAssertFalse(areHexDigits(UInt32(0x6734_3330)))  // "034g"
    }
}
