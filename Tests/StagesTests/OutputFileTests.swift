import Foundation
import XCTest
@testable import Stages

/// `OutputFile` on real files: whatever is at the path stays what it was.
final class OutputFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func stat(_ path: String) -> stat {
        var st = Glibc.stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st
    }

    private func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    private func make(_ name: String, _ text: String, mode: mode_t) -> String {
        let path = dir + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    /// Nothing but the named entries is left in the folder (no temporary file).
    private func assertOnly(_ names: Set<String>, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), names, file: file, line: line)
    }

    func testNewFileTakesItsModeFromTheUmask() throws {
        let old = umask(0o027)
        defer { umask(old) }
        let path = dir + "/report.csv"
        try OutputFile.write(Array("a,b\n".utf8), to: path)
        XCTAssertEqual(contents(path), "a,b\n")
        XCTAssertEqual(stat(path).st_mode & 0o7777, 0o640)
        XCTAssertEqual(stat(path).st_mode & S_IFMT, S_IFREG)
        try assertOnly(["report.csv"])
    }

    func testModeSixHundredIsKept() throws {
        let path = make("stats.json", "old", mode: 0o600)
        let before = stat(path)
        try OutputFile.write(Array("new contents".utf8), to: path)
        XCTAssertEqual(contents(path), "new contents")
        XCTAssertEqual(stat(path).st_mode & 0o7777, 0o600)
        XCTAssertNotEqual(stat(path).st_ino, before.st_ino, "a new file renamed over the old one")
        try assertOnly(["stats.json"])
    }

    func testOwnerIsKeptAsRoot() throws {
        try XCTSkipUnless(geteuid() == 0, "only root can give a file to someone else")
        let path = make("theirs.csv", "old", mode: 0o600)
        XCTAssertEqual(chown(path, 1234, 5678), 0)
        try OutputFile.write(Array("new".utf8), to: path)
        XCTAssertEqual(stat(path).st_uid, 1234)
        XCTAssertEqual(stat(path).st_gid, 5678)
        XCTAssertEqual(stat(path).st_mode & 0o7777, 0o600)
        XCTAssertEqual(contents(path), "new")
    }

    func testHardLinkStaysALinkWithTheNewContents() throws {
        let path = make("a.csv", "old", mode: 0o644)
        let other = dir + "/b.csv"
        XCTAssertEqual(link(path, other), 0)
        try OutputFile.write(Array("new".utf8), to: path)
        XCTAssertEqual(contents(other), "new", "the other name sees the new contents")
        XCTAssertEqual(stat(path).st_ino, stat(other).st_ino)
        XCTAssertEqual(stat(path).st_nlink, 2)
        try assertOnly(["a.csv", "b.csv"])
    }

    func testSymbolicLinkIsKeptAndItsTargetWritten() throws {
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        let target = make("real/report.csv", "old", mode: 0o600)
        XCTAssertEqual(symlink("real/report.csv", dir + "/link.csv"), 0)
        XCTAssertEqual(symlink("link.csv", dir + "/link2.csv"), 0)  // a chain of two
        try OutputFile.write(Array("new".utf8), to: dir + "/link2.csv")
        XCTAssertEqual(stat(dir + "/link2.csv").st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(stat(dir + "/link.csv").st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.csv"), "real/report.csv")
        XCTAssertEqual(contents(target), "new")
        XCTAssertEqual(stat(target).st_mode & 0o7777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/real"), ["report.csv"])
    }

    func testDanglingSymbolicLinkMakesItsTarget() throws {
        XCTAssertEqual(symlink(dir + "/made.csv", dir + "/link.csv"), 0)
        try OutputFile.write(Array("new".utf8), to: dir + "/link.csv")
        XCTAssertEqual(stat(dir + "/link.csv").st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(contents(dir + "/made.csv"), "new")
    }

    func testSymbolicLinkLoopIsAnError() throws {
        XCTAssertEqual(symlink("b", dir + "/a"), 0)
        XCTAssertEqual(symlink("a", dir + "/b"), 0)
        XCTAssertThrowsError(try OutputFile.write([1], to: dir + "/a")) { error in
            XCTAssertEqual((error as? OutputFile.Failure)?.code, ELOOP)
        }
    }

    func testFIFOIsWrittenIntoAndReadByItsReader() throws {
        let fifo = dir + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let read = DispatchSemaphore(value: 0)
        let box = Box()
        Thread.detachNewThread {
            box.data = FileHandle(forReadingAtPath: fifo)!.readDataToEndOfFile()
            read.signal()
        }
        let bytes = Array(repeating: Array("term,type,mention,count\n".utf8), count: 10_000).flatMap { $0 }  // more than a pipe holds
        try OutputFile.write(bytes, to: fifo)
        XCTAssertEqual(read.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(box.data, Data(bytes))
        XCTAssertEqual(stat(fifo).st_mode & S_IFMT, S_IFIFO)
        try assertOnly(["pipe"])
    }

    func testDevNullStaysADevice() throws {
        try OutputFile.write(Array("{}".utf8), to: "/dev/null")
        XCTAssertEqual(stat("/dev/null").st_mode & S_IFMT, S_IFCHR)
    }

    func testDevFullIsAnErrorNamingTheFile() throws {
        XCTAssertThrowsError(try OutputFile.write(Array("x".utf8), to: "/dev/full")) { error in
            let failure = error as? OutputFile.Failure
            XCTAssertEqual(failure?.code, ENOSPC)
            XCTAssertTrue(failure?.description.hasPrefix("cannot write /dev/full: ") == true, "\(error)")
        }
        XCTAssertEqual(stat("/dev/full").st_mode & S_IFMT, S_IFCHR)
    }

    func testDirectoryIsRefused() throws {
        XCTAssertThrowsError(try OutputFile.write([1], to: dir)) { error in
            XCTAssertTrue("\(error)".contains("directory"), "\(error)")
        }
    }

    func testMissingFolderIsAnError() throws {
        XCTAssertThrowsError(try OutputFile.write([1], to: dir + "/no/such/report.csv")) { error in
            XCTAssertEqual((error as? OutputFile.Failure)?.code, ENOENT)
        }
    }

    func testFileNameIsShownEscaped() throws {
        XCTAssertThrowsError(try OutputFile.write([1], to: dir + "/no\u{1B}[2J/x")) { error in
            XCTAssertTrue("\(error)".contains("no\\u001b[2J/x"), "\(error)")
            XCTAssertFalse("\(error)".contains("\u{1B}"))
        }
    }

    /// The interrupt path: temporary files go, and nothing is renamed into place after it.
    func testAnInterruptLeavesTheOldFileAndNoTemporaryFile() throws {
        defer { OutputFile.resumeAfterAbandoning() }
        let path = make("report.xlsx", "old", mode: 0o600)
        let temp = make(".report.xlsx.smashtag-test", "half a row", mode: 0o600)
        XCTAssertTrue(OutputFile.track(temp))
        OutputFile.abandonAll()
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp), "the interrupt removes the temporary file")
        XCTAssertThrowsError(try OutputFile.write(Array("new".utf8), to: path)) { error in
            XCTAssertTrue((error as? OutputFile.Failure)?.interrupted == true, "\(error)")
        }
        XCTAssertEqual(contents(path), "old")
        try assertOnly(["report.xlsx"])
    }
}

private final class Box: @unchecked Sendable {
    var data = Data()
}
