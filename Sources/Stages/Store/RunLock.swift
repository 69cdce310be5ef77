#if canImport(Glibc)
import Glibc
#endif

/// The store's writer lock: one run that changes the store at a time
/// (ingest, import, prune, track, untrack), for the whole run, across its
/// many committed batches.
///
/// SQLite's own locks last one transaction, so two ingests would interleave
/// their batches; this lock is an `flock` on `STORE-lock` beside the store
/// (a separate file, because closing any other descriptor of the database
/// file would drop SQLite's POSIX locks on it). The kernel releases it when
/// its holder exits, however it exits, so a killed run never leaves the
/// store locked. The holder writes its pid and command into the file, so the
/// run that waits can say who holds it. Readers (report, history, export)
/// take no lock: SQLite's WAL gives them a consistent snapshot.
public final class RunLock {
    public let path: String
    private var fd: Int32

    /// Takes the lock, waiting up to `wait` seconds for the run that holds it.
    ///
    /// - Parameters:
    ///   - store: the store's path; the lock file is `store + "-lock"`.
    ///   - command: what this run is, written for a waiting run to read.
    /// - Throws: `StoreError` `.busy` naming the holder when the wait runs
    ///   out; `.readOnly`/`.cannotOpen` when the lock file cannot be made.
    public init(store: String, command: String, wait: Double) throws(StoreError) {
        path = store + "-lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let e = errno
            let code: StoreError.Code = (e == EROFS || e == EACCES || e == EPERM) ? .readOnly : .cannotOpen
            throw StoreError(code, path: store, "cannot create its lock file \(path): \(String(cString: strerror(e)))")
        }
        let deadline = RunLock.now() + max(0, wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw StoreError(.io, path: store, "cannot lock \(path): \(reason)")
            }
            if RunLock.now() >= deadline {
                let holder = RunLock.holder(fd)
                close(fd)
                let who = holder.isEmpty ? "another run" : "another run (\(holder))"
                throw StoreError(.busy, path: store,
                                 "the store is busy: \(who) is writing to it; gave up after waiting \(RunLock.seconds(wait)) (--wait sets how long to wait)")
            }
            usleep(20_000)
        }
        let note = "pid \(getpid()), \(command)"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit { release() }

    /// Whether a run holds the writer lock of `store` now (without waiting).
    public static func isHeld(store: String) -> Bool {
        let fd = open(store + "-lock", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Gives the lock back (also done when the process ends).
    public func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return "" }
        return String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}

import Foundation
