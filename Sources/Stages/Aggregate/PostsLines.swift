/// The line format between `smashtag extract --posts` and `smashtag
/// aggregate --posts` (SPEC §15): a sibling of `ExtractFormat`'s, tab-separated,
/// one record a line, so the posts of disjoint inputs can be extracted
/// anywhere (a Spark job too) and counted in one place:
///
///     H  smashtag-posts  1  TERM...                       header: format, version, the terms in order
///     H  smashtag-posts  1  carries=text  TERM...         the same, S lines carrying texts
///     P  TERM  TWEET-ID  RETWEET-OF  QUOTE-OF  REPLY-TO   a matching tweet and what it retweets, quotes,
///                                                         replies to (- for none); a line per copy read
///     S  POST-ID  o|c  AUTHOR  TIME  [TEXT]               what one copy read says of a post: o its own
///                                                         record, c a copy another tweet embeds; AUTHOR
///                                                         @name or -, TIME seconds since 1970 UTC or -,
///                                                         TEXT + and the text, or - when the copy has none
///
/// A producer that deduplicated and counted on its own (the Spark job in
/// `contrib/spark`) writes, under the same header, counts instead of `P`
/// lines, and for each post counted its first own `S … o` line and one
/// `S … c` line holding, field by field, what the first copy that says it
/// says:
///
///     N  TERM  TWEETS                                     TWEETS distinct tweets matched TERM
///     C  TERM  POST-ID  RETWEETS  QUOTES  REPLIES         of them, how many retweet, quote, reply to POST
///
/// Counts are added as they are, never deduplicated.
///
/// After its posts, an extract of Bluesky posts writes the handles it met,
/// so `aggregate --posts` shows authors by handle as `posts` does:
/// `A DID HANDLE TIME` (named) and `B DID HANDLE COUNT` (spelled; `S` is
/// taken), as `ExtractFormat`'s `A` and `S` lines.
///
/// Bluesky reposts (SPEC §16) are matched by `aggregate --posts`, after its
/// last input, with the `J`, `X` and `R` lines of `ExtractFormat`: a
/// repost's subject may be in another extract. A repost's `S … o` line is
/// written as any post's.
///
/// Every tweet read gives an `S … o` line (matching or not, filtered or
/// not: it may be the X another tweet names), and every copy it embeds
/// that says something an `S … c` line. `aggregate --posts` dedups `P`
/// lines on (term, tweet id), the first copy counting, and takes what is
/// said of each post as the dumps do: its first own record, then the first
/// copies, in the order of the lines. Outputs of several extracts over
/// disjoint inputs may be concatenated, in the order their inputs would
/// be read. Escapes as in `ExtractFormat` (`\\`, `\t`, `\r`, `\n`).
public enum PostsLines {
    public static let magic = "smashtag-posts"
    public static let version = 1
    public static let carriesText = "carries=text"

    public static func header(_ terms: [Term], texts: Bool) -> String {
        (["H", magic, String(version)] + (texts ? [carriesText] : []) + terms.map { ExtractFormat.escape($0.description) })
            .joined(separator: "\t") + "\n"
    }
}

/// Writes a run's parts (built with `PostFields.references`) as posts lines, in input order.
public final class PostsLineWriter: RepostCarryingSink {
    private let terms: [String]
    private let texts: Bool
    private let write: (String) -> Bool
    private var buffer = ""
    public private(set) var closed = false

    /// - Parameters:
    ///   - texts: S lines carry texts (the parts then carry them).
    ///   - write: writes a chunk; returns false when the output is gone.
    public init(terms: [Term], texts: Bool, write: @escaping (String) -> Bool) {
        self.terms = terms.map { ExtractFormat.escape($0.description) }
        self.texts = texts
        self.write = write
        buffer = PostsLines.header(terms, texts: texts)
    }

    private var subjectsWritten = Set<UInt64>()

    public func add(_ e: PostPart) {
        guard !closed else { return }
        if !e.joins.isEmpty { _ = RepostLines.write(e.joins, into: &buffer, written: &subjectsWritten) }
        func post(_ n: UInt64) -> String { n == PostPart.noPost ? "-" : PostIdentity.text(of: n) }
        let c = e.copies
        let keys = e.keys.map(ExtractFormat.escape)
        for k in 0..<c.count {
            buffer += "S\t\(PostIdentity.text(of: c.ids[k]))\t\(c.own[k] ? "o" : "c")\t"
                + (c.authors[k] < 0 ? "-" : keys[Int(c.authors[k])]) + "\t"
                + (c.times[k] == PostPart.unknownTime ? "-" : String(c.times[k]))
            if texts { buffer += "\t" + ((k < c.texts.count ? c.texts[k] : nil).map { "+" + ExtractFormat.escape($0) } ?? "-") }
            buffer += "\n"
            if buffer.utf8.count > 1 << 16 { flush() }
        }
        for i in 0..<e.tweetIDs.count {
            let refs = i < e.retweetOf.count ? "\(post(e.retweetOf[i]))\t\(post(e.quoteOf[i]))\t\(post(e.replyTo[i]))" : "-\t-\t-"
            let id = PostIdentity.text(of: e.tweetIDs[i])
            var mask = e.termMasks[i]
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                buffer += "P\t\(terms[t])\t\(id)\t\(refs)\n"
            }
            if buffer.utf8.count > 1 << 16 { flush() }
        }
    }

    /// The Bluesky handles the run met (SPEC §16), after its posts: `A` and `B` lines.
    public func writeHandles(_ book: HandleBook = .shared) {
        for n in book.named { buffer += "A\t\(ExtractFormat.escape(n.did))\t\(ExtractFormat.escape(n.handle))\t\(n.time)\n" }
        // As `ExtractWriter.writeHandles`' `S` lines: by post, so a post read by two runs counts once.
        let (loose, posts) = book.postSpellings
        for s in loose { buffer += "B\t\(ExtractFormat.escape(s.did))\t\(ExtractFormat.escape(s.handle))\t\(s.count)\n" }
        for s in posts {
            buffer += "B\t\(ExtractFormat.escape(s.did))\t\(ExtractFormat.escape(s.handle))\t\(s.count)\t\(s.post)\n"
            if buffer.utf8.count > 1 << 16 { flush() }
        }
    }

    /// Writes what is buffered; call once at the end too.
    public func flush() {
        guard !closed, !buffer.isEmpty else { return }
        if !write(buffer) { closed = true }
        buffer = ""
    }
}

extension PostsLineReader {
    /// SPEC §16: after the last input, the reposts read that match a term go to the aggregator.
    public func finishReposts() {
        guard let terms, let aggregator else { return }
        var fields = PostFields()
        fields.references = true
        if let part = reposts.resolved(terms: terms, fields: fields, counted: []) { aggregator.add(part) }
    }
}

/// Reads posts lines into a `PostsAggregator`: the other half of the format.
public final class PostsLineReader: RecordHandler {
    /// Terms of the first header, in order; nil before it.
    public private(set) var terms: [Term]?
    public private(set) var aggregator: PostsAggregator?
    /// Whether texts are asked for (`aggregate --posts --columns text`).
    private let texts: Bool
    /// Inputs without texts read while texts are asked for (named once).
    public private(set) var lacksTexts = false
    private var carriesText = false
    private var termIndex: [String: Int] = [:]
    private let problems: any ProblemSink
    private let control: RunControl
    public private(set) var records = 0
    /// SPEC §16: the Bluesky posts and reposts read (`J`, `X`, `R` lines), joined after the last input.
    private let reposts = RepostLines.Reader()

    public init(control: RunControl, texts: Bool, problems: any ProblemSink) {
        self.control = control
        self.texts = texts
        self.problems = problems
    }

    public var shouldStop: Bool { control.isStopped }
    public func skipped(_ origin: Origin, reason: String) { problems.skipped(origin, reason: reason) }
    public func problem(_ p: InputProblem) {
        problems.problem(p)
        control.problemSeen(p)
    }
    public func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        problem(InputProblem(.notATweet, origin: origin, line: line, reason: "not posts lines: a CSV header"))
    }
    public func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {}

    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        records += 1
        let text = String(decoding: bytes, as: UTF8.self)
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        func bad(_ why: String) {
            problem(InputProblem(.notATweet, origin: origin, line: line, reason: "not a posts line: \(why)"))
        }
        func post(_ s: Substring) -> UInt64?? {
            s == "-" ? .some(nil) : PostIdentity.parse(s).map { .some($0) }
        }
        reposts.lineStarts(fields)
        switch fields.first {
        case "J", "X", "R":
            if let why = reposts.read(fields) { return bad(why) }
        case "A", "B":
            // A Bluesky handle (SPEC §16), for showing authors.
            if let why = HandleBook.shared.read(handleLine: fields, spelled: "B") { return bad(why) }
        case "H":
            guard fields.count >= 3, fields[1] == Substring(PostsLines.magic) else {
                return bad("a header names smashtag-posts (extract with --posts)")
            }
            guard Int(fields[2]) == PostsLines.version else {
                return bad("format version \(fields[2]); this smashtag reads version \(PostsLines.version)")
            }
            var termFields = fields.dropFirst(3)
            carriesText = termFields.first == Substring(PostsLines.carriesText)
            if carriesText { termFields = termFields.dropFirst() }
            if texts && !carriesText && !lacksTexts {
                lacksTexts = true
                problem(InputProblem(.notATweet, origin: origin, line: line,
                                     reason: "this input carries no texts for --columns text: extract with --posts --columns text"))
            }
            let names = termFields.compactMap(ExtractFormat.unescape)
            if let terms {
                if names != terms.map(\.description) {
                    problem(InputProblem(.notATweet, origin: origin, line: line,
                                         reason: "extracted with other terms (\(names.joined(separator: " "))) than the first input; its lines for unknown terms are skipped"))
                }
                return
            }
            guard names.count <= TermMatcher.maxTerms else { return bad("a header of \(names.count) terms") }
            var parsed: [Term] = []
            for name in names {
                guard let t = try? Term(parsing: name) else { return bad("bad term '\(name)' in the header") }
                parsed.append(t)
            }
            terms = parsed
            aggregator = PostsAggregator(terms: parsed, texts: texts)
            for (i, t) in parsed.enumerated() where termIndex[t.description] == nil { termIndex[t.description] = i }
        case "P":
            guard let aggregator else { return bad("a line before any header") }
            guard fields.count == 6 else { return bad("expected 6 fields") }
            guard let name = ExtractFormat.unescape(fields[1]), let t = termIndex[name] else {
                return bad("a term that is not in the header")
            }
            guard let id = PostIdentity.parse(fields[2]) else { return bad("a tweet id that is not an id") }
            guard let rt = post(fields[3]), let q = post(fields[4]), let r = post(fields[5]) else {
                return bad("a post that is neither an id nor -")
            }
            guard aggregator.firstCopy(id, term: t) else { return }
            aggregator.add(retweetOf: rt ?? PostPart.noPost, quoteOf: q ?? PostPart.noPost, replyTo: r ?? PostPart.noPost, term: t)
        case "S":
            guard let aggregator else { return bad("a line before any header") }
            guard fields.count == (carriesText ? 6 : 5) else { return bad("expected \(carriesText ? 6 : 5) fields") }
            guard let id = PostIdentity.parse(fields[1]) else { return bad("a post id that is not an id") }
            guard fields[2] == "o" || fields[2] == "c" else { return bad("a copy that is neither o nor c") }
            guard let author = ExtractFormat.unescape(fields[3]), author == "-" || author.signedKind == .user else {
                return bad("an author that is neither @name nor -")
            }
            let time: Int64?
            if fields[4] == "-" { time = nil } else {
                guard let t = Int64(fields[4]) else { return bad("a time that is neither seconds nor -") }
                time = t
            }
            var said: String?
            if carriesText, fields[5] != "-" {
                guard fields[5].first == "+", let t = ExtractFormat.unescape(fields[5].dropFirst()) else {
                    return bad("a text that is neither + and the text nor -")
                }
                said = t
            }
            aggregator.addCopy(of: id, own: fields[2] == "o", author: author == "-" ? nil : author, time: time, text: said)
        case "N", "C":
            guard let aggregator else { return bad("a line before any header") }
            let isC = fields[0] == "C"
            guard fields.count == (isC ? 6 : 3) else { return bad("expected \(isC ? 6 : 3) fields") }
            guard let name = ExtractFormat.unescape(fields[1]), let t = termIndex[name] else {
                return bad("a term that is not in the header")
            }
            if !isC {
                guard let n = Int(fields[2]), n >= 0 else { return bad("a count that is not a whole number") }
                aggregator.add(counted: n, term: t)
                return
            }
            guard let post = PostIdentity.parse(fields[2]) else { return bad("a post id that is not an id") }
            guard let rt = Int(fields[3]), let q = Int(fields[4]), let r = Int(fields[5]), rt >= 0, q >= 0, r >= 0 else {
                return bad("a count that is not a whole number")
            }
            aggregator.add(counted: post, retweets: rt, quotes: q, replies: r, term: t)
        default:
            bad("it starts with neither H, P, S, N, C, A, B, J, X nor R")
        }
    }
}
