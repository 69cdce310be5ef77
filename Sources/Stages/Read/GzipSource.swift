import CZlib

/// A gzip stream (RFC 1952), inflated by zlib with every member's CRC-32 and
/// length checked: a flipped bit is named as damage, never read as other
/// text. libarchive's gzip filter leaves the trailer unchecked, so gzip is
/// read here and what it holds (text, a tar) goes on to the usual readers.
///
/// Members follow each other (`cat a.gz b.gz`), with NUL bytes between or
/// after them passed over as padding. Anything else after a member is not
/// gzip: reading stops there and `trailing` says what was left unread, so
/// the reader can name it instead of dropping it in silence.
final class GzipSource: ByteSource {
    private let upstream: ByteSource
    private var stream = z_stream()
    private let input: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var upstreamDone = false
    private var inMember = false
    private var finished = false
    private var ready = false
    /// Bytes taken from upstream before the current buffer, for offsets in messages.
    private var consumedBefore: Int64 = 0
    /// What came after the last member that is not gzip, if anything.
    private(set) var trailing: String?

    init(_ upstream: ByteSource) {
        self.upstream = upstream
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    }

    deinit {
        if ready { inflateEnd(&stream) }
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while !finished {
            if start == end && !upstreamDone { try refill() }
            if !inMember {
                guard try beginMember() else { finished = true; return 0 }
            }
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self)) + start
            stream.avail_in = uInt(end - start)
            stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(buffer.count)
            let rc = inflate(&stream, Z_NO_FLUSH)
            start = end - Int(stream.avail_in)
            let produced = buffer.count - Int(stream.avail_out)
            switch rc {
            case Z_STREAM_END:
                inMember = false
            case Z_OK, Z_BUF_ERROR:
                if produced == 0 && start == end && upstreamDone {
                    throw ReadError("the gzip data ends in the middle of a member (truncated)")
                }
            case Z_DATA_ERROR:
                let detail = stream.msg.map { String(cString: $0) } ?? "invalid data"
                switch detail {
                case "incorrect data check":
                    throw ReadError("the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)")
                case "incorrect length check":
                    throw ReadError("the gzip data fails its length check (damaged)")
                default:
                    throw ReadError("damaged gzip data: \(detail)")
                }
            case Z_MEM_ERROR:
                throw ReadError("out of memory inflating gzip data")
            default:
                throw ReadError("zlib error \(rc) inflating gzip data")
            }
            if produced > 0 { return produced }
        }
        return 0
    }

    /// Between members: passes over NUL padding, then starts the next member.
    ///
    /// - Returns: false at the end of the stream (also after bytes that are
    ///   not gzip, which `trailing` then describes).
    private func beginMember() throws(ReadError) -> Bool {
        while true {
            while start < end && input[start] == 0 { start += 1 }
            if start < end { break }
            if upstreamDone { return false }
            try refill()
        }
        if end - start < 2 && !upstreamDone { try refill() }
        guard end - start >= 2, input[start] == 0x1F, input[start + 1] == 0x8B else {
            let offset = consumedBefore + Int64(start)
            var unread = Int64(end - start)
            while !upstreamDone {
                start = end
                try refill()
                unread += Int64(end - start)
            }
            trailing = "\(unread) \(unread == 1 ? "byte" : "bytes") after the gzip data (from byte \(offset) on) are not gzip: not read"
            return false
        }
        if ready {
            guard inflateReset(&stream) == Z_OK else { throw ReadError("zlib could not start the next gzip member") }
        } else {
            // 15 bits of window, +16: a gzip wrapper, whose CRC-32 and length zlib checks.
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw ReadError("zlib could not start inflating")
            }
            ready = true
        }
        inMember = true
        return true
    }

    /// Moves what is left to the front of the buffer and reads more behind it.
    private func refill() throws(ReadError) {
        if start > 0 {
            let left = end - start
            if left > 0 { input.baseAddress!.copyMemory(from: input.baseAddress! + start, byteCount: left) }
            consumedBefore += Int64(start)
            start = 0
            end = left
        }
        guard end < input.count else { return }
        let n = try upstream.read(into: UnsafeMutableRawBufferPointer(rebasing: input[end...]))
        if n == 0 { upstreamDone = true }
        end += n
    }
}
