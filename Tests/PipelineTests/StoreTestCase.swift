import Foundation
import XCTest

/// What the store's end-to-end tests share: a folder of their own, the
/// binary, reports from a store and from dumps, an ingest that waits on a pipe.
class StoreTestCase: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let samples = Smashtag.root.appendingPathComponent("samples").path
    static let stream = Smashtag.root.appendingPathComponent("samples/stream.jsonl").path
    static let terms = ["*", "#stanford", "@stanford", "from:stanford", "#россия", "#none"]

    /// `smashtag ARGS…`, failing the test unless it exits `status`.
    @discardableResult
    func smashtag(_ args: [String], status: Int32 = 0, stdin: Data? = nil, environment: [String: String] = [:],
                  file: StaticString = #filePath, line: UInt = #line) throws -> Smashtag.Result {
        let r = try Smashtag.run(args, stdin: stdin, environment: environment)
        XCTAssertEqual(r.status, status, "smashtag \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// The store's report of `terms` as JSON, every row.
    func storeReport(_ store: String, _ terms: [String] = StoreTestCase.terms, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try smashtag(["report"] + terms.flatMap { ["-t", $0] } + ["--store", store, "--format", "json", "--min-count", "1", "-q"],
                     file: file, line: line).stdout
    }

    func statelessReport(_ paths: [String], _ terms: [String] = StoreTestCase.terms) throws -> String {
        try smashtag(["report"] + terms.flatMap { ["-t", $0] } + paths + ["--format", "json", "--min-count", "1", "-q"]).stdout
    }

    /// Starts `smashtag ingest - …` reading from a pipe the test writes.
    func startIngest(_ args: [String]) throws -> (Process, FileHandle) {
        let p = Process()
        p.executableURL = Smashtag.binary
        p.arguments = ["ingest"] + args
        let input = Pipe()
        p.standardInput = input
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return (p, input.fileHandleForWriting)
    }

    func runs(_ store: String) throws -> [[String: Any]] {
        let r = try Smashtag.run(["history", "--store", store, "--format", "json", "--wait", "0"])
        guard r.status == 0 else { return [] }
        return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [[String: Any]] ?? []
    }

    func waitFor(_ what: String, timeout: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting for \(what)") }
            usleep(20_000)
        }
    }
}
