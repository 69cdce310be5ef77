/// Cuts a byte stream into records: the unit that is parsed, counted or
/// skipped as bad on its own.
///
/// The first value of a stream decides the layout:
///
///     {…}⏎{…}⏎{…}⏎            JSON lines: each line is a record (memchr fast path)
///     [⏎  {…},⏎  {…}⏎]       a document array: each element is a record, so a
///     window.YTD.tweets… = [  tweets.js of any size streams element by element
///     {⏎  "data": …⏎}⏎{…}     pretty-printed objects: each whole value is a record
///     id,text,…⏎1,"a⏎b"⏎      CSV: a header naming an id and a text column, then
///                             rows, quoted line ends and all (`CSVFraming`)
///
/// A leading UTF-8 byte-order mark, blank lines, and CR before LF are skipped.
/// A record longer than `maxRecord` is reported and skipped without being
/// held in memory. A stream that runs on for `endlessRun` (64 × `maxRecord`)
/// bytes without a record — skipping an over-long one that has no line end,
/// or reading nothing but blank lines — is given up: that is a decompression
/// bomb or not text at all, and reading on would only burn time.
///
/// Records are handed out as offsets into the caller's buffer; the framer
/// keeps only small state between calls, so a record may straddle any number
/// of reads, and how the bytes arrive never changes what comes out (the tests
/// split inputs at every offset; the fuzzer checks it on every input it makes).
public struct RecordFramer {
    public enum Layout: Equatable, Sendable { case undecided, lines, document, csv }

    /// What `next` found.
    public enum Event: Equatable {
        /// A record: `range` of the buffer, starting on `line` (1-based).
        case record(range: Range<Int>, line: Int)
        /// A record longer than the cap was skipped; it started on `line`.
        case tooLong(line: Int)
        /// From `line` on, `endlessRun` bytes went by without a record: the
        /// record being skipped had no line end, or the lines were all blank.
        /// The rest of the stream is not framed (every later call says `needMore`).
        case endless(line: Int)
        /// Nothing more until more bytes arrive (or, at the end, nothing more at all).
        case needMore
        /// The header row of a CSV stream, on `line`; the records after it are its rows.
        case csvHeader(CSVHeader, line: Int)
    }

    public private(set) var layout: Layout
    public let maxRecord: Int
    /// Bytes without a record (no line end while skipping an over-long one,
    /// or only blank lines) after which the stream is given up.
    public var endlessRun: Int { maxRecord > Int.max / 64 ? Int.max : maxRecord * 64 }

    /// Where unconsumed input starts in the caller's buffer.
    public private(set) var retainFrom = 0
    /// Line number at `retainFrom`.
    public private(set) var line = 1
    private var atStreamStart = true
    private var gaveUp = false

    // Layout decision state: how far the first value was scanned (relative to `retainFrom`).
    private var decideScanned = 0
    private var decideDepth = 0
    private var decideInString = false
    private var decideEscape = false

    // Line state: bytes from `retainFrom` on already searched for a newline.
    private var lineScanned = 0
    private var skippingLine = false // document layout: skipping the rest of an over-long non-JSON line

    // Document-layout state, all relative to `retainFrom`.
    private var scanned = 0          // bytes of the current value already scanned
    private var depth = 0
    private var inString = false
    private var escapeNext = false
    private var inValue = false      // scanning a value (as opposed to between values)
    private var newlinesInValue = 0
    private var arrayDepth = 0       // 1 while streaming the elements of a top-level array
    private var discarding = false   // past the cap: scanning on without keeping bytes
    private var discardLine = 0     // where the skipped over-long value started
    private var runSinceNewline = 0 // bytes since the last line end, while discarding
    private var blankRun = 0        // bytes of blank lines since the last record (lines layout)
    private var blankLine = 1       // where that run started
    private var valueIsScalar = false

    // CSV state: the columns that make a first line a header, and the rows' framing.
    private let csvColumns: CSVColumns?
    public private(set) var csvHeader: CSVHeader?
    private var csv: CSVFraming?

    /// - Parameter csvColumns: the columns a CSV header must name; nil never takes a stream for CSV.
    public init(layout: Layout = .undecided, maxRecord: Int = 16 << 20, firstLine: Int = 1,
                csvColumns: CSVColumns? = CSVColumns()) {
        self.layout = layout
        self.maxRecord = maxRecord
        self.line = firstLine
        self.csvColumns = csvColumns
    }

    /// Tells the framer that the caller dropped the first `count` bytes of its buffer.
    public mutating func shift(by count: Int) {
        precondition(count <= retainFrom)
        retainFrom -= count
    }

    /// The next event for `buffer`, which holds everything from `retainFrom` on
    /// (and the caller's older bytes before it); `isEnd` says no more will come.
    public mutating func next(_ buffer: UnsafeRawBufferPointer, isEnd: Bool) -> Event {
        let bytes = buffer.bindMemory(to: UInt8.self)
        if gaveUp {
            retainFrom = bytes.count
            return .needMore
        }
        while true {
            if atStreamStart {
                // A byte-order mark is only meaningful as the very first bytes.
                guard skipBOM(bytes, isEnd: isEnd) else { return .needMore }
            }
            switch layout {
            case .undecided:
                guard let decided = decideLayout(bytes, isEnd: isEnd) else { return .needMore }
                layout = decided
            case .lines:
                return nextLine(bytes, isEnd: isEnd)
            case .document:
                return nextValue(bytes, isEnd: isEnd)
            case .csv:
                // Only a recognised header makes the layout CSV.
                guard var framing = csv, let header = csvHeader else { layout = .lines; continue }
                let event = framing.next(bytes, retainFrom: &retainFrom, line: &line, maxRecord: maxRecord, isEnd: isEnd)
                // The first row is the header, already read when the layout was decided.
                if case .record(_, let l) = event, framing.headerPending {
                    framing.headerPending = false
                    csv = framing
                    return .csvHeader(header, line: l)
                }
                csv = framing
                return event
            }
        }
    }

    // MARK: Layout

    /// The sniffer's rule, on a stream that may arrive a byte at a time:
    /// false until three bytes (or the end) say whether they are a BOM.
    private mutating func skipBOM(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Bool {
        let avail = b.count - retainFrom
        let bom = StreamSniffer.byteOrderMark
        for k in 0..<min(avail, 3) where b[retainFrom + k] != bom[k] {
            atStreamStart = false
            return true
        }
        if avail < 3 && !isEnd { return false }
        if avail >= 3 { retainFrom += 3 }
        atStreamStart = false
        return true
    }

    /// Looks at the first value: lines unless it is an array, an archive's
    /// `window.YTD… =` assignment, or an object that spans lines.
    ///
    /// Leading white space is consumed (its lines counted) and the scan of the
    /// first object resumes where the last call stopped, so a stream that
    /// trickles in is not scanned again from its start at every read.
    private mutating func decideLayout(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Layout? {
        if decideScanned == 0 {
            if blankRun == 0 { blankLine = line }
            var i = retainFrom
            let limit = min(b.count, retainFrom + (endlessRun - blankRun))
            while i < limit, isSpace(b[i]) {
                if b[i] == 0x0A { line += 1 }
                i += 1
            }
            blankRun += i - retainFrom
            retainFrom = i
            if blankRun >= endlessRun { return .lines }  // nextLine gives up
            guard i < b.count else { return isEnd ? .lines : nil }
            if b[i] != UInt8(ascii: "{") && b[i] != UInt8(ascii: "["), let columns = csvColumns,
               let header = headerLine(b, at: i, isEnd: isEnd, columns: columns) {
                guard let header else { return nil }  // the first line is not complete yet
                csvHeader = header
                csv = CSVFraming(delimiter: header.delimiter)
                return .csv
            }
            switch b[i] {
            case UInt8(ascii: "["), UInt8(ascii: "w"): return .document
            case UInt8(ascii: "{"): break
            default: return .lines
            }
        }
        // Does the first object close before the first newline?
        var i = retainFrom + decideScanned
        defer { decideScanned = i - retainFrom }
        while i < b.count {
            let c = b[i]
            i += 1
            if decideInString {
                if decideEscape { decideEscape = false }
                else if c == 0x5C { decideEscape = true }
                else if c == 0x22 { decideInString = false }
                else if c == 0x0A { return .lines }
            } else {
                switch c {
                case 0x22: decideInString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): decideDepth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    decideDepth -= 1
                    if decideDepth == 0 { return .lines }
                case 0x0A: return .document
                default: break
                }
            }
            if i - retainFrom > maxRecord { return .lines }
        }
        return isEnd ? .lines : nil
    }

    /// Whether the first line (holding position `i`) is a CSV header: `.some(nil)`
    /// when the line is not complete yet, nil when it is no header (a header
    /// line is at most 64 KiB).
    private func headerLine(_ b: UnsafeBufferPointer<UInt8>, at i: Int, isEnd: Bool,
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

    // MARK: Lines

    private mutating func nextLine(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Event {
        while true {
            if blankRun >= endlessRun { return giveUp(line: blankLine) }
            let start = retainFrom
            guard start < b.count else { return .needMore }
            // While skipping, look no further than where the run becomes endless.
            let limit = discarding ? min(b.count, start + (endlessRun - runSinceNewline)) : b.count
            let end: Int
            if let nl = findNewline(b, from: start + lineScanned, to: limit) {
                end = nl
                retainFrom = nl + 1
                lineScanned = 0
            } else if discarding {
                runSinceNewline += limit - start
                retainFrom = limit
                if runSinceNewline >= endlessRun { return giveUp(line: discardLine) }
                if isEnd { discarding = false }
                return .needMore
            } else if b.count - start > maxRecord {
                discarding = true
                discardLine = line
                runSinceNewline = b.count - start
                retainFrom = b.count
                lineScanned = 0
                blankRun = 0
                return .tooLong(line: line)
            } else if isEnd {
                end = b.count
                retainFrom = b.count
                lineScanned = 0
            } else {
                lineScanned = b.count - start
                return .needMore
            }
            let thisLine = line
            line += 1
            if discarding {
                discarding = false
                continue
            }
            if end - start > maxRecord { blankRun = 0; return .tooLong(line: thisLine) }
            // Trim surrounding white space (including the CR of CRLF); skip blank lines.
            var s = start, e = end
            while s < e, isSpace(b[s]) { s += 1 }
            while e > s, isSpace(b[e - 1]) { e -= 1 }
            if s == e {
                // Nothing but blank lines for `endlessRun` bytes: a bomb of newlines.
                if blankRun == 0 { blankLine = thisLine }
                blankRun += retainFrom - start
                continue
            }
            blankRun = 0
            return .record(range: s..<e, line: thisLine)
        }
    }

    /// Stops framing: the record skipped from `line` never ends.
    private mutating func giveUp(line: Int) -> Event {
        gaveUp = true
        discarding = false
        skippingLine = false
        return .endless(line: line)
    }

    @inline(__always)
    private func findNewline(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) -> Int? {
        let end = end ?? b.count
        guard start < end, let p = memchr(b.baseAddress! + start, 0x0A, end - start) else { return nil }
        return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: Documents

    private mutating func nextValue(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Event {
        while true {
            if skippingLine {
                guard let event = skipRestOfLine(b, isEnd: isEnd) else { continue }
                return event
            }
            if !inValue {
                // Between values: white space, separators, an archive's assignment.
                var i = retainFrom
                while i < b.count {
                    let c = b[i]
                    if c == 0x0A { line += 1; i += 1; continue }
                    if isSpace(c) || c == UInt8(ascii: ";") || (arrayDepth > 0 && c == UInt8(ascii: ",")) {
                        i += 1; continue
                    }
                    break
                }
                retainFrom = i
                guard i < b.count else { return .needMore }
                let c = b[i]
                if arrayDepth == 0 && c == UInt8(ascii: "w") {
                    // `window.YTD.tweets.part0 = [`: skip through the `=`, looked for
                    // in the first 4 KiB of the line (whatever the reads deliver).
                    let window = min(b.count, i + 4096)
                    var j = i
                    while j < window, b[j] != UInt8(ascii: "="), b[j] != 0x0A { j += 1 }
                    if j < window && b[j] == UInt8(ascii: "=") {
                        retainFrom = j + 1
                        continue
                    }
                    if j < window || window == i + 4096 || isEnd {
                        skippingLine = true  // no `=` on the line: not an assignment
                        continue
                    }
                    return .needMore
                }
                if arrayDepth == 0 && c == UInt8(ascii: "[") {
                    arrayDepth = 1
                    retainFrom = i + 1
                    continue
                }
                if arrayDepth > 0 && c == UInt8(ascii: "]") {
                    arrayDepth = 0
                    retainFrom = i + 1
                    continue
                }
                if !(c == UInt8(ascii: "{") || c == UInt8(ascii: "[") || c == 0x22 || c == UInt8(ascii: "-")
                     || isDigit(c) || c == UInt8(ascii: "t") || c == UInt8(ascii: "f") || c == UInt8(ascii: "n")) {
                    // Not JSON at all (an HTML page, say): the rest of the line is one bad record.
                    skippingLine = true
                    continue
                }
                inValue = true
                valueIsScalar = !(c == UInt8(ascii: "{") || c == UInt8(ascii: "["))
                scanned = 0; depth = 0; inString = false; escapeNext = false; newlinesInValue = 0; runSinceNewline = 0
                if c == 0x22 { inString = true; scanned = 1 }  // a string scalar
            }
            // Scan on from where the last call stopped.
            var i = retainFrom + scanned
            var ended = false
            var run = runSinceNewline
            let endless = endlessRun
            while i < b.count {
                let c = b[i]
                if c == 0x0A { newlinesInValue += 1; run = 0 } else { run += 1 }
                if inString {
                    if escapeNext { escapeNext = false }
                    else if c == 0x5C { escapeNext = true }
                    else if c == 0x22 { inString = false; if depth == 0 && valueIsScalar { i += 1; ended = true; break } }
                } else if valueIsScalar {
                    if isSpace(c) || c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                        if c == 0x0A { newlinesInValue -= 1 }  // the delimiter is not part of the value
                        ended = true
                        break
                    }
                } else {
                    switch c {
                    case 0x22: inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; ended = true }
                    default: break
                    }
                    if ended { break }
                }
                i += 1
                if !discarding && i - retainFrom > maxRecord {
                    discarding = true
                    discardLine = line
                }
                if discarding && run >= endless {
                    retainFrom = i
                    inValue = false
                    return giveUp(line: discardLine)
                }
            }
            runSinceNewline = run
            if !ended && !isEnd {
                if discarding {
                    // Forget what was scanned; keep only the state.
                    retainFrom = i
                    scanned = 0
                } else {
                    scanned = i - retainFrom
                }
                return .needMore
            }
            // A whole value, or the end of input inside one (a truncated document).
            let start = retainFrom, startLine = line
            if i == start && !ended { return .needMore }
            retainFrom = i
            line += newlinesInValue
            inValue = false
            if discarding {
                discarding = false
                return .tooLong(line: discardLine)
            }
            if !ended { arrayDepth = 0 }
            return .record(range: start..<i, line: startLine)
        }
    }

    /// The rest of the current line, which is not JSON (an HTML page, say), as
    /// one record for the decoder to report; skipped when over-long. Nil when
    /// the line ended without anything to say.
    private mutating func skipRestOfLine(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Event? {
        let start = retainFrom
        let limit = discarding ? min(b.count, start + (endlessRun - runSinceNewline)) : b.count
        if let nl = findNewline(b, from: start + lineScanned, to: limit) {
            retainFrom = nl + 1
            lineScanned = 0
            skippingLine = false
            let thisLine = line
            line += 1
            if discarding { discarding = false; return nil }
            if nl - start > maxRecord { return .tooLong(line: thisLine) }
            return .record(range: start..<nl, line: thisLine)
        }
        if discarding {
            runSinceNewline += limit - start
            retainFrom = limit
            if runSinceNewline >= endlessRun { return giveUp(line: discardLine) }
            if isEnd { discarding = false; skippingLine = false }
            return .needMore
        }
        if b.count - start > maxRecord {
            discarding = true
            discardLine = line
            runSinceNewline = b.count - start
            retainFrom = b.count
            lineScanned = 0
            return .tooLong(line: line)
        }
        guard isEnd else {
            lineScanned = b.count - start
            return .needMore
        }
        skippingLine = false
        lineScanned = 0
        retainFrom = b.count
        return start < b.count ? .record(range: start..<b.count, line: line) : .needMore
    }
}


#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
