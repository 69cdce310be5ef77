/// The document layout: each whole JSON value is a record, and the elements
/// of a top-level array (or of an archive's `window.YTD… = [`) are records
/// one by one, so a `tweets.js` of any size streams element by element. A
/// line that is not JSON at all (an HTML page, say) is one record for the
/// decoder to report.
struct DocumentFraming {
    /// Skipping the rest of a line that is not JSON, through the line cutter.
    private var skippingLine = false
    private var restOfLine = LineCutter()

    // The value being scanned, all relative to the cursor.
    private var scanned = 0          // bytes of the current value already scanned
    private var nesting = JSONNesting()
    private var inValue = false      // scanning a value (as opposed to between values)
    private var newlinesInValue = 0
    private var arrayDepth = 0       // 1 while streaming the elements of a top-level array
    private var valueIsScalar = false
    private var skip = OverlongSkip() // past the cap: scanning on without keeping bytes (run: bytes since a line end)
    // Where an element sits, for messages about elements that share a line (a one-line array).
    private var element = -1          // index of the current element of the top-level array
    private var midLine = false       // something other than white space came before, on this line
    private var startedMidLine = false
    /// The last record's element index when it is an element of the top-level
    /// array that does not start its line (a one-line array's elements); nil otherwise.
    private(set) var placedElement: Int?

    mutating func next(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool, _ c: inout FrameCursor,
                       _ limits: FrameLimits) -> RecordFramer.Event {
        while true {
            if skippingLine {
                guard let event = skipRestOfLine(b, isEnd: isEnd, &c, limits) else { continue }
                return event
            }
            if !inValue {
                // Between values: white space, separators, an archive's assignment.
                var i = c.retainFrom
                while i < b.count {
                    let ch = b[i]
                    if ch == 0x0A { c.line += 1; i += 1; midLine = false; continue }
                    if isSpace(ch) { i += 1; continue }
                    if ch == UInt8(ascii: ";") || (arrayDepth > 0 && ch == UInt8(ascii: ",")) {
                        i += 1; midLine = true; continue
                    }
                    break
                }
                c.retainFrom = i
                guard i < b.count else { return .needMore }
                let ch = b[i]
                if arrayDepth == 0 && ch == UInt8(ascii: "w") {
                    // `window.YTD.tweets.part0 = [`: skip through the `=`, looked for
                    // in the first 4 KiB of the line (whatever the reads deliver).
                    let window = min(b.count, i + 4096)
                    var j = i
                    while j < window, b[j] != UInt8(ascii: "="), b[j] != 0x0A { j += 1 }
                    if j < window && b[j] == UInt8(ascii: "=") {
                        c.retainFrom = j + 1
                        midLine = true
                        continue
                    }
                    if j < window || window == i + 4096 || isEnd {
                        skippingLine = true  // no `=` on the line: not an assignment
                        continue
                    }
                    return .needMore
                }
                if arrayDepth == 0 && ch == UInt8(ascii: "[") {
                    arrayDepth = 1
                    element = -1
                    c.retainFrom = i + 1
                    midLine = true
                    continue
                }
                if arrayDepth > 0 && ch == UInt8(ascii: "]") {
                    arrayDepth = 0
                    c.retainFrom = i + 1
                    midLine = true
                    continue
                }
                if !(ch == UInt8(ascii: "{") || ch == UInt8(ascii: "[") || ch == 0x22 || ch == UInt8(ascii: "-")
                     || isDigit(ch) || ch == UInt8(ascii: "t") || ch == UInt8(ascii: "f") || ch == UInt8(ascii: "n")) {
                    // Not JSON at all (an HTML page, say): the rest of the line is one bad record.
                    skippingLine = true
                    continue
                }
                inValue = true
                element += 1
                startedMidLine = midLine
                valueIsScalar = !(ch == UInt8(ascii: "{") || ch == UInt8(ascii: "["))
                scanned = 0; nesting = JSONNesting(); newlinesInValue = 0; skip.run = 0
                if ch == 0x22 { nesting = JSONNesting(inString: true); scanned = 1 }  // a string scalar
            }
            // Scan on from where the last call stopped.
            var i = c.retainFrom + scanned
            var ended = false
            var run = skip.run
            let endless = limits.endlessRun
            while i < b.count {
                let ch = b[i]
                if ch == 0x0A { newlinesInValue += 1; run = 0 } else { run += 1 }
                if nesting.inString || !valueIsScalar {
                    if nesting.take(ch, lineFeeds: false) == .closed {
                        i += 1
                        ended = true
                        break
                    }
                } else if isSpace(ch) || ch == UInt8(ascii: ",") || ch == UInt8(ascii: "]") || ch == UInt8(ascii: "}") {
                    // A number, true, false or null ends at the first delimiter.
                    if ch == 0x0A { newlinesInValue -= 1 }  // the delimiter is not part of the value
                    ended = true
                    break
                }
                i += 1
                if !skip.active && i - c.retainFrom > limits.maxRecord {
                    skip.begin(line: c.line, run: run)
                }
                if skip.active && run >= endless {
                    c.retainFrom = i
                    inValue = false
                    return .endless(line: skip.end())
                }
            }
            skip.run = run
            if !ended && !isEnd {
                if skip.active {
                    // Forget what was scanned; keep only the state.
                    c.retainFrom = i
                    scanned = 0
                } else {
                    scanned = i - c.retainFrom
                }
                return .needMore
            }
            // A whole value, or the end of input inside one (a truncated document).
            let start = c.retainFrom, startLine = c.line
            if i == start && !ended { return .needMore }
            c.retainFrom = i
            c.line += newlinesInValue
            inValue = false
            midLine = true
            if skip.active { return .tooLong(line: skip.end()) }
            placedElement = arrayDepth > 0 && startedMidLine ? element : nil
            if !ended { arrayDepth = 0 }
            return .record(range: start..<i, line: startLine)
        }
    }

    /// The rest of the current line, which is not JSON (an HTML page, say), as
    /// one record for the decoder to report; skipped when over-long. Nil when
    /// the line ended without anything to say.
    private mutating func skipRestOfLine(_ b: UnsafeBufferPointer<UInt8>, isEnd: Bool, _ c: inout FrameCursor,
                                         _ limits: FrameLimits) -> RecordFramer.Event? {
        switch restOfLine.next(b, isEnd: isEnd, &c, limits) {
        case .line(let r, let l):
            skippingLine = false
            placedElement = nil
            midLine = false
            return .record(range: r, line: l)
        case .skipped:
            skippingLine = false
            return nil
        case .tooLong(let l):
            // Found whole and too long, or too long so far (then skipped on to its end).
            if !restOfLine.skip.active { skippingLine = false }
            return .tooLong(line: l)
        case .endless(let l):
            skippingLine = false
            return .endless(line: l)
        case .tail(let r):
            skippingLine = false
            placedElement = nil
            return r.isEmpty ? .needMore : .record(range: r, line: c.line)
        case .needMore:
            if isEnd { skippingLine = false }
            return .needMore
        }
    }
}
