/// Numbers keys in the order they are first met: the one interner behind a
/// worker's `MentionTable` and the aggregator's merged keys.
///
/// - Complexity: O(1) expected per lookup; memory O(distinct keys).
struct KeyNumbering {
    /// The keys, by number.
    private(set) var keys: [String] = []
    private var numbers: [String: Int32] = [:]

    /// The number of `key`, given it if new.
    mutating func number(_ key: String) -> Int32 {
        if let n = numbers[key] { return n }
        let n = Int32(keys.count)
        keys.append(key)
        numbers[key] = n
        return n
    }

    /// The number of `key` if it has one.
    func existing(_ key: String) -> Int32? { numbers[key] }
}
