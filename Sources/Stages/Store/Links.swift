/// A tweet's mention links as one blob in its own row (schema v5): the
/// tweet's distinct mentions in ascending id order, each with how the tweet
/// writes it (SPEC §12.1), instead of a row per link.
///
///     entry   varint(delta << 2 | tag) [varint(code)]
///     delta   mention id minus the previous entry's (the first: the id itself);
///             0 after the first: another spelling of the same mention
///     tag 0   written as its key (`#stanford`), no code
///     tag 1   the key with the letters of bit i of `code` in capitals
///             (`#Stanford`: code 1; the i-th scalar after the sign)
///     tag 2   `code` is a row of `spelling` (any other spelling)
///
/// Varints are LEB128 (7 bits a byte, low first). A row per link cost its
/// tweet's 8-byte id, a record header and a cell: 20 bytes a link on the
/// bench's generated data; an entry here is 2 to 3. Capitals by a mask need
/// no `spelling` row (and no index entry) for the common case of a mention
/// written with other capitals.
///
/// The case mask only ever changes a scalar by the fixed table of `upper`
/// (ASCII, Latin-1, Greek and Cyrillic letters), never by the Unicode data of
/// the running toolchain, so a stored mask decodes the same forever; the
/// writer checks that decoding gives the spelling back before it uses one.
enum Links {
    /// How a tweet writes one of its mentions.
    enum Spelling: Hashable {
        case key
        case cased(UInt64)
        case stored(Int64)
    }

    // MARK: Writing

    /// Appends the entries of one tweet's links to `out`.
    ///
    /// - Parameter links: sorted by mention; a mention's first entry is the
    ///   tweet's first spelling of it, the next ones (same mention) its others.
    static func encode(_ links: ArraySlice<(mention: Int64, spelling: Spelling)>, into out: inout [UInt8]) {
        var last: Int64 = 0
        for link in links {
            let delta = UInt64(bitPattern: link.mention &- last)
            last = link.mention
            switch link.spelling {
            case .key: put(delta << 2, &out)
            case .cased(let mask): put(delta << 2 | 1, &out); put(mask, &out)
            case .stored(let id): put(delta << 2 | 2, &out); put(UInt64(bitPattern: id), &out)
            }
        }
    }

    @inline(__always)
    private static func put(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    // MARK: Reading

    @inline(__always)
    private static func get(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            let b = p[i]
            i += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
            if shift > 63 { break }
        }
        return v
    }

    /// Calls `body` with each distinct mention of a blob, in ascending order.
    @inline(__always)
    static func mentions(_ blob: UnsafeRawBufferPointer, _ body: (Int64) -> Void) {
        guard let base = blob.baseAddress else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = blob.count
        var i = 0
        var mention: Int64 = 0
        var first = true
        while i < n {
            let v = get(p, &i, n)
            if v & 3 != 0 { _ = get(p, &i, n) }
            let delta = Int64(bitPattern: v >> 2)
            if delta != 0 || first {
                mention &+= delta
                body(mention)
            }
            first = false
        }
    }

    /// Calls `body` with every entry of a blob: the mention, its spelling, and
    /// whether it is another spelling of the mention before it.
    static func entries(_ blob: UnsafeRawBufferPointer, _ body: (Int64, Spelling, Bool) -> Void) {
        guard let base = blob.baseAddress else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = blob.count
        var i = 0
        var mention: Int64 = 0
        var first = true
        while i < n {
            let v = get(p, &i, n)
            let spelling: Spelling
            switch v & 3 {
            case 1: spelling = .cased(get(p, &i, n))
            case 2: spelling = .stored(Int64(bitPattern: get(p, &i, n)))
            case 0: spelling = .key
            default: _ = get(p, &i, n); spelling = .key  // not written by any version
            }
            let delta = Int64(bitPattern: v >> 2)
            let again = delta == 0 && !first
            mention &+= delta
            body(mention, spelling, again)
            first = false
        }
    }

    /// The distinct mentions of a blob, ascending.
    static func mentions(_ blob: UnsafeRawBufferPointer?, into set: inout [Int64]) {
        set.removeAll(keepingCapacity: true)
        guard let blob else { return }
        mentions(blob) { set.append($0) }
    }

    // MARK: Capitals

    /// The mask that turns `key` into `spelling` by capitals alone (bit i:
    /// the i-th scalar after the sign), or nil when no mask does (another
    /// length, another letter, a scalar past the 64th, the key itself).
    static func caseMask(key: String, spelling: String) -> UInt64? {
        var k = key.unicodeScalars.makeIterator()
        var s = spelling.unicodeScalars.makeIterator()
        guard let sign = k.next(), sign == s.next() else { return nil }
        var mask: UInt64 = 0
        var i: UInt64 = 0
        while true {
            let a = k.next(), b = s.next()
            guard let a, let b else {
                guard a == nil, b == nil else { return nil }
                break
            }
            if a != b {
                guard i < 64, let up = upper(a), up == b else { return nil }
                mask |= 1 << i
            }
            i += 1
        }
        guard mask != 0, cased(key, mask) == spelling else { return nil }
        return mask
    }

    /// `key` with the scalars of `mask`'s bits in capitals.
    static func cased(_ key: String, _ mask: UInt64) -> String {
        var out = String.UnicodeScalarView()
        var i: UInt64 = 0
        for (n, scalar) in key.unicodeScalars.enumerated() {
            guard n > 0 else { out.append(scalar); continue }
            if i < 64, mask & (1 << i) != 0, let up = upper(scalar) { out.append(up) } else { out.append(scalar) }
            i += 1
        }
        return String(out)
    }

    /// The capital of a small letter, by a fixed table: ASCII, Latin-1 (not
    /// ß, ÿ), Greek (not final sigma) and Cyrillic (а–я, ѐ–џ).
    static func upper(_ c: Unicode.Scalar) -> Unicode.Scalar? {
        let v = c.value
        switch v {
        case 0x61...0x7A, 0x430...0x44F:
            return Unicode.Scalar(v - 0x20)
        case 0xE0...0xFE where v != 0xF7:
            return Unicode.Scalar(v - 0x20)
        case 0x3B1...0x3C9 where v != 0x3C2:
            return Unicode.Scalar(v - 0x20)
        case 0x450...0x45F:
            return Unicode.Scalar(v - 0x50)
        default:
            return nil
        }
    }
}
