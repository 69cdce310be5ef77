import CISAL
import CZlib

/// A gzip stream (RFC 1952), inflated by ISA-L with every member's CRC-32 and
/// length checked: a flipped bit is named as damage, never read as other
/// text. libarchive's gzip filter leaves the trailer unchecked, so gzip is
/// read here and what it holds (text, a tar) goes on to the usual readers.
///
/// Members follow each other (`cat a.gz b.gz`), with NUL bytes between or
/// after them passed over as padding. Anything else after a member is not
/// gzip: reading stops there and `trailing` says what was left unread, so
/// the reader can name it instead of dropping it in silence.
///
/// Each member's header is read by zlib, its deflate data and trailer by
/// ISA-L (`isal_inflate`, about twice zlib's speed). Damage is told in
/// zlib's words, at zlib's place: when ISA-L finds a member damaged or cut
/// short, zlib inflates that member again from its first byte (re-read from
/// the file, or from a copy kept of it), drops what was already handed out
/// and goes on from there, so the message and the bytes before it are the
/// ones zlib alone gave. See `takeOverWithZlib()`; and, for damage ISA-L
/// finds later than zlib, `damageAhead()`.
///
/// One concept, in one file longer than most: inflating with ISA-L while
/// every word and place of damage stays zlib's takes the look ahead, the
/// take-over and the kept copy together, and they share the buffer's state.
///
/// - Complexity: memory is the input buffer and a chunk peeked at (256 KiB
///   each), ISA-L's state twice (85 KiB each), 64 KiB to look ahead into,
///   plus, for a stream that cannot be read again (a pipe, an archive
///   member), the chunks read ahead (1.25 MiB at most) and a copy of the
///   current member's compressed bytes, up to `keptLimit` (64 MiB).
final class GzipSource: ByteSource {
    /// What is read from upstream at a time (and so where zlib's calls end).
    static let chunk = 1 << 18
    /// How far ISA-L looks ahead for damage before a read's bytes are handed out.
    static let probeBytes = 64 << 10
    /// The most compressed bytes ISA-L reads past the buffer to look ahead.
    static let aheadLimit = 1 << 20

    private let upstream: ByteSource
    /// The file under the stream when its bytes can be read again (`pread`),
    /// and where in it the stream starts.
    private let file: FileSource?
    private let fileBase: Int64
    private var stream = z_stream()
    private var zlibReady = false
    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var upstreamDone = false
    private var inMember = false
    private var finished = false
    /// Who inflates the current member: zlib reads its header, ISA-L the rest,
    /// unless ISA-L met damage (or the end of input) and zlib took over.
    private enum Phase { case header, isal, zlib }
    private var phase = Phase.header
    /// Bytes taken from upstream before the current buffer, for offsets in messages.
    private var consumedBefore: Int64 = 0
    /// Where the current member starts in the stream, and how many of its
    /// inflated bytes were handed out.
    private var memberStart: Int64 = 0
    private var memberOut: Int64 = 0
    /// The current member's compressed bytes, for a stream that cannot be read again.
    private var kept: UnsafeMutableRawPointer?
    private var keptCapacity = 0
    private var keptCount = 0
    /// The member outgrew `keptLimit`: its damage is named in ISA-L's words.
    private var keptLost = false
    /// Why ISA-L stopped: its return code, or `ISAL_END_INPUT` for input that ended inside a member.
    private var isalStop: Int32 = 0
    /// Where the input ended before each refill of this read: zlib had only
    /// that much when it inflated there, so a zlib taking over is given the
    /// input up to each of these in turn (`zlibLimits`) and stops where zlib
    /// alone would have (ISA-L keeps back a last byte or two at the end of
    /// its input).
    private var refilledAt: [Int64] = []
    private var zlibLimits: [Int64] = []
    /// ISA-L's state copied to look ahead for damage (`damageAhead()`), where
    /// its bytes go, and a chunk peeked at in a file.
    private let probe: UnsafeMutablePointer<inflate_state>
    private let probeOut: UnsafeMutableRawBufferPointer
    private let peeked: UnsafeMutableRawBufferPointer
    /// Chunks read ahead of their refills from a stream (which take them in
    /// turn): their bytes one after another, from `aheadFront` on, and each
    /// one's size from `aheadNext` on (0: upstream ended).
    private var ahead: UnsafeMutableRawPointer?
    private var aheadCapacity = 0
    private var aheadEnd = 0
    private var aheadFront = 0
    private var aheadSizes: [Int] = []
    private var aheadNext = 0
    /// How much of the member ISA-L has inflated without damage, looking
    /// ahead: a read that ends `probeBytes` or more before it looks no further.
    private var verifiedOut: Int64 = 0
    /// What came after the last member that is not gzip, if anything.
    private(set) var trailing: String?
    /// The most of one member kept for zlib when the stream cannot be read again.
    private let keptLimit: Int

    /// - Parameter keptLimit: the most of one member's compressed bytes kept
    ///   for zlib when `upstream` cannot be read again [default: 64 MiB].
    init(_ upstream: ByteSource, keptLimit: Int = 64 << 20) {
        self.upstream = upstream
        self.keptLimit = keptLimit
        if let file = upstream as? FileSource, file.canPeek {
            self.file = file
            fileBase = file.position
        } else {
            file = nil
            fileBase = 0
        }
        // Room past `chunk` for the few bytes zlib may need from before the
        // buffer when it takes over a member.
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunk + (64 << 10), alignment: 16)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        probe = .allocate(capacity: 1)
        probeOut = .allocate(byteCount: Self.probeBytes, alignment: 16)
        peeked = .allocate(byteCount: Self.chunk, alignment: 16)
    }

    deinit {
        if zlibReady { inflateEnd(&stream) }
        state.deallocate()
        probe.deallocate()
        probeOut.deallocate()
        peeked.deallocate()
        ahead?.deallocate()
        kept?.deallocate()
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        guard buffer.count > 0 else { return 0 }
        refilledAt.removeAll(keepingCapacity: true)
        while !finished {
            if start == end && !upstreamDone {
                refilledAt.append(consumedBefore + Int64(end))
                try refill()
            }
            if !inMember {
                guard try beginMember() else { finished = true; return 0 }
            }
            let produced: Int
            switch phase {
            case .header:
                try readHeader()
                continue
            case .isal:
                guard let n = inflateWithISAL(into: buffer) else {
                    try takeOverWithZlib()
                    continue
                }
                // Bytes are handed out only when ISA-L meets no damage a little further on.
                if n > 0 && inMember && (file != nil || !keptLost)
                    && verifiedOut - (memberOut + Int64(n)) < Int64(Self.probeBytes),
                    try damageAhead(from: memberOut + Int64(n)) {
                    try takeOverWithZlib()
                    continue
                }
                produced = n
            case .zlib:
                produced = try inflateWithZlib(into: buffer)
            }
            memberOut += Int64(produced)
            if produced > 0 { return produced }
        }
        return 0
    }

    /// Reads the member's gzip header with zlib (its checks and its words),
    /// then hands the deflate data to ISA-L.
    private func readHeader() throws(ReadError) {
        var none: UInt8 = 0
        let rc = withUnsafeMutablePointer(to: &none) { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self)) + start
            stream.avail_in = uInt(end - start)
            stream.next_out = out
            stream.avail_out = 0
            return inflate(&stream, Z_BLOCK)  // returns at the end of the header, before any data
        }
        start = end - Int(stream.avail_in)
        switch rc {
        case Z_OK, Z_BUF_ERROR:
            if stream.data_type & 128 != 0 {
                isal_inflate_reset(state)
                // Raw deflate, then the trailer's CRC-32 and length, checked.
                state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
                phase = .isal
            } else if start == end && upstreamDone {
                throw ReadError("the gzip data ends in the middle of a member (truncated)")
            }
        default:
            throw zlibFailure(rc)
        }
    }

    /// One `isal_inflate` call, as zlib's would be: what fits of what the
    /// buffered input gives.
    ///
    /// - Returns: the bytes inflated, or nil when zlib must take over: ISA-L
    ///   found damage, or the input ended inside the member.
    private func inflateWithISAL(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
        state.pointee.avail_in = UInt32(end - start)
        state.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        let rc = isal_inflate(state)
        start = end - Int(state.pointee.avail_in)
        let produced = min(buffer.count, Int(UInt32.max)) - Int(state.pointee.avail_out)
        guard rc == ISAL_DECOMP_OK else {
            isalStop = rc
            return nil
        }
        if state.pointee.block_state == ISAL_BLOCK_FINISH {
            inMember = false
        } else if produced == 0 && start == end && upstreamDone {
            isalStop = ISAL_END_INPUT
            return nil
        }
        return produced
    }

    /// Whether ISA-L, going on from where it stands (`from` bytes into the
    /// member), meets damage or the end of the input inside the member within
    /// twice `probeBytes` (reading on into
    /// the chunks the next refills read, `aheadLimit` of them at most): then
    /// zlib takes this read over, before its bytes are handed out.
    ///
    /// ISA-L checks some things later than zlib: a code set that zlib refuses
    /// in a block's header (`invalid distances set`) ISA-L finds only when a
    /// missing code turns up, kilobytes on. Without the look ahead, bytes
    /// zlib never gave would be handed out first. ISA-L goes on in a copy of
    /// its state, so what this read and the next give is unchanged. From a
    /// file the chunks ahead are peeked at (the refills read them as before,
    /// and `--stats` counts what zlib alone read); from a stream they are
    /// read, asking upstream for as much as each refill would, and kept for
    /// the refills.
    ///
    /// - Complexity: inflates up to 2 × `probeBytes` more per read, and at
    ///   most once per `probeBytes` handed out (a few percent of ISA-L's work
    ///   for reads of megabytes; twice its work for reads of a few bytes).
    private func damageAhead(from: Int64) throws(ReadError) -> Bool {
        probe.update(from: state, count: 1)
        probe.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
        probe.pointee.avail_in = UInt32(end - start)
        var probed = 0
        var fedAhead = 0  // compressed bytes fed past the buffer
        var nextChunk = aheadNext, chunkAt = aheadFront  // the next chunk read ahead to feed, and where it is
        defer { verifiedOut = max(verifiedOut, from + Int64(probed)) }
        while probed < 2 * Self.probeBytes {
            probe.pointee.next_out = probeOut.baseAddress!.assumingMemoryBound(to: UInt8.self)
            probe.pointee.avail_out = UInt32(probeOut.count)
            let before = probe.pointee.avail_in
            let rc = isal_inflate(probe)
            let produced = probeOut.count - Int(probe.pointee.avail_out)
            probed += produced
            if rc != ISAL_DECOMP_OK {
                isalStop = rc
                return true
            }
            if probe.pointee.block_state == ISAL_BLOCK_FINISH {
                probed = Int(Int32.max)  // the whole member, its CRC-32 and length checked
                return false
            }
            guard probe.pointee.avail_in == 0 else {
                if produced == 0 && probe.pointee.avail_in == before { return false }
                continue
            }
            if produced > 0 { continue }  // drained what it held; its input is used up only when it gives nothing more
            if fedAhead >= Self.aheadLimit { return false }
            // The next chunk: peeked at in a file, else read ahead (or read before) from the stream.
            var n: Int
            if upstreamDone {
                n = 0
            } else if let file, file.isSeekable {
                n = try file.peek(at: fileBase + consumedBefore + Int64(end) + Int64(fedAhead), into: peeked)
                probe.pointee.next_in = peeked.baseAddress!.assumingMemoryBound(to: UInt8.self)
            } else {
                if nextChunk == aheadSizes.count {
                    if aheadSizes.last == 0 { return true }
                    try readAhead()
                }
                n = aheadSizes[nextChunk]
                probe.pointee.next_in = ahead.map { ($0 + chunkAt).assumingMemoryBound(to: UInt8.self) }
                nextChunk += 1
                chunkAt += n
            }
            if n == 0 {
                isalStop = ISAL_END_INPUT  // the input ends inside the member
                return true
            }
            probe.pointee.avail_in = UInt32(n)
            fedAhead += n
        }
        return false
    }

    /// Reads one more chunk from the stream for the refills to come, asking
    /// for as many bytes as such a refill asks for.
    private func readAhead() throws(ReadError) {
        if aheadEnd + Self.chunk > aheadCapacity {
            let capacity = max(aheadCapacity * 2, aheadEnd + Self.chunk)
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            if let ahead {
                bigger.copyMemory(from: ahead, byteCount: aheadEnd)
                ahead.deallocate()
            }
            ahead = bigger
            aheadCapacity = capacity
        }
        let n = try upstream.read(into: UnsafeMutableRawBufferPointer(start: ahead! + aheadEnd, count: Self.chunk))
        aheadEnd += n
        aheadSizes.append(n)
    }

    /// One `inflate` call, with zlib's checks and words.
    private func inflateWithZlib(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> Int {
        let stop = zlibLimits.first.map { min(end, Int($0 - consumedBefore)) } ?? end
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self)) + start
        stream.avail_in = uInt(stop - start)
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(buffer.count)
        let rc = inflate(&stream, Z_NO_FLUSH)
        start = stop - Int(stream.avail_in)
        if let limit = zlibLimits.first, consumedBefore + Int64(start) >= limit { zlibLimits.removeFirst() }
        let produced = buffer.count - Int(stream.avail_out)
        switch rc {
        case Z_STREAM_END:
            inMember = false
        case Z_OK, Z_BUF_ERROR:
            if produced == 0 && start == end && upstreamDone {
                throw ReadError("the gzip data ends in the middle of a member (truncated)")
            }
        default:
            throw zlibFailure(rc)
        }
        return produced
    }

    /// zlib's words for a return code that is not success: every message a
    /// damaged member gets comes from here.
    private func zlibFailure(_ rc: Int32) -> ReadError {
        switch rc {
        case Z_DATA_ERROR:
            let detail = stream.msg.map { String(cString: $0) } ?? "invalid data"
            switch detail {
            case "incorrect data check":
                return ReadError("the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)")
            case "incorrect length check":
                return ReadError("the gzip data fails its length check (damaged)")
            default:
                return ReadError("damaged gzip data: \(detail)")
            }
        case Z_MEM_ERROR:
            return ReadError("out of memory inflating gzip data")
        default:
            return ReadError("zlib error \(rc) inflating gzip data")
        }
    }

    /// zlib takes the current member over from ISA-L, which found it damaged
    /// or cut short: it inflates the member again from its first byte, drops
    /// the `memberOut` bytes already handed out, and stands where it would
    /// stand had it read the member alone. The caller's read is then made
    /// again by zlib, which names the damage in its own words (or reads on,
    /// should it find none).
    ///
    /// - Throws: zlib's message when it finds the damage before the bytes
    ///   already handed out (ISA-L, which checks its codes later, gave out a
    ///   few bytes more than zlib would have).
    /// - Complexity: inflates the member's bytes so far once more; memory is
    ///   one 1 MiB scratch buffer.
    private func takeOverWithZlib() throws(ReadError) {
        phase = .zlib
        let through = consumedBefore + Int64(end)
        guard file != nil || !keptLost else { throw isalFailure(isalStop) }
        if zlibReady {
            guard inflateReset(&stream) == Z_OK else { throw ReadError("zlib could not start the gzip member again") }
        } else {
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw ReadError("zlib could not start inflating")
            }
            zlibReady = true
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { scratch.deallocate() }
        stream.avail_in = 0
        var fed = memberStart  // bytes of the member given to zlib so far
        var chunk = [UInt8]()
        var dropped: Int64 = 0
        while dropped < memberOut {
            if stream.avail_in == 0 {
                guard fed < through else { break }
                chunk = try memberBytes(from: fed, count: Int(min(Int64(1 << 20), through - fed)))
                fed += Int64(chunk.count)
                stream.avail_in = uInt(chunk.count)
            }
            let before = stream.avail_in
            let count = chunk.count
            let rc = chunk.withUnsafeMutableBytes { bytes -> Int32 in
                let used = count - Int(before)
                stream.next_in = bytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + used
                stream.next_out = scratch.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(min(Int64(scratch.count), memberOut - dropped))
                return inflate(&stream, Z_NO_FLUSH)
            }
            dropped += Int64(min(Int64(scratch.count), memberOut - dropped) - Int64(stream.avail_out))
            if rc == Z_STREAM_END { break }
            guard rc == Z_OK || rc == Z_BUF_ERROR else { throw zlibFailure(rc) }
        }
        let position = fed - Int64(stream.avail_in)  // where zlib stands in the stream
        // zlib reads on from `position`: inside the buffer as a rule, else
        // (it stands a few bytes further back than ISA-L) the buffer is
        // widened in front with the member's bytes.
        if position >= consumedBefore {
            start = Int(position - consumedBefore)
        } else {
            let back = Int(consumedBefore - position)
            guard back + end <= input.count else { throw ReadError("zlib could not take the gzip member over") }
            let missing = try memberBytes(from: position, count: back)
            if end > 0 { (input.baseAddress! + back).copyMemory(from: input.baseAddress!, byteCount: end) }
            missing.withUnsafeBytes { input.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: back) }
            consumedBefore = position
            end += back
            start = 0
        }
        stream.avail_in = 0
        zlibLimits = refilledAt.filter { $0 > position }
        releaseKept()
    }

    /// ISA-L's words for damage in a member too big to keep (from a pipe or
    /// an archive member) for zlib to inflate again: close to zlib's, not always the same.
    private func isalFailure(_ rc: Int32) -> ReadError {
        switch rc {
        case ISAL_END_INPUT:
            return ReadError("the gzip data ends in the middle of a member (truncated)")
        case ISAL_INCORRECT_CHECKSUM:
            return ReadError("the gzip data fails its CRC-32 check (damaged; what was read of this member may carry the damage)")
        case ISAL_INVALID_LOOKBACK:
            return ReadError("damaged gzip data: invalid distance too far back")
        case ISAL_INVALID_BLOCK:
            return ReadError("damaged gzip data: invalid block")
        case ISAL_INVALID_SYMBOL:
            return ReadError("damaged gzip data: invalid code")
        default:
            return ReadError("ISA-L error \(rc) inflating gzip data")
        }
    }

    /// `count` compressed bytes of the current member from stream offset `offset`.
    private func memberBytes(from offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        if let file {
            let bytes = try file.peek(at: fileBase + offset, count: count)
            guard bytes.count == count else { throw ReadError("the gzip file changed while it was read") }
            return bytes
        }
        let from = Int(offset - memberStart)
        return Array(UnsafeRawBufferPointer(start: kept! + from, count: count))
    }

    /// Keeps a member's bytes for `takeOverWithZlib()` when they cannot be read again.
    private func keep(_ bytes: UnsafeRawBufferPointer) {
        guard file == nil, !keptLost, phase != .zlib, bytes.count > 0 else { return }
        if keptCount + bytes.count > keptLimit {
            keptLost = true
            releaseKept()
            return
        }
        if keptCount + bytes.count > keptCapacity {
            let capacity = min(keptLimit, max(keptCapacity * 2, keptCount + bytes.count, 1 << 20))
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            if let kept {
                bigger.copyMemory(from: kept, byteCount: keptCount)
                kept.deallocate()
            }
            kept = bigger
            keptCapacity = capacity
        }
        (kept! + keptCount).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        keptCount += bytes.count
    }

    private func releaseKept() {
        kept?.deallocate()
        kept = nil
        keptCapacity = 0
        keptCount = 0
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
        if zlibReady {
            guard inflateReset(&stream) == Z_OK else { throw ReadError("zlib could not start the next gzip member") }
        } else {
            // 15 bits of window, +16: a gzip wrapper (header here; CRC-32 and length when zlib takes over).
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw ReadError("zlib could not start inflating")
            }
            zlibReady = true
        }
        inMember = true
        phase = .header
        memberStart = consumedBefore + Int64(start)
        memberOut = 0
        verifiedOut = 0
        releaseKept()
        keptLost = false
        keep(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[start..<end]))
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
        guard end < Self.chunk else { return }
        let n: Int
        if aheadNext < aheadSizes.count {
            // A chunk read ahead for `damageAhead()`, of the size this read would have had.
            n = aheadSizes[aheadNext]
            if n > 0 { (input.baseAddress! + end).copyMemory(from: ahead! + aheadFront, byteCount: n) }
            aheadFront += n
            aheadNext += 1
            if aheadNext == aheadSizes.count {
                aheadSizes.removeAll(keepingCapacity: true)
                aheadNext = 0
                aheadFront = 0
                aheadEnd = 0
            }
        } else {
            n = try upstream.read(into: UnsafeMutableRawBufferPointer(rebasing: input[end..<Self.chunk]))
        }
        if n == 0 { upstreamDone = true }
        if inMember { keep(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[end..<end + n])) }
        end += n
    }
}
