/// Raw contents of a JSON string (between the quotes) or of a number token,
/// as offsets into the record; `escaped` says whether it holds a backslash.
struct ByteSpan: Equatable {
    var start: Int
    var end: Int
    var escaped: Bool
    var isEmpty: Bool { end == start }
}

extension Array {
    /// Empties `a` keeping its storage; an empty array is left alone (its
    /// `removeAll(keepingCapacity:)` would allocate a buffer each time: once
    /// per record for the lists most records leave empty). The few elements
    /// a record's list holds are taken off the end one by one: that
    /// `removeAll` goes through the generic `replaceSubrange`, some sixty
    /// instructions a call, several calls a record.
    @inline(__always)
    static func clear(_ a: inout [Element]) {
        guard !a.isEmpty else { return }
        if a.count <= 8 {
            repeat { a.removeLast() } while !a.isEmpty
        } else {
            a.removeAll(keepingCapacity: true)
        }
    }
}
