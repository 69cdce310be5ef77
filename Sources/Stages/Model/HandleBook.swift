import Synchronization

/// Bluesky handles by DID (SPEC §16): who `@did:plc:…` is, as the inputs
/// say. An identity event or a post view names a DID's handle (the latest
/// by time counts; at one time, the handle first in UTF-8 bytes); a post's
/// text spells a mentioned DID at its facet's bytes (`@alice.bsky.social`),
/// the most frequent spelling counting when nothing names the DID. DIDs
/// are keyed as mention keys are and handles kept as they are shown (NFC,
/// lowercased; handles trimmed of white space), so `did:plc:ABC` is the
/// account `@did:plc:abc`, and `@Alice.Test` and `@alice.test` spell one handle.
///
/// Bluesky authors and mentioned users are keyed by DID on every path, so a
/// handle that changes never splits one account in two; a report prints
/// the handle (`printed`), once every input has been read.
///
/// - Complexity: a lock and a hash per entry; memory O(distinct DIDs).
public final class HandleBook: Sendable {
    public static let shared = HandleBook()

    private struct Named { var time: Int64; var handle: String }
    private struct State {
        var named: [String: Named] = [:]
        var spelled: [String: [String: Int]] = [:]
        /// Spellings met as bytes (a post's facets, `spelled(didBytes:handleBytes:)`):
        /// each (DID, handle) pair once, found by a hash of its bytes, its
        /// count kept here until a reader folds it into `spelled`, so a
        /// spelling met again makes no string and hashes none.
        var pairs: [Pair] = []
        var pairByHash: [UInt64: Int] = [:]
        /// Pairs counted since the last fold.
        var touched: [Int] = []

        /// DID key `did`'s handle: named, else the most frequent spelling (ties by bytes), else nil (folded first).
        func handle(of did: String) -> String? {
            if let n = named[did] { return n.handle }
            guard let spellings = spelled[did] else { return nil }
            return spellings.min { a, b in a.value != b.value ? a.value > b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }?.key
        }

        /// `printed` of one key, the book folded.
        func printed(_ key: String) -> String {
            guard HandleBook.isDIDKey(key) else { return key }
            if key.utf8.first == UInt8(ascii: "!") { return printedAuthor(key) }
            guard let handle = handle(of: HandleBook.didOf(key)) else { return key }
            return "@" + handle
        }

        /// `printedAuthor` of one key: its sign, then the handle named for its DID.
        func printedAuthor(_ key: String) -> String {
            guard HandleBook.isDIDKey(key), let handle = named[HandleBook.didOf(key)]?.handle else { return key }
            return String(key.unicodeScalars.first!) + handle
        }

        mutating func fold() {
            for k in touched {
                spelled[pairs[k].did, default: [:]][pairs[k].handle, default: 0] += pairs[k].pending
                pairs[k].pending = 0
            }
            touched.removeAll()
        }
    }
    private struct Pair { var did: String; var handle: String; var pending: Int }
    private let state = Mutex(State())

    public init() {}

    /// Forgets every handle (the fuzzer's inputs are each a run of their own).
    public func removeAll() {
        state.withLock { s in s = State() }
    }

    /// A DID as the book keys it: as a mention key is (SPEC §5: NFC, then
    /// lowercased), so that `did:plc:ABC` named by an identity event is the
    /// account a mention of `did:plc:abc` (keyed `@did:plc:abc`) shows.
    static func key(did: String) -> String { KeyNormalization.normalize(did) }

    /// A handle as the book keeps, counts and shows it: trimmed of white
    /// space, NFC, lowercased (handles are domain names: `Alice.Test` and
    /// `alice.test` are one handle); nil when nothing is left.
    static func form(handle: String) -> String? {
        var t = Substring(handle)
        while let c = t.first, c.isWhitespace { t.removeFirst() }
        while let c = t.last, c.isWhitespace { t.removeLast() }
        return t.isEmpty ? nil : KeyNormalization.normalize(String(t))
    }

    /// An identity event or a post view: `did` is `handle` as of `time` (microseconds since 1970).
    public func name(did: String, handle: String, time: Int64) {
        guard let handle = Self.form(handle: handle) else { return }
        name(key: Self.key(did: did), form: handle, time: time)
    }

    /// `name(did:handle:time:)` of the two as UTF-8 bytes (valid UTF-8: a
    /// validated record's, unescaped). Bytes of visible ASCII without a
    /// capital (nearly every DID and handle) are their own key and form, so
    /// no normalisation runs; any others go by the strings.
    public func name(didBytes did: UnsafeRawBufferPointer, handleBytes handle: UnsafeRawBufferPointer, time: Int64) {
        guard Self.isOwnForm(did), Self.isOwnForm(handle) else {
            name(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self), time: time)
            return
        }
        name(key: String(decoding: did, as: UTF8.self), form: String(decoding: handle, as: UTF8.self), time: time)
    }

    /// DID key `did` is handle `handle` (its form) as of `time`: the latest wins, at one time the first in bytes.
    private func name(key did: String, form handle: String, time: Int64) {
        state.withLock { s in
            if let i = s.named.index(forKey: did) {
                let known = s.named.values[i]
                guard time > known.time || time == known.time && handle.utf8.lexicographicallyPrecedes(known.handle.utf8) else { return }
                s.named.values[i] = Named(time: time, handle: handle)
            } else {
                s.named[did] = Named(time: time, handle: handle)
            }
        }
    }

    /// An identity event: it names `did`'s handle, or, with `spelled` (a
    /// count of 1 or more: the `identity.spelled` member a store's snapshot
    /// writes, `Store+Export`), says that texts spelled the handle so often,
    /// which names nothing (an author is shown by a handle named alone).
    public func identity(did: String, handle: String, time: Int64, spelled count: Int?) {
        if let count { spelled(did: did, handle: handle, count: count) } else { name(did: did, handle: handle, time: time) }
    }

    /// `identity(did:handle:time:spelled:)` of the two as UTF-8 bytes (as `name(didBytes:handleBytes:time:)`).
    public func identity(didBytes did: UnsafeRawBufferPointer, handleBytes handle: UnsafeRawBufferPointer, time: Int64, spelled count: Int?) {
        if let count {
            spelled(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self), count: count)
        } else {
            name(didBytes: did, handleBytes: handle, time: time)
        }
    }

    /// A post's text spells `did` as `handle` once.
    public func spelled(did: String, handle: String) {
        spelled(did: did, handle: handle, count: 1)
    }

    /// `spelled(did:handle:)` of the two as UTF-8 bytes (valid UTF-8: a
    /// validated record's); strings are made only for a pair not met before.
    /// Bytes of visible ASCII without a capital (nearly every DID and
    /// handle) are their own key and form; any others go by the strings.
    public func spelled(didBytes did: UnsafeRawBufferPointer, handleBytes handle: UnsafeRawBufferPointer) {
        guard Self.isOwnForm(did), Self.isOwnForm(handle) else {
            spelled(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self))
            return
        }
        // The two hashes mixed; pairs under one hash are told apart by their bytes.
        let h = PostIdentity.hash(did) &* 0x9E37_79B9_7F4A_7C15 ^ PostIdentity.hash(handle)
        state.withLock { s in
            if let k = s.pairByHash[h] {
                if s.pairs[k].did.hasUTF8(did) && s.pairs[k].handle.hasUTF8(handle) {
                    if s.pairs[k].pending == 0 { s.touched.append(k) }
                    s.pairs[k].pending += 1
                } else {
                    // Another pair under the same 64-bit hash (rare): counted by its strings.
                    s.spelled[String(decoding: did, as: UTF8.self), default: [:]][String(decoding: handle, as: UTF8.self), default: 0] += 1
                }
                return
            }
            s.pairByHash[h] = s.pairs.count
            s.touched.append(s.pairs.count)
            s.pairs.append(Pair(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self), pending: 1))
        }
    }

    /// Whether bytes are a key and a handle form as they are: not empty,
    /// visible ASCII (no white space to trim, nothing for NFC to change),
    /// no capital letter.
    @inline(__always)
    private static func isOwnForm(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        for b in bytes where b <= 0x20 || b >= 0x7F || b &- 0x41 < 26 { return false }
        return true
    }

    /// The handle of `did`: named, else the most frequent spelling (ties by bytes), else nil.
    public func handle(of did: String) -> String? {
        let did = Self.key(did: did)
        return state.withLock { s in
            s.fold()
            return s.handle(of: did)
        }
    }

    /// Whether a key is a Bluesky account's (`@did:…` or `!did:…`).
    @inline(__always)
    public static func isDIDKey(_ key: String) -> Bool {
        // Byte by byte from the start (a report asks this of every user and poster row).
        var u = key.utf8.makeIterator()
        guard let first = u.next(), first == UInt8(ascii: "@") || first == UInt8(ascii: "!") else { return false }
        guard u.next() == UInt8(ascii: "d"), u.next() == UInt8(ascii: "i"), u.next() == UInt8(ascii: "d"),
              u.next() == UInt8(ascii: ":") else { return false }
        return u.next() != nil
    }

    /// A key as a report shows it: a Bluesky account's by its handle when known
    /// (`@did:plc:x` → `@alice.bsky.social`); any other key as it is. A
    /// mentioned user (`@did:…`) is shown by the handle named, else the one
    /// the texts spell most; a poster (`!did:…`) as `printedAuthor` shows it.
    public func printed(_ key: String) -> String {
        guard Self.isDIDKey(key) else { return key }
        return state.withLock { s in
            s.fold()
            return s.printed(key)
        }
    }

    /// `printed` of each key, under one lock (a report's rows).
    public func printed(_ keys: [String]) -> [String] {
        guard keys.contains(where: Self.isDIDKey) else { return keys }
        return state.withLock { s in
            s.fold()
            return keys.map { s.printed($0) }
        }
    }

    /// A key as a report shows an author (of a post: `posts`' `author`,
    /// `trend`'s `top_authors`, a `poster` row): a Bluesky account by the
    /// handle an identity event or a post view names, else as its DID —
    /// SPEC §16 gives the spellings of the texts to mentioned users alone.
    public func printedAuthor(_ key: String) -> String {
        guard Self.isDIDKey(key) else { return key }
        return state.withLock { s in s.printedAuthor(key) }
    }

    /// The DID key of an account key (`@did:…`, `!did:…`; its sign is one ASCII byte, `isDIDKey`).
    static func didOf(_ key: String) -> String {
        Self.key(did: String(decoding: key.utf8.dropFirst(), as: UTF8.self))
    }

    /// Every entry, for a snapshot of the book (extract lines, the store): (did, handle, time) named, then spelled.
    public var entries: (named: [(did: String, handle: String, time: Int64)], spelled: [(did: String, handle: String, count: Int)]) {
        state.withLock { s in
            s.fold()
            return (s.named.map { ($0.key, $0.value.handle, $0.value.time) }.sorted { $0.did < $1.did },
             s.spelled.flatMap { did, m in m.map { (did, $0.key, $0.value) } }.sorted { ($0.did, $0.handle) < ($1.did, $1.handle) })
        }
    }

    /// Adds `count` spellings at once (an extract line, the store).
    public func spelled(did: String, handle: String, count: Int) {
        guard let handle = Self.form(handle: handle) else { return }
        let did = Self.key(did: did)
        state.withLock { s in s.spelled[did, default: [:]][handle, default: 0] += count }
    }
}

extension TermReport {
    /// The report with each Bluesky account (`@did:…`, a poster `!did:…`)
    /// shown by its handle (`HandleBook.printed`), its rows (with their
    /// columns) in report order again: count, then the shown mention's bytes.
    /// A report without such accounts is returned as it is.
    public func showingHandles(_ book: HandleBook = .shared) -> TermReport {
        guard sections.contains(where: { s in (s.kind == .user || s.kind == .poster) && s.rows.contains { HandleBook.isDIDKey($0.mention) } })
        else { return self }
        var report = self
        report.sections = sections.map { section in
            guard section.kind == .user || section.kind == .poster else { return section }
            let shown = book.printed(section.rows.map(\.mention))
            let order = section.rows.indices.sorted { a, b in
                let (x, y) = (section.rows[a], section.rows[b])
                return x.count != y.count ? x.count > y.count : shown[a].utf8.lexicographicallyPrecedes(shown[b].utf8)
            }
            var out = KindRows(kind: section.kind, rows: order.map { MentionCount(mention: shown[$0], count: section.rows[$0].count) })
            if !section.columns.isEmpty {
                out.columns = order.map { i in
                    var c = section.columns[i]
                    if let d = c.display, HandleBook.isDIDKey(d) { c.display = book.printed(d) }
                    return c
                }
            }
            return out
        }
        return report
    }
}
