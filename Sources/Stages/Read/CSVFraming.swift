/// Cuts a CSV stream into rows (RFC 4180): a row ends at a line end outside
/// quotes, so a quoted field may hold line ends, delimiters and `""`.
///
/// A quote opens a quoted field only at the start of a field; elsewhere it
/// is an ordinary character (`5" screen`), as most readers take it. State is
/// kept between calls, so a row may straddle any number of reads. CR before
/// LF ends no field; blank lines are skipped.
struct CSVFraming {
    enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    let delimiter: UInt8
    /// The first row is the header (the framer reports it as such).
    var headerPending = true
    private var state = State.fieldStart
    private var scanned = 0       // bytes of the current row already scanned
    private var newlines = 0      // line ends inside the current row so far
    private var skip = OverlongSkip()

    init(delimiter: UInt8) { self.delimiter = delimiter }

    /// The next row of `b` from `retainFrom`, which it advances (and `line` with it).
    mutating func next(_ b: UnsafeBufferPointer<UInt8>, retainFrom: inout Int, line: inout Int,
                       maxRecord: Int, isEnd: Bool) -> RecordFramer.Event {
        while true {
            let start = retainFrom
            var i = start + scanned
            var ended = false
            scan: while i < b.count {
                let c = b[i]
                switch state {
                case .quoted:
                    if c == 0x22 { state = .quoteInQuoted } else if c == 0x0A { newlines += 1 }
                case .quoteInQuoted:
                    if c == 0x22 { state = .quoted }
                    else if c == delimiter { state = .fieldStart }
                    else if c == 0x0A { ended = true; break scan }
                    else { state = .unquoted }
                case .fieldStart:
                    if c == 0x22 { state = .quoted }
                    else if c == 0x0A { ended = true; break scan }
                    else if c != delimiter { state = .unquoted }
                case .unquoted:
                    if c == delimiter { state = .fieldStart } else if c == 0x0A { ended = true; break scan }
                }
                i += 1
                if !skip.active && i - start > maxRecord { skip.begin(line: line) }
            }
            if !ended && !isEnd {
                if skip.active {
                    retainFrom = i  // forget what was scanned; keep only the state
                    scanned = 0
                } else {
                    scanned = i - start
                }
                return .needMore
            }
            if !ended && i == start { return .needMore }  // the end, nothing left
            let rowLine = line
            var end = i
            retainFrom = ended ? i + 1 : i
            line += newlines + (ended ? 1 : 0)
            state = .fieldStart
            scanned = 0
            newlines = 0
            if skip.active { return .tooLong(line: skip.end()) }
            if end > start && b[end - 1] == 0x0D { end -= 1 }
            var s = start
            while s < end && (b[s] == 0x20 || b[s] == 0x09 || b[s] == 0x0D) { s += 1 }
            if s == end { continue }  // a blank line
            return .record(range: start..<end, line: rowLine)
        }
    }
}

extension RecordHandler {
    /// Handlers that do not read CSV take no note of a header…
    public func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {}

    /// …and take its rows for records.
    public func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        record(bytes, line: line, origin: origin)
    }
}
