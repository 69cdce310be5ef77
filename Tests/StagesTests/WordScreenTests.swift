import XCTest
@testable import Stages

/// `WordMatch.mayMatch` rules texts out from their raw JSON bytes before any
/// decoding, and `quickMatch` answers from them when it can: neither may
/// ever disagree with the full match (decode, unescape, NFC, lowercase,
/// whole word).
final class WordScreenTests: XCTestCase {
    /// The raw bytes of `text` as a JSON string's content: literal UTF-8
    /// (escaping only what JSON must), every non-ASCII scalar as `\uXXXX`
    /// (as the Twitter APIs write them), or also some ASCII letters escaped.
    enum Encoding: CaseIterable { case literal, asciiOnly, lettersEscaped }

    static func raw(_ text: String, _ encoding: Encoding, seed: inout UInt64) -> (bytes: [UInt8], escaped: Bool) {
        var out: [UInt8] = []
        var escaped = false
        func hex(_ v: UInt32) {
            out += Array("\\u".utf8) + Array(String(v, radix: 16).leftPad(4).utf8)
            escaped = true
        }
        for s in text.unicodeScalars {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            switch s {
            case "\"": out += Array("\\\"".utf8); escaped = true
            case "\\": out += Array("\\\\".utf8); escaped = true
            case "\n": out += Array("\\n".utf8); escaped = true
            default:
                if s.value >= 0x80 && encoding != .literal {
                    if s.value > 0xFFFF {
                        let v = s.value - 0x10000
                        hex(0xD800 + (v >> 10)); hex(0xDC00 + (v & 0x3FF))
                    } else {
                        hex(s.value)
                    }
                } else if encoding == .lettersEscaped && s.properties.isAlphabetic && s.isASCII && seed >> 61 == 0 {
                    hex(s.value)
                } else {
                    out += Array(String(s).utf8)
                }
            }
        }
        return (out, escaped)
    }

    /// Pieces that stress each rule: case, the two characters that lowercase
    /// or decompose to ASCII letters, combining marks, HTML entities, word
    /// boundaries, escapes of every kind, other scripts.
    static let pieces = ["love", "LOVE", "Love", "lo", "ve", "l", "o", "v", "e", "k", "K", "\u{212A}", "i", "I", "\u{130}",
                         "ite", "ite!", " ", "_", "#", "@", "&amp;", "&lt;", "&gt;", "&", "'", "don't", "don", "t",
                         "e\u{301}", "\u{301}", "é", "ü", "Straße", "καλημέρα", "東京", "😀", "\n", "\"", "\\", "s",
                         "stanford", "STANFORD", "Stanford's", "stanfordian", "ai", "AI", "x\u{308}",
                         "lt", "gt", "amp", ";", "&amp;lt;", "\u{0301}", "\u{0307}", "\t", "/", "0", "A", "€"]

    func testTheScreenNeverRulesOutAMatch() {
        let words = ["love", "k", "i", "kite", "ik", "stanford", "don't", "ai", "s", "lo", "ve", "ite", "lt", "amp", "gt;",
                     "a", "t", "n"]
        let matchers = words.map { WordMatch($0) }
        var seed: UInt64 = 0x5EED
        var ruledOut = 0, matched = 0, decided = 0
        for _ in 0..<40_000 {
            var text = ""
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(seed >> 61) + 1 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                text += Self.pieces[Int(seed >> 33) % Self.pieces.count]
            }
            let prepared = WordMatch.prepare(text)
            for encoding in Encoding.allCases {
                let (bytes, escaped) = Self.raw(text, encoding, seed: &seed)
                for (w, m) in zip(words, matchers) {
                    let full = m.matches(prepared: prepared)
                    let maybe = bytes.withUnsafeBytes { m.mayMatch(raw: $0, escaped: escaped) }
                    let quick = bytes.withUnsafeBytes { m.quickMatch(raw: $0, escaped: escaped) }
                    if full { matched += 1 }
                    if !maybe { ruledOut += 1 }
                    if quick != nil { decided += 1 }
                    XCTAssertTrue(maybe || !full, "ruled out \(w) in \(text.debugDescription) written \(String(decoding: bytes, as: UTF8.self))")
                    XCTAssertTrue(quick == nil || quick == full,
                                  "raw bytes said \(quick!) for \(w) in \(text.debugDescription) written \(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }
        // The screen does work: most texts are ruled out, and many match.
        XCTAssertGreaterThan(ruledOut, 200_000)
        XCTAssertGreaterThan(matched, 20_000)
        XCTAssertGreaterThan(decided, ruledOut + 20_000, "raw bytes decide matches too")
    }

    /// The two characters that normalise to ASCII letters, by hand.
    func testKelvinSignAndDottedCapitalIAreNotRuledOut() {
        for (word, text) in [("kite", "\u{212A}ite"), ("i", "\u{130}"), ("ki", "\u{212A}\u{130}")] {
            let m = WordMatch(word)
            XCTAssertTrue(m.matches(text), "\(text) holds \(word)")
            var seed: UInt64 = 1
            for encoding in Encoding.allCases {
                let (bytes, escaped) = Self.raw(text, encoding, seed: &seed)
                XCTAssertTrue(bytes.withUnsafeBytes { m.mayMatch(raw: $0, escaped: escaped) }, "\(encoding) \(text)")
            }
        }
        // And a text with neither the word nor such a character is ruled out.
        XCTAssertFalse(Array("no match here".utf8).withUnsafeBytes { WordMatch("kite").mayMatch(raw: $0, escaped: false) })
        XCTAssertFalse(Array(#"caf\u00e9 \n"#.utf8).withUnsafeBytes { WordMatch("kite").mayMatch(raw: $0, escaped: true) })
        XCTAssertTrue(Array(#"\u006bite"#.utf8).withUnsafeBytes { WordMatch("kite").mayMatch(raw: $0, escaped: true) })
    }
}

private extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
