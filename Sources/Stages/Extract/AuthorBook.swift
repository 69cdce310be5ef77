import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every author key of the process (`@name`, `@did:plc:…`,
/// `@user@host`), numbered once for all the workers: `trend` counts each
/// mention's distinct authors (SPEC §14) over every worker's posts, and an
/// author numbered where it is read needs no numbering by name afterwards.
///
/// A worker's `MentionTable` numbers its own keys, so two workers give one
/// author two numbers, and joining them took a look-up by name of every
/// author of every worker after the scan, on one core. Here a worker asks
/// for an author's number as it reads the post; the number is the same
/// on every worker and for the whole run, nearly dense from 0 (each shard
/// numbers a space of its own), and the key is
/// the one a `MentionTable` makes of the same bytes (SPEC §5: NFC, then
/// lowercased), so counting by it is counting by the key.
///
/// Two keys get one number exactly when they are equal as Swift strings
/// (canonically equivalent), as `KeyNumbering` numbers a worker's keys: an
/// ASCII key (nearly every one) by its bytes, spread over `shardCount`
/// tables by their hash, each under a lock of its own (two workers seldom
/// wait for each other);
/// a key folding to ASCII by the ASCII it folds to; any other by a
/// dictionary of strings under one lock. Numbers mean nothing outside the
/// process; what leaves it is the key.
///
/// - Complexity: a hash of the bytes, one shard's lock and a probe per
///   look-up of an ASCII author; memory O(distinct authors).
final class AuthorBook: Sendable {
    static let shared = AuthorBook()

    private static let shardCount = 16

    /// One shard: open addressing over its keys (at most half the slots
    /// full), 24 bytes a slot. A slot holds what a look-up compares: a key
    /// of up to 16 bytes (nearly every `@name`) as two words beside its
    /// length, so a key met again is found by one slot read; a longer one (a
    /// DID, `user@host`) by its first 8 bytes and length, then its bytes
    /// kept in the shard. A slot's place is found again from its key when
    /// the slots grow.
    private struct Shard {
        var slots: [Slot] = []
        var used = 0
        var long: [UInt8] = []
        /// This shard's place among the number spaces (`numberSpaces`).
        let index: Int32
        /// The keys this shard numbered: key `i`'s number is `i * numberSpaces + index`.
        var names: [String] = []

        init(index: Int32) { self.index = index }

        /// The number of a new key kept as `text`.
        mutating func added(_ text: String) -> Int32 {
            names.append(text)
            return Int32(names.count - 1) * AuthorBook.numberSpaces + index
        }

        struct Slot {
            /// The key's `ShortKey` words; for a longer key, its first 8 bytes and where its bytes start in `long`.
            var w0: UInt64 = 0
            var w1: UInt64 = 0
            var length: UInt32 = 0
            /// The key's number; -1: an empty slot.
            var number: Int32 = -1
        }

        /// The number of the short key `key` (16 bytes at most) with hash `h`,
        /// a new one when new (kept as `text`): one slot compare, no bytes read.
        mutating func number(short key: ShortKey, hash h: UInt64, text: () -> String) -> Int32 {
            if (used + 1) * 2 > slots.count { grow() }
            let mask = slots.count - 1
            var position = Int(truncatingIfNeeded: h) & mask
            while true {
                let slot = slots[position]
                if slot.number < 0 { break }
                if slot.w0 == key.w0 && slot.w1 == key.w1 && slot.length == key.length { return slot.number }
                position = (position + 1) & mask
            }
            let number = added(text())
            slots[position] = Slot(w0: key.w0, w1: key.w1, length: key.length, number: number)
            used += 1
            return number
        }

        /// The number of the ASCII key `bytes` (more than 16) with hash `h`, a new one when new (kept as `text`).
        mutating func number(_ bytes: UnsafeRawBufferPointer, hash h: UInt64, text: () -> String) -> Int32 {
            if (used + 1) * 2 > slots.count { grow() }
            let w0 = bytes.loadUnaligned(as: UInt64.self)
            let n = UInt32(truncatingIfNeeded: bytes.count)
            let mask = slots.count - 1
            var position = Int(truncatingIfNeeded: h) & mask
            while true {
                let slot = slots[position]
                if slot.number < 0 { break }
                if slot.w0 == w0 && slot.length == n
                    && long.withUnsafeBytes({ memcmp($0.baseAddress! + Int(slot.w1), bytes.baseAddress!, bytes.count) == 0 }) {
                    return slot.number
                }
                position = (position + 1) & mask
            }
            let number = added(text())
            let start = UInt64(long.count)
            long.append(contentsOf: bytes)
            slots[position] = Slot(w0: w0, w1: start, length: n, number: number)
            used += 1
            return number
        }

        /// Doubles the slots (1,024 at first), each key placed again by its hash.
        private mutating func grow() {
            var fresh = [Slot](repeating: Slot(), count: max(1024, slots.count * 2))
            let mask = fresh.count - 1
            for slot in slots where slot.number >= 0 {
                let h = slot.length <= 16 ? ShortKey(w0: slot.w0, w1: slot.w1, length: slot.length).hash
                    : long.withUnsafeBytes { PostIdentity.hash(UnsafeRawBufferPointer(rebasing: $0[Int(slot.w1)..<Int(slot.w1) + Int(slot.length)])) }
                var position = Int(truncatingIfNeeded: h) & mask
                while fresh[position].number >= 0 { position = (position + 1) & mask }
                fresh[position] = slot
            }
            slots = fresh
        }
    }

    /// A shard under its lock, padded (about three cache lines an object),
    /// so two workers locking two shards seldom write to one line.
    private final class Locked: Sendable {
        let shard: Mutex<Shard>
        init(index: Int) { shard = Mutex(Shard(index: Int32(index))) }
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                              UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    private let shards: [Locked] = (0..<AuthorBook.shardCount).map { Locked(index: $0) }
    /// Keys beyond ASCII that fold to none, by their strings (Swift's equality); each numbered by a
    /// shard chosen by its bytes' hash (this lock, then the shard's).
    private let others = Mutex<[String: Int32]>([:])

    /// Each shard numbers its keys in a space of its own (`i * numberSpaces
    /// + shard`): a new key takes no lock but its shard's, and the numbers
    /// stay nearly dense (keys spread evenly over the shards by their hash).
    static let numberSpaces = Int32(shardCount)

    /// A bound on the numbers given (every number is below it; a few below it are no key's).
    var count: Int {
        shards.map { locked in locked.shard.withLock { $0.names.count } }.max()! * Int(AuthorBook.numberSpaces)
    }

    /// The key numbered `n`.
    func key(_ n: Int32) -> String {
        shards[Int(n % AuthorBook.numberSpaces)].shard.withLock { $0.names[Int(n / AuthorBook.numberSpaces)] }
    }

    /// Every key, by number, `""` for a number no key has (for a run's rows, after its scan; each
    /// shard's keys as they were when it was read).
    var keys: [String] {
        let names = shards.map { locked in locked.shard.withLock { $0.names } }
        let spaces = Int(AuthorBook.numberSpaces)
        var out = [String](repeating: "", count: (names.map(\.count).max() ?? 0) * spaces)
        for (s, list) in names.enumerated() {
            for (i, name) in list.enumerated() { out[i * spaces + s] = name }
        }
        return out
    }

    /// The number of the author written as `raw` (a record's bytes, with
    /// JSON escapes when `escaped`), and whether they held invalid UTF-8
    /// (replaced, as a `MentionTable` counts it); nil when they make no key.
    func number(raw: UnsafeRawBufferPointer, escaped: Bool) -> (number: Int32?, invalid: Bool) {
        if !escaped && !raw.isEmpty && raw.count < 16 && MentionKey.isASCII(raw.assumingMemoryBound(to: UInt8.self)) {
            // A short ASCII name (nearly every author): its key's words made in registers.
            let key = ShortKey(user: raw)
            return (number(short: key) { key.text }, false)
        }
        if !escaped && !raw.isEmpty && MentionKey.isASCII(raw.assumingMemoryBound(to: UInt8.self)) {
            // ASCII as written: `@` and the bytes lowercased, as a table makes it.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + 1) { key in
                MentionKey.writeASCIIKey(raw, kind: .user, into: key)
                let bytes = UnsafeRawBufferPointer(key)
                return (number(ascii: bytes) { String(decoding: bytes, as: UTF8.self) }, false)
            }
        }
        let (text, invalid) = MentionTable.decodedText(raw, escaped: escaped)
        return (MentionKey.key(ofText: text, kind: .user).map { number(key: $0) }, invalid)
    }

    /// The number of author key `key` (`@name`, as a `MentionTable` keeps it).
    func number(key: String) -> Int32 {
        var key = key
        return key.withUTF8 { number(key: UnsafeRawBufferPointer($0)) }
    }

    /// The number of the key whose UTF-8 is `bytes`, given it if new.
    private func number(key bytes: UnsafeRawBufferPointer) -> Int32 {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        if MentionKey.isASCII(utf8) { return number(ascii: bytes) { String(decoding: bytes, as: UTF8.self) } }
        if let ascii = KeyNumbering.foldedToASCII(utf8) {
            return ascii.withUnsafeBytes { number(ascii: $0) { String(decoding: bytes, as: UTF8.self) } }
        }
        let key = String(decoding: bytes, as: UTF8.self)
        let h = PostIdentity.hash(bytes)
        return others.withLock { others in
            if let n = others[key] { return n }
            let n = shards[Int(truncatingIfNeeded: h >> 60)].shard.withLock { $0.added(key) }
            others[key] = n
            return n
        }
    }

    /// The number of the short key `key`, kept as `text` when new.
    private func number(short key: ShortKey, text: () -> String) -> Int32 {
        let h = key.hash
        return shards[Int(truncatingIfNeeded: h >> 60)].shard.withLock { s in s.number(short: key, hash: h, text: text) }
    }

    /// The number of the ASCII bytes `bytes`; `text` makes the key kept when they are new.
    private func number(ascii bytes: UnsafeRawBufferPointer, text: () -> String) -> Int32 {
        // A key folding to ASCII is kept as written (`text`), as a longer one is.
        if bytes.count <= 16 { return number(short: ShortKey(bytes: bytes), text: text) }
        let h = PostIdentity.hash(bytes)
        return shards[Int(truncatingIfNeeded: h >> 60)].shard.withLock { s in s.number(bytes, hash: h, text: text) }
    }

    /// An author whose number is asked for later, with others (`number(of:into:)`): a short ASCII
    /// name's key, and where its number goes.
    struct Pending {
        var key: ShortKey
        var hash: UInt64
        var index: Int32
    }

    /// The author written as `raw` as a `Pending` whose number goes to `index`, when it is a short
    /// ASCII name without escapes (nearly every one); nil for any other, which `number(raw:escaped:)` numbers.
    static func pending(raw: UnsafeRawBufferPointer, escaped: Bool, index: Int32) -> Pending? {
        guard !escaped && !raw.isEmpty && raw.count < 16 && MentionKey.isASCII(raw.assumingMemoryBound(to: UInt8.self)) else { return nil }
        let key = ShortKey(user: raw)
        return Pending(key: key, hash: key.hash, index: index)
    }

    /// The numbers of `pending`'s authors, each put at its index in `numbers`: a shard's authors
    /// looked up together under one taking of its lock, so that their slots' cache misses overlap
    /// (a lock taken and released per author waited for each).
    func number(of pending: [Pending], into numbers: inout [Int32]) {
        guard !pending.isEmpty else { return }
        var starts = [Int](repeating: 0, count: AuthorBook.shardCount + 1)
        for p in pending { starts[Int(truncatingIfNeeded: p.hash >> 60) + 1] += 1 }
        for s in 0..<AuthorBook.shardCount { starts[s + 1] += starts[s] }
        var next = starts
        var order = [Int32](repeating: 0, count: pending.count)
        for (i, p) in pending.enumerated() {
            let s = Int(truncatingIfNeeded: p.hash >> 60)
            order[next[s]] = Int32(i)
            next[s] += 1
        }
        for s in 0..<AuthorBook.shardCount where starts[s] < starts[s + 1] {
            shards[s].shard.withLock { shard in
                for k in starts[s]..<starts[s + 1] {
                    let p = pending[Int(order[k])]
                    numbers[Int(p.index)] = shard.number(short: p.key, hash: p.hash) { p.key.text }
                }
            }
        }
    }
}

/// An author key of 16 bytes at most (`@` and a name of up to 15
/// characters, nearly every one), as its bytes in two little-endian words,
/// zero past its end, beside its length: what a slot compares, and a hash
/// of it. Made from a name's bytes in registers, lowercased eight letters at
/// a time, so its words are not read back from bytes just stored (a load
/// waiting on the stores before it, a third of a look-up's time).
struct ShortKey {
    var w0: UInt64
    var w1: UInt64
    var length: UInt32

    /// The key of user name `raw` (ASCII, 1 to 15 bytes, no escapes): `@`, then the bytes lowercased.
    @inline(__always)
    init(user raw: UnsafeRawBufferPointer) {
        let n = raw.count, p = raw.baseAddress!
        // The name's bytes packed: n0 its first 8 (fewer, zero past them), n1 the rest.
        var n0: UInt64 = 0, n1: UInt64 = 0
        if n >= 8 {
            n0 = p.loadUnaligned(as: UInt64.self)
            // The last 8 bytes, of which the top n - 8 are the name's bytes 8 ..< n.
            n1 = n == 8 ? 0 : p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) &>> UInt64(8 &* (16 &- n))
        } else if n >= 4 {
            let lo = UInt64(p.loadUnaligned(as: UInt32.self))
            let hi = UInt64(p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) &<< UInt64(8 &* (n &- 4))
            n0 = lo | hi
        } else {
            for k in 0..<n { n0 |= UInt64(p.load(fromByteOffset: k, as: UInt8.self)) &<< UInt64(8 &* k) }
        }
        n0 = ShortKey.lowercased(n0)
        n1 = ShortKey.lowercased(n1)
        // `@` before the name: the key's bytes are the name's moved up one.
        w0 = UInt64(MentionKind.user.signByte) | n0 &<< 8
        w1 = n0 &>> 56 | n1 &<< 8
        length = UInt32(truncatingIfNeeded: n &+ 1)
    }

    init(w0: UInt64, w1: UInt64, length: UInt32) {
        self.w0 = w0
        self.w1 = w1
        self.length = length
    }

    /// The key whose bytes are `bytes` (16 at most).
    @inline(__always)
    init(bytes: UnsafeRawBufferPointer) {
        var w0: UInt64 = 0, w1: UInt64 = 0
        for (k, b) in bytes.enumerated() {
            if k < 8 { w0 |= UInt64(b) &<< UInt64(8 &* k) } else { w1 |= UInt64(b) &<< UInt64(8 &* (k &- 8)) }
        }
        self.w0 = w0
        self.w1 = w1
        length = UInt32(truncatingIfNeeded: bytes.count)
    }

    /// ASCII letters A to Z of `w`'s eight bytes lowercased (every byte below 0x80).
    @inline(__always)
    static func lowercased(_ w: UInt64) -> UInt64 {
        // 0x80 in each byte at or above `A`, and in each byte above `Z` (no byte carries into the next).
        let atLeastA = w &+ 0x3F3F_3F3F_3F3F_3F3F
        let aboveZ = w &+ 0x2525_2525_2525_2525
        let upper = (atLeastA ^ aboveZ) & 0x8080_8080_8080_8080
        return w | (upper &>> 2)
    }

    /// A hash of the key (its words and length), its bits spread.
    var hash: UInt64 {
        var h = (0x9E37_79B9_7F4A_7C15 ^ UInt64(length) ^ w0) &* 0x0000_0100_0000_01B3
        h ^= h &>> 29
        h = (h ^ w1) &* 0xFF51_AFD7_ED55_8CCD
        h ^= h &>> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ h &>> 33
    }

    /// The key as a string.
    var text: String {
        withUnsafeBytes(of: (w0.littleEndian, w1.littleEndian)) { String(decoding: $0.prefix(Int(length)), as: UTF8.self) }
    }
}
