import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream of bytes: a file (or a byte range of one), standard input, an
/// archive member, or a decompressed stream. Readers above it never know which.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the stream.
    ///
    /// - Throws: `ReadError` when the bytes cannot be had (an I/O error, a
    ///   corrupt or truncated compressed stream).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int
}

/// Why bytes could not be read; carries the underlying library's words.
public struct ReadError: Error, CustomStringConvertible {
    public var message: String
    /// The input is whole, but cannot be read this way (a 7z from a pipe):
    /// the message says all, it is not damage.
    public var notDamage = false
    public init(_ message: String, notDamage: Bool = false) {
        self.message = message
        self.notDamage = notDamage
    }
    public var description: String { message }
}

/// A file descriptor read with `pread`, optionally limited to a byte range.
///
/// Positions are tracked here, not in the descriptor, so several ranges of
/// one file can be read at once.
public final class FileSource: ByteSource {
    public let fd: Int32
    private let ownsDescriptor: Bool
    private let usesPread: Bool
    public private(set) var position: Int64
    /// Bytes read so far (what the summary and progress count).
    public private(set) var bytesRead: Int64 = 0
    /// Where live progress is counted, if anywhere.
    var progress: RunControl?
    /// Where reading stops (exclusive); nil reads to the end of the file.
    public let end: Int64?

    /// Opens `path` for reading.
    ///
    /// - Throws: `ReadError` naming the system's reason (missing, permission, …).
    public init(path: String, range: Range<Int64>? = nil) throws(ReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(String(cString: strerror(errno))) }
        self.fd = fd
        ownsDescriptor = true
        // A FIFO or character device is a stream: plain reads, no offsets.
        var st = stat()
        usesPread = fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
        position = range?.lowerBound ?? 0
        end = range?.upperBound
    }

    /// Reads an already open descriptor (standard input) with plain `read`.
    public init(descriptor: Int32) {
        fd = descriptor
        ownsDescriptor = false
        usesPread = false
        position = 0
        end = nil
    }

    deinit { if ownsDescriptor { close(fd) } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        var want = buffer.count
        if let end { want = Int(min(Int64(want), max(0, end - position))) }
        guard want > 0 else { return 0 }
        while true {
            let n = usesPread ? pread(fd, buffer.baseAddress, want, off_t(position))
                : Glibc.read(fd, buffer.baseAddress, want)
            if n >= 0 {
                position += Int64(n)
                bytesRead += Int64(n)
                progress?.addBytes(n)
                return n
            }
            if errno == EINTR { continue }
            throw ReadError(String(cString: strerror(errno)))
        }
    }

    /// Reads up to `count` bytes at `offset` without moving the position.
    public func peek(at offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var failure: ReadError?
        let got = out.withUnsafeMutableBytes { buffer -> Int in
            do throws(ReadError) { return try peek(at: offset, into: buffer) } catch { failure = error; return 0 }
        }
        if let failure { throw failure }
        out.removeLast(count - got)
        return out
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer` without
    /// moving the position; returns how many (fewer only at the end).
    func peek(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        var got = 0
        while got < buffer.count {
            let n = pread(fd, buffer.baseAddress! + got, buffer.count - got, off_t(offset) + off_t(got))
            if n < 0 { if errno == EINTR { continue }; throw ReadError(String(cString: strerror(errno))) }
            if n == 0 { break }
            got += n
        }
        return got
    }

    /// Moves the position (for libarchive's seek callback on whole files).
    func seek(to offset: Int64) { position = offset }

    var isSeekable: Bool { usesPread && end == nil }

    /// Whether `peek(at:count:)` can read bytes again (a regular file, whole or a range).
    var canPeek: Bool { usesPread }
}

/// A source with some bytes already read from it put back in front.
final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: ByteSource
    /// The error that ended the first read, raised once the prefix is read.
    private var error: ReadError?

    init(prefix: [UInt8], rest: ByteSource, error: ReadError? = nil) {
        self.prefix = prefix
        self.rest = rest
        self.error = error
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        if offset < prefix.count {
            let n = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        if let error { throw error }
        return try rest.read(into: buffer)
    }
}

/// Bytes held in memory (tests, and small inputs).
public final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private let chunk: Int

    /// - Parameter chunk: the most one read returns, to test reads split anywhere.
    public init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = max(1, chunk)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        let n = min(buffer.count, bytes.count - offset, chunk)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}

/// Reads up to `count` bytes from the start of `source` and returns them with
/// a source that still yields the whole stream (and then the error that cut
/// the first read short, if one did).
func sniff(_ source: ByteSource, count: Int = 4096) throws(ReadError) -> (prefix: [UInt8], source: ByteSource) {
    if let file = source as? FileSource, file.isSeekable {
        return (try file.peek(at: file.position, count: count), file)
    }
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
    defer { scratch.deallocate() }
    var got = 0
    var failure: ReadError?
    while got < count {
        do {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[got...]))
            if n == 0 { break }
            got += n
        } catch {
            // Damage within the first bytes: keep what came before it.
            if got == 0 { throw error }
            failure = error
            break
        }
    }
    let prefix = Array(UnsafeRawBufferPointer(rebasing: scratch[..<got]))
    return (prefix, PrefixedSource(prefix: prefix, rest: source, error: failure))
}

/// A regular file (or a byte range of one) mapped read-only into memory, so
/// the framer hands out records straight from the page cache.
///
/// A file that shrinks while it is mapped (logrotate's copytruncate, a
/// collector rewriting it) would kill the process with SIGBUS at the first
/// page past its new end. `MappedFile` keeps its range in `MapGuard`'s
/// table; the SIGBUS handler maps zero pages over the rest of the range and
/// marks it, the faulting read goes on, and `changed` tells the reader to
/// stop there and name the file.
final class MappedFile {
    /// The file's (or range's) bytes.
    let bytes: UnsafeRawBufferPointer
    private let base: UnsafeMutableRawPointer
    private let mappedLength: Int
    private let lead: Int
    private let slot: MapGuard.Slot?
    /// The file's size when it was mapped.
    let sizeWhenMapped: Int64
    private let fd: Int32

    /// Maps `file` from its position to its end (or range end); nil for
    /// anything that is not a non-empty regular file, or when mapping fails.
    init?(_ file: FileSource) {
        var st = stat()
        guard fstat(file.fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let end = min(file.end ?? Int64(st.st_size), Int64(st.st_size))
        let start = file.position
        guard end > start, Int64(Int.max) > end else { return nil }
        let page = Int64(sysconf(Int32(_SC_PAGESIZE)))
        let mapStart = start - start % page
        lead = Int(start - mapStart)
        mappedLength = Int(end - mapStart)
        guard let p = mmap(nil, mappedLength, PROT_READ, MAP_PRIVATE, file.fd, off_t(mapStart)), p != MAP_FAILED else {
            return nil
        }
        base = p
        fd = file.fd
        sizeWhenMapped = Int64(st.st_size)
        madvise(p, mappedLength, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: p + lead, count: mappedLength - lead)
        // Without a free slot the file is read with plain reads instead: never unguarded.
        guard let slot = MapGuard.register(start: UInt(bitPattern: p), length: mappedLength) else {
            munmap(p, mappedLength)
            return nil
        }
        self.slot = slot
    }

    /// Whether the file shrank under the mapping (pages past its end were read).
    var changed: Bool { slot?.faulted ?? false }

    /// The file's size now, for the message that names the change.
    var sizeNow: Int64 {
        var st = stat()
        return fstat(fd, &st) == 0 ? Int64(st.st_size) : -1
    }

    deinit {
        slot?.release()
        munmap(base, mappedLength)
    }

    /// Gives back the pages before `offset` (of `bytes`); returns how far it released.
    func release(upTo offset: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let upTo = (offset + lead) / page * page
        guard upTo > 0 else { return 0 }
        madvise(base, upTo, MADV_DONTNEED)
        return max(0, upTo - lead)
    }
}

/// The address ranges of the mapped files of this process, and the SIGBUS
/// handler that keeps a shrinking file from killing it (see `MappedFile`).
///
/// The table is a fixed set of slots of atomics, so the handler only loads
/// and stores: it maps zero pages over the rest of the faulting range
/// (`mmap` with `MAP_FIXED`, which Linux does in a handler as well as
/// anywhere) and marks the slot. A fault outside every slot is a real
/// fault: the handler puts back the default action and raises it again.
enum MapGuard {
    final class Slot: Sendable {
        fileprivate let start = Atomic<UInt>(0)
        fileprivate let end = Atomic<UInt>(0)
        fileprivate let fault = Atomic<Bool>(false)
        fileprivate let used = Atomic<Bool>(false)

        var faulted: Bool { fault.load(ordering: .acquiring) }

        func release() {
            end.store(0, ordering: .releasing)
            start.store(0, ordering: .releasing)
            fault.store(false, ordering: .releasing)
            used.store(false, ordering: .releasing)
        }
    }

    /// Enough for every worker's mapped range, with room to spare.
    static let slots: [Slot] = (0..<256).map { _ in Slot() }
    private static let installed = Atomic<Bool>(false)
    fileprivate static let pageMask = ~(UInt(sysconf(Int32(_SC_PAGESIZE))) - 1)

    /// Takes a slot for `length` bytes from `start`; nil when all are taken.
    static func register(start: UInt, length: Int) -> Slot? {
        install()
        for slot in slots where slot.used.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            slot.fault.store(false, ordering: .relaxed)
            slot.start.store(start, ordering: .releasing)
            slot.end.store(start + UInt(length), ordering: .releasing)
            return slot
        }
        return nil
    }

    private static func install() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        _ = pageMask
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = onSIGBUS
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }
}

private let onSIGBUS: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
    if let info {
        let address = UInt(bitPattern: info.pointee._sifields._sigfault.si_addr)
        for slot in MapGuard.slots {
            let start = slot.start.load(ordering: .acquiring), end = slot.end.load(ordering: .acquiring)
            guard start <= address && address < end else { continue }
            let page = address & MapGuard.pageMask
            if mmap(UnsafeMutableRawPointer(bitPattern: page), Int(end - page), PROT_READ,
                    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) != MAP_FAILED {
                slot.fault.store(true, ordering: .releasing)
                return
            }
        }
    }
    signal(SIGBUS, SIG_DFL)
    raise(SIGBUS)
}
