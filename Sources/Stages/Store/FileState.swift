#if canImport(Glibc)
import Glibc
#endif

/// What says a file is unchanged since it was ingested: its size, its
/// modification time and a fingerprint of its content (SPEC §10).
///
/// The fingerprint hashes the whole file when it is at most 4 MiB; a bigger
/// one is sampled — its first and last MiB and 32 blocks of 64 KiB spread
/// evenly between — so checking a day of dumps costs a few MiB of reading
/// per file, not the whole file again. Together with the size and the
/// nanosecond mtime this tells an untouched file from a rewritten one; a
/// change that keeps size and mtime and falls between the samples would
/// pass unseen (nothing is counted twice even then: dedup is by tweet id).
public struct FileState: Equatable, Sendable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var fingerprint: Int64

    public init(size: Int64, mtimeNanoseconds: Int64, fingerprint: Int64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.fingerprint = fingerprint
    }

    static let wholeFileLimit: Int64 = 4 << 20
    static let endBytes = 1 << 20
    static let sampleBytes = 64 << 10
    static let samples = 32

    /// The state of the regular file at `path`; nil when it cannot be read
    /// or is not a regular file (a pipe is never skipped).
    ///
    /// - Complexity: reads at most 6 MiB of the file.
    public init?(path: String) {
        // Looked at before it is opened: opening a FIFO, even to close it
        // at once, would let its writer start and lose what it writes
        // before the scan opens it again.
        var named = stat()
        guard stat(path, &named) == 0, named.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        size = Int64(st.st_size)
        mtimeNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        var hash = FingerprintHash()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        if size <= FileState.wholeFileLimit {
            guard hash.add(fd: fd, at: 0, count: Int(size), buffer: buffer) else { return nil }
        } else {
            let end = Int64(FileState.endBytes)
            guard hash.add(fd: fd, at: 0, count: FileState.endBytes, buffer: buffer) else { return nil }
            let span = size - 2 * end - Int64(FileState.sampleBytes)
            for i in 0..<FileState.samples {
                let at = end + span * Int64(i) / Int64(FileState.samples - 1)
                guard hash.add(fd: fd, at: at, count: FileState.sampleBytes, buffer: buffer) else { return nil }
            }
            guard hash.add(fd: fd, at: size - end, count: FileState.endBytes, buffer: buffer) else { return nil }
        }
        hash.add(word: UInt64(bitPattern: size))
        fingerprint = Int64(bitPattern: hash.value)
    }
}

/// A 64-bit hash of bytes, word by word (multiply and fold; not
/// cryptographic: it tells versions of a file apart, it resists no one).
struct FingerprintHash {
    private(set) var value: UInt64 = 0x6A09_E667_F3BC_C908

    mutating func add(word: UInt64) {
        var h = (value ^ word) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        value = h
    }

    mutating func add(bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i + 8 <= bytes.count {
            add(word: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        for (k, b) in bytes[i...].enumerated() { tail |= UInt64(b) << (8 * UInt64(k)) }
        add(word: tail ^ UInt64(bytes.count - i) << 56)
    }

    /// Hashes `count` bytes at `offset` of `fd`, read through `buffer`;
    /// false when they cannot be read.
    mutating func add(fd: Int32, at offset: Int64, count: Int, buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < count {
            let want = min(buffer.count, count - done)
            let n = pread(fd, buffer.baseAddress, want, off_t(offset) + off_t(done))
            if n < 0 { if errno == EINTR { continue }; return false }
            if n == 0 { break }  // shorter than it said: the file shrank; hash what is there
            add(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            done += n
        }
        add(word: UInt64(done))
        return true
    }
}
