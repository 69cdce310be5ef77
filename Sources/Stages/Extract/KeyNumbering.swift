/// Numbers keys in the order they are first met: the one interner behind a
/// worker's `MentionTable` and the aggregator's merged keys.
///
/// - Complexity: O(1) expected per lookup; memory O(distinct keys).
struct KeyNumbering {
    /// The keys, by number.
    private(set) var keys: [String] = []
    private var numbers: [String: Int32] = [:]

    /// The number of `key`, given it if new.
    ///
    /// One look-up either way: the dictionary's in-place access adds the key
    /// with the next number when it is missing (a non-ASCII `String` costs
    /// hundreds of instructions to hash, and most keys of a report are new
    /// to the table that numbers them).
    mutating func number(_ key: String) -> Int32 {
        let next = Int32(keys.count)
        let n = KeyNumbering.value(&numbers[key, default: next])
        if n == next { keys.append(key) }
        return n
    }

    @inline(__always)
    private static func value(_ slot: inout Int32) -> Int32 { slot }

    /// The number of `key` if it has one.
    func existing(_ key: String) -> Int32? { numbers[key] }
}
