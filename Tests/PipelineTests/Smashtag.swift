import Foundation
import XCTest

/// Runs the built `smashtag` binary, as a user would.
enum Smashtag {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` beside the repository (or `SMASHTAG_CORPUS`).
    static let corpus: URL = {
        if let c = ProcessInfo.processInfo.environment["SMASHTAG_CORPUS"] { return URL(fileURLWithPath: c) }
        return root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    static let fixtures = root.appendingPathComponent("Tests/Fixtures")

    /// The binary: beside the test bundle (same build), else `.build/debug`.
    ///
    /// Every test that runs it asks for it first, so this is where the tests'
    /// children lose Swift's crash backtracer: a crashed `smashtag` then dies
    /// at once, its "Fatal error" on standard error and a signal for status,
    /// and the test fails. With the backtracer, its helper process
    /// (`swift-backtrace`) could keep the pipes open, waiting on a socket
    /// after the crashed process was gone, and the test hung instead.
    static let binary: URL = {
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        if let b = ProcessInfo.processInfo.environment["SMASHTAG_BIN"] { return URL(fileURLWithPath: b) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("smashtag")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return root.appendingPathComponent(".build/debug/smashtag")
    }()

    /// Runs `smashtag args…` with `stdin` fed to it (or /dev/null).
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : input
        try p.run()
        if let stdin {
            DispatchQueue.global().async {
                input.fileHandleForWriting.write(stdin)
                try? input.fileHandleForWriting.close()
            }
        }
        // Read both pipes to the end before waiting, so a big output cannot block the child.
        let errBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        return Result(status: p.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs gzip(1) with `arguments` (a path is compressed to `path.gz`; `-k` keeps it), failing the calling test unless it exits 0.
    static func gzip(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gz.arguments = arguments
        try gz.run()
        gz.waitUntilExit()
        XCTAssertEqual(gz.terminationStatus, 0, "gzip \(arguments.joined(separator: " "))", file: file, line: line)
    }

    /// Runs `python3 Tests/Reference/SCRIPT args…` (an independent reference)
    /// and gives its standard output, failing the calling test unless it exits 0.
    static func reference(_ script: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", root.appendingPathComponent("Tests/Reference").appendingPathComponent(script).path] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let errBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(script): \(String(decoding: errBox.data, as: UTF8.self))", file: file, line: line)
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a report and fails the calling test unless it exits 0.
    static func report(_ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let r = try run(["report"] + args, stdin: stdin)
        XCTAssertEqual(r.status, 0, "smashtag report \(args.joined(separator: " ")) failed: \(r.stderr)", file: file, line: line)
        return r
    }
}

/// Bytes filled on another thread, read after a `DispatchGroup.wait()`.
final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Reads a text file of the repository.
func fixtureText(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
}
