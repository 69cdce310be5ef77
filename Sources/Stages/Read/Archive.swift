import CArchive

#if canImport(Glibc)
import Glibc
#endif

/// A libarchive reader over any `ByteSource`: every compression filter, and
/// the tar, zip, 7z and cpio containers, with "raw" for a compressed stream
/// that holds no container. All libarchive calls of the project are here,
/// and every return code goes through `check`.
///
/// The bytes come through callbacks (`archive_read_open2`), so a member of
/// one archive can itself be opened as an archive: a tar of `.json.bz2`, a zip
/// holding a `.tar.gz`. Whole files are also seekable (`archive_read_set_seek_callback`),
/// which lets libarchive read a zip through its central directory.
final class ArchiveReader {
    private let handle: OpaquePointer
    private let source: ByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    private var lastError: ReadError?

    /// Opens `source` for reading.
    ///
    /// - Throws: `ReadError` when libarchive recognises no format in it.
    init(source: ByteSource) throws(ReadError) {
        guard let a = archive_read_new() else { throw ReadError("libarchive could not allocate a reader") }
        handle = a
        self.source = source
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        archive_read_support_filter_all(a)
        archive_read_support_format_tar(a)
        archive_read_support_format_zip(a)
        archive_read_support_format_7zip(a)
        archive_read_support_format_cpio(a)
        archive_read_support_format_raw(a)
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let file = source as? FileSource, file.isSeekable {
            archive_read_set_seek_callback(a, archiveSeek)
        }
        let rc = archive_read_open2(a, context, nil, archiveRead, nil, nil)
        try check(rc, "cannot open")
    }

    deinit {
        archive_read_free(handle)
        buffer.deallocate()
    }

    /// One entry of the archive (a member, or the single stream of "raw").
    struct Entry {
        var path: String
        var isRegularFile: Bool
        /// Whether the format is "raw": a compressed stream, not a container.
        var isRaw: Bool
    }

    /// The next entry, or nil at the end.
    ///
    /// - Throws: `ReadError` when the container is corrupt; nothing further can be read then.
    func nextEntry() throws(ReadError) -> Entry? {
        var entry: OpaquePointer?
        let rc = archive_read_next_header(handle, &entry)
        if rc == ARCHIVE_EOF { return nil }
        try check(rc, "cannot read the next member")
        guard let entry else { return nil }
        let path = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        let type = archive_entry_filetype(entry)
        let isRaw = archive_format(handle) == ARCHIVE_FORMAT_RAW
        return Entry(path: path, isRegularFile: isRaw || type == 0o100000 || type == 0, isRaw: isRaw)
    }

    /// Offset of the current entry's first header in the (uncompressed) input.
    var headerPosition: Int64 { archive_read_header_position(handle) }

    /// The current entry's data as a `ByteSource`.
    func entryData() -> ByteSource { EntryDataSource(reader: self) }

    fileprivate func readData(into out: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        let n = archive_read_data(handle, out.baseAddress, out.count)
        if n >= 0 { return n }
        try check(Int32(truncatingIfNeeded: n), "cannot decompress")
        return 0
    }

    /// The one place libarchive's return codes are checked.
    ///
    /// `ARCHIVE_OK` and `ARCHIVE_WARN` go on; `ARCHIVE_FAILED` and
    /// `ARCHIVE_FATAL` become a `ReadError` with libarchive's own words (or
    /// the error of the source underneath, which libarchive only saw as -1).
    private func check(_ rc: Int32, _ what: String) throws(ReadError) {
        if rc == ARCHIVE_OK || rc == ARCHIVE_WARN { return }
        if let lastError { throw ReadError("\(what): \(lastError.message)") }
        let detail = archive_error_string(handle).map { String(cString: $0) } ?? "libarchive error \(rc)"
        throw ReadError("\(what): \(detail)")
    }

    // Called by libarchive through the C callbacks below.
    fileprivate func fill() -> (UnsafeRawPointer?, Int) {
        do {
            let n = try source.read(into: buffer)
            return (UnsafeRawPointer(buffer.baseAddress), n)
        } catch {
            lastError = error
            return (nil, -1)
        }
    }

    fileprivate func seek(offset: Int64, whence: Int32) -> Int64 {
        guard let file = source as? FileSource else { return Int64(ARCHIVE_FATAL) }
        var size = stat()
        guard fstat(file.fd, &size) == 0 else { return Int64(ARCHIVE_FATAL) }
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = file.position + offset
        case SEEK_END: target = Int64(size.st_size) + offset
        default: return Int64(ARCHIVE_FATAL)
        }
        guard target >= 0 else { return Int64(ARCHIVE_FATAL) }
        file.seek(to: target)
        return target
    }

    /// libarchive's version, for `smashtag --version`.
    static var version: String { String(cString: archive_version_details()) }
}

/// The data of the reader's current entry.
private final class EntryDataSource: ByteSource {
    let reader: ArchiveReader
    init(reader: ArchiveReader) { self.reader = reader }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        try reader.readData(into: buffer)
    }
}

private func archiveRead(_ a: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                         _ out: UnsafeMutablePointer<UnsafeRawPointer?>?) -> la_ssize_t {
    let reader = Unmanaged<ArchiveReader>.fromOpaque(context!).takeUnretainedValue()
    let (p, n) = reader.fill()
    out?.pointee = p
    return la_ssize_t(n)
}

private func archiveSeek(_ a: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                         _ offset: la_int64_t, _ whence: Int32) -> la_int64_t {
    let reader = Unmanaged<ArchiveReader>.fromOpaque(context!).takeUnretainedValue()
    return reader.seek(offset: offset, whence: whence)
}
