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
}
