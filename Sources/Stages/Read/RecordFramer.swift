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
/// Each layout is a machine of its own (`LayoutDecision`, `LineFraming`,
/// `DocumentFraming`, `CSVFraming`) moving one `FrameCursor`; all skip an
/// over-long record the one way (`OverlongSkip`).
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
        /// Indirect: a header is some 200 bytes, which every event of every line would
        /// otherwise be, copied through each layer of the framing.
        indirect case csvHeader(CSVHeader, line: Int)
    }

    public private(set) var layout: Layout
    public let maxRecord: Int
    /// Bytes without a record (no line end while skipping an over-long one,
    /// or only blank lines) after which the stream is given up.
    public var endlessRun: Int { maxRecord > Int.max / 64 ? Int.max : maxRecord * 64 }

    /// Where unconsumed input starts in the caller's buffer.
    public var retainFrom: Int { cursor.retainFrom }
    /// Line number at `retainFrom`.
    public var line: Int { cursor.line }

    /// Bytes of the stream the caller has dropped from its buffer (`shift`).
    private var shifted = 0

    /// Where the last record sits when a line number alone cannot say: an
    /// element of a top-level array that does not start its line (a one-line
    /// array's elements), with its index in the array and the stream offset
    /// where it starts (`recordStart`, the offset of the record's range in the
    /// caller's buffer). Nil for every other record.
    public func place(recordStart: Int) -> (element: Int, offset: Int64)? {
        guard layout == .document, let e = document.placedElement else { return nil }
        return (e, Int64(shifted + recordStart))
    }

    private var cursor: FrameCursor
    private let limits: FrameLimits
    private var atStreamStart = true
    private var gaveUp = false
    private var blanks = BlankRun()
    private var decision = LayoutDecision()
    private var lines = LineFraming()
    private var document = DocumentFraming()

    // CSV: the columns that make a first line a header, and the rows' framing.
    private let csvColumns: CSVColumns?
    public private(set) var csvHeader: CSVHeader?
    private var csv: CSVFraming?

    /// - Parameter csvColumns: the columns a CSV header must name; nil never takes a stream for CSV.
    public init(layout: Layout = .undecided, maxRecord: Int = 16 << 20, firstLine: Int = 1,
                csvColumns: CSVColumns? = CSVColumns()) {
        self.layout = layout
        self.maxRecord = maxRecord
        cursor = FrameCursor(retainFrom: 0, line: firstLine)
        limits = FrameLimits(maxRecord: maxRecord, endlessRun: maxRecord > Int.max / 64 ? Int.max : maxRecord * 64)
        self.csvColumns = csvColumns
    }

    /// Tells the framer that the caller dropped the first `count` bytes of its buffer.
    public mutating func shift(by count: Int) {
        precondition(count <= cursor.retainFrom)
        cursor.retainFrom -= count
        shifted += count
    }

    /// The next event for `buffer`, which holds everything from `retainFrom` on
    /// (and the caller's older bytes before it); `isEnd` says no more will come.
    public mutating func next(_ buffer: UnsafeRawBufferPointer, isEnd: Bool) -> Event {
        let bytes = buffer.bindMemory(to: UInt8.self)
        if gaveUp {
            cursor.retainFrom = bytes.count
            return .needMore
        }
        let event = nextEvent(bytes, isEnd: isEnd)
        // A stream that runs on without a record is not framed any further.
        if case .endless = event { gaveUp = true }
        return event
    }

    private mutating func nextEvent(_ bytes: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Event {
        while true {
            if atStreamStart {
                // A byte-order mark is only meaningful as the very first bytes.
                guard skipBOM(bytes, isEnd: isEnd) else { return .needMore }
            }
            switch layout {
            case .undecided:
                switch decision.decide(bytes, isEnd: isEnd, &cursor, &blanks, limits, columns: csvColumns) {
                case nil: return .needMore
                case .lines: layout = .lines
                case .document: layout = .document
                case .csv(let header):
                    csvHeader = header
                    csv = CSVFraming(delimiter: header.delimiter)
                    layout = .csv
                }
            case .lines:
                return lines.next(bytes, isEnd: isEnd, &cursor, &blanks, limits)
            case .document:
                return document.next(bytes, isEnd: isEnd, &cursor, limits)
            case .csv:
                // Only a recognised header makes the layout CSV.
                guard var framing = csv, let header = csvHeader else { layout = .lines; continue }
                let event = framing.next(bytes, retainFrom: &cursor.retainFrom, line: &cursor.line, maxRecord: maxRecord, isEnd: isEnd)
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

    /// The sniffer's rule, on a stream that may arrive a byte at a time:
    /// false until three bytes (or the end) say whether they are a BOM.
    private mutating func skipBOM(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool) -> Bool {
        let avail = b.count - cursor.retainFrom
        let bom = StreamSniffer.byteOrderMark
        for k in 0..<min(avail, 3) where b[cursor.retainFrom + k] != bom[k] {
            atStreamStart = false
            return true
        }
        if avail < 3 && !isEnd { return false }
        if avail >= 3 { cursor.retainFrom += 3 }
        atStreamStart = false
        return true
    }
}
