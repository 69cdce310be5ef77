import Foundation
import Synchronization

/// Writes a whole output (`-o FILE`, `--stats FILE`) so that whoever reads
/// the file sees the old contents or the new, never half of them, and so
/// that what was at the path stays what it was.
///
/// What is at the path decides how:
///
/// | at the path | how it is written |
/// |---|---|
/// | nothing | a temporary file beside it, synced, renamed into place (mode from the umask) |
/// | a regular file with one link | the same, the temporary file given the file's mode (and owner, as root) first; in place when its folder is not writable |
/// | a symbolic link | these rules for what it points to; the link stays |
/// | a regular file with other hard links | written in place (truncated first): every name sees the new contents |
/// | a FIFO, a character device (`/dev/null`, `/dev/tty`) | written into as it is, never replaced |
/// | `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` | written to that open descriptor (a `>>` file is appended to) |
/// | a directory, a socket, a block device | refused |
///
/// A failed write (a full disk, `/dev/full`, an I/O error) throws an error
/// naming the file, and the temporary file is removed. An interrupt
/// (`abandonAll()`, from the SIGINT/SIGTERM path) removes the temporary file
/// and no rename follows it, so a killed run leaves the old file whole.
/// Only writes in place (hard links, FIFOs, devices) can be cut short.
public enum OutputFile {
    /// The format a file's name asks for, by its extension, as `--format`
    /// names it: `.csv`, `.json`, `.ndjson` or `.jsonl`, `.txt` (table),
    /// `.xlsx`, `.html` or `.htm`, `.gexf`; nil for any other name. Each
    /// command then takes the formats it writes (`report`, `pairs`, `trend`, `posts`).
    public static func formatName(ofFileName fileName: String) -> String? {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "csv": return "csv"
        case "json": return "json"
        case "ndjson", "jsonl": return "ndjson"
        case "txt": return "table"
        case "xlsx": return "xlsx"
        case "html", "htm": return "html"
        case "gexf": return "gexf"
        default: return nil
        }
    }

    /// Why an output could not be written, naming the file.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var message: String
        /// `errno` of the failed call, when one failed (EPIPE: the reader went away).
        public var code: Int32?
        /// The run was interrupted: nothing was renamed into place.
        public var interrupted = false

        public var description: String { VisibleText.escaped("cannot write \(path): \(message)") }
    }

    /// What `write` may be asked to refuse.
    public struct Options: Sendable {
        /// Refuse a terminal (a binary workbook would garble it).
        public var refuseTerminal = false
        public init(refuseTerminal: Bool = false) { self.refuseTerminal = refuseTerminal }
    }

    /// Writes all of `bytes` to `path` (see the type's table).
    ///
    /// - Throws: `Failure` naming the file and what went wrong; nothing is
    ///   left behind but what was there.
    /// - Complexity: O(n) time; memory: the bytes the caller holds.
    public static func write(_ bytes: [UInt8], to path: String, options: Options = Options()) throws(Failure) {
        let target = try resolve(path)
        if let fd = target.descriptor {
            try writeInto(fd, shown: path, options: options, bytes: bytes)
            return
        }
        guard let st = target.stat else {
            try replace(target.path, shown: path, mode: nil, bytes: bytes)
            return
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG where st.st_nlink <= 1:
            try replace(target.path, shown: path, mode: st, bytes: bytes)
        case S_IFREG, S_IFIFO, S_IFCHR:
            try writeInPlace(target.path, shown: path, truncate: st.st_mode & S_IFMT == S_IFREG, options: options, bytes: bytes)
        case S_IFDIR:
            throw Failure(path: path, message: "it is a directory; name a file")
        case S_IFSOCK:
            throw Failure(path: path, message: "it is a socket, not a file")
        case S_IFBLK:
            throw Failure(path: path, message: "it is a block device, not a file")
        default:
            throw Failure(path: path, message: "it is not a regular file")
        }
    }

    // MARK: - Interrupts

    private struct Pending: Sendable {
        var paths: Set<String> = []
        var abandoned = false
    }
    private static let pending = Mutex(Pending())

    /// Removes every temporary file being written and makes sure none is
    /// renamed into place: called when SIGINT or SIGTERM ends the run.
    public static func abandonAll() {
        pending.withLock { p in
            p.abandoned = true
            for path in p.paths { unlink(path) }
            p.paths.removeAll()
        }
    }

    /// Registers a temporary file or folder made for an output (a workbook
    /// is put together in one) so that `abandonAll()` removes it.
    /// - Returns: false when the run was already interrupted.
    public static func track(_ path: String) -> Bool {
        pending.withLock { p in
            guard !p.abandoned else { return false }
            p.paths.insert(path)
            return true
        }
    }

    /// Undoes `abandonAll()`, for tests that interrupt in-process.
    static func resumeAfterAbandoning() {
        pending.withLock { $0.abandoned = false }
    }

    /// The temporary `path` is gone (renamed or removed).
    public static func untrack(_ path: String) {
        _ = pending.withLock { $0.paths.remove(path) }
    }

    // MARK: - Steps

    /// The path after following symbolic links (at most 40, as the kernel),
    /// with what is there, or nil when nothing is; or the open descriptor a
    /// name such as `/dev/stdout` stands for (its link's text, `pipe:[…]`,
    /// names no file).
    static func resolve(_ path: String) throws(Failure) -> (path: String, stat: stat?, descriptor: Int32?) {
        var current = path
        for _ in 0..<40 {
            if let fd = descriptor(named: current) { return (current, nil, fd) }
            var st = stat()
            if lstat(current, &st) != 0 {
                let e = errno
                if e == ENOENT { return (current, nil, nil) }
                throw failure(path, "cannot look at it", e)
            }
            guard st.st_mode & S_IFMT == S_IFLNK else { return (current, st, nil) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { throw failure(path, "cannot read the link", errno) }
            let link = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = (current as NSString).deletingLastPathComponent
            current = link.hasPrefix("/") || folder.isEmpty ? link : folder + "/" + link
        }
        throw Failure(path: path, message: "too many levels of symbolic links", code: ELOOP)
    }

    /// 1 for `/dev/stdout`, 2 for `/dev/stderr`, N for `/dev/fd/N` and `/proc/self/fd/N`.
    private static func descriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Writes into an open descriptor (`/dev/stdout`), which stays open.
    private static func writeInto(_ fd: Int32, shown: String, options: Options, bytes: [UInt8]) throws(Failure) {
        guard fcntl(fd, F_GETFL) >= 0 else { throw failure(shown, "it is not open", errno) }
        if options.refuseTerminal && isatty(fd) == 1 {
            throw Failure(path: shown, message: "it is a terminal, and a workbook is not for a terminal")
        }
        if let e = writeAll(fd, bytes) { throw failure(shown, "write failed", e) }
    }

    /// A temporary file beside `path`, written, synced and renamed over it.
    private static func replace(_ path: String, shown: String, mode existing: stat?, bytes: [UInt8]) throws(Failure) {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var fd: Int32 = -1
        var temp = ""
        for _ in 0..<100 {
            temp = (dir.isEmpty ? "" : dir + "/") + ".\(name).smashtag-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
            guard track(temp) else { throw Failure(path: shown, message: "interrupted", interrupted: true) }
            // 0666 less the umask for a new file, as the shell's `>` would make it.
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existing == nil ? 0o666 : 0o600)
            if fd >= 0 { break }
            let e = errno
            untrack(temp)
            if existing != nil && (e == EACCES || e == EPERM || e == EROFS) {
                // A file one may write in a folder one may not: write it in place.
                try writeInPlace(path, shown: shown, truncate: true, options: Options(), bytes: bytes)
                return
            }
            if e != EEXIST { throw failure(shown, "cannot create a file in \(dir.isEmpty ? "." : dir)", e) }
        }
        guard fd >= 0 else { throw Failure(path: shown, message: "cannot make a temporary file beside it") }
        func fail(_ what: String, _ e: Int32) -> Failure {
            close(fd)
            unlink(temp)
            untrack(temp)
            return failure(shown, what, e)
        }
        if let st = existing {
            if geteuid() == 0, fchown(fd, st.st_uid, st.st_gid) != 0 { throw fail("cannot give it its owner", errno) }
            if fchmod(fd, st.st_mode & 0o7777) != 0 { throw fail("cannot give it its mode", errno) }
        }
        if let e = writeAll(fd, bytes) { throw fail("write failed", e) }
        if fsync(fd) != 0 { throw fail("cannot flush it to the disk", errno) }
        if close(fd) != 0 {
            let e = errno
            unlink(temp)
            untrack(temp)
            throw failure(shown, "write failed", e)
        }
        // The rename happens under the lock that `abandonAll()` takes: after
        // an interrupt it never does.
        let renamed: Int32? = pending.withLock { p in
            guard !p.abandoned else { return nil }
            p.paths.remove(temp)
            return rename(temp, path) == 0 ? 0 : errno
        }
        guard let renamed else { throw Failure(path: shown, message: "interrupted", interrupted: true) }
        if renamed != 0 {
            unlink(temp)
            throw failure(shown, "cannot rename the new file into place", renamed)
        }
        // The rename itself is on the disk once the folder is.
        let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// Writes into what is at `path` (a FIFO, a device, a hard-linked file).
    private static func writeInPlace(_ path: String, shown: String, truncate: Bool, options: Options, bytes: [UInt8]) throws(Failure) {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | (truncate ? O_TRUNC : 0))
        guard fd >= 0 else { throw failure(shown, "cannot open it", errno) }
        defer { close(fd) }
        if options.refuseTerminal && isatty(fd) == 1 {
            throw Failure(path: shown, message: "it is a terminal, and a workbook is not for a terminal")
        }
        if let e = writeAll(fd, bytes) { throw failure(shown, "write failed", e) }
        // A regular file's bytes go to the disk; a pipe or device cannot be synced.
        if truncate && fsync(fd) != 0 { throw failure(shown, "cannot flush it to the disk", errno) }
    }

    /// Writes all of `bytes`; the errno of a failed write, else nil.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> Failure {
        Failure(path: path, message: "\(what) (\(String(cString: strerror(code))))", code: code)
    }
}
