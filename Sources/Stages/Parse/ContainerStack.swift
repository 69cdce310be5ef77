/// A stack of container kinds (object or array), one bit each; the first 64
/// levels live in a word, deeper ones spill to memory allocated on demand
/// (no reference counting on the hot path: `skipValue` makes one per call).
struct ContainerStack: ~Copyable {
    private var word: UInt64 = 0
    private var spill: UnsafeMutablePointer<UInt64>?
    private var spillCapacity = 0
    private(set) var depth = 0

    init() {}

    deinit { spill?.deallocate() }

    var isEmpty: Bool { depth == 0 }

    @inline(__always)
    mutating func push(object: Bool) {
        if depth > 0 && depth & 63 == 0 { save() }
        let bit = UInt64(1) << UInt64(depth & 63)
        if object { word |= bit } else { word &= ~bit }
        depth += 1
    }

    @inline(__always)
    mutating func pop() {
        depth -= 1
        if depth > 0 && depth & 63 == 0 { word = spill![(depth >> 6) - 1] }
    }

    @inline(__always)
    var topIsObject: Bool { (word >> UInt64((depth &- 1) & 63)) & 1 == 1 }

    /// Moves the full word out, past the 64th level.
    private mutating func save() {
        let slot = (depth >> 6) - 1
        if slot >= spillCapacity {
            let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: max(16, spillCapacity * 2))
            if let spill {
                bigger.update(from: spill, count: spillCapacity)
                spill.deallocate()
            }
            spill = bigger
            spillCapacity = max(16, spillCapacity * 2)
        }
        spill![slot] = word
        word = 0
    }
}
