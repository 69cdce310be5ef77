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
public struct TextExtractor: MentionExtractor {
    public init() {}

    public func extract(_ index: Int, from decoder: TweetDecoder, table: MentionTable, into mentions: inout MentionSet) {
        var source = index
        if let rt = decoder.retweet(of: index) {
            if decoder.fullText(of: rt) != nil { source = rt }
            if let author = decoder.author(of: rt) {
                mentions.insert(table.id(raw: decoder.bytes(author), escaped: author.escaped, kind: .user))
            }
        }
        guard let span = decoder.fullText(of: source) else { return }
        let found = TextExtractor.mentions(inTweetText: decoder.string(span))
        for tag in found.hashtags { insert(tag, .hashtag, table, &mentions) }
        for user in found.users { insert(user, .user, table, &mentions) }
    }

    private func insert(_ name: String, _ kind: MentionKind, _ table: MentionTable, _ mentions: inout MentionSet) {
        var name = name
        name.withUTF8 { utf8 in
            mentions.insert(table.id(raw: UnsafeRawBufferPointer(utf8), escaped: false, kind: kind))
        }
    }

    /// The hashtags and screen names of a tweet's text as the API gives it:
    /// HTML entities unescaped, the word cut off by a final `…` left out.
    public static func mentions(inTweetText raw: String) -> (hashtags: [String], users: [String]) {
        var text = raw
        if text.utf8.contains(UInt8(ascii: "&")) {
            text = text.replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        let scalars = Array(text.unicodeScalars)
        let hasHash = scalars.contains(where: TwitterText.isHashSign)
        let hasAt = scalars.contains(where: TwitterText.isAtSign)
        guard hasHash || hasAt else { return ([], []) }
        let cut = truncatedWordStart(scalars)
        let tags = hasHash ? TwitterText.hashtags(in: scalars) : []
        let users = hasAt ? TwitterText.mentionsOrLists(in: scalars).filter { $0.listSlug.isEmpty } : []
        return (tags.filter { $0.range.upperBound <= cut }.map(\.text),
                users.filter { $0.range.upperBound <= cut }.map(\.text))
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
