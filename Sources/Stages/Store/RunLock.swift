#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The store's writer lock: one run that changes the store at a time
/// (ingest, import, prune, track, untrack), for the whole run, across its
/// many committed batches.
///
/// SQLite's own locks last one transaction, so two ingests would interleave
/// their batches. The lock is an `flock` on the database file itself, so it
/// holds for the file whatever name it is opened by: a hard link (`cp -l`
/// backups, rsnapshot) is the same store with the same lock. Beside it,
/// `STORE-lock` holds a note of who holds the lock (its pid and command),
/// for the run that waits, and an `flock` of its own for `isHeld`. The
/// kernel releases both when the holder exits, however it exits, so a
/// killed run never leaves the store locked. Readers (report, history,
/// export) take no lock: SQLite's WAL gives them a consistent snapshot.
///
/// Closing any descriptor of the database file would drop the POSIX locks
/// SQLite holds on it in this process, so the descriptor locked here is
/// never closed: `release` unlocks it and keeps it for the next lock of the
/// same file. The note file is opened without following a symbolic link
/// and must be a plain file of one name: smashtag never truncates or writes
/// a file that someone else put at that name.
public final class RunLock {
    public let path: String
    private var fd: Int32
    private var storeFD: Int32 = -1
    /// Whether this lock holds both locks (and so owns the note).
    private var held = false

    /// Takes the lock, waiting up to `wait` seconds for the run that holds it.
    ///
    /// - Parameters:
    ///   - store: the store's path; the note file is `store + "-lock"`.
    ///   - command: what this run is, written for a waiting run to read.
    /// - Throws: `StoreError` `.busy` naming the holder when the wait runs
    ///   out; `.readOnly`/`.cannotOpen` when the lock or the store cannot be
    ///   opened, or the note's name is taken by a link or something else.
    public init(store: String, command: String, wait: Double) throws(StoreError) {
        path = store + "-lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let e = errno
            if e == ELOOP {
                throw StoreError(.cannotOpen, path: store,
                                 "its lock file \(path) is a symbolic link, which smashtag never writes through: remove the link (smashtag makes the file itself)")
            }
            let code: StoreError.Code = (e == EROFS || e == EACCES || e == EPERM) ? .readOnly : .cannotOpen
            throw StoreError(code, path: store, "cannot create its lock file \(path): \(String(cString: strerror(e)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 else {
            close(fd)
            fd = -1
            throw StoreError(.cannotOpen, path: store,
                             "its lock file \(path) is not a plain file of one name (a hard link, device or FIFO?), so smashtag will not write it: remove it (smashtag makes the file itself)")
        }
        do {
            storeFD = try RunLock.storeDescriptor(store)
        } catch {
            close(fd)
            fd = -1
            throw error
        }
        let deadline = RunLock.now() + max(0, wait)
        while true {
            if flock(storeFD, LOCK_EX | LOCK_NB) == 0 {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 { break }
                flock(storeFD, LOCK_UN)
            }
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                release()
                throw StoreError(.io, path: store, "cannot lock \(store): \(reason)")
            }
            if RunLock.now() >= deadline {
                let holder = RunLock.holder(fd)
                release()
                let who = holder.isEmpty ? "another run" : "another run (\(holder))"
                throw StoreError(.busy, path: store,
                                 "the store is busy: \(who) is writing to it; gave up after waiting \(RunLock.seconds(wait)) (--wait sets how long to wait)")
            }
            usleep(20_000)
        }
        held = true
        let note = "pid \(getpid()), \(command)"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// Descriptors of store files this process has locked, by device and
    /// inode, and whether a lock of this process holds each now.
    private static let descriptors = Mutex<[FileKey: (fd: Int32, inUse: Bool)]>([:])

    private struct FileKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A descriptor of the database file at `store`, made (empty) when there
    /// is none: one kept from an earlier lock of the same file when it is
    /// free, so that no descriptor of the file is ever closed.
    private static func storeDescriptor(_ store: String) throws(StoreError) -> Int32 {
        var st = stat()
        if stat(store, &st) == 0 {
            let key = FileKey(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
            let kept: Int32? = descriptors.withLock { table in
                guard let entry = table[key], !entry.inUse else { return nil }
                table[key] = (entry.fd, true)
                return entry.fd
            }
            if let kept { return kept }
        }
        let fd = open(store, O_RDONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let e = errno
            let code: StoreError.Code = (e == EROFS || e == EACCES || e == EPERM) ? .readOnly : .cannotOpen
            throw StoreError(code, path: store, "cannot open it to lock it: \(String(cString: strerror(e)))")
        }
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)  // not a database file: no SQLite lock on it to lose
            throw StoreError(.cannotOpen, path: store, "it is not a plain file: a store is an SQLite database file")
        }
        let key = FileKey(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        descriptors.withLock { table in
            // A descriptor another lock of this process holds stays theirs.
            if table[key]?.inUse != true { table[key] = (fd, true) }
        }
        return fd
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
        if fd >= 0 {
            if held { _ = ftruncate(fd, 0) }
            close(fd)
            fd = -1
        }
        guard storeFD >= 0 else { return }
        flock(storeFD, LOCK_UN)
        let mine = storeFD
        RunLock.descriptors.withLock { table in
            for (key, entry) in table where entry.fd == mine { table[key] = (mine, false) }
        }
        storeFD = -1
        held = false
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
