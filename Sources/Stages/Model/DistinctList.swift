/// The distinct elements of a tweet met so far, in the order first met: a
/// look along an array for the handful a real tweet has, a hash set besides
/// past `linearLimit`, so that a hostile tweet of 20,000 hashtags costs
/// 20,000 steps rather than 200 million.
struct DistinctList<Element: Hashable> {
    /// The distinct elements, in the order first inserted.
    private(set) var elements: [Element] = []
    private var set = Set<Element>()

    /// Up to this many a look along the array is cheapest.
    static var linearLimit: Int { 16 }

    init() {}

    /// Adds `e`; false when it was there already.
    @inline(__always)
    mutating func insert(_ e: Element) -> Bool {
        if set.isEmpty {
            if elements.contains(e) { return false }
            elements.append(e)
            if elements.count > Self.linearLimit { set = Set(elements) }
            return true
        }
        guard set.insert(e).inserted else { return false }
        elements.append(e)
        return true
    }

    func contains(_ e: Element) -> Bool { set.isEmpty ? elements.contains(e) : set.contains(e) }

    /// Empties it for the next tweet, keeping the array's storage.
    mutating func removeAll() {
        elements.removeAll(keepingCapacity: true)
        if !set.isEmpty { set = Set() }
    }
}
