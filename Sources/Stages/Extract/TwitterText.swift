/// Hashtags and @mentions found in a tweet's text by Twitter's own rules
/// (twitter-text's `extractHashtags`, `extractMentionedScreennames` and
/// `extractMentionsOrListsWithIndices`), written from the rules and checked
/// against twitter-text's conformance suite (`corpus/twitter-text/extract.json`).
///
///     #tag  ＃tag     a run of letters, marks, digits and a few joiners, at
///                     least one letter; not glued to a word (`a#b`), nor
///                     after `&`, nor followed by `#` or `://`, nor inside a URL
///     @name ＠name    1–20 of [A-Za-z0-9_] (the first 20 when longer); not
///                     glued to a word or after `! # $ % & * @`, but after
///                     `RT`/`RT:`; not followed by `@`, an accented Latin
///                     letter or `://` (`@user@example.com` is no mention)
///     @name/list      a list, not a user mention
///
/// Positions are offsets in Unicode scalars of the text as given (no HTML
/// unescaping here: `TextExtractor` does that for tweets).
///
/// - Complexity: O(n) time and memory in the text's length, URLs included.
public enum TwitterText {
    /// A hashtag or screen name and where it stands.
    public struct Entity: Equatable, Sendable, CustomStringConvertible {
        /// The tag or screen name, without its sign.
        public var text: String
        /// `/list-name` for a list reference, else empty.
        public var listSlug: String
        /// From the sign to the end of the name (or list), in Unicode scalars.
        public var range: Range<Int>

        public init(text: String, listSlug: String = "", range: Range<Int>) {
            self.text = text
            self.listSlug = listSlug
            self.range = range
        }

        public var description: String { "\(text)\(listSlug)@\(range.lowerBound)..<\(range.upperBound)" }
    }

    /// The hashtags of `text`, in order (repeats included).
    public static func hashtags(in text: String) -> [Entity] {
        let s = Array(text.unicodeScalars)
        return hashtagMatches(in: s).map { Entity(text: string(s[$0.name]), range: $0.range) }
    }

    /// The user mentions of `text`, in order; list references are left out.
    public static func mentions(in text: String) -> [Entity] {
        mentionsOrLists(in: text).filter { $0.listSlug.isEmpty }
    }

    /// User mentions and list references (`@user/list`) of `text`, in order.
    public static func mentionsOrLists(in text: String) -> [Entity] {
        let s = Array(text.unicodeScalars)
        return mentionMatches(in: s).map {
            Entity(text: string(s[$0.name]), listSlug: string(s[$0.name.upperBound..<$0.range.upperBound]), range: $0.range)
        }
    }

    /// Where an entity stands: `range` from its sign to its end, `name` the
    /// tag or screen name; a list's slug is what follows `name` in `range`.
    struct Match {
        var range: Range<Int>
        var name: Range<Int>
        var isList: Bool { name.upperBound < range.upperBound }
    }

    // MARK: Hashtags

    static func hashtagMatches(in s: [Unicode.Scalar]) -> [Match] {
        var tags: [Match] = []
        let n = s.count
        var consumed = 0  // where the previous match ended (a tag may end in U+FE0E/F)
        for i in 0..<n where isHashSign(s[i]) {
            // Not glued to a word, nor after `&` (an HTML entity such as `&#39;`);
            // a variation selector ends an emoji, so it may stand before.
            if i > 0 {
                guard i - 1 >= consumed else { continue }
                let p = s[i - 1]
                let ok = p == "\u{FE0E}" || p == "\u{FE0F}" || (!isHashtagCharacter(p) && p != "&")
                if !ok { continue }
            }
            // `#️⃣` is a keycap emoji, not a tag.
            if i + 1 < n && (s[i + 1] == "\u{FE0F}" || s[i + 1] == "\u{20E3}") { continue }
            var j = i + 1, letter = false
            while j < n && isHashtagCharacter(s[j]) {
                if !letter && isHashtagLetter(s[j]) { letter = true }
                j += 1
            }
            guard letter else { continue }  // `#16`, `#_`, `#〃`
            consumed = j
            // `#a#b` and `#http://…` are not tags.
            if j < n && (isHashSign(s[j]) || startsWithSchemeSeparator(s, at: j)) { continue }
            tags.append(Match(range: i..<j, name: (i + 1)..<j))
        }
        guard mayBeInsideURL(tags, s) else { return tags }
        return removingOverlaps(tags, urls: urlRanges(in: s))
    }

    /// A URL holds a `#` only in its path or query, after a `/` or `?`, and
    /// holds no white space: unless one of those stands between the last
    /// white space and a tag, no URL covers the tag. (One pass for all tags.)
    private static func mayBeInsideURL(_ tags: [Match], _ s: [Unicode.Scalar]) -> Bool {
        var i = 0, slash = false
        for tag in tags {
            while i < tag.range.lowerBound {
                if isURLSpace(s[i]) { slash = false } else if s[i] == "/" || s[i] == "?" { slash = true }
                i += 1
            }
            if slash { return true }
        }
        return false
    }

    /// Drops the hashtags that stand inside a URL (`twitter.com/#tag`).
    ///
    /// As twitter-text does it: hashtags and URLs in order of where they
    /// start, each one that starts inside the last one kept is dropped.
    private static func removingOverlaps(_ tags: [Match], urls: [Range<Int>]) -> [Match] {
        guard !urls.isEmpty else { return tags }
        var kept: [Match] = []
        var lastEnd = Int.min
        var t = 0, u = 0
        while t < tags.count || u < urls.count {
            // On equal starts the hashtag goes first (it was listed first).
            if t < tags.count && (u == urls.count || tags[t].range.lowerBound <= urls[u].lowerBound) {
                let tag = tags[t]
                t += 1
                if lastEnd > tag.range.lowerBound { continue }
                kept.append(tag)
                lastEnd = tag.range.upperBound
            } else {
                let url = urls[u]
                u += 1
                if lastEnd > url.lowerBound { continue }
                lastEnd = url.upperBound
            }
        }
        return kept
    }

    // MARK: Mentions

    /// Mentions and lists, with the regex semantics of the original: a match
    /// consumes the character before its `@` (or the `RT:` before it), so
    /// the next match starts after the end of the previous one, kept or not.
    static func mentionMatches(in s: [Unicode.Scalar]) -> [Match] {
        var found: [Match] = []
        let n = s.count
        var consumed = 0  // where the previous match ended
        for i in 0..<n where isAtSign(s[i]) {
            guard mayStartMention(s, at: i, after: consumed) else { continue }
            var j = i + 1
            while j < n && j - i <= 20 && isScreenNameCharacter(s[j]) { j += 1 }
            guard j > i + 1 else { continue }
            let nameEnd = j
            var end = nameEnd
            // `/list-name`: a letter, then up to 24 of [A-Za-z0-9_-].
            if nameEnd + 1 < n && s[nameEnd] == "/" && isASCIILetter(s[nameEnd + 1]) {
                end = nameEnd + 2
                while end < n && end - (nameEnd + 1) < 25
                        && (isScreenNameCharacter(s[end]) || s[end] == "-") { end += 1 }
            }
            consumed = end
            if end < n && (isAtSign(s[end]) || isLatinAccent(s[end]) || startsWithSchemeSeparator(s, at: end)) {
                continue
            }
            found.append(Match(range: i..<end, name: (i + 1)..<nameEnd))
        }
        return found
    }

    /// Whether the `@` at `i` may start a mention: at the start of the text,
    /// after a character that may precede one, or after `RT`, `rt`, `Rt`,
    /// `rT` (with an optional `:`) that itself stands at the start or after
    /// a character other than a letter, digit or `_+~.-`. The characters
    /// that decide must not belong to the previous match (before `consumed`).
    private static func mayStartMention(_ s: [Unicode.Scalar], at i: Int, after consumed: Int) -> Bool {
        if i == 0 { return true }
        if i - 1 >= consumed && mayPrecedeMention(s[i - 1]) { return true }
        for colon in [false, true] {
            let r = i - (colon ? 3 : 2)  // index of the R
            guard r >= 0 else { continue }
            if colon && s[i - 1] != ":" { continue }
            guard (s[r] == "r" || s[r] == "R") && (s[r + 1] == "t" || s[r + 1] == "T") else { continue }
            if r == 0 && consumed == 0 { return true }
            if r > 0 && r - 1 >= consumed && mayPrecedeRetweetMark(s[r - 1]) { return true }
        }
        return false
    }

    // MARK: Helpers

    /// Whether `://` starts at `i`.
    @inline(__always)
    static func startsWithSchemeSeparator(_ s: [Unicode.Scalar], at i: Int) -> Bool {
        i + 2 < s.count && s[i] == ":" && s[i + 1] == "/" && s[i + 2] == "/"
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var utf8: [UInt8] = []
        appendUTF8(scalars, to: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    @inline(__always)
    static func appendUTF8(_ scalars: ArraySlice<Unicode.Scalar>, to out: inout [UInt8]) {
        for c in scalars {
            let v = c.value
            if v < 0x80 {
                out.append(UInt8(v))
            } else if v < 0x800 {
                out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
            } else if v < 0x10000 {
                out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
            } else {
                out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | v >> 12 & 0x3F))
                out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
            }
        }
    }
}
