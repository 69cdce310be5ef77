/// The key of a link (SPEC §13 **url**), its host (**host**), and whether it
/// points at the tweet's own quoted tweet.
///
///     https://www.Example.com:443/a/?utm_source=x&id=3#top  →  www.example.com/a?id=3
///
/// The five steps of §13, on the string's UTF-8 bytes (no Foundation `URL`:
/// it rejects or rewrites what the key keeps as written):
///
/// 1. A scheme other than `http`/`https` (any case): not a link (nil). No
///    scheme: the string is read as `http://S`.
/// 2. The authority is what follows `://` up to the first `/`, `?` or `#`;
///    userinfo (up to the authority's last `@`) is dropped; the host is
///    normalised as §5 (NFC, full lowercasing) and loses one trailing `.`;
///    the port is kept as `:PORT` unless empty, `80` with http or `443`
///    with https.
/// 3. The fragment (from the first `#`) is dropped; the path is kept as
///    written; `/` or empty becomes empty, any other loses one trailing `/`.
/// 4. Query items (split at `&`) that are empty, or whose name (before the
///    first `=`), lowercased, begins with `utm_` or is one of `fbclid`,
///    `gclid`, `dclid`, `msclkid`, `igshid`, `mc_cid`, `mc_eid`, are dropped;
///    the rest keep their order.
/// 5. Key = host, port, path, then `?` and the remaining items when any.
///
/// Where the SPEC is silent, these choices hold:
///
/// - **Scheme.** A scheme is RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-"
///   / "." )` followed by `:`, at the very start, *unless* that `:` is
///   followed by 1 to 5 digits and then the end, `/`, `?` or `#`: then it
///   is a host and port (`example.com:8080/x`, `localhost:3000`), with no
///   scheme. So `mailto:a@b.org`, `ftp://h/`, `tel:+1555`, `javascript:…`
///   are not links, and `example.com:/x` (a `:` with no digits) is read as
///   a scheme `example.com`, not a link either.
/// - **`http:` without `//`** (`http:example.com`, `https:/x`): no
///   authority, so no host: nil. A string starting `//` (no scheme) reads
///   as `http:////…`, whose authority is empty: nil.
/// - **Empty host** after step 2 (`http://`, `http://user@/x`, `http://./`,
///   `http://:80/`): not a link, nil.
/// - **Control characters and white space** anywhere (U+0000–U+001F,
///   U+007F, and Unicode White_Space: U+0020, U+0085, U+00A0, U+1680,
///   U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000): not a link,
///   nil. Nothing is trimmed: entity URLs never hold them, and a string
///   that does is not one link.
/// - **Port**: compared as written (`:080` is kept, not read as 80); the
///   host and port split at the authority's last `:` (after the `]` of a
///   bracketed IPv6 host: `[::1]:8080`).
/// - **Query names** are compared after ASCII lowercasing (a name with
///   other letters goes through full lowercasing); percent escapes are not
///   decoded (`utm%5Fsource` is kept).
///
/// - Complexity: O(n) in the string's UTF-8 length, one pass to check and
///   one to copy; no allocation but the key's own (and the host's §5
///   normalisation when it is not ASCII).
public enum LinkKey {
    /// The key of the link string `s` (SPEC §13 steps 1–5), or nil when `s`
    /// is not a link: another scheme, no host, control characters or white
    /// space (see the type's notes).
    public static func key(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { key(bytes: $0) }
    }

    /// The host of a key: without its port and without one leading `www.`
    /// (`www.example.com:8080/a` → `example.com`; `[::1]:8080` → `[::1]`).
    /// A host that is `www.` and nothing else is kept as it is.
    public static func host(ofKey key: String) -> String {
        var key = key
        return key.withUTF8 { b in String(decoding: UnsafeBufferPointer(rebasing: b[hostRange(ofKey: b)]), as: UTF8.self) }
    }

    /// Where `host(ofKey:)` is in the key's UTF-8 bytes `b`: every byte
    /// it looks for is ASCII, so the range falls on characters' bounds.
    static func hostRange(ofKey b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var end = 0
        while end < b.count, b[end] != UInt8(ascii: "/"), b[end] != UInt8(ascii: "?") { end += 1 }
        // The port: after the last `:` that follows any `]`.
        var k = end
        while k > 0 {
            k -= 1
            if b[k] == UInt8(ascii: "]") { break }
            if b[k] == UInt8(ascii: ":") { end = k; break }
        }
        var start = 0
        if end > 4, b[0] == UInt8(ascii: "w"), b[1] == UInt8(ascii: "w"), b[2] == UInt8(ascii: "w"), b[3] == UInt8(ascii: ".") {
            start = 4
        }
        return start..<end
    }

    /// A link string whose key is `key` again (`key(link(ofKey: k)) == k`):
    /// what a snapshot (`smashtag export`) writes, so an import counts the
    /// same links. `http://` unless the key keeps port 80 (then `https://`),
    /// one `.` more after a host that ends in one, and one `/` more after a
    /// path that ends in one: the key's steps take those away again.
    public static func link(ofKey key: String) -> String {
        let u = key.utf8
        let authorityEnd = u.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? u.endIndex
        var host = Substring(u[u.startIndex..<authorityEnd])
        var port: Substring?
        if let colon = host.utf8.lastIndex(of: UInt8(ascii: ":")), !host.utf8[colon...].contains(UInt8(ascii: "]")) {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        let rest = Substring(u[authorityEnd...])
        let queryStart = rest.utf8.firstIndex(of: UInt8(ascii: "?")) ?? rest.endIndex
        var link = port == "80" ? "https://" : "http://"
        link += host
        if host.hasSuffix(".") { link += "." }
        if let port { link += ":" + port }
        link += rest[..<queryStart]
        if rest[..<queryStart].hasSuffix("/") { link += "/" }
        link += rest[queryStart...]
        return link
    }

    /// Whether the link key `key` points at the tweet with id `quotedID` (a
    /// tweet's own quoted tweet, never counted as a link): host `twitter.com`
    /// or `x.com`, bare or under `www.` or `mobile.` (no port), and path
    /// `/NAME/status/ID…` (NAME a non-empty segment) or `/i/web/status/ID…`.
    ///
    /// `ID…` is the id's decimal digits as a whole segment: the digits equal
    /// `quotedID` written without leading zeros, then the end of the key, a
    /// `/` (`/photo/1`, `/analytics`) or the query's `?`. So `…/status/123`
    /// is not the tweet 12, nor `…/status/0123` the tweet 123. `status` is
    /// matched as written (lowercase), as Twitter writes it.
    public static func isQuotePermalink(_ key: String, quotedID: UInt64) -> Bool {
        var key = key
        return key.withUTF8 { isQuotePermalink(bytes: $0, quotedID: quotedID) }
    }

    // MARK: The key

    @inline(__always) private static func byte(_ c: Unicode.Scalar) -> UInt8 { UInt8(c.value) }

    static func key(bytes b: UnsafeBufferPointer<UInt8>) -> String? {
        let n = b.count
        guard n > 0, !holdsControlOrSpace(b) else { return nil }

        // Step 1: the scheme.
        var isHTTPS = false
        var i = 0  // where the authority starts
        if let colon = schemeColon(b) {
            let len = colon
            let isHTTP = len == 4 && lowerEquals(b, 0, "http")
            isHTTPS = len == 5 && lowerEquals(b, 0, "https")
            guard isHTTP || isHTTPS else { return nil }
            guard colon + 2 < n, b[colon + 1] == byte("/"), b[colon + 2] == byte("/") else { return nil }
            i = colon + 3
        }

        // Step 2: the authority, up to the first `/`, `?` or `#`.
        var authEnd = i
        while authEnd < n {
            let c = b[authEnd]
            if c == byte("/") || c == byte("?") || c == byte("#") { break }
            authEnd += 1
        }
        var hostStart = i
        var k = authEnd
        while k > i {  // userinfo: up to the last `@`
            k -= 1
            if b[k] == byte("@") { hostStart = k + 1; break }
        }
        // The port: after the last `:` that follows any `]`.
        var hostEnd = authEnd
        var portStart = -1
        k = authEnd
        while k > hostStart {
            k -= 1
            let c = b[k]
            if c == byte("]") { break }
            if c == byte(":") { hostEnd = k; portStart = k + 1; break }
        }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        appendHost(b, hostStart, hostEnd, to: &out)
        if out.last == byte(".") { out.removeLast() }
        guard !out.isEmpty else { return nil }
        if portStart >= 0 {
            let port = UnsafeBufferPointer(rebasing: b[portStart..<authEnd])
            let isDefault = port.isEmpty
                || (!isHTTPS && port.count == 2 && port[0] == byte("8") && port[1] == byte("0"))
                || (isHTTPS && port.count == 3 && port[0] == byte("4") && port[1] == byte("4") && port[2] == byte("3"))
            if !isDefault {
                out.append(byte(":"))
                out.append(contentsOf: port)
            }
        }

        // Step 3: fragment off; the path.
        var end = authEnd
        while end < n && b[end] != byte("#") { end += 1 }
        var pathEnd = authEnd
        while pathEnd < end && b[pathEnd] != byte("?") { pathEnd += 1 }
        var pathLast = pathEnd
        if pathLast > authEnd && b[pathLast - 1] == byte("/") { pathLast -= 1 }  // `/` → empty too
        if pathLast > authEnd { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[authEnd..<pathLast])) }

        // Step 4: the query items.
        guard pathEnd < end else { return String(decoding: out, as: UTF8.self) }
        var itemStart = pathEnd + 1
        var first = true
        while itemStart <= end {
            var itemEnd = itemStart
            while itemEnd < end && b[itemEnd] != byte("&") { itemEnd += 1 }
            if itemEnd > itemStart && !isTrackingItem(b, itemStart, itemEnd) {
                out.append(first ? byte("?") : byte("&"))
                first = false
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[itemStart..<itemEnd]))
            }
            itemStart = itemEnd + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where the scheme's `:` stands, if the string starts with a scheme
    /// (see the type's notes: a `:` followed by 1–5 digits and then the end,
    /// `/`, `?` or `#` is a port, not a scheme's).
    private static func schemeColon(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        guard n > 0, isASCIILetter(b[0]) else { return nil }
        var i = 1
        while i < n {
            let c = b[i]
            if isASCIILetter(c) || (c &- byte("0")) < 10 || c == byte("+") || c == byte("-") || c == byte(".") {
                i += 1
                continue
            }
            guard c == byte(":") else { return nil }
            var d = i + 1
            while d < n && (b[d] &- byte("0")) < 10 { d += 1 }
            let digits = d - (i + 1)
            if digits >= 1 && digits <= 5 && (d == n || b[d] == byte("/") || b[d] == byte("?") || b[d] == byte("#")) {
                return nil  // host:port
            }
            return i
        }
        return nil
    }

    /// The host's bytes, normalised as SPEC §5: ASCII lowercased in place,
    /// anything else through `MentionKey.normalize`.
    private static func appendHost(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, to out: inout [UInt8]) {
        guard start < end else { return }
        let host = UnsafeBufferPointer(rebasing: b[start..<end])
        if MentionKey.isASCII(host) {
            let from = out.count
            out.append(contentsOf: host)
            out.withUnsafeMutableBufferPointer { o in
                for i in from..<o.count { o[i] = MentionKey.lowercasedASCII(o[i]) }
            }
        } else {
            out.append(contentsOf: MentionKey.normalize(String(decoding: host, as: UTF8.self)).utf8)
        }
    }

    /// Whether the query item `b[start..<end]` is a tracking parameter.
    private static func isTrackingItem(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var nameEnd = start
        var ascii = true
        while nameEnd < end && b[nameEnd] != byte("=") {
            if b[nameEnd] >= 0x80 { ascii = false }
            nameEnd += 1
        }
        guard ascii else { return isTrackingName(fullyLowercased(b, start, nameEnd)) }
        let count = nameEnd - start
        if count >= 4 && lowerEquals(b, start, "utm_") { return true }
        for name in trackingNames where name.utf8CodeUnitCount == count && lowerEquals(b, start, name) { return true }
        return false
    }

    private static let trackingNames: [StaticString] = ["fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid", "mc_eid"]

    private static func isTrackingName(_ name: String) -> Bool {
        name.hasPrefix("utm_") || trackingNames.contains { $0.description == name }
    }

    private static func fullyLowercased(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self).lowercased()
    }

    // MARK: Quote permalinks

    private static let quoteHosts: [StaticString] = [
        "twitter.com", "www.twitter.com", "mobile.twitter.com", "x.com", "www.x.com", "mobile.x.com",
    ]

    static func isQuotePermalink(bytes b: UnsafeBufferPointer<UInt8>, quotedID: UInt64) -> Bool {
        let n = b.count
        var authEnd = 0
        while authEnd < n && b[authEnd] != byte("/") && b[authEnd] != byte("?") { authEnd += 1 }
        guard authEnd < n, b[authEnd] == byte("/"),
              quoteHosts.contains(where: { $0.utf8CodeUnitCount == authEnd && lowerEquals(b, 0, $0) }) else { return false }
        // The first segment, and where the `status/` segment must start.
        var p = authEnd + 1
        var segEnd = p
        while segEnd < n && b[segEnd] != byte("/") && b[segEnd] != byte("?") { segEnd += 1 }
        guard segEnd > p, segEnd < n, b[segEnd] == byte("/") else { return false }
        if segEnd - p == 1 && b[p] == byte("i") && startsWith(b, segEnd + 1, "web/status/") {
            p = segEnd + 1 + 11
        } else if startsWith(b, segEnd + 1, "status/") {
            p = segEnd + 1 + 7
        } else {
            return false
        }
        var idEnd = p
        while idEnd < n && (b[idEnd] &- byte("0")) < 10 { idEnd += 1 }
        guard idEnd > p, idEnd == n || b[idEnd] == byte("/") || b[idEnd] == byte("?") else { return false }
        guard b[p] != byte("0") || idEnd - p == 1 else { return false }  // written without leading zeros
        guard idEnd - p <= 20 else { return false }
        var id: UInt64 = 0
        for k in p..<idEnd {
            let (m, o1) = id.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(b[k] &- byte("0")))
            if o1 || o2 { return false }
            id = a
        }
        return id == quotedID
    }

    // MARK: Bytes

    @inline(__always)
    private static func isASCIILetter(_ c: UInt8) -> Bool { ((c | 0x20) &- byte("a")) < 26 }

    /// Whether `b` from `at` equals `lower` (ASCII, lowercase) once ASCII-lowercased, over `lower`'s length.
    private static func lowerEquals(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ lower: StaticString) -> Bool {
        let len = lower.utf8CodeUnitCount
        guard at + len <= b.count else { return false }
        let p = lower.utf8Start
        for k in 0..<len where MentionKey.lowercasedASCII(b[at + k]) != p[k] { return false }
        return true
    }

    /// Whether `b` from `at` starts with `s`, byte for byte.
    private static func startsWith(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ s: StaticString) -> Bool {
        let len = s.utf8CodeUnitCount
        guard at + len <= b.count else { return false }
        let p = s.utf8Start
        for k in 0..<len where b[at + k] != p[k] { return false }
        return true
    }

    /// Whether the bytes hold a control character (U+0000–U+001F, U+007F)
    /// or Unicode white space (U+0020, U+0085, U+00A0, U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
    private static func holdsControlOrSpace(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            if c <= 0x20 || c == 0x7F { return true }
            if c == 0xC2, i + 1 < n, b[i + 1] == 0x85 || b[i + 1] == 0xA0 { return true }
            if c == 0xE1, i + 2 < n, b[i + 1] == 0x9A, b[i + 2] == 0x80 { return true }
            if c == 0xE2, i + 2 < n {
                let c1 = b[i + 1], c2 = b[i + 2]
                if c1 == 0x80 && (c2 <= 0x8A || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF) { return true }
                if c1 == 0x81 && c2 == 0x9F { return true }
            }
            if c == 0xE3, i + 2 < n, b[i + 1] == 0x80, b[i + 2] == 0x80 { return true }
            i += 1
        }
        return false
    }
}
