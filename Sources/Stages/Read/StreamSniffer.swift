/// What the first bytes of a stream say it is: the one place that looks,
/// used by planning (which files may be cut into byte ranges) and by both
/// read paths (a mapped file, a stream).
///
/// One rule for the byte-order mark: a UTF-8 BOM counts only as the very
/// first three bytes of a stream (or of an archive member, which is a stream
/// of its own), and is then skipped; anywhere else `EF BB BF` is data. After
/// it, JSON white space is skipped before the first value is looked at.
enum StreamSniffer {
    /// What a stream is, told from its first bytes.
    enum Kind: Equatable {
        /// Compressed or a container: libarchive opens it.
        case archive(Magic)
        /// An account archive's `window.YTD.<kind>.partN` of something other than tweets.
        case nonTweetArchiveData(String)
        /// An account archive's `manifest.js` (`window.__THAR_CONFIG = {…}`): what the archive holds, no tweets.
        case archiveManifest
        /// An account archive's `deleted-tweets.js` (`window.YTD.deleted_tweets.partN`), not read by default.
        case deletedTweets
        /// A first line of column names naming no id or no text column: why it cannot be read.
        case unrecognisedCSV(String)
        /// Text to frame (JSON in any layout, or a CSV export): the framer decides the layout.
        case text
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The kind of a stream whose first bytes are `prefix` (4 KiB are plenty).
    ///
    /// - Parameter includeDeleted: whether `deleted-tweets.js` is text to read (`--deleted include`).
    static func kind(of prefix: [UInt8], columns: CSVColumns, includeDeleted: Bool = false) -> Kind {
        let magic = Magic.detect(prefix)
        if magic.needsArchive { return .archive(magic) }
        if isArchiveManifest(prefix) { return .archiveManifest }
        if let kind = archiveDataKind(prefix) {
            if kind == "deleted_tweets" { return includeDeleted ? .text : .deletedTweets }
            if !tweetKinds.contains(kind) { return .nonTweetArchiveData(kind) }
        }
        // Extract's own lines (`H<TAB>smashtag-extract…`) are never a CSV
        // export, however much a header of word terms looks like column names.
        if prefix.dropFirst(contentStart(prefix)).starts(with: Array("H\tsmashtag-".utf8)) { return .text }
        if let why = CSVHeader.unrecognisedReason(prefix, columns: columns) { return .unrecognisedCSV(why) }
        return .text
    }

    /// Bytes a stream starts with that are a byte-order mark: 3, or 0.
    static func bomLength(_ prefix: some Collection<UInt8>) -> Int {
        prefix.starts(with: byteOrderMark) ? 3 : 0
    }

    /// Where the first value starts: after the byte-order mark and white space.
    static func contentStart(_ prefix: [UInt8]) -> Int {
        var i = bomLength(prefix)
        while i < prefix.count, isSpace(prefix[i]) { i += 1 }
        return i
    }

    /// Whether the stream's first value is a JSON object (JSON lines start so;
    /// a CSV export, a document array or an archive never does).
    static func startsWithObject(_ prefix: [UInt8]) -> Bool {
        let i = contentStart(prefix)
        return i < prefix.count && prefix[i] == UInt8(ascii: "{")
    }

    /// Account-archive kinds whose elements are the account's live tweets:
    /// `tweets.js` (`tweet` in older archives) and `community-tweet.js`
    /// (posts to Communities, `{"tweet": {…}}` elements like `tweets.js`'s).
    static let tweetKinds: Set<String> = ["tweets", "tweet", "community_tweet"]

    /// The kind of an account-archive `window.YTD.<kind>.partN` file that is
    /// not tweets (likes, followers, …); nil for tweets (live or deleted) and everything else.
    static func nonTweetArchiveData(_ prefix: [UInt8]) -> String? {
        guard let kind = archiveDataKind(prefix), !tweetKinds.contains(kind), kind != "deleted_tweets" else { return nil }
        return kind
    }

    /// `<kind>` of an account-archive `window.YTD.<kind>.partN` file; nil when it is not one.
    static func archiveDataKind(_ prefix: [UInt8]) -> String? {
        guard let rest = after("window.YTD.", in: prefix), let dot = rest.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        return String(decoding: rest[..<dot], as: UTF8.self)
    }

    /// Whether the stream is an account archive's `data/manifest.js`,
    /// `window.__THAR_CONFIG = {…}` (every downloaded archive holds one).
    static func isArchiveManifest(_ prefix: [UInt8]) -> Bool {
        guard let rest = after("window.__THAR_CONFIG", in: prefix) else { return false }
        guard let next = rest.first(where: { !isSpace($0) }) else { return true }  // the prefix ends first
        return next == UInt8(ascii: "=")
    }

    /// What follows `marker` at the start of the content, or nil.
    private static func after(_ marker: String, in prefix: [UInt8]) -> ArraySlice<UInt8>? {
        let i = contentStart(prefix)
        let m = Array(marker.utf8)
        guard prefix.count >= i + m.count, Array(prefix[i..<i + m.count]) == m else { return nil }
        return prefix[(i + m.count)...]
    }
}
