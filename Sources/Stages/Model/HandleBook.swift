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
/// A post's spellings count once however many copies of it are read
/// (SPEC §6: every post once): they are kept by post, and a copy adds
/// only what it spells more often than the copies before it (a copy read
/// twice adds nothing, whichever worker reads it first). Extract lines and
/// the store carry them by post for the same reason (`postSpellings`,
/// `spellings(ofPosts:)`).
///
/// - Complexity: a lock and a hash per entry (a post's spellings: one lock);
///   memory O(distinct DIDs and spelled pairs), and about 24 bytes a post
///   whose text spells a handle.
public final class HandleBook: Sendable {
    public static let shared = HandleBook()

    private struct Named { var time: Int64; var handle: String }
    private struct State {
        var named: [String: Named] = [:]
        var spelled: [String: [String: Int]] = [:]
        /// Every (DID key, handle form) pair spelled, each once, found by a hash
        /// of its bytes (the next hash up where two pairs share one), its count
        /// since the last fold kept here, so a spelling met again makes no
        /// string and hashes none.
        var pairs: [Pair] = []
        var pairByHash: [UInt64: Int] = [:]
        /// Pairs counted since the last fold.
        var touched: [Int] = []
        /// By post identity: each pair its text spells and how often (the most any copy read spells it):
        /// the first pair here (8 bytes a post: most posts spell one), any others in `more`.
        var votes: [UInt64: Vote] = [:]
        var more: [UInt64: [Vote]] = [:]

        /// Post `post`'s pairs and how often it spells each.
        func votes(of post: UInt64) -> [Vote] {
            guard let first = votes[post] else { return [] }
            return [first] + (more[post] ?? [])
        }

        /// The pair of a DID key and a handle form, as UTF-8 bytes; made when new.
        mutating func pair(did: UnsafeRawBufferPointer, handle: UnsafeRawBufferPointer) -> Int {
            var h = PostIdentity.hash(did) &* 0x9E37_79B9_7F4A_7C15 ^ PostIdentity.hash(handle)
            while let k = pairByHash[h] {
                if pairs[k].did.hasUTF8(did) && pairs[k].handle.hasUTF8(handle) { return k }
                h &+= 1
            }
            pairByHash[h] = pairs.count
            pairs.append(Pair(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self)))
            return pairs.count - 1
        }

        mutating func pair(did: String, handle: String) -> Int {
            var did = did, handle = handle
            return did.withUTF8 { d in handle.withUTF8 { h in pair(did: UnsafeRawBufferPointer(d), handle: UnsafeRawBufferPointer(h)) } }
        }

        /// Pair `k` spelled `n` times more.
        mutating func count(_ k: Int, _ n: Int) {
            guard n > 0 else { return }
            if pairs[k].pending == 0 { touched.append(k) }
            pairs[k].pending += n
        }

        /// One copy of post `post` spells each pair of `spelled` (repeated as often as it is spelled):
        /// what it spells more often than the post's copies before it counts.
        mutating func vote(post: UInt64, _ spelled: [(pair: Int, times: Int)]) {
            var had = votes(of: post)
            // A few pairs a post (nearly always): found by looking along the lists; many (a post of
            // thousands of mentions, or its copies): by dictionaries, so it costs what it holds.
            let many = spelled.count > 16 || had.count > 16
            // By pair, what this copy spells.
            var counts: [(pair: Int, times: Int)] = []
            var index: [Int: Int] = [:]
            for v in spelled {
                if let j = many ? index[v.pair] : counts.firstIndex(where: { $0.pair == v.pair }) {
                    counts[j].times += v.times
                } else {
                    if many { index[v.pair] = counts.count }
                    counts.append(v)
                }
            }
            var position: [Int: Int]? = many ? Dictionary(uniqueKeysWithValues: had.enumerated().map { (Int($1.pair), $0) }) : nil
            for (k, times) in counts {
                let j = position.map { $0[k] } ?? had.firstIndex { $0.pair == Int32(k) }
                if let j {
                    let before = Int(had[j].times)
                    guard times > before else { continue }
                    count(k, times - before)
                    had[j].times = Int32(clamping: times)
                } else {
                    count(k, times)
                    position?[k] = had.count
                    had.append(Vote(pair: Int32(k), times: Int32(clamping: times)))
                }
            }
            guard let first = had.first else { return }
            votes[post] = first
            if had.count > 1 { more[post] = Array(had.dropFirst()) }
        }

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
    private struct Pair {
        var did: String
        var handle: String
        /// Counted since the last fold.
        var pending = 0
        /// Counted without a post (`spelled(did:handle:count:)`: a store's totals, a snapshot's), in all.
        var loose = 0
    }
    private struct Vote { var pair: Int32; var times: Int32 }
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

    /// What one copy of a post's text spells at its mention facets: (DID,
    /// handle) pairs, as UTF-8 bytes where they are their own key and form
    /// (`isOwnForm`, nearly every one), else as strings. A decoder fills
    /// one and hands it to `spelled(post:_:)`; the bytes must outlive that call.
    public struct Spellings {
        fileprivate var bytes: [(did: UnsafeRawBufferPointer, handle: UnsafeRawBufferPointer)] = []
        fileprivate var strings: [(did: String, handle: String)] = []

        public init() {}

        public var isEmpty: Bool { bytes.isEmpty && strings.isEmpty }

        public mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            strings.removeAll(keepingCapacity: true)
        }

        /// The text spells `did` as `handle` once (valid UTF-8: a validated record's, unescaped).
        public mutating func append(didBytes did: UnsafeRawBufferPointer, handleBytes handle: UnsafeRawBufferPointer) {
            if HandleBook.isOwnForm(did) && HandleBook.isOwnForm(handle) {
                bytes.append((did, handle))
            } else {
                append(did: String(decoding: did, as: UTF8.self), handle: String(decoding: handle, as: UTF8.self))
            }
        }

        public mutating func append(did: String, handle: String) {
            guard let handle = HandleBook.form(handle: handle) else { return }
            strings.append((HandleBook.key(did: did), handle))
        }
    }

    /// One copy of post `post` (its identity) spells what `spellings` holds:
    /// counted as far as it spells a pair more often than the post's copies
    /// read before it.
    public func spelled(post: UInt64, _ spellings: Spellings) {
        guard !spellings.isEmpty else { return }
        state.withLock { s in
            var pairs: [(pair: Int, times: Int)] = []
            pairs.reserveCapacity(spellings.bytes.count + spellings.strings.count)
            for (did, handle) in spellings.bytes { pairs.append((s.pair(did: did, handle: handle), 1)) }
            for (did, handle) in spellings.strings { pairs.append((s.pair(did: did, handle: handle), 1)) }
            s.vote(post: post, pairs)
        }
    }

    /// Post `post`'s texts spell `did` as `handle` `count` times (an extract
    /// line of one post): counted as far as that is more than known before.
    public func spelled(post: UInt64, did: String, handle: String, count: Int) {
        guard let handle = Self.form(handle: handle), count > 0 else { return }
        let did = Self.key(did: did)
        state.withLock { s in s.vote(post: post, [(s.pair(did: did, handle: handle), count)]) }
    }

    /// Whether bytes are a key and a handle form as they are: not empty,
    /// visible ASCII (no white space to trim, nothing for NFC to change),
    /// no capital letter.
    @inline(__always)
    fileprivate static func isOwnForm(_ bytes: UnsafeRawBufferPointer) -> Bool {
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

    /// The handles named, (did, handle, time), in order of DID: for extract lines and the store.
    public var named: [(did: String, handle: String, time: Int64)] {
        state.withLock { s in s.named.map { ($0.key, $0.value.handle, $0.value.time) }.sorted { $0.did < $1.did } }
    }

    /// Every (DID, handle) pair spelled and how often, in all, in order of DID, then handle.
    public var spellingTotals: [(did: String, handle: String, count: Int)] {
        state.withLock { s in
            s.fold()
            return s.spelled.flatMap { did, m in m.map { (did, $0.key, $0.value) } }.sorted { ($0.did, $0.handle) < ($1.did, $1.handle) }
        }
    }

    /// Adds `count` spellings of no post known (a store's totals, a snapshot's `identity.spelled`).
    public func spelled(did: String, handle: String, count: Int) {
        guard let handle = Self.form(handle: handle), count > 0 else { return }
        let did = Self.key(did: did)
        state.withLock { s in
            let k = s.pair(did: did, handle: handle)
            s.pairs[k].loose += count
            s.count(k, count)
        }
    }

    /// The spellings as extract lines carry them: those of no post known
    /// (DID, handle, count), then each post's (its identity's text, DID,
    /// handle, count), each in order of its fields' bytes.
    public var postSpellings: (loose: [(did: String, handle: String, count: Int)],
                               posts: [(post: String, did: String, handle: String, count: Int)]) {
        let (loose, votes) = state.withLock { s in
            (s.pairs.filter { $0.loose > 0 }.map { ($0.did, $0.handle, $0.loose) },
             s.votes.keys.flatMap { post in
                 s.votes(of: post).map { (post, s.pairs[Int($0.pair)].did, s.pairs[Int($0.pair)].handle, Int($0.times)) }
             })
        }
        func before(_ a: String, _ b: String) -> Bool? { a == b ? nil : a.utf8.lexicographicallyPrecedes(b.utf8) }
        let posts = votes.map { (post: PostIdentity.text(of: $0.0), did: $0.1, handle: $0.2, count: $0.3) }
        return (loose.sorted { before($0.0, $1.0) ?? before($0.1, $1.1) ?? false }.map { (did: $0.0, handle: $0.1, count: $0.2) },
                posts.sorted { before($0.post, $1.post) ?? before($0.did, $1.did) ?? before($0.handle, $1.handle) ?? false })
    }

    /// What the store adds of a commit's spellings: those of the posts it
    /// stored anew (`posts`, their identities) and of no post, each
    /// (DID, handle) once with its count; `loose` says, per pair, how many
    /// of the latter were added before (updated).
    func spellings(ofPosts posts: [UInt64], looseSaved: inout [String: Int]) -> [(did: String, handle: String, count: Int)] {
        state.withLock { s in
            var counts: [Int: Int] = [:]
            for p in posts {
                for v in s.votes(of: p) { counts[Int(v.pair), default: 0] += Int(v.times) }
            }
            for (k, pair) in s.pairs.enumerated() where pair.loose > 0 {
                let key = pair.did + "\u{0}" + pair.handle
                let delta = pair.loose - looseSaved[key, default: 0]
                guard delta > 0 else { continue }
                looseSaved[key] = pair.loose
                counts[k, default: 0] += delta
            }
            return counts.sorted { $0.key < $1.key }.map { (s.pairs[$0.key].did, s.pairs[$0.key].handle, $0.value) }
        }
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
