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
    /// per record for the lists most records leave empty).
    @inline(__always)
    static func clear(_ a: inout [Element]) {
        if !a.isEmpty { a.removeAll(keepingCapacity: true) }
    }
}
