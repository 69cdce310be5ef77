import Foundation
import XCTest
@testable import Stages

/// SPEC §5's NFC, as smashtag computes it (`KeyNormalization.nfc`, the
/// standard library's tables), against Python's `unicodedata`, and what it
/// changes in a report.
final class NormalizationTests: XCTestCase {
    /// Every assigned scalar Python's tables know, alone and followed by
    /// marks that compose or reorder (an acute, a dot below, a kana voicing
    /// mark, a Hangul vowel and final consonant, an overlay, a Hebrew point):
    /// the same NFC as `unicodedata.normalize`.
    func testNFCIsPythonsOnEveryScalar() throws {
        let version = try Smashtag.reference("nfc.py", ["--version"]).split(separator: "\n")[0].split(separator: ".").map { Int($0)! }
        let known = { (u: Unicode.Scalar) -> Bool in
            guard let age = u.properties.age else { return false }
            return age.major < version[0] || age.major == version[0] && age.minor <= version[1]
        }
        let marks: [Unicode.Scalar] = ["\u{301}", "\u{323}", "\u{3099}", "\u{1161}", "\u{11A8}", "\u{334}", "\u{5B7}"]
        var inputs: [[Unicode.Scalar]] = []
        for v in UInt32(0x20)..<0x3_0000 {
            guard let u = Unicode.Scalar(v), known(u), u.properties.generalCategory != .control else { continue }
            inputs.append([u])
            for m in marks { inputs.append([u, m]) }
        }
        // Hangul: a leading consonant, a vowel and a final, as three scalars.
        for l in stride(from: 0x1100, through: 0x1112, by: 3) {
            for v in stride(from: 0x1161, through: 0x1175, by: 4) {
                for t in [0x11A7, 0x11A8, 0x11C2, 0x11C3] { inputs.append([l, v, t].map { Unicode.Scalar(UInt32($0))! }) }
            }
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-nfc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("inputs.txt")
        let hex = { (s: [Unicode.Scalar]) in s.map { String($0.value, radix: 16) }.joined(separator: " ") }
        try (inputs.map(hex).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .ascii)
        let expected = try Smashtag.reference("nfc.py", [file.path]).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertGreaterThan(inputs.count, 500_000)
        XCTAssertEqual(expected.count, inputs.count + 1)
        var wrong: [String] = []
        for (i, s) in inputs.enumerated() where i < expected.count {
            var text = ""
            text.unicodeScalars.append(contentsOf: s)
            let got = hex(Array(KeyNormalization.nfc(text).unicodeScalars))
            if got != expected[i] { wrong.append("\(hex(s)) → \(got), Python \(expected[i])") }
        }
        XCTAssertEqual(wrong.count, 0, wrong.prefix(10).joined(separator: "\n"))
        // The composition Foundation's normaliser misses (a syllable and a final consonant): done here.
        XCTAssertEqual(KeyNormalization.nfc("\u{AC00}\u{11A8}"), "\u{AC01}")
    }

    /// A hashtag written as a syllable and a final consonant apart, and as
    /// the one syllable they make, is one hashtag shown in NFC (SPEC §5),
    /// byte for byte, from the dumps, from a store and through `extract |
    /// aggregate` (Swift's `==` takes the two for equal, so bytes are compared).
    func testHangulWrittenApartIsOneHashtagInNFC() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-nfc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tweets.jsonl")
        let apart = "\u{AC00}\u{11A8}", whole = "\u{AC01}"
        var lines: [String] = []
        for (i, tag) in [apart, whole, whole].enumerated() {
            lines.append(##"{"id":\##(i + 1),"text":"#\##(tag)","user":{"screen_name":"u\##(i)"},"entities":{"hashtags":[{"text":"\##(tag)"}],"user_mentions":[]}}"##)
        }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let expected = Array("term,type,mention,count\n*,hashtag,#\u{AC01},3\n".utf8)
        let dumps = try Smashtag.report(["*", file.path, "--kinds", "hashtag", "--format", "csv", "-q"])
        XCTAssertEqual(Array(dumps.stdout.utf8), expected, dumps.stdout)
        let store = dir.appendingPathComponent("posts.db").path
        XCTAssertEqual(try Smashtag.run(["ingest", file.path, "--store", store, "-q"]).status, 0)
        let stored = try Smashtag.report(["*", "--store", store, "--kinds", "hashtag", "--format", "csv", "-q"])
        XCTAssertEqual(Array(stored.stdout.utf8), expected, stored.stdout)
        let extracted = try Smashtag.run(["extract", "*", file.path, "--kinds", "hashtag", "-q"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let aggregated = try Smashtag.run(["aggregate", "--format", "csv", "-q"], stdin: Data(extracted.stdout.utf8))
        XCTAssertEqual(Array(aggregated.stdout.utf8), expected, aggregated.stderr)
    }
}
