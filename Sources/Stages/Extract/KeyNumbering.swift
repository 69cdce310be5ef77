/// Numbers keys in the order they are first met: the one interner behind a
/// worker's `MentionTable` and the aggregator's merged keys.
///
/// Two keys get one number exactly when they are equal as Swift strings
/// (canonically equivalent). Most keys are ASCII, and an ASCII string is
/// equal only to itself and to strings whose only non-ASCII scalars are
/// the three whose canonical decomposition is ASCII (U+037E → `;`, U+1FEF
/// → `` ` ``, U+212A → `K`). So ASCII keys, and those three folded to
/// ASCII, are numbered by their bytes in a table of this type's own (a
/// word-at-a-time hash, no `String` hashing, which costs hundreds of
/// instructions a key and as much again when a dictionary grows); every
/// other key by a `[String: Int32]`, with Swift's equality.
///
/// - Complexity: O(length) expected per lookup; memory O(distinct keys).
struct KeyNumbering {
    /// The keys, by number: each as first met.
    private(set) var keys: [String] = []
    /// Each key's first byte (its kind's sign), by number: a report sorts
    /// its rows into kinds without touching the strings.
    private(set) var signs: [UInt8] = []
    /// Numbers whose arena bytes are the ASCII a key folds to, not its own.
    private var folded: Set<Int32> = []
    /// Keys with non-ASCII scalars that fold to no ASCII string.
    private var others: [String: Int32] = [:]
    /// Open addressing over the ASCII keys: slot → the hash's high 32 bits
    /// beside number + 1 (0 = empty), so a probe that passes another key
    /// reads nothing but the slot.
    private var slots: [UInt64] = []
    /// Per number: where its ASCII bytes are in `arena` (start -1 for `others`).
    private struct Record {
        var start: Int
        var length: Int
    }
    private var records: [Record] = []
    private var arena = ByteArena()
    private var asciiCount = 0

    /// The number of `key`, given it if new.
    mutating func number(_ key: String) -> Int32 {
        var contiguous = key
        return contiguous.withUTF8 { bytes in
            if MentionKey.isASCII(bytes) { return number(ascii: UnsafeRawBufferPointer(bytes)) { key } }
            return numberOther(key, bytes)
        }
    }

    /// The number of the ASCII key whose bytes are `bytes`, given it if new
    /// (then `makeKey` makes its text, the only string made).
    mutating func number(ascii bytes: UnsafeRawBufferPointer, makeKey: () -> String) -> Int32 {
        let h = MentionTable.hash(bytes, kind: 0)
        if let n = find(bytes, hash: h) { return n }
        let n = Int32(keys.count)
        keys.append(makeKey())
        signs.append(bytes.first ?? 0)
        insert(bytes, hash: h, number: n)
        return n
    }

    /// Appends the UTF-8 bytes of key `n` to `out`: from the arena where
    /// they are the key's own (an ASCII key), else from its string.
    @inline(__always)
    func appendBytes(of n: Int, to out: inout [UInt8]) {
        let r = records[n]
        if r.start >= 0 && (folded.isEmpty || !folded.contains(Int32(n))) {
            arena.storage.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[r.start..<r.start + r.length])) }
        } else {
            var key = keys[n]
            key.withUTF8 { out.append(contentsOf: $0) }
        }
    }

    /// Whether key `n` is a string folded to the ASCII bytes it is numbered by, not those bytes.
    @inline(__always)
    func isFolded(_ n: Int32) -> Bool { !folded.isEmpty && folded.contains(n) }

    /// The number of `key` if it has one.
    func existing(_ key: String) -> Int32? {
        var contiguous = key
        return contiguous.withUTF8 { bytes in
            if MentionKey.isASCII(bytes) {
                let raw = UnsafeRawBufferPointer(bytes)
                return find(raw, hash: MentionTable.hash(raw, kind: 0))
            }
            if let folded = KeyNumbering.foldedToASCII(bytes) {
                return folded.withUnsafeBytes { find($0, hash: MentionTable.hash($0, kind: 0)) }
            }
            return others[key]
        }
    }

    private mutating func numberOther(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if let ascii = KeyNumbering.foldedToASCII(bytes) {
            let next = keys.count
            let n = ascii.withUnsafeBytes { number(ascii: $0) { key } }
            if keys.count > next { folded.insert(n) }
            return n
        }
        let next = Int32(keys.count)
        let n = KeyNumbering.value(&others[key, default: next])
        if n == next {
            keys.append(key)
            signs.append(key.utf8.first ?? 0)
            records.append(Record(start: -1, length: 0))
        }
        return n
    }

    @inline(__always)
    private static func value(_ slot: inout Int32) -> Int32 { slot }

    @inline(__always)
    private static func slotValue(_ h: UInt64, number n: Int32) -> UInt64 { (h >> 32) << 32 | UInt64(UInt32(n) &+ 1) }

    @inline(__always)
    private func find(_ bytes: UnsafeRawBufferPointer, hash h: UInt64) -> Int32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        let tag = h >> 32
        return arena.storage.withUnsafeBufferPointer { a in
            while true {
                let s = slots[slot]
                if s == 0 { return nil }
                if s >> 32 == tag {
                    let n = Int(truncatingIfNeeded: s & 0xFFFF_FFFF) &- 1
                    let r = records[n]
                    if r.length == bytes.count
                        && (bytes.isEmpty || JSONScanner.sameBytes(a.baseAddress! + r.start,
                                                                   bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)) {
                        return Int32(n)
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func insert(_ bytes: UnsafeRawBufferPointer, hash h: UInt64, number n: Int32) {
        records.append(Record(start: arena.count, length: bytes.count))
        arena.append(bytes)
        asciiCount += 1
        if asciiCount * 2 > slots.count {
            grow()  // places the new key with the others
        } else {
            place(KeyNumbering.slotValue(h, number: n), at: Int(truncatingIfNeeded: h))
        }
    }

    private mutating func place(_ value: UInt64, at position: Int) {
        let mask = slots.count - 1
        var slot = position & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }

    /// Doubles the slots (1,024 at first) and places every ASCII key again,
    /// in number order (its records and bytes read in turn, not the old
    /// slots' random order), each hashed again from its bytes.
    private mutating func grow() {
        var fresh = [UInt64](repeating: 0, count: max(1024, slots.count * 2))
        let mask = fresh.count - 1
        arena.storage.withUnsafeBytes { a in
            for (n, r) in records.enumerated() where r.start >= 0 {
                let h = MentionTable.hash(UnsafeRawBufferPointer(rebasing: a[r.start..<r.start + r.length]), kind: 0)
                var slot = Int(truncatingIfNeeded: h) & mask
                while fresh[slot] != 0 { slot = (slot + 1) & mask }
                fresh[slot] = KeyNumbering.slotValue(h, number: Int32(n))
            }
        }
        slots = fresh
    }

    /// The ASCII string `bytes` is canonically equivalent to, if any: its
    /// only non-ASCII scalars are U+037E, U+1FEF and U+212A.
    static func foldedToASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                out.append(b)
                i += 1
            } else if b == 0xCD, i + 1 < bytes.count, bytes[i + 1] == 0xBE {
                out.append(UInt8(ascii: ";"))
                i += 2
            } else if i + 2 < bytes.count, b == 0xE1, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xAF {
                out.append(UInt8(ascii: "`"))
                i += 3
            } else if i + 2 < bytes.count, b == 0xE2, bytes[i + 1] == 0x84, bytes[i + 2] == 0xAA {
                out.append(UInt8(ascii: "K"))
                i += 3
            } else {
                return nil
            }
        }
        return out
    }
}

/// The merge's numbering of every key the workers met: a `KeyNumbering`,
/// and per worker table (`PostPart.keySource`) the global number of each
/// of its ids, so a piece's keys are looked up by their text only the first
/// time their table hands them over (a later piece of that table costs an
/// array read a key).
struct MergedKeys {
    private(set) var numbering = KeyNumbering()
    /// Per worker table: its ids' global numbers, -1 where not yet known.
    private var tableGlobals: [Int: [Int32]] = [:]

    var keys: [String] { numbering.keys }

    mutating func number(_ key: String) -> Int32 { numbering.number(key) }

    func existing(_ key: String) -> Int32? { numbering.existing(key) }

    /// Each of this numbering's keys numbered by `other` (which has numbered
    /// every key of every part this one has): through the worker tables'
    /// ids where both know them (no key hashed), else by text.
    func numbers(in other: MergedKeys) -> [Int32] {
        var result = [Int32](repeating: -1, count: keys.count)
        for (source, known) in tableGlobals {
            guard let theirs = other.tableGlobals[source] else { continue }
            for n in known.indices where known[n] >= 0 && n < theirs.count && theirs[n] >= 0 {
                result[Int(known[n])] = theirs[n]
            }
        }
        let names = keys
        for i in result.indices where result[i] < 0 { result[i] = other.existing(names[i]) ?? -1 }
        return result
    }

    /// The global numbers of worker table `source`'s ids, -1 where not known (as far as its parts went).
    func numbers(ofTable source: Int) -> [Int32] { tableGlobals[source] ?? [] }

    /// What `number(ofKey:of:in:)` reads a part's keys through: its worker
    /// table's numbers (taken out of `tableGlobals` until `restore`), or the
    /// numbers of a part without a table met so far (-1: not yet).
    struct PartNumbers {
        fileprivate var source: Int
        fileprivate var known: [Int32]
    }

    /// Starts numbering `e`'s keys one by one, as they are needed (a merge
    /// that reads few of a part's keys: the trend's mentions of the current
    /// window, not its authors); `restore` ends it.
    mutating func partNumbers(of e: PostPart) -> PartNumbers {
        if e.keySource != 0, e.keyNumbers.count == e.keys.count {
            return PartNumbers(source: e.keySource, known: tableGlobals.removeValue(forKey: e.keySource) ?? [])
        }
        return PartNumbers(source: 0, known: [Int32](repeating: -1, count: e.keys.count))
    }

    /// The global number of `e`'s key `k`, as `numbers(of:)` gives it.
    @inline(__always)
    mutating func number(ofKey k: Int32, of e: PostPart, in p: inout PartNumbers) -> Int32 {
        let n = p.source == 0 ? Int(k) : Int(e.keyNumbers[Int(k)])
        if n < p.known.count, p.known[n] >= 0 { return p.known[n] }
        if n >= p.known.count { p.known += repeatElement(-1, count: max(n + 1 - p.known.count, p.known.count, 1024)) }
        let g = numbering.number(e.keys[Int(k)])
        p.known[n] = g
        return g
    }

    /// Ends `partNumbers(of:)`: a table's numbers learnt are kept for its later parts.
    mutating func restore(_ p: PartNumbers) {
        if p.source != 0 { tableGlobals[p.source] = p.known }
    }

    /// The global number of each of `e`'s keys, in `e.keys`' order.
    mutating func numbers(of e: PostPart) -> [Int32] {
        guard e.keySource != 0, e.keyNumbers.count == e.keys.count else { return e.keys.map { numbering.number($0) } }
        var known = tableGlobals.removeValue(forKey: e.keySource) ?? []
        defer { tableGlobals[e.keySource] = known }
        return e.keyNumbers.indices.map { k in
            let n = Int(e.keyNumbers[k])
            if n < known.count && known[n] >= 0 { return known[n] }
            if n >= known.count { known += repeatElement(-1, count: max(n + 1 - known.count, known.count, 1024)) }
            let g = numbering.number(e.keys[k])
            known[n] = g
            return g
        }
    }
}

/// Bytes appended run after run, in an array grown ahead of its use (at
/// least doubled, zero-filled): a run of a key's few bytes costs one copy,
/// where the array's generic `append(contentsOf:)` costs about a hundred
/// instructions a call. A value, as the array is: copies do not share.
struct ByteArena {
    /// The bytes; those from `count` on are room not yet used.
    private(set) var storage: [UInt8] = []
    /// How many bytes were appended.
    private(set) var count = 0

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count + n > storage.count {
            storage.append(contentsOf: repeatElement(0, count: Swift.max(count + n - storage.count, storage.count, 256)))
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n > 0 else { return }
        reserve(n)
        let at = count
        storage.withUnsafeMutableBytes { ($0.baseAddress! + at).copyMemory(from: bytes.baseAddress!, byteCount: n) }
        count += n
    }
}
