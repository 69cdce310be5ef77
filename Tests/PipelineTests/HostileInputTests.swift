import Foundation
import XCTest

/// Inputs made to hurt: each ends in the good input's exact report, within
/// bounds of time and memory that a quadratic or unbounded path would break.
final class HostileInputTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Runs smashtag, killing it after `limit` seconds; fails the test then.
    private func bounded(_ args: [String], limit: Double, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        XCTAssertEqual(p.terminationReason, .exit, "smashtag \(args.prefix(3).joined(separator: " ")) ran past \(limit) s", file: file, line: line)
        XCTAssertEqual(p.terminationStatus, 0, file: file, line: line)
        return String(decoding: data, as: UTF8.self)
    }

    /// One tweet with 300,000 distinct hashtags (and one repeated), from
    /// entities and from text: each counts once, and the cost grows with
    /// their number, not its square (which took minutes).
    func testOneTweetWithManyDistinctMentionsIsLinear() throws {
        let dir = try temporaryFolder()
        let n = 300_000
        var tags = (0..<n).map { #"{"text":"h\#($0)"}"# }
        tags.append(#"{"text":"H0"}"#)
        let entities = #"{"id_str":"1","text":"x","user":{"screen_name":"a"},"entities":{"hashtags":["#
            + tags.joined(separator: ",") + #"],"user_mentions":[]}}"# + "\n"
            + #"{"id_str":"2","text":"x","user":{"screen_name":"a"},"entities":{"hashtags":[{"text":"h5"}],"user_mentions":[]}}"# + "\n"
        let entityFile = dir.appendingPathComponent("entities.jsonl")
        try Data(entities.utf8).write(to: entityFile)
        let fromEntities = try bounded(["report", "*", entityFile.path, "--min-count", "1", "--top", "3", "--format", "csv", "-q"], limit: 90)
        XCTAssertEqual(fromEntities, "term,type,mention,count\n*,hashtag,#h5,2\n*,hashtag,#h0,1\n*,hashtag,#h1,1\n")

        let text = (0..<n).map { "#t\($0)" }.joined(separator: " ") + " #T1"
        let textFile = dir.appendingPathComponent("text.jsonl")
        try Data((#"{"id_str":"3","text":""# + text + #"","user":{"screen_name":"b"}}"# + "\n").utf8).write(to: textFile)
        let fromText = try bounded(["report", "*", textFile.path, "--mentions-from", "text", "--min-count", "1",
                                    "--format", "csv", "-q"], limit: 90)
        let rows = fromText.split(separator: "\n").dropFirst()
        XCTAssertEqual(Array(rows.prefix(3)), ["*,hashtag,#t0,1", "*,hashtag,#t1,1", "*,hashtag,#t10,1"])
        // Every one of them is a row: 300,000 hashtags, no more (#T1 is #t1).
        XCTAssertEqual(rows.count, n)
    }
}
