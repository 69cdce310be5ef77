/// Blank lines since the last record: the lines layout gives up after
/// `endlessRun` bytes of them (a bomb of newlines), counting from the
/// stream's start, where the layout decision skips them.
struct BlankRun {
    var bytes = 0
    /// Where the run started.
    var startLine = 1
}

/// The lines layout: each line is a record (memchr fast path); white space
/// around it (the CR of CRLF too) is trimmed and blank lines are skipped.
struct LineFraming {
    private var cutter = LineCutter()

    mutating func next(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool, _ c: inout FrameCursor, _ blanks: inout BlankRun,
                       _ limits: FrameLimits) -> RecordFramer.Event {
        while true {
            if blanks.bytes >= limits.endlessRun { return .endless(line: blanks.startLine) }
            let start = c.retainFrom
            guard start < b.count else { return .needMore }
            let range: Range<Int>, thisLine: Int
            switch cutter.next(b, isEnd: isEnd, &c, limits) {
            case .line(let r, let l):
                range = r
                thisLine = l
            case .tail(let r):
                range = r
                thisLine = c.line
                c.line += 1
            case .tooLong(let l):
                blanks.bytes = 0
                return .tooLong(line: l)
            case .skipped:
                continue
            case .endless(let l):
                return .endless(line: l)
            case .needMore:
                return .needMore
            }
            var s = range.lowerBound, e = range.upperBound
            while s < e, isSpace(b[s]) { s += 1 }
            while e > s, isSpace(b[e - 1]) { e -= 1 }
            if s == e {
                // Nothing but blank lines for `endlessRun` bytes: a bomb of newlines.
                if blanks.bytes == 0 { blanks.startLine = thisLine }
                blanks.bytes += c.retainFrom - start
                continue
            }
            blanks.bytes = 0
            return .record(range: s..<e, line: thisLine)
        }
    }
}
