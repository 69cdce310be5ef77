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

final class UTF8CheckTests: XCTestCase {
    private func invalid(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBytes { UTF8Check.firstInvalid($0) } }

    func testWellFormedAndIllFormedUTF8() {
        XCTAssertNil(invalid(Array("plain ascii, then é 東京 😀 #Россия".utf8)))
        XCTAssertNil(invalid([]))
        XCTAssertEqual(invalid(Array("Stan".utf8) + [0xFF] + Array("ford".utf8)), 4)
        XCTAssertEqual(invalid([0x41, 0xC3]), 1, "truncated sequence")
        XCTAssertEqual(invalid([0xC0, 0xAF]), 0, "overlong")
        XCTAssertEqual(invalid([0xED, 0xA0, 0x80]), 0, "a surrogate")
        XCTAssertEqual(invalid([0xF4, 0x90, 0x80, 0x80]), 0, "past U+10FFFF")
        XCTAssertEqual(invalid(Array(repeating: 0x61, count: 20) + [0xE2, 0x28, 0xA1]), 20)
    }
}
