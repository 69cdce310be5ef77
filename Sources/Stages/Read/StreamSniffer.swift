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
        /// A first line of column names naming no id or no text column: why it cannot be read.
        case unrecognisedCSV(String)
        /// Text to frame (JSON in any layout, or a CSV export): the framer decides the layout.
        case text
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The kind of a stream whose first bytes are `prefix` (4 KiB are plenty).
    static func kind(of prefix: [UInt8], columns: CSVColumns) -> Kind {
        let magic = Magic.detect(prefix)
        if magic.needsArchive { return .archive(magic) }
        if let kind = nonTweetArchiveData(prefix) { return .nonTweetArchiveData(kind) }
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

    /// The kind of an account-archive `window.YTD.<kind>.partN` file that is
    /// not tweets (likes, followers, …); nil for tweets and everything else.
    static func nonTweetArchiveData(_ prefix: [UInt8]) -> String? {
        let i = contentStart(prefix)
        let marker = Array("window.YTD.".utf8)
        guard prefix.count >= i + marker.count, Array(prefix[i..<i + marker.count]) == marker else { return nil }
        let rest = prefix[(i + marker.count)...]
        guard let dot = rest.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let kind = String(decoding: rest[..<dot], as: UTF8.self)
        return kind == "tweets" || kind == "tweet" ? nil : kind
    }
}
