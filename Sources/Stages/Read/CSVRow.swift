/// Splits and unquotes the fields of one CSV row, by the rules `CSVFraming`
/// cuts rows with: a quote opens a quoted field only at a field's start;
/// inside it `""` is a quote; after the closing quote, anything up to the
/// delimiter is kept as it is.
enum CSVRow {
    /// The byte ranges of the row's fields, quotes included.
    static func fields(_ row: UnsafeRawBufferPointer, delimiter: UInt8, into out: inout [Range<Int>]) {
        out.removeAll(keepingCapacity: true)
        var i = 0, start = 0, quoted = false
        let n = row.count
        while i < n {
            let c = row[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < n && row[i + 1] == 0x22 { i += 2; continue }
                    quoted = false
                }
            } else if c == delimiter {
                out.append(start..<i)
                start = i + 1
            } else if c == 0x22 && i == start {
                quoted = true
            }
            i += 1
        }
        out.append(start..<n)
    }

    static func fields(_ row: UnsafeRawBufferPointer, delimiter: UInt8) -> [Range<Int>] {
        var out: [Range<Int>] = []
        fields(row, delimiter: delimiter, into: &out)
        return out
    }

    /// Calls `body` with each byte of a field's value.
    @inline(__always)
    static func forEachValueByte(_ field: UnsafeRawBufferPointer, _ body: (UInt8) -> Void) {
        guard let first = field.first, first == 0x22 else {
            for b in field { body(b) }
            return
        }
        var i = 1
        let n = field.count
        while i < n {
            let c = field[i]
            if c == 0x22 {
                if i + 1 < n && field[i + 1] == 0x22 { body(0x22); i += 2; continue }
                i += 1
                while i < n { body(field[i]); i += 1 }  // after the closing quote
                return
            }
            body(c)
            i += 1
        }
    }

    /// A field's value as a string.
    static func unquoted(_ field: UnsafeRawBufferPointer) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        forEachValueByte(field) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
