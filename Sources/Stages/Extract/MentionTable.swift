import Foundation
import Synchronization

/// Normalisation of SPEC §5: Unicode NFC, then full lowercasing.
public enum MentionKey {
    /// `Stanford` → `stanford`, `ＲＯＳＳＩＹＡ` → itself lowercased, `Cafe\u{301}` → `café` (`KeyNormalization`).
    public static func normalize(_ s: String) -> String { KeyNormalization.normalize(s) }

    /// The key of a spelling with its sign (`#Stanford` → `#stanford`,
    /// `+HTTPS://Example.com/` → `+example.com`), nil when it has none.
    public static func key(ofSpelling spelling: String) -> String? {
        guard let kind = spelling.signedKind else { return nil }
        let body = spelling.unsigned
        if kind == .url { return LinkKey.key(body).map { "+" + $0 } }
        return key(ofText: body, kind: kind)
    }

    /// The key of a mention of `kind` (not a link) written as `text`
    /// without its sign: the sign and the text normalised; nil when nothing is left.
    static func key(ofText text: String, kind: MentionKind) -> String? {
        let key = normalize(text)
        return key.isEmpty ? nil : kind.sign + key
    }

    /// Writes into `key` (room for `raw.count + 1` bytes) the key of a
    /// spelling of `kind` (not a link) written in ASCII without escapes as
    /// `raw`: the sign, then the bytes lowercased (SPEC §5's normalisation
    /// of ASCII).
    @inline(__always)
    static func writeASCIIKey(_ raw: UnsafeRawBufferPointer, kind: MentionKind, into key: UnsafeMutableBufferPointer<UInt8>) {
        key[0] = kind.signByte
        for i in 0..<raw.count { key[i + 1] = lowercasedASCII(raw[i]) }
    }

    /// An ASCII byte as the normalisation leaves it: A to Z lowercased, the
    /// rest as it is (NFC leaves ASCII alone). The one rule the extract
    /// stage, the interner and the screen all apply to plain spellings.
    @inline(__always)
    static func lowercasedASCII(_ b: UInt8) -> UInt8 { KeyNormalization.lowercasedASCII(b) }

    /// Whether every byte is ASCII.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, any: UInt8 = 0
        while i < bytes.count { any |= bytes[i]; i &+= 1 }
        return any < 0x80
    }
}

/// Interns mention keys for one worker: raw JSON bytes → a small integer.
///
/// The first time a raw spelling is met it is decoded, normalised and given
/// the id of its normalised key (`#Stanford` and `#STANFORD` share one id);
/// after that the same bytes cost one hash and one compare. Ids are local
/// to the table; `keys` says what they stand for.
///
/// - Complexity: O(length) per lookup; memory O(distinct raw spellings).
public final class MentionTable {
    /// A number no other table of the process has, so that what a table
    /// numbered can be told apart from another's (`PostPart.keySource`).
    public let serial = MentionTable.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<Int>(0)

    /// Normalised keys with their sign (`#swift`, `@nasa`), by id.
    public var keys: [String] { numbering.keys }
    private var numbering = KeyNumbering()

    /// The normalised, signed key of id `id` (`keys[id]` without handing the whole array over).
    @inline(__always)
    func key(_ id: Int) -> String { numbering.keys[id] }

    /// The kind of id `id`'s key.
    @inline(__always)
    func kind(of id: Int32) -> MentionKind { numbering.keys[Int(id)].signedKind ?? .hashtag }

    /// Open addressing over raw spellings (linear probing, at most 5/8
    /// full). A slot holds all a look-up compares: the spelling's bytes as
    /// two words (`words(_:)`: the bytes themselves up to 16, which almost
    /// every mention is), its length and kind, and its id; so a hit reads one
    /// slot, not a slot, an entry and the spelling's bytes elsewhere, which
    /// for a spelling met now and then were three cache misses.
    private struct Slot {
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        /// `Slot.meta(count:kind:)`, with `invalidBit` when the spelling held invalid UTF-8.
        var meta: UInt32 = 0
        /// The hash's low bits: the slot's position when the table grows.
        var hashLow: UInt32 = 0
        /// The mention id (-1: empty once decoded).
        var id: Int32 = 0
        /// The entry's index + 1 (0: an empty slot).
        var entry: Int32 = 0

        static let invalidBit: UInt32 = 1 << 31
        /// Set once the entry's spelling is known to be its key (`spelling(ofEntry:)` nil), the common case:
        /// a later `spellingOf(raw:…)` then reads this slot alone.
        static let asKeyBit: UInt32 = 1 << 30
        /// The bits of `meta` a look-up compares: kind and length.
        static let compared: UInt32 = ~(invalidBit | asKeyBit)
        /// Lengths from here on are compared in `entries` (a mention is never that long in practice).
        static let longLength = (1 << 27) - 1

        /// The kind in bits 27–29, the length below.
        @inline(__always)
        static func meta(count: Int, kind: UInt8) -> UInt32 {
            UInt32(kind) << 27 | UInt32(min(count, longLength))
        }
    }
    private var slots = [Slot](repeating: Slot(), count: 1024)
    /// One per raw spelling, in the order met: what is asked of an entry
    /// after its look-up (`spelling(ofEntry:)`, `mentionID(ofEntry:)`) and
    /// where its bytes are kept.
    private struct Entry {
        /// Where the spelling's kind byte is in `arena`; its raw bytes follow.
        var start: Int
        /// The raw bytes' count.
        var count: Int
        /// Its mention id (-1: empty once decoded).
        var id: Int32
        var kind: UInt8
        var escaped: Bool
    }
    private var entries: [Entry] = []
    /// Spellings of entries, as far as asked for (`spelling(ofEntry:)`).
    private var spellings: [Spelling] = []
    private var arena = ByteArena()
    /// A link host's key bytes, built here before they are looked up (`hostID(ofURL:)`).
    private var scratch: [UInt8] = []
    /// Lookups of spellings that held invalid UTF-8 (replaced with U+FFFD in
    /// the key), so the record can be reported; only ever grows.
    public private(set) var invalidUTF8Lookups = 0

    public init() {}

    /// The id of a normalised, signed key such as `#stanford`, created if new.
    public func id(forKey key: String) -> Int32 { numbering.number(key) }

    /// The id of a normalised, signed key if it has one.
    public func existingID(forKey key: String) -> Int32? { numbering.existing(key) }

    /// The id of the mention whose raw JSON string contents are `raw`.
    ///
    /// - Returns: nil when the mention is empty after decoding.
    @inline(__always)
    func id(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind) -> Int32? {
        let id = lookup(raw: raw, escaped: escaped, kind: kind, counting: true).id
        return id < 0 ? nil : id
    }

    /// `id(raw:escaped:kind:)`, and whether the spelling is known to be its
    /// key: its slot says so from the first look for an ASCII spelling that
    /// is its own key (nearly every one), else once `spellingOf` has found
    /// it so. An empty mention, which has no spelling to count, is as good
    /// as one written as its key.
    @inline(__always)
    func keyedID(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind) -> (id: Int32?, asKey: Bool) {
        let found = lookup(raw: raw, escaped: escaped, kind: kind, counting: true)
        return found.id >= 0 ? (found.id, found.asKey) : (nil, true)
    }

    /// `id(raw:escaped:kind:)` for a look that must leave no trace a report
    /// could show: invalid UTF-8 in the spelling is not counted
    /// (`invalidUTF8Lookups`), though the spelling is remembered as usual.
    /// The screen asks so of tweets it may rule out.
    @inline(__always)
    func uncountedID(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind) -> Int32? {
        let id = lookup(raw: raw, escaped: escaped, kind: kind, counting: false).id
        return id < 0 ? nil : id
    }

    /// A raw spelling's entry, its mention id and its spelling as
    /// `spelling(ofEntry:)` gives it (nil: its key), added when new: one
    /// slot read when the spelling is known to be its key, as nearly every
    /// spelling met again is (the entry and its spelling, kept elsewhere,
    /// are read only otherwise).
    @inline(__always)
    func spellingOf(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind) -> (entry: Int, id: Int32, spelling: String?) {
        let found = lookup(raw: raw, escaped: escaped, kind: kind, counting: true)
        if found.asKey { return (found.entry, found.id, nil) }
        let spelling = spelling(ofEntry: found.entry)
        if spelling == nil && found.slot >= 0 { slots[found.slot].meta |= Slot.asKeyBit }
        return (found.entry, found.id, spelling)
    }

    /// The mention id of entry `e` (-1: an empty mention).
    func mentionID(ofEntry e: Int) -> Int32 { entries[e].id }

    /// The entry of a raw spelling: one per distinct raw bytes and kind met,
    /// added when new. An entry is a spelling as written (`#Stanford` and
    /// `#stanford` are two entries of one mention id).
    ///
    /// - Parameter counting: whether a spelling with invalid UTF-8 counts in `invalidUTF8Lookups`.
    func entry(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind, counting: Bool = true) -> Int {
        lookup(raw: raw, escaped: escaped, kind: kind, counting: counting).entry
    }

    /// The entry of a raw spelling and its mention id, added when new.
    ///
    /// - Returns: also the slot's position (-1 when the table grew on adding
    ///   it), and whether its spelling is known to be its key (`Slot.asKeyBit`).
    @inline(__always)
    private func lookup(raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind,
                        counting: Bool) -> (entry: Int, id: Int32, slot: Int, asKey: Bool) {
        let (w0, w1) = MentionTable.words(raw)
        let h = MentionTable.hash(raw, kind: kind.rawValue)
        let meta = Slot.meta(count: raw.count, kind: kind.rawValue)
        let mask = slots.count - 1
        var position = Int(truncatingIfNeeded: h) & mask
        let found: (entry: Int, id: Int32, meta: UInt32)? = slots.withUnsafeBufferPointer { table in
            while true {
                let slot = table[position]
                if slot.entry == 0 { return nil }
                if slot.w0 == w0 && slot.w1 == w1 && slot.meta & Slot.compared == meta
                    && (raw.count <= 16 || sameLongBytes(Int(slot.entry) - 1, raw)) {
                    return (Int(slot.entry) - 1, slot.id, slot.meta)
                }
                position = (position + 1) & mask
            }
        }
        if let found {
            if found.meta & Slot.invalidBit != 0 && counting { invalidUTF8Lookups += 1 }
            return (found.entry, found.id, position, found.meta & Slot.asKeyBit != 0)
        }
        // New spelling: decode, normalise, remember.
        let id: Int32, invalid: Bool
        var asKey = false
        if !escaped && !raw.isEmpty && MentionKey.isASCII(raw.assumingMemoryBound(to: UInt8.self)) {
            // ASCII as written (most spellings): the key is the sign and the bytes lowercased, made as a string only if new.
            (id, asKey) = asciiKeyID(raw, kind: kind)
            invalid = false
        } else {
            (id, invalid) = decodedKeyID(raw, escaped: escaped, kind: kind)
            if invalid && counting { invalidUTF8Lookups += 1 }
        }
        let index = entries.count
        entries.append(Entry(start: arena.count, count: raw.count, id: id, kind: kind.rawValue, escaped: escaped))
        arena.append(kind.rawValue)
        arena.append(raw)
        slots[position] = Slot(w0: w0, w1: w1, meta: meta | (invalid ? Slot.invalidBit : 0) | (asKey ? Slot.asKeyBit : 0),
                               hashLow: UInt32(truncatingIfNeeded: h), id: id, entry: Int32(index + 1))
        let placed = position
        if entries.count * 8 > slots.count * 5 {
            grow()
            return (index, id, -1, asKey)
        }
        return (index, id, placed, asKey)
    }

    /// Whether entry `e`'s bytes, longer than 16, are `raw`'s.
    private func sameLongBytes(_ e: Int, _ raw: UnsafeRawBufferPointer) -> Bool {
        let entry = entries[e]
        guard entry.count == raw.count else { return false }
        return arena.storage.withUnsafeBufferPointer { a in
            memcmp(a.baseAddress! + entry.start + 1, raw.baseAddress!, raw.count) == 0
        }
    }

    /// A spelling's bytes as two words a slot compares: up to 16 bytes, the
    /// bytes themselves (with the length, equal words are equal bytes: the
    /// first and last 8, 4 or fewer bytes, overlapping, cover them all);
    /// beyond, its first and last 8 bytes, a filter before the bytes are
    /// compared.
    @inline(__always)
    static func words(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = raw.count
        guard let p = raw.baseAddress, n > 0 else { return (0, 0) }
        if n >= 8 {
            return (p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
        }
        if n >= 4 {
            return (UInt64(p.loadUnaligned(as: UInt32.self)) | UInt64(p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << 32, 0)
        }
        var w: UInt64 = 0
        for k in 0..<n { w |= UInt64(p.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 &* k) }
        return (w, 0)
    }

    /// The id of the key of a new spelling written in ASCII without escapes
    /// (SPEC §5's normalisation of ASCII is lowercasing A to Z), and whether
    /// the spelling is that key, as `spelling(ofEntry:)` tells it: no letter
    /// lowered, and a key that is its ASCII bytes (not a string folded to
    /// them). A link's key is its own, never told here.
    private func asciiKeyID(_ raw: UnsafeRawBufferPointer, kind: MentionKind) -> (id: Int32, asKey: Bool) {
        if kind == .url { return (linkKeyID(String(decoding: raw, as: UTF8.self)), false) }
        // The key's bytes built on the stack (a mention's few bytes): no array cleared and grown per new key.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + 1) { key in
            MentionKey.writeASCIIKey(raw, kind: kind, into: key)
            let bytes = UnsafeRawBufferPointer(key)
            let id = numbering.number(ascii: bytes) { String(decoding: bytes, as: UTF8.self) }
            return (id, memcmp(key.baseAddress! + 1, raw.baseAddress!, raw.count) == 0 && !numbering.isFolded(id))
        }
    }

    /// The id of the key of any other new spelling, and whether it held invalid UTF-8.
    private func decodedKeyID(_ raw: UnsafeRawBufferPointer, escaped: Bool, kind: MentionKind) -> (Int32, Bool) {
        if kind == .url {
            // A link's key is made from its bytes (`LinkKey.key(bytes:)`): one in ASCII, nearly every link, needs no String.
            func ascii(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
                guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
                guard let key = LinkKey.key(bytes: b) else { return -1 }
                return id(forKey: "+" + key)
            }
            let found = escaped ? JSONText.unescape(raw.assumingMemoryBound(to: UInt8.self)).withUnsafeBufferPointer(ascii)
                : ascii(raw.assumingMemoryBound(to: UInt8.self))
            if let found { return (found, false) }
        }
        let (text, invalid) = MentionTable.decodedText(raw, escaped: escaped)
        if kind == .url { return (linkKeyID(text), invalid) }
        return (MentionKey.key(ofText: text, kind: kind).map { self.id(forKey: $0) } ?? -1, invalid)
    }

    /// A spelling's text: its bytes unescaped when `escaped`, and whether
    /// they held invalid UTF-8. Valid UTF-8 (nearly always) is checked and
    /// copied in one pass; other bytes are repaired (U+FFFD).
    static func decodedText(_ raw: UnsafeRawBufferPointer, escaped: Bool) -> (text: String, invalid: Bool) {
        func decoded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (String, Bool) {
            if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
            return (String(decoding: bytes, as: UTF8.self), true)
        }
        return escaped ? decoded(JSONText.unescape(raw.assumingMemoryBound(to: UInt8.self))) : decoded(raw)
    }

    /// Counts a look-up elsewhere (`AuthorBook`) of a spelling holding
    /// invalid UTF-8 as this table counts its own (`invalidUTF8Lookups`).
    func countInvalidUTF8() { invalidUTF8Lookups += 1 }

    /// The id of a link string's key (SPEC §13), -1 when it is no link.
    private func linkKeyID(_ text: String) -> Int32 {
        guard let key = LinkKey.key(text) else { return -1 }
        return id(forKey: "+" + key)
    }

    // MARK: Hosts and domains of links

    /// Per url id: its host's id and its domain's id (`unknownDerived` until asked).
    private var hostOfURL: [Int32] = []
    private var domainOfURL: [Int32] = []
    /// Per host id: its domain's id (a site's many links ask once).
    private var domainOfHost: [Int32] = []
    private static let unknownDerived: Int32 = -2

    /// The id of the host (SPEC §13) of the link whose key has id `url`.
    func hostID(ofURL url: Int32) -> Int32 {
        let i = Int(url)
        if i < hostOfURL.count, hostOfURL[i] != Self.unknownDerived { return hostOfURL[i] }
        if i >= hostOfURL.count { hostOfURL += repeatElement(Self.unknownDerived, count: i + 1024 - hostOfURL.count) }
        // `^` and the host, from the key's bytes (its `+` dropped): a String only for a new host.
        var url = key(i)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(MentionKind.host.signByte)
        url.withUTF8 { b in
            let key = UnsafeBufferPointer(rebasing: b[1...])
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: key[LinkKey.hostRange(ofKey: key)]))
        }
        let id = scratch.withUnsafeBufferPointer { host in
            MentionKey.isASCII(host)
                ? numbering.number(ascii: UnsafeRawBufferPointer(host)) { String(decoding: host, as: UTF8.self) }
                : numbering.number(String(decoding: host, as: UTF8.self))
        }
        hostOfURL[i] = id
        return id
    }

    /// The id of the registrable domain (SPEC §13) of the link whose key has id `url`.
    func domainID(ofURL url: Int32) -> Int32 {
        let i = Int(url)
        if i < domainOfURL.count, domainOfURL[i] != Self.unknownDerived { return domainOfURL[i] }
        if i >= domainOfURL.count { domainOfURL += repeatElement(Self.unknownDerived, count: i + 1024 - domainOfURL.count) }
        let host = Int(hostID(ofURL: url))
        if host < domainOfHost.count, domainOfHost[host] != Self.unknownDerived {
            domainOfURL[i] = domainOfHost[host]
            return domainOfHost[host]
        }
        if host >= domainOfHost.count { domainOfHost += repeatElement(Self.unknownDerived, count: host + 1024 - domainOfHost.count) }
        let id = id(forKey: "=" + RegistrableDomain.shared.domain(ofHost: key(host).unsigned))
        domainOfHost[host] = id
        domainOfURL[i] = id
        return id
    }

    /// A spelling's hash, eight bytes at a time (a mention is mostly 5 to 20
    /// bytes): each word multiplied in, the last one overlapping the one
    /// before, the length and kind mixed in first.
    @inline(__always)
    static func hash(_ raw: UnsafeRawBufferPointer, kind: UInt8) -> UInt64 {
        let n = raw.count
        var h = (UInt64(truncatingIfNeeded: n) << 8 | UInt64(kind)) &* 0x9E37_79B9_7F4A_7C15
        guard let p = raw.baseAddress, n > 0 else { return h ^ h >> 29 }
        @inline(__always) func mix(_ w: UInt64) {
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
        }
        if n >= 8 {
            var i = 0
            while i &+ 8 < n {
                mix(p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i &+= 8
            }
            mix(p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
        } else if n >= 4 {
            mix(UInt64(p.loadUnaligned(as: UInt32.self)) | UInt64(p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << 32)
        } else {
            var w: UInt64 = 0
            for k in 0..<n { w |= UInt64(p.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 &* k) }
            mix(w)
        }
        // A full final mix: the tables take a slot from the low bits, which a multiply leaves
        // alike for keys that differ only in their last bytes (`author150567`, `author150568`: a
        // third of the slots met and probe runs of 8 at a third full, before).
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ h >> 33
    }

    /// The spelling of entry `e` (SPEC §12.1): its text, escapes undone,
    /// NFC, with its sign; nil when that is the mention's key itself
    /// (`#stanford`). Worked out the first time it is asked for, then kept,
    /// so a run that never asks pays nothing.
    func spelling(ofEntry e: Int) -> String? {
        if spellings.count <= e {
            // Grown by half at least: a spelling asked for as each new entry comes would otherwise copy the array each time.
            spellings.append(contentsOf: repeatElement(.unknown, count: max(entries.count, spellings.count + spellings.count / 2 + 1024) - spellings.count))
        }
        if case .known(let s) = spellings[e] { return s }
        let (start, end) = (entries[e].start + 1, entries[e].start + 1 + entries[e].count)
        let kind = MentionKind(rawValue: entries[e].kind)!
        let id = entries[e].id
        let escaped = entries[e].escaped
        let s: String? = arena.storage.withUnsafeBufferPointer { a in
            let raw = UnsafeBufferPointer(rebasing: a[start..<end])
            if !escaped && !raw.contains(where: { $0 >= 0x80 }) {
                // ASCII as written (the common case): the key itself when its bytes follow the sign, no string made.
                if id >= 0 {
                    let key = keys[Int(id)].utf8
                    let same = key.withContiguousStorageIfAvailable { k in
                        k.count == raw.count + 1 && (raw.isEmpty || memcmp(k.baseAddress! + 1, raw.baseAddress!, raw.count) == 0)
                    } ?? (key.count == raw.count + 1 && key.dropFirst().elementsEqual(raw))
                    if same { return nil }
                }
                return kind.sign + String(decoding: raw, as: UTF8.self)
            }
            var text = escaped ? String(decoding: JSONText.unescape(raw), as: UTF8.self) : String(decoding: raw, as: UTF8.self)
            text = KeyNormalization.nfc(text)
            let spelling = kind.sign + text
            return id >= 0 && spelling == keys[Int(id)] ? nil : spelling
        }
        spellings[e] = .known(s)
        return s
    }

    private enum Spelling { case unknown, known(String?) }

    /// Doubles the slots, each placed again by its kept hash bits (the old
    /// slots read in turn).
    private func grow() {
        var newSlots = [Slot](repeating: Slot(), count: slots.count * 2)
        let mask = newSlots.count - 1
        for slot in slots where slot.entry != 0 {
            var position = Int(slot.hashLow) & mask
            while newSlots[position].entry != 0 { position = (position + 1) & mask }
            newSlots[position] = slot
        }
        slots = newSlots
    }
}
