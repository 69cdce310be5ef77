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
    // The current entry's block from `archive_read_data_block`, handed out piece by piece.
    private var block: UnsafeRawPointer?
    private var blockLeft = 0
    /// Where the next byte handed out sits in the entry (a sparse member's holes read as zeros).
    private var dataOffset: Int64 = 0
    private var blockOffset: Int64 = 0
    /// A warning that came with the last block (a zip member's bad CRC), raised once it is read.
    private var pendingWarning: ReadError?

    /// Opens `source` for reading.
    ///
    /// - Throws: `ReadError` when libarchive recognises no format in it.
    /// Whether libarchive may seek in the source (a whole file, not a pipe).
    private var seekable = false

    /// 7z keeps its index at its end: from a pipe its members cannot be read.
    static let sevenZipFromAPipe = ReadError(
        "a 7z archive cannot be read from a pipe (its index is at its end, and a pipe cannot go back): "
            + "give the .7z file's path, or unpack it first", notDamage: true)

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
        archive_read_support_format_iso9660(a)
        archive_read_support_format_raw(a)
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let file = source as? FileSource, file.isSeekable {
            archive_read_set_seek_callback(a, archiveSeek)
            seekable = true
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
        /// For a hard link (a tar member with no data of its own): the member it links to.
        var hardLink: String? = nil
    }

    /// The next entry, or nil at the end.
    ///
    /// - Parameter damaged: called with libarchive's words for every damaged
    ///   header it skipped on the way (a tar member whose header checksum is
    ///   wrong); the entries after it are still read.
    /// - Throws: `ReadError` when the container is corrupt; nothing further can be read then.
    func nextEntry(damaged: (ReadError) -> Void = { _ in }) throws(ReadError) -> Entry? {
        var entry: OpaquePointer?
        var rc = archive_read_next_header(handle, &entry)
        if rc == ARCHIVE_RETRY {
            // libarchive moves on a block at a time: one report for the whole run of damage.
            let detail = archive_error_string(handle).map { String(cString: $0) } ?? "damaged header"
            var blocks = 1
            while rc == ARCHIVE_RETRY && blocks < 1 << 20 {
                rc = archive_read_next_header(handle, &entry)
                if rc == ARCHIVE_RETRY { blocks += 1 }
            }
            damaged(ReadError("\(detail); \(blocks) \(blocks == 1 ? "block" : "blocks") passed over"))
        }
        if rc == ARCHIVE_EOF { return nil }
        try check(rc, "cannot read the next member")
        if !seekable && archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_7ZIP { throw Self.sevenZipFromAPipe }
        block = nil
        blockLeft = 0
        dataOffset = 0
        pendingWarning = nil
        guard let entry else { return nil }
        let path = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        let type = archive_entry_filetype(entry)
        let isRaw = archive_format(handle) == ARCHIVE_FORMAT_RAW
        let link = archive_entry_hardlink(entry).map { String(cString: $0) }
        return Entry(path: path, isRegularFile: isRaw || type == 0o100000 || type == 0, isRaw: isRaw, hardLink: link)
    }

    /// Offset of the current entry's first header in the (uncompressed) input.
    var headerPosition: Int64 { archive_read_header_position(handle) }

    /// The current entry's data as a `ByteSource`.
    func entryData() -> ByteSource { EntryDataSource(reader: self) }

    /// Reads the current entry through `archive_read_data_block`, not
    /// `archive_read_data`: the latter drops the bytes it already copied in a
    /// call that then fails, so a truncated stream would lose up to a whole
    /// buffer of good records before the damage; and it reports a zip
    /// member's bad CRC in place of the member's last bytes.
    fileprivate func readData(into out: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        guard out.count > 0 else { return 0 }
        while blockLeft == 0 {
            if let warning = pendingWarning {
                pendingWarning = nil
                throw warning
            }
            var p: UnsafeRawPointer?
            var size = 0
            var offset: la_int64_t = 0
            let rc = archive_read_data_block(handle, &p, &size, &offset)
            if rc == ARCHIVE_EOF { return 0 }
            if rc == ARCHIVE_WARN {
                // The block is good; the warning is about the entry as a whole.
                let detail = archive_error_string(handle).map { String(cString: $0) } ?? "libarchive warning"
                pendingWarning = ReadError("cannot decompress: \(detail)")
            } else {
                try check(rc, "cannot decompress")
            }
            block = p
            blockLeft = p == nil ? 0 : size
            blockOffset = Int64(offset)
        }
        if blockOffset > dataOffset {
            // A hole in a sparse member: zeros up to the block.
            let n = Int(min(Int64(out.count), blockOffset - dataOffset))
            out.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: n)
            dataOffset += Int64(n)
            return n
        }
        let n = min(out.count, blockLeft)
        out.baseAddress!.copyMemory(from: block!, byteCount: n)
        block = block! + n
        blockLeft -= n
        blockOffset += Int64(n)
        dataOffset = blockOffset
        return n
    }

    /// The one place libarchive's return codes are checked.
    ///
    /// `ARCHIVE_OK` and `ARCHIVE_WARN` go on; `ARCHIVE_FAILED` and
    /// `ARCHIVE_FATAL` become a `ReadError` with libarchive's own words (or
    /// the error of the source underneath, which libarchive only saw as -1).
    private func check(_ rc: Int32, _ what: String) throws(ReadError) {
        if rc == ARCHIVE_OK || rc == ARCHIVE_WARN { return }
        if let lastError { throw ReadError("\(what): \(lastError.message)") }
        if !seekable && archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_7ZIP { throw Self.sevenZipFromAPipe }
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
