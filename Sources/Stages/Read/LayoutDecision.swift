/// Decides a stream's layout from its first value: lines unless it is an
/// array, an archive's `window.YTD… =` assignment, or an object that spans
/// lines; CSV when the first line names an id and a text column.
///
/// Leading white space is consumed (its lines counted, its bytes a blank
/// run) and the scan of the first object resumes where the last call
/// stopped, so a stream that trickles in is not scanned again from its
/// start at every read.
struct LayoutDecision {
    enum Decision {
        case lines, document
        case csv(CSVHeader)
    }

    // How far the first value was scanned (relative to the cursor).
    private var scanned = 0
    private var nesting = JSONNesting()

    /// The layout, or nil until more bytes say.
    mutating func decide(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool, _ c: inout FrameCursor, _ blanks: inout BlankRun,
                         _ limits: FrameLimits, columns: CSVColumns?) -> Decision? {
        if scanned == 0 {
            if blanks.bytes == 0 { blanks.startLine = c.line }
            var i = c.retainFrom
            let limit = min(b.count, c.retainFrom + (limits.endlessRun - blanks.bytes))
            while i < limit, isSpace(b[i]) {
                if b[i] == 0x0A { c.line += 1 }
                i += 1
            }
            blanks.bytes += i - c.retainFrom
            c.retainFrom = i
            if blanks.bytes >= limits.endlessRun { return .lines }  // the lines layout gives up
            guard i < b.count else { return isEnd ? .lines : nil }
            if b[i] != UInt8(ascii: "{") && b[i] != UInt8(ascii: "["), let columns,
               let header = headerLine(b, at: i, from: c.retainFrom, isEnd: isEnd, columns: columns) {
                guard let header else { return nil }  // the first line is not complete yet
                return .csv(header)
            }
            switch b[i] {
            case UInt8(ascii: "["), UInt8(ascii: "w"): return .document
            case UInt8(ascii: "{"): break
            default: return .lines
            }
        }
        // Does the first object close before the first newline?
        var i = c.retainFrom + scanned
        defer { scanned = i - c.retainFrom }
        while i < b.count {
            let ch = b[i]
            i += 1
            switch nesting.take(ch) {
            case .within: break
            case .closed: return .lines
            // A line feed in a string is no JSON: lines, for the decoder to report.
            case .lineFeed: return nesting.inString ? .lines : .document
            }
            if i - c.retainFrom > limits.maxRecord { return .lines }
        }
        return isEnd ? .lines : nil
    }

    /// Whether the first line (holding position `i`) is a CSV header: `.some(nil)`
    /// when the line is not complete yet, nil when it is no header (a header
    /// line is at most 64 KiB).
    private func headerLine(_ b: UnsafeBufferPointer<UInt8>, at i: Int, from retainFrom: Int, isEnd: Bool,
                            columns: CSVColumns) -> CSVHeader?? {
        var start = i
        while start > retainFrom && b[start - 1] != 0x0A { start -= 1 }
        let limit = min(b.count, start + (64 << 10))
        let window = UnsafeBufferPointer(rebasing: b[..<limit])
        guard let nl = findNewline(window, from: i) ?? (isEnd && limit == b.count ? b.count : nil) else {
            return limit - start >= 64 << 10 ? nil : .some(nil)
        }
        let end = nl > start && b[nl - 1] == 0x0D ? nl - 1 : nl
        guard let header = CSVHeader.recognise(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[start..<end])),
                                               columns: columns) else { return nil }
        return .some(header)
    }
}
