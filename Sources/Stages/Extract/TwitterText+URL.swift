/// URL recognition, only as far as hashtags need it: twitter-text drops a
/// hashtag that stands inside a URL (`http://twitter.com/#tag`,
/// `twitter.com/#tag`). The rules are twitter-text's URL rules:
///
///     [before] (https?://)? domain (:port)? (/path)? (?query)?
///
/// - before: not a letter or digit, `@`, `$` or `#` (or the start);
/// - domain: labels of domain characters (`-` and `_` inside), the last
///   label before a known top-level domain (`TLDs.swift`) or `xn--…`;
/// - path: URL characters, ending on a letter, digit or one of `+-=_#/`, or
///   on a balanced `(…)`; query: ending on a letter, digit or `-_&=#/`;
/// - without `http://`, a URL right after `-`, `_`, `.` or `/` is no URL,
///   and only the ASCII parts of its domain (`[-a-z0-9]` labels) count,
///   each as a URL of its own (the last one with the path);
/// - no label longer than 63 characters; a t.co slug of at most 40;
/// - `https://t.co/abc` ends after its slug.
///
/// A match, kept or not, is passed over whole before the next one is looked
/// for, as a regular expression scan would.
extension TwitterText {
    /// The URLs of `s`, as ranges of scalars, in order.
    ///
    /// - Complexity: O(n): where a domain starting at a position ends is
    ///   worked out once per position (`DomainChains`), however many
    ///   candidate starts share its labels.
    static func urlRanges(in s: [Unicode.Scalar]) -> [Range<Int>] {
        guard s.contains(".") else { return [] }
        let n = s.count
        let chains = DomainChains(s)
        var urls: [Range<Int>] = []
        var pos = 0
        search: while pos < n {
            for start in pos..<n {
                // The character before the URL, else the start of the text (in this order).
                if mayPrecedeURL(s[start]), start + 1 < n, let m = matchURL(s, at: start + 1, chains) {
                    pos = m.end
                    urls.append(contentsOf: accepted(m, before: s[start], s, chains))
                    continue search
                }
                if start == 0, let m = matchURL(s, at: 0, chains) {
                    pos = m.end
                    urls.append(contentsOf: accepted(m, before: nil, s, chains))
                    continue search
                }
            }
            break
        }
        return urls
    }

    /// One regex-level URL match.
    private struct URLMatch {
        var begin: Int
        var end: Int
        var hasProtocol: Bool
        var domain: Range<Int>
        var hasPath: Bool
    }

    /// The URLs a match stands for once the rules after the match are applied.
    private static func accepted(_ m: URLMatch, before: Unicode.Scalar?, _ s: [Unicode.Scalar],
                                 _ chains: DomainChains) -> [Range<Int>] {
        // A domain label longer than 63 characters makes no host name.
        if string(s[m.domain]).split(separator: ".").contains(where: { $0.unicodeScalars.count > 63 }) { return [] }
        if m.hasProtocol {
            guard let end = tcoEnd(s, m) else { return [] }
            return [m.begin..<end]
        }
        if let b = before, b == "-" || b == "_" || b == "." || b == "/" { return [] }
        // Each ASCII domain is a URL; the last one carries the path.
        var ascii = chains.asciiDomains(in: m.domain)
        if m.hasPath, let last = ascii.popLast() { ascii.append(last.lowerBound..<m.end) }
        return ascii
    }

    /// Where `https://t.co/slug` ends: after the slug (and a query), not at
    /// the match's end; nil for a slug longer than 40 characters (no t.co link).
    private static func tcoEnd(_ s: [Unicode.Scalar], _ m: URLMatch) -> Int? {
        let host = string(s[m.domain]).lowercased()
        guard host == "t.co", m.domain.upperBound < m.end, s[m.domain.upperBound] == "/" else { return m.end }
        var i = m.domain.upperBound + 1
        while i < m.end && isASCIIAlphanumeric(s[i]) { i += 1 }
        guard i > m.domain.upperBound + 1 else { return m.end }
        if i - (m.domain.upperBound + 1) > 40 { return nil }
        if i < m.end && s[i] == "?", let q = queryEnd(s, from: i + 1, limit: m.end) { return q }
        return i
    }

    // MARK: The match

    private static func matchURL(_ s: [Unicode.Scalar], at begin: Int, _ chains: DomainChains) -> URLMatch? {
        let n = s.count
        var found: (Range<Int>, Bool)?
        if let p = protocolLength(s, at: begin), let d = chains.domain(at: begin + p) {
            found = (d, true)
        } else if let d = chains.domain(at: begin) {
            found = (d, false)
        }
        guard let (domain, hasProtocol) = found else { return nil }
        var e = domain.upperBound
        if e + 1 < n && s[e] == ":" && isDigit(s[e + 1]) {
            e += 1
            while e < n && isDigit(s[e]) { e += 1 }
        }
        var hasPath = false
        if e < n && s[e] == "/" {
            hasPath = true
            e = pathEnd(s, from: e + 1)
        }
        if e < n && s[e] == "?", let q = queryEnd(s, from: e + 1, limit: n) { e = q }
        return URLMatch(begin: begin, end: e, hasProtocol: hasProtocol, domain: domain, hasPath: hasPath)
    }

    /// `http://` or `https://` (any case) at `i`: its length.
    private static func protocolLength(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        func lower(_ k: Int) -> Unicode.Scalar? {
            guard k < s.count, s[k].isASCII else { return nil }
            return Unicode.Scalar(UInt8(s[k].value) | (isASCIILetter(s[k]) ? 0x20 : 0))
        }
        guard lower(i) == "h", lower(i + 1) == "t", lower(i + 2) == "t", lower(i + 3) == "p" else { return nil }
        var k = i + 4
        if lower(k) == "s" { k += 1 }
        guard k + 2 < s.count, s[k] == ":", s[k + 1] == "/", s[k + 2] == "/" else { return nil }
        return k + 3 - i
    }

    /// The end of a top-level domain starting at `t` (before `limit`): a
    /// listed one not followed by a letter, digit, `@`, `+` or `-`; else `xn--…`.
    fileprivate static func topLevelDomainEnd(_ s: [Unicode.Scalar], at t: Int, limit: Int) -> Int? {
        guard t < limit else { return nil }
        func endsWell(_ e: Int) -> Bool {
            guard e < limit else { return true }
            let c = s[e]
            return !(isASCIIAlphanumeric(c) || c == "@" || c == "+" || c == "-")
        }
        if s[t].isASCII {
            var e = t
            while e < limit && (isASCIIAlphanumeric(s[e]) || s[e] == "-") { e += 1 }
            if e > t && endsWell(e) && topLevelDomains.contains(string(s[t..<e]).lowercased()) { return e }
            // Punycode: `xn--` and more of [-0-9a-z].
            if e - t > 4 && string(s[t..<(t + 4)]).lowercased() == "xn--" { return e }
            return nil
        }
        // Internationalised top-level domains (`рф`, `中国`, `みんな`): the longest listed.
        var e = t
        var best: Int?
        while e < limit && e - t < 24 && !s[e].isASCII && isDomainCharacter(s[e]) {
            e += 1
            if endsWell(e) && topLevelDomains.contains(string(s[t..<e]).lowercased()) { best = e }
        }
        return best
    }

    /// The end of a path starting at `i` (after its `/`): path characters and
    /// balanced parentheses, up to the last one a path may end with.
    private static func pathEnd(_ s: [Unicode.Scalar], from i: Int) -> Int {
        var p = i, lastGood = i
        while p < s.count {
            if isPathCharacter(s[p]) {
                if isPathEnd(s[p]) { lastGood = p + 1 }
                p += 1
            } else if s[p] == "(", let e = balancedParentheses(s, at: p) {
                p = e
                lastGood = e
            } else {
                break
            }
        }
        return lastGood
    }

    /// `(chars)` or `(chars(chars)chars)` at `i`: where it ends.
    private static func balancedParentheses(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        let n = s.count
        var p = i + 1
        while p < n && isPathCharacter(s[p]) { p += 1 }
        if p > i + 1 && p < n && s[p] == ")" { return p + 1 }
        // One nested level.
        guard p < n && s[p] == "(" else { return nil }
        var q = p + 1
        while q < n && isPathCharacter(s[q]) { q += 1 }
        guard q > p + 1, q < n, s[q] == ")" else { return nil }
        q += 1
        while q < n && isPathCharacter(s[q]) { q += 1 }
        guard q < n, s[q] == ")" else { return nil }
        return q + 1
    }

    /// The end of a query starting at `i` (after its `?`): query characters
    /// up to the last one a query may end with; nil when there is none.
    private static func queryEnd(_ s: [Unicode.Scalar], from i: Int, limit: Int) -> Int? {
        var p = i
        var last: Int?
        while p < limit && isQueryCharacter(s[p]) {
            if isQueryEnd(s[p]) { last = p + 1 }
            p += 1
        }
        return last
    }

    @inline(__always)
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value &- 0x30 < 10 }
}

/// The label chains of one text, worked out once per position.
///
/// A domain is label units (`label.`) then a top-level domain; the regex
/// takes as many units as it can and gives them back one at a time until the
/// label after the last one starts with a top-level domain. Whether the unit
/// at a position can be that last one does not depend on where the domain
/// began, so "where does the domain that starts here end" is the answer of
/// the next unit, else this unit's own: memoised, every start costs O(1)
/// amortised, and a text of ten thousand dotted words stays linear.
private final class DomainChains {
    private let s: [Unicode.Scalar]
    private let n: Int
    /// End of the run of label characters (domain characters, `-`, `_`) from i.
    private var runEnd: [Int]
    /// The first `_` at or after i (n if none).
    private var nextUnderscore: [Int]
    /// End of the run of `[-a-z0-9]` and accented Latin letters from i.
    private var asciiRunEnd: [Int]
    private static let unknown = -2, none = -1
    private var domainEnd: [Int]
    private var tldEnd: [Int]
    private var asciiEnd: [Int: Int] = [:]
    private var asciiTLDEnd: [Int: Int] = [:]

    init(_ s: [Unicode.Scalar]) {
        self.s = s
        n = s.count
        runEnd = [Int](repeating: n, count: n + 1)
        nextUnderscore = [Int](repeating: n, count: n + 1)
        asciiRunEnd = [Int](repeating: n, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let c = s[i]
            runEnd[i] = (TwitterText.isDomainCharacter(c) || c == "-" || c == "_") ? runEnd[i + 1] : i
            nextUnderscore[i] = c == "_" ? i : nextUnderscore[i + 1]
            asciiRunEnd[i] = TwitterText.isASCIIDomainCharacter(c) ? asciiRunEnd[i + 1] : i
        }
        domainEnd = [Int](repeating: DomainChains.unknown, count: n + 1)
        tldEnd = [Int](repeating: DomainChains.unknown, count: n + 1)
    }

    /// The domain (`sub.name.tld`) starting at `i`, if any.
    func domain(at i: Int) -> Range<Int>? {
        let e = end(at: i)
        return e >= 0 ? i..<e : nil
    }

    /// The dot ending the label unit at `p`: a label of domain characters
    /// (`-` and `_` inside, not at either end) followed by `.`.
    private func unitDot(_ p: Int) -> Int? {
        guard p < n, TwitterText.isDomainCharacter(s[p]) else { return nil }
        let e = runEnd[p]
        guard e < n, s[e] == ".", TwitterText.isDomainCharacter(s[e - 1]) else { return nil }
        return e
    }

    private func end(at p: Int) -> Int {
        // Follow the chain to where the answer is known, then fill it in backwards.
        var chain: [(start: Int, dot: Int)] = []
        var q = p, known = DomainChains.none
        while q <= n {
            if domainEnd[q] != DomainChains.unknown { known = domainEnd[q]; break }
            guard let dot = unitDot(q) else { domainEnd[q] = DomainChains.none; break }
            chain.append((q, dot))
            q = dot + 1
        }
        for (start, dot) in chain.reversed() {
            if known < 0 && nextUnderscore[start] >= dot {  // a name label holds no `_`
                known = tld(at: dot + 1)
            }
            domainEnd[start] = known
        }
        return known
    }

    private func tld(at t: Int) -> Int {
        if tldEnd[t] == DomainChains.unknown {
            tldEnd[t] = TwitterText.topLevelDomainEnd(s, at: t, limit: n) ?? DomainChains.none
        }
        return tldEnd[t]
    }

    /// The ASCII domains inside a domain (`例えexample.com` → `example.com`):
    /// as a regular expression scan would find them, leftmost first, each
    /// `[-a-z0-9]` labels and a top-level domain ending within the domain.
    func asciiDomains(in domain: Range<Int>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var q = domain.lowerBound
        while q < domain.upperBound {
            let e = asciiEnd(at: q, limit: domain.upperBound)
            if e >= 0 {
                found.append(q..<e)
                q = e
            } else {
                q += 1
            }
        }
        return found
    }

    private func asciiEnd(at p: Int, limit: Int) -> Int {
        var chain: [(start: Int, dot: Int)] = []
        var q = p, known = DomainChains.none
        while q < limit {
            if let k = asciiEnd[q] { known = k; break }
            let e = min(asciiRunEnd[q], limit)
            guard e > q, e < limit, s[e] == "." else { asciiEnd[q] = DomainChains.none; break }
            chain.append((q, e))
            q = e + 1
        }
        for (start, dot) in chain.reversed() {
            if known < 0 {
                if let k = asciiTLDEnd[dot + 1] {
                    known = k
                } else {
                    known = TwitterText.topLevelDomainEnd(s, at: dot + 1, limit: limit) ?? DomainChains.none
                    asciiTLDEnd[dot + 1] = known
                }
            }
            asciiEnd[start] = known
        }
        return known
    }
}

extension TwitterText {
    /// The URLs twitter-text extracts from `text` (`extractURLs`), as
    /// written, in order: with or without `http(s)://`, as `urlRanges(in:)`
    /// finds them, less those whose host no IDNA encoder accepts: a label
    /// that starts with `xn--` (an A-label) must be ASCII
    /// (`http://xn--はじめよう.com/` is no URL). All of the conformance
    /// suite's `urls`, `urls_with_indices`, `urls_with_directional_markers`
    /// and `tco_urls_with_params` tests pass.
    public static func urls(in text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: ".")) else { return [] }
        let s = Array(text.unicodeScalars)
        return urlRanges(in: s).compactMap { r in
            let url = string(s[r])
            return hasNonASCIIALabel(url) ? nil : url
        }
    }

    /// Whether the host of `url` holds a label `xn--…` with a non-ASCII character.
    private static func hasNonASCIIALabel(_ url: String) -> Bool {
        var host = Substring(url)
        if let sep = host.range(of: "://") { host = host[sep.upperBound...] }
        if let end = host.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == "?" || $0 == "#" }) { host = host[..<end] }
        return host.split(separator: ".").contains { label in
            label.utf8.count > 4 && label.utf8.prefix(4).map(MentionKey.lowercasedASCII).elementsEqual("xn--".utf8)
                && label.utf8.contains { $0 >= 0x80 }
        }
    }
}
