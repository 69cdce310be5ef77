/// Where a framer is in the caller's buffer: the first byte not yet handed
/// out, and the line it is on. Every layout machine moves the same cursor.
struct FrameCursor {
    /// Where unconsumed input starts in the caller's buffer.
    var retainFrom = 0
    /// Line number at `retainFrom` (1-based).
    var line = 1
}

/// The caps every layout machine frames under.
struct FrameLimits {
    /// Longest record kept; a longer one is skipped without being held.
    let maxRecord: Int
    /// Bytes without a line end, while skipping, after which the stream is given up.
    let endlessRun: Int
}

/// The one way an over-long record is skipped (lines, a document's values,
/// the rest of a line that is not JSON, CSV rows): from the moment it passes
/// `maxRecord` its bytes are scanned on without being kept, and it is
/// reported once, with the line it started on, when it ends. `run` counts
/// the bytes since the last line end, so a skip that never meets one (a
/// decompression bomb) can be given up after `endlessRun`.
struct OverlongSkip {
    private(set) var active = false
    /// The line the skipped record started on.
    private(set) var startLine = 0
    /// Bytes since the last line end while skipping.
    var run = 0

    mutating func begin(line: Int, run: Int = 0) {
        active = true
        startLine = line
        self.run = run
    }

    /// The skipped record ended; returns the line it started on.
    @discardableResult
    mutating func end() -> Int {
        active = false
        return startLine
    }

    func isEndless(_ limits: FrameLimits) -> Bool { run >= limits.endlessRun }
}

/// Cuts lines, skipping over-long ones (`OverlongSkip`): the lines layout,
/// and a document's line that is not JSON at all. State is kept between
/// calls, so a line may straddle any number of reads and is searched once.
struct LineCutter {
    enum Cut {
        /// A line ended by LF at `range.upperBound`, on `line`.
        case line(Range<Int>, line: Int)
        /// The input's last bytes, with no line end (the cursor is moved past them, the line not counted).
        case tail(Range<Int>)
        /// A line longer than the cap: being skipped from `line` on.
        case tooLong(line: Int)
        /// The over-long line being skipped ended.
        case skipped
        /// `endlessRun` bytes went by without a line end while skipping from `line`.
        case endless(line: Int)
        case needMore
    }

    /// Bytes from the cursor on already searched for a line end.
    private var scanned = 0
    private(set) var skip = OverlongSkip()

    /// The next line from the cursor, which it advances (and its line with it, for every ended line).
    mutating func next(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool, _ c: inout FrameCursor, _ limits: FrameLimits) -> Cut {
        let start = c.retainFrom
        // While skipping, look no further than where the run becomes endless.
        let limit = skip.active ? min(b.count, start + (limits.endlessRun - skip.run)) : b.count
        if let nl = findNewline(b, from: start + scanned, to: limit) {
            c.retainFrom = nl + 1
            scanned = 0
            let thisLine = c.line
            c.line += 1
            if skip.active {
                skip.end()
                return .skipped
            }
            if nl - start > limits.maxRecord { return .tooLong(line: thisLine) }
            return .line(start..<nl, line: thisLine)
        }
        if skip.active {
            skip.run += limit - start
            c.retainFrom = limit
            if skip.isEndless(limits) { return .endless(line: skip.end()) }
            if isEnd { skip.end() }
            return .needMore
        }
        if b.count - start > limits.maxRecord {
            skip.begin(line: c.line, run: b.count - start)
            c.retainFrom = b.count
            scanned = 0
            return .tooLong(line: c.line)
        }
        if isEnd {
            c.retainFrom = b.count
            scanned = 0
            return .tail(start..<b.count)
        }
        scanned = b.count - start
        return .needMore
    }

    /// Forgets a skip (the stream was given up).
    mutating func reset() {
        skip.end()
        scanned = 0
    }
}

/// The first LF in `b[start..<end]` (memchr).
@inline(__always)
func findNewline(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) -> Int? {
    let end = end ?? b.count
    guard start < end, let p = memchr(b.baseAddress! + start, 0x0A, end - start) else { return nil }
    return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
