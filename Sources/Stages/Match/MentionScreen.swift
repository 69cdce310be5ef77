/// A first look at a tweet's raw mention bytes that rules out, without
/// decoding or interning anything, the tweets that cannot match the run's
/// terms: most tweets of a dump, for a one-term report.
///
/// Exact by construction: it only ever rules a tweet out on spellings whose
/// normalised key it knows for certain. A mention written in plain ASCII
/// (no escape, no byte above 0x7F) normalises to its ASCII lowercasing
/// (NFC leaves ASCII alone), so it is compared with the terms' keys
/// case-insensitively, in place. Anything else (an escape, any non-ASCII
/// byte, such as the Kelvin sign that NFC maps to `K`) is looked up in the
/// worker's `MentionTable`, which decodes and normalises it once per
/// spelling as the extract stage does: the tweet may match when the key is
/// a term's, and extraction then finds the spelling already there. The look
/// counts nothing (`uncountedID`), so a tweet ruled out leaves no trace in
/// what the run reports.
///
/// Word terms are screened on the tweet's full text, the text the match
/// stage reads, by `WordMatch.mayMatch` (false only when the raw bytes
/// cannot hold the word once decoded and normalised; `WordScreenTests`
/// holds it to the full match). Only `*` looks at every tweet.
final class MentionScreen {
    /// The terms' keys by their length in bytes (index n: the keys of n
    /// bytes), so a span is compared only with keys as long as itself.
    private let hashtags: [[[UInt8]]]
    private let users: [[[UInt8]]]
    private let authors: [[[UInt8]]]
    private let symbols: [[[UInt8]]]
    /// For `domain:` and `url:` terms (SPEC §13): ASCII host names, lowercased,
    /// one of which a link string must hold for its host to match.
    private let hostNeedles: [[UInt8]]
    private let words: [WordMatch]
    /// The table escaped and non-ASCII spellings are looked up in (the
    /// worker's), and the ids there of the hashtag terms and of the user and
    /// author terms.
    private let spellings: MentionTable
    private let hashtagIDs: [Int32]
    private let userIDs: [Int32]
    private let authorIDs: [Int32]
    private let symbolIDs: [Int32]

    /// A screen for `terms`, or nil when some term needs every tweet looked at.
    ///
    /// - Parameter table: the worker's mention table (a table of the
    ///   screen's own when none is given).
    init?(terms: [Term], table: MentionTable = MentionTable()) {
        var hashtags: [[UInt8]] = [], users: [[UInt8]] = [], authors: [[UInt8]] = [], words: [WordMatch] = []
        var symbols: [[UInt8]] = [], needles: [[UInt8]] = []
        for term in terms {
            switch term.kind {
            case .hashtag: hashtags.append(Array(term.key.utf8))
            case .user: users.append(Array(term.key.utf8))
            case .author: authors.append(Array(term.key.utf8))
            case .symbol: symbols.append(Array(term.key.utf8))
            case .domain, .url:
                // A link's host is its string's, lowercased: the string holds the name, in some case.
                let host = term.kind == .domain ? term.key : LinkKey.host(ofKey: term.key)
                guard !host.isEmpty, host.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x5C }) else { return nil }
                needles.append(Array(host.utf8))
            case .word: words.append(WordMatch(term.key))
            case .all: return nil
            }
        }
        self.symbols = byLength(symbols)
        hostNeedles = needles
        func byLength(_ keys: [[UInt8]]) -> [[[UInt8]]] {
            var out = [[[UInt8]]](repeating: [], count: (keys.map(\.count).max() ?? -1) + 1)
            for key in keys { out[key.count].append(key) }
            return out
        }
        self.hashtags = byLength(hashtags)
        self.users = byLength(users)
        self.authors = byLength(authors)
        self.words = words
        spellings = table
        hashtagIDs = hashtags.map { table.id(forKey: "#" + String(decoding: $0, as: UTF8.self)) }
        userIDs = users.map { table.id(forKey: "@" + String(decoding: $0, as: UTF8.self)) }
        authorIDs = authors.map { table.id(forKey: "@" + String(decoding: $0, as: UTF8.self)) }
        symbolIDs = symbols.map { table.id(forKey: "$" + String(decoding: $0, as: UTF8.self)) }
    }

    /// Whether word terms are screened (then a tweet it passes over is not
    /// extracted at all, as a tweet the mention screen passes over).
    var screensWords: Bool { !words.isEmpty }

    /// Whether `span` of the record may be a hashtag term's key.
    @inline(__always)
    func mayBeHashtag(_ span: ByteSpan, in record: DecodedRecord) -> Bool {
        mayEqual(span, hashtags, hashtagIDs, .hashtag, record)
    }

    /// Whether `span` may be a user-mention term's key.
    @inline(__always)
    func mayBeUser(_ span: ByteSpan, in record: DecodedRecord) -> Bool {
        mayEqual(span, users, userIDs, .user, record)
    }

    /// Whether `span`, a tweet's author, may be an author term's key.
    @inline(__always)
    func mayBeAuthor(_ span: ByteSpan, in record: DecodedRecord) -> Bool {
        mayEqual(span, authors, authorIDs, .user, record)
    }

    /// False when `tweet` can match none of the screened terms, told
    /// from its raw mention bytes alone; true when it may (then extraction
    /// and the match stage decide). It looks at the mentions `EntitiesExtractor`
    /// takes, and for author terms at the tweet's own author.
    @inline(__always)
    func mayMatch(_ tweet: DecodedTweet, in record: DecodedRecord) -> Bool {
        if screensWords, let text = record.fullText(of: tweet) {
            let raw = record.bytes(text)
            for word in words where word.mayMatch(raw: raw, escaped: text.escaped) { return true }
        }
        if screensAuthors, let author = record.author(of: tweet), mayBeAuthor(author, in: record) { return true }
        if mayMatch(tweet.hashtags, tweet.users, record) { return true }
        if !symbolIDs.isEmpty, mayMatchSymbol(tweet.symbols, record) { return true }
        if !hostNeedles.isEmpty, mayHoldHost(tweet.links, record) { return true }
        if let rt = tweet.retweeted {
            if mayMatch(rt.hashtags, rt.users, record) { return true }
            if let author = record.name(rt.author), mayBeUser(author, in: record) { return true }
            if !symbolIDs.isEmpty, mayMatchSymbol(rt.symbols, record) { return true }
            if !hostNeedles.isEmpty, mayHoldHost(rt.links, record) { return true }
        }
        return false
    }

    private func mayMatchSymbol(_ spans: Range<Int>, _ record: DecodedRecord) -> Bool {
        for i in spans where mayEqual(record.spans[i], symbols, symbolIDs, .symbol, record) { return true }
        return false
    }

    /// Whether one of the link strings may have a host a `domain:` or `url:`
    /// term asks for: false only when each is ASCII without a `\u` escape
    /// (other escapes, `\/` above all, make no letter, digit, `.` or `-`)
    /// and holds none of the host names in any case.
    private func mayHoldHost(_ spans: Range<Int>, _ record: DecodedRecord) -> Bool {
        for i in spans {
            let span = record.spans[i]
            let p = record.base + span.start
            let n = span.end &- span.start
            var k = 0
            while k < n {
                let c = p[k]
                if c >= 0x80 || (c == 0x5C && k + 1 < n && p[k + 1] == UInt8(ascii: "u")) { return true }
                k += 1
            }
            for needle in hostNeedles where MentionScreen.contains(p, n, needle) { return true }
        }
        return false
    }

    /// Whether the `n` bytes at `p` hold `needle` (lowercase ASCII), ignoring ASCII case.
    private static func contains(_ p: UnsafePointer<UInt8>, _ n: Int, _ needle: [UInt8]) -> Bool {
        let m = needle.count
        guard m > 0, m <= n else { return false }
        return needle.withUnsafeBufferPointer { k in
            let first = k[0]
            var i = 0
            while i <= n - m {
                if MentionKey.lowercasedASCII(p[i]) == first {
                    var j = 1
                    while j < m && MentionKey.lowercasedASCII(p[i + j]) == k[j] { j += 1 }
                    if j == m { return true }
                }
                i += 1
            }
            return false
        }
    }

    @inline(__always)
    private func mayMatch(_ hashtags: Range<Int>, _ users: Range<Int>, _ record: DecodedRecord) -> Bool {
        for i in hashtags where mayBeHashtag(record.spans[i], in: record) { return true }
        for i in users where mayBeUser(record.spans[i], in: record) { return true }
        return false
    }

    var screensAuthors: Bool { !authors.isEmpty }

    /// False when `span` cannot be any of `keys`: plain ASCII that equals
    /// none of them ignoring ASCII case, or (escaped or not ASCII) a spelling
    /// whose normalised key has none of their `ids` in the screen's table.
    private func mayEqual(_ span: ByteSpan, _ keys: [[[UInt8]]], _ ids: [Int32], _ kind: MentionKind,
                          _ record: DecodedRecord) -> Bool {
        if ids.isEmpty { return false }
        let p = record.base + span.start
        let n = span.end &- span.start
        if span.escaped || !MentionKey.isASCII(UnsafeBufferPointer(start: p, count: n)) {
            guard let id = spellings.uncountedID(raw: UnsafeRawBufferPointer(start: p, count: n), escaped: span.escaped, kind: kind) else {
                return false  // empty once decoded: the extract stage drops it
            }
            return ids.contains(id)
        }
        guard n < keys.count else { return false }
        for key in keys[n] {
            var same = true
            key.withUnsafeBufferPointer { k in
                for i in 0..<n {
                    let c = p[i]
                    let lower = MentionKey.lowercasedASCII(c)
                    if lower != k[i] { same = false; break }
                }
            }
            if same { return true }
        }
        return false
    }
}
