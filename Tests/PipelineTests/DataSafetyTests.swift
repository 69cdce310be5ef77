import Foundation
import XCTest

/// What must never lose or destroy data: output that could not be written
/// is an error, a store known by two names has one lock, and the lock's note
/// file is never written through a link.
final class DataSafetyTests: StoreTestCase {
    /// Runs `smashtag ARGS…` through sh with standard output redirected as
    /// `redirect` says (`>/dev/full`, `>&-`); returns (status, stderr).
    func shell(_ args: [String], redirect: String) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" \"$@\" \(redirect)", Smashtag.binary.path] + args
        let err = Pipe()
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, stderr)
    }

    // MARK: Write errors on standard output

    /// A full disk (`/dev/full`) or a closed standard output: every command
    /// that writes to standard output says so and exits 1; nothing is said
    /// to have gone well.
    func testOutputThatCannotBeWrittenIsAnErrorForEveryCommand() throws {
        let store = path("s.db")
        try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"])
        let commands: [[String]] = [
            ["report", "#stanford", StoreTests.stream, "-q"],
            ["report", "#stanford", "--store", store, "-q"],
            ["extract", "#stanford", StoreTests.stream, "-q"],
            ["history", "--store", store],
            ["terms", "--store", store, "--format", "csv"],
            ["export", "--store", store],
            ["report", "--help"],
            ["--help"],
            ["--version"],
        ]
        for args in commands {
            for (redirect, reason) in [(">/dev/full", "No space left on device"), (">&-", "Bad file descriptor")] {
                let r = try shell(args, redirect: redirect)
                let what = "smashtag \(args.joined(separator: " ")) \(redirect)"
                XCTAssertEqual(r.status, 1, "\(what): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("cannot write standard output: \(reason)"), "\(what): \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("exported"), "\(what) claims it exported: \(r.stderr)")
            }
        }
    }

    /// With standard output closed, the next file opened would take
    /// descriptor 1; the report must not land in it (here, the store).
    func testAClosedStandardOutputNeverWritesIntoAFileTheRunOpens() throws {
        let store = path("s.db")
        try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let r = try shell(["report", "*", "--store", store, "--format", "csv", "--min-count", "1", "-q"], redirect: ">&-")
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "the store file is unchanged")
        XCTAssertFalse(try storeReport(store).isEmpty)
        let check = try smashtag(["report", "*", "--store", store, "--format", "csv", "--min-count", "1", "-q"])
        XCTAssertTrue(check.stdout.hasPrefix("term,type,mention,count\n"), check.stdout)
    }

    // MARK: One store, two names

    /// A hard link to a store (`cp -l`, rsnapshot) is the same database: a
    /// second writer through the other name waits and exits 3, and no tweet
    /// of the first ingest is lost.
    func testAHardLinkToTheStoreSharesItsLock() throws {
        let store = path("linked.db")
        try smashtag(["ingest", ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path, "--store", store, "-q"])
        let other = path("other-name.db")
        XCTAssertEqual(link(store, other), 0, String(cString: strerror(errno)))
        let (first, input) = try startIngest(["-", "--store", store])
        try waitFor("the first ingest to hold the store") { try runs(store).count == 2 }
        let second = try smashtag(["ingest", StoreTests.stream, "--store", other, "--wait", "0.5"], status: 3)
        XCTAssertTrue(second.stderr.contains("busy"), second.stderr)
        input.write(try Data(contentsOf: URL(fileURLWithPath: StoreTests.stream)))
        try input.close()
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        // Both names show every tweet of both ingests.
        let expected = try statelessReport([ShapesTests.dozen.appendingPathComponent("dozen.jsonl").path, StoreTests.stream])
        XCTAssertEqual(try storeReport(store), expected)
        XCTAssertEqual(try storeReport(other), expected)
        // With the first writer gone, the other name can write.
        try smashtag(["ingest", StoreTests.stream, "--store", other, "-q", "--wait", "0"])
    }

    // MARK: The lock's note file

    /// A symbolic link at the lock file's name is never followed: the file it
    /// points to keeps its bytes, and the run says what to remove (exit 3).
    func testTheLockFileNeverFollowsASymbolicLink() throws {
        let store = path("s.db")
        let precious = path("precious.txt")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: precious))
        XCTAssertEqual(symlink(precious, store + "-lock"), 0)
        let r = try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"], status: 3)
        XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertTrue(r.stderr.contains("remove"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: precious, encoding: .utf8), "keep me\n")
        // A hard link at that name is refused too, and its other name keeps its bytes.
        unlink(store + "-lock")
        XCTAssertEqual(link(precious, store + "-lock"), 0)
        let hard = try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"], status: 3)
        XCTAssertTrue(hard.stderr.contains("not a plain file of one name"), hard.stderr)
        XCTAssertEqual(try String(contentsOfFile: precious, encoding: .utf8), "keep me\n")
        // Once the link is gone, the run makes its own lock file and works.
        unlink(store + "-lock")
        try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"])
        XCTAssertEqual(try storeReport(store), try statelessReport([StoreTests.stream]))
    }

    // MARK: Readers

    /// Report, history, terms and export read a store that this user may
    /// not write, in a folder it may not write (a store kept by another
    /// user's cron job), and give what they give its owner; as root the
    /// reader is run as `nobody`, since root may write anything.
    ///
    /// As root, the clone (and so the binary and the test's folder) may sit
    /// in a folder that `nobody` cannot enter (a clone under `/root`, or
    /// under a `mktemp -d` folder of mode 0700): the test then runs a copy of
    /// the binary and keeps the store in a folder of its own under `/tmp`,
    /// open to every user for reading and to none but root for writing.
    func testReadersNeedNoWriteAccess() throws {
        let asRoot = getuid() == 0
        var binary = Smashtag.binary.path
        var base = folder.path
        if asRoot {
            var template = Array("/tmp/smashtag-readers-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            XCTAssertNotNil(made, String(cString: strerror(errno)))
            base = String(cString: template.map { $0 })
            addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
            XCTAssertEqual(chmod(base, 0o755), 0, String(cString: strerror(errno)))
            binary = base + "/smashtag"
            try FileManager.default.copyItem(atPath: Smashtag.binary.path, toPath: binary)
            XCTAssertEqual(chmod(binary, 0o755), 0, String(cString: strerror(errno)))
        }
        let shared = base + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let store = shared + "/s.db"
        try smashtag(["ingest", StoreTests.stream, "--store", store, "-q"])
        try smashtag(["track", "#stanford", "--store", store, "-q"])
        let commands = [["report", "#stanford", "@stanford", "--store", store, "-q"], ["history", "--store", store, "--format", "csv"],
                        ["terms", "--store", store, "--format", "csv"], ["export", "--store", store, "-q"]]
        let owners = try commands.map { try smashtag($0).stdout }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        if !asRoot {
            chmod(store, 0o444)
            chmod(shared, 0o555)
        }
        defer { chmod(shared, 0o755); chmod(store, 0o644) }
        XCTAssertEqual(access(shared + "/s.db-wal", F_OK), -1, "no writer at work")
        for (command, expected) in zip(commands, owners) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: asRoot ? "/usr/sbin/runuser" : binary)
            p.arguments = asRoot ? ["-u", "nobody", "--", binary] + command : command
            p.currentDirectoryURL = URL(fileURLWithPath: base)
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "\(command[0]) of a store it may not write: \(stderr)")
            XCTAssertEqual(stdout, expected, command[0])
            XCTAssertFalse(stdout.isEmpty, command[0])
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before)
    }
}
