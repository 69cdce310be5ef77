import Foundation

/// Mentions from a tweet's text by twitter-text's rules (SPEC §4, "Mentions
/// from text"): for tweets that carry no entities (CSV rows without entity
/// columns) and for every tweet under `--mentions-from text`.
///
/// The text read is the tweet's full text; a retweet is read from its
/// retweeted tweet's full text when the record holds it, and the retweeted
/// tweet's author is one of its user mentions (as with entities). Before
/// extraction `&amp;` `&lt;` `&gt;` are unescaped (the APIs HTML-escape
/// them; Twitter extracts from the unescaped text), and when the text ends
/// in `…` the word the ellipsis cut off is no mention (`RT @a: … #Stanf…`).
///
/// One extractor per worker: it reuses its buffers from tweet to tweet.
///
/// - Complexity: O(n) in the text's length; no strings are built, the
///   mentions' UTF-8 goes straight to the `MentionTable`.
public struct TextExtractor: MentionExtractor {
    private final class Buffers {
        var bytes: [UInt8] = []
        var scalars: [Unicode.Scalar] = []
        var name: [UInt8] = []
    }

    private let buffers = Buffers()
    public let kinds: MentionKinds

    public init(kinds: MentionKinds = .standard) { self.kinds = kinds }

    public func extract(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, into mentions: inout MentionSet) {
        if kinds.has(.poster) { MentionLinks.addPoster(tweet, record, table, &mentions) }
        if kinds.has(.user), let author = record.retweetedAuthor(of: tweet) {
            mentions.insert(table.id(raw: record.bytes(author), escaped: author.escaped, kind: .user))
        }
        guard let span = record.fullText(of: tweet) else { return }
        let b = buffers
        let raw = UnsafeBufferPointer(start: record.base + span.start, count: span.end - span.start)
        if span.escaped {
            b.bytes = JSONText.unescape(raw)
            b.bytes.withUnsafeBufferPointer { TextExtractor.decode($0, into: &b.scalars) }
        } else {
            TextExtractor.decode(raw, into: &b.scalars)
        }
        TextExtractor.forEachMention(in: b.scalars) { kind, name in
            guard kinds.has(kind) else { return }
            b.name.removeAll(keepingCapacity: true)
            TwitterText.appendUTF8(name, to: &b.name)
            b.name.withUnsafeBytes { mentions.insert(table.id(raw: $0, escaped: false, kind: kind)) }
        }
        if kinds.has(.symbol) || kinds.hasLinks {
            let found = TextExtractor.symbolsAndLinks(in: b.scalars, kinds: kinds)
            for symbol in found.symbols {
                Array(symbol.utf8).withUnsafeBytes { mentions.insert(table.id(raw: $0, escaped: false, kind: .symbol)) }
            }
            for link in found.links {
                let id = Array(link.utf8).withUnsafeBytes { table.id(raw: $0, escaped: false, kind: .url) }
                MentionLinks.add(link: id, quoted: tweet.retweeted?.quoted ?? tweet.quoted, kinds, table, &mentions)
            }
        }
    }

    /// The cashtags (without `$`) and link strings of already unescaped
    /// text, by twitter-text's rules, as `kinds` asks, but for those in the
    /// word a final `…` cut off.
    static func symbolsAndLinks(in s: [Unicode.Scalar], kinds: MentionKinds) -> (symbols: [String], links: [String]) {
        let cut = truncatedWordStart(s)
        var text = String.UnicodeScalarView()
        text.append(contentsOf: s[..<cut])
        let string = String(text)
        let symbols = kinds.has(.symbol) && s.contains("$") ? TwitterText.cashtags(in: string).map(\.text) : []
        let links = kinds.hasLinks ? TwitterText.urls(in: string) : []
        return (symbols, links)
    }

    /// The spellings (SPEC §12.1) of the mentions `extract` finds in
    /// `tweet`: the retweeted author's name, then each hashtag and mention of
    /// the full text as written there, NFC, with its sign.
    static func spellings(of tweet: DecodedTweet, in record: DecodedRecord, kinds: MentionKinds) -> [String] {
        var out: [String] = []
        if let author = record.retweetedAuthor(of: tweet) { out.append("@" + record.spelling(author)) }
        guard let span = record.fullText(of: tweet) else { return out }
        let found = mentions(inTweetText: record.string(span))
        for tag in found.hashtags { out.append("#" + KeyNormalization.nfc(tag)) }
        for user in found.users { out.append("@" + KeyNormalization.nfc(user)) }
        if kinds.has(.symbol) || kinds.hasLinks {
            var scalars: [Unicode.Scalar] = []
            Array(record.string(span).utf8).withUnsafeBufferPointer { decode($0, into: &scalars) }
            let more = symbolsAndLinks(in: scalars, kinds: kinds)
            for symbol in more.symbols { out.append("$" + KeyNormalization.nfc(symbol)) }
            for link in more.links { out.append("+" + KeyNormalization.nfc(link)) }
        }
        return out
    }

    /// The hashtags and screen names of a tweet's text as the API gives it:
    /// HTML entities unescaped, the word cut off by a final `…` left out.
    public static func mentions(inTweetText raw: String) -> (hashtags: [String], users: [String]) {
        var scalars: [Unicode.Scalar] = []
        Array(raw.utf8).withUnsafeBufferPointer { decode($0, into: &scalars) }
        var tags: [String] = [], users: [String] = []
        forEachMention(in: scalars) { kind, name in
            if kind == .hashtag { tags.append(TwitterText.string(name)) } else { users.append(TwitterText.string(name)) }
        }
        return (tags, users)
    }

    /// Calls `body` with each hashtag, then each user mention (lists left
    /// out) of already unescaped text, but for those in the truncated word.
    private static func forEachMention(in s: [Unicode.Scalar], _ body: (MentionKind, ArraySlice<Unicode.Scalar>) -> Void) {
        let hasHash = s.contains(where: TwitterText.isHashSign)
        let hasAt = s.contains(where: TwitterText.isAtSign)
        guard hasHash || hasAt else { return }
        let cut = truncatedWordStart(s)
        if hasHash {
            for m in TwitterText.hashtagMatches(in: s) where m.range.upperBound <= cut { body(.hashtag, s[m.name]) }
        }
        if hasAt {
            for m in TwitterText.mentionMatches(in: s) where !m.isList && m.range.upperBound <= cut { body(.user, s[m.name]) }
        }
    }

    /// Decodes UTF-8 (invalid sequences become U+FFFD) into `out`, with
    /// `&lt;` `&gt;` `&amp;` unescaped in the same pass, as replacing the
    /// three in this order would (`&amp;lt;` is `&lt;`).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [Unicode.Scalar]) {
        out.removeAll(keepingCapacity: true)
        var it = bytes.makeIterator()
        var utf8 = UTF8()
        var sawAmpersand = false
        loop: while true {
            switch utf8.decode(&it) {
            case .scalarValue(let c):
                if c == "&" { sawAmpersand = true }
                out.append(c)
            case .emptyInput: break loop
            case .error: out.append("\u{FFFD}")
            }
        }
        guard sawAmpersand else { return }
        // Unescape in place: the output is never longer than the input.
        var w = 0, r = 0
        let n = out.count
        while r < n {
            let c = out[r]
            if c == "&" && r + 3 < n && out[r + 3] == ";" && out[r + 2] == "t" && (out[r + 1] == "l" || out[r + 1] == "g") {
                out[w] = out[r + 1] == "l" ? "<" : ">"
                r += 4
            } else if c == "&" && r + 4 < n && out[r + 1] == "a" && out[r + 2] == "m" && out[r + 3] == "p" && out[r + 4] == ";" {
                out[w] = "&"
                r += 5
            } else {
                out[w] = c
                r += 1
            }
            w += 1
        }
        out.removeLast(n - w)
    }

    /// Where the word cut off by truncation starts: a text that ends in `…`
    /// (white space after it aside) lost the end of its last word, so that
    /// word, glued to the ellipsis, is no mention. `scalars.count` when
    /// nothing was cut (no final `…`, or white space right before it).
    static func truncatedWordStart(_ scalars: [Unicode.Scalar]) -> Int {
        var end = scalars.count
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        guard end > 0, scalars[end - 1] == "\u{2026}" else { return scalars.count }
        var start = end - 1
        while start > 0 && !scalars[start - 1].properties.isWhitespace { start -= 1 }
        return start
    }
}
