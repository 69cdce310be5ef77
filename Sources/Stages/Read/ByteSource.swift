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
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got)) }
            if n < 0 { if errno == EINTR { continue }; throw ReadError(String(cString: strerror(errno))) }
            if n == 0 { break }
            got += n
        }
        out.removeLast(count - got)
        return out
    }

    /// Moves the position (for libarchive's seek callback on whole files).
    func seek(to offset: Int64) { position = offset }

    var isSeekable: Bool { usesPread && end == nil }
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
final class MappedFile {
    /// The file's (or range's) bytes.
    let bytes: UnsafeRawBufferPointer
    private let base: UnsafeMutableRawPointer
    private let mappedLength: Int
    private let lead: Int

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
        madvise(p, mappedLength, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: p + lead, count: mappedLength - lead)
    }

    deinit { munmap(base, mappedLength) }

    /// Gives back the pages before `offset` (of `bytes`); returns how far it released.
    func release(upTo offset: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let upTo = (offset + lead) / page * page
        guard upTo > 0 else { return 0 }
        madvise(base, upTo, MADV_DONTNEED)
        return max(0, upTo - lead)
    }
}
