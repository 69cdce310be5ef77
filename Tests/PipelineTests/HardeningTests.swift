import Foundation
import XCTest

/// Regression tests for issue 17 ("what real archives, hostile inputs and
/// new users found"), one per item, each named after what broke. The
/// hostile ones that need a bound on time or memory are in `FaultMatrixTests`.
final class HardeningTests: XCTestCase {
    static let expected = FaultMatrixTests.expected
    private var dir = URL(fileURLWithPath: "/")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-harden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(at: made) }
    }

    /// The dozen's array written on one line, with one broken element
    /// (`{"id":1,"text":"x",}`) as the fourth; returns the file and the
    /// broken element's byte offset.
    private func oneLineArray() throws -> (path: String, offset: Int) {
        let array = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: ShapesTests.dozen.appendingPathComponent("dozen-array.json"))) as? [Any])
        var parts = try array.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let broken = #"{"id":1,"text":"x",}"#
        parts.insert(broken, at: 3)
        let text = "[" + parts.joined(separator: ",") + "]\n"
        let url = dir.appendingPathComponent("one-line.json")
        try Data(text.utf8).write(to: url)
        let offset = try XCTUnwrap(Data(text.utf8).range(of: Data(broken.utf8))).lowerBound
        return (url.path, offset)
    }

    /// Item 3: a broken element of a one-line JSON array was "line 1"; it is
    /// named by its index in the array and its byte offset, read in place,
    /// from a gzip, and in tiny batches alike.
    func testBrokenElementOfAOneLineArrayIsNamedByIndexAndOffset() throws {
        let (path, offset) = try oneLineArray()
        let gz = path + ".gz"
        let g = Process()
        g.executableURL = URL(fileURLWithPath: "/bin/sh")
        g.arguments = ["-c", "gzip -c '\(path)' > '\(gz)'"]
        try g.run()
        g.waitUntilExit()
        for (input, env) in [(path, [:]), (gz, [:]), (gz, ["SMASHTAG_BATCH_BYTES": "100"])] {
            let r = try Smashtag.run(["report", "*", input, "--format", "csv", "--min-count", "1"], environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, Self.expected, "the other eleven elements count: \(input)")
            XCTAssertTrue(r.stderr.contains("line 1, element 3 (byte \(offset)): invalid JSON"), "\(input) \(env): \(r.stderr)")
        }
        // A pretty-printed array's elements start their own lines: their line says where they are.
        let pretty = try Smashtag.run(["report", "*", ShapesTests.dozen.appendingPathComponent("dozen-array.json").path, "-q"])
        XCTAssertFalse(pretty.stderr.contains("element"), pretty.stderr)
    }

    /// Item 6: a dump without entities (v2 fetched without
    /// `tweet.fields=entities`, a stripped v1.1 dump) gave an empty report
    /// and no hint; now stderr says to try `--mentions-from text`.
    func testDumpWithoutEntitiesSaysTryMentionsFromText() throws {
        func strip(_ value: Any) -> Any {
            if let o = value as? [String: Any] {
                return o.filter { $0.key != "entities" }.mapValues(strip)
            }
            if let a = value as? [Any] { return a.map(strip) }
            return value
        }
        let lines = FaultMatrixTests.dozenLines.filter { !$0.isEmpty }
        var out = ""
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            out += String(decoding: try JSONSerialization.data(withJSONObject: strip(object)), as: UTF8.self) + "\n"
        }
        XCTAssertFalse(out.contains("\"entities\""))
        let bare = dir.appendingPathComponent("no-entities.jsonl")
        try Data(out.utf8).write(to: bare)
        let hint = "so their hashtags and mentions are not seen: try --mentions-from text"
        let r = try Smashtag.run(["report", "*", bare.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains(",hashtag,"), "only retweeted authors, which need no entities: \(r.stdout)")
        XCTAssertTrue(r.stderr.contains("none of the 12 tweets read has entities"), r.stderr)
        XCTAssertTrue(r.stderr.contains(hint), r.stderr)
        let text = try Smashtag.run(["report", "*", bare.path, "--format", "csv", "--min-count", "1", "--mentions-from", "text"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("#stanford"), text.stdout)
        XCTAssertFalse(text.stderr.contains(hint), text.stderr)
        // One tweet with entities among them: the mentions are there, no hint.
        let mixed = try Smashtag.run(["report", "*", FaultMatrixTests.good, bare.path, "--format", "csv", "--min-count", "1"])
        XCTAssertEqual(mixed.stdout, Self.expected)
        XCTAssertFalse(mixed.stderr.contains(hint), mixed.stderr)
    }
}
