/// Raw contents of a JSON string (between the quotes) or of a number token,
/// as offsets into the record; `escaped` says whether it holds a backslash.
struct ByteSpan: Equatable {
    var start: Int
    var end: Int
    var escaped: Bool
    var isEmpty: Bool { end == start }
}
