/// The distinct elements of a tweet met so far, in the order first met: a
/// look along an array for the handful a real tweet has, a hash set besides
/// past `linearLimit`, so that a hostile tweet of 20,000 hashtags costs
/// 20,000 steps rather than 200 million.
///
/// Emptied once a tweet, so it keeps its storage and a count of its own:
/// the array's `removeAll(keepingCapacity:)` goes through the generic
/// `replaceSubrange`, some hundred instructions a call; setting the count
/// is one. Elements past the count are stale until overwritten.
struct DistinctList<Element: Hashable> {
    private var storage: [Element] = []
    /// How many of `storage`'s elements are in the list.
    private(set) var count = 0
    private var set = Set<Element>()

    /// Up to this many a look along the array is cheapest.
    static var linearLimit: Int { 16 }

    init() {}

    /// The distinct elements, in the order first inserted.
    var elements: ArraySlice<Element> { storage[..<count] }

    /// Adds `e`; false when it was there already.
    @inline(__always)
    mutating func insert(_ e: Element) -> Bool {
        if set.isEmpty {
            if linearContains(e) { return false }
            put(e)
            if count > Self.linearLimit { set = Set(storage[..<count]) }
            return true
        }
        guard set.insert(e).inserted else { return false }
        put(e)
        return true
    }

    @inline(__always)
    private mutating func put(_ e: Element) {
        if count < storage.count { storage[count] = e } else { storage.append(e) }
        count &+= 1
    }

    @inline(__always)
    private func linearContains(_ e: Element) -> Bool {
        storage.withUnsafeBufferPointer { s in
            for i in 0..<count where s[i] == e { return true }
            return false
        }
    }

    func contains(_ e: Element) -> Bool { set.isEmpty ? linearContains(e) : set.contains(e) }

    /// Empties it for the next tweet, keeping the storage.
    @inline(__always)
    mutating func removeAll() {
        count = 0
        if !set.isEmpty { set = Set() }
    }
}
