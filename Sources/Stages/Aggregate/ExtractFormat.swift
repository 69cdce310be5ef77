/// The line format between `smashtag extract` and `smashtag aggregate`:
/// the extract stage's output, so the dedup and aggregate stages can run
/// elsewhere (another process, a Spark shuffle). Version 1, tab-separated,
/// one record a line, the first field saying what the line is:
///
///     H  smashtag-extract  1  TERM...        header: format, version, the terms in order
///     M  TERM  TWEET-ID  MENTION             the tweet matches TERM and carries MENTION
///     T  TERM  TWEET-ID                      the tweet matches TERM and carries no mention
///
/// A sibling format carries counts instead of tweets, for a producer that
/// deduplicated and counted on its own (the Spark job in `contrib/spark`)
/// and leaves only the report's sorting and formatting to `aggregate`:
///
///     H  smashtag-counts  1  TERM...             header: format, version, the terms in order
///     N  TERM  TWEETS                            TWEETS distinct tweets matched TERM
///     C  TERM  MENTION  COUNT                    MENTION is on COUNT of them
///
/// Counts are added as they are, never deduplicated: they must be the final
/// counts of tweets read nowhere else in the same input.
///
/// Version 2 carries, besides, what SPEC §12.3's columns need of each
/// tweet; `extract --columns` writes it when a column needs it, and
/// `aggregate` reads both versions (a version 1 input answers the default
/// columns only):
///
///     H  smashtag-extract  2  carries=kind,author,spellings  TERM...
///     T  TERM  TWEET-ID  KIND  AUTHOR            every copy's first line: KIND o (original) or r (retweet),
///                                                AUTHOR the normalised @name, or - when unknown
///     M  TERM  TWEET-ID  MENTION  SPELLING...    a mention with each distinct spelling the tweet writes it in
///
///     H  smashtag-counts  2  carries=retweets,authors,display  TERM...
///     N  TERM  TWEETS  RETWEETS  AUTHORS                   of a term's tweets, how many are retweets, by how many authors
///     C  TERM  MENTION  COUNT  RETWEETS  AUTHORS  DISPLAY   the same of the tweets carrying MENTION, and its display spelling
///
/// A version 2 header says what its lines carry before the terms, so a
/// reader never takes that field for a term.
///
/// `extract --by` (SPEC §12.4) adds each tweet's creation time, seconds
/// since 1970 UTC, as the last field of its `T` line, and says so in the
/// header: `carries=time` alone (`T TERM TWEET-ID TIME`, `M` lines without
/// spellings) or `carries=kind,author,spellings,time`
/// (`T TERM TWEET-ID KIND AUTHOR TIME`). `aggregate --by` buckets the
/// times in its own `--tz`, so one extract serves every unit and zone.
/// Counts made elsewhere carry them as `H smashtag-counts 2 carries=time`,
/// counted per creation second: `N TERM TIME TWEETS`,
/// `C TERM TIME MENTION COUNT`. With SPEC §12.3's columns, whose distinct
/// authors and display do not add up over seconds, the counts are made per
/// bucket instead and each bucket is named by an instant in it (its
/// earliest tweet's, say), `aggregate --by` then being given the same unit
/// and zone:
///
///     H  smashtag-counts  2  carries=retweets,authors,display,time  TERM...
///     N  TERM  TIME  TWEETS  RETWEETS  AUTHORS
///     C  TERM  TIME  MENTION  COUNT  RETWEETS  AUTHORS  DISPLAY
///
/// A third sibling carries the counts of `smashtag pairs` (SPEC §12.5), for
/// the same kind of producer, read by `aggregate --pairs` only:
///
///     H  smashtag-pairs  1  TERM...              header: format, version, the terms in order
///     N  TERM  TWEETS                            TWEETS distinct tweets matched TERM
///     C  TERM  MENTION  COUNT                    MENTION is on COUNT of them (a node's count)
///     P  TERM  SOURCE  TARGET  WEIGHT            SOURCE and TARGET are both on WEIGHT of them
///
/// A producer may leave out the pairs under the `--min-count` it is asked
/// for, and the mentions counted fewer times too (a pair weighs no more than
/// either of its mentions' counts).
///
/// After its tweets, an extract of Bluesky posts (SPEC §16) writes the
/// handles it met, so that `aggregate` shows accounts by handle as a
/// report does: `A DID HANDLE TIME` and `S DID HANDLE COUNT`
/// (`ExtractWriter.writeHandles`).
///
/// Bluesky reposts (SPEC §16) are matched by `aggregate`, once every
/// input's posts are known, since a repost's subject may be in another
/// extract: an extract writes, besides its tweets, every Bluesky post that
/// carries a mention (the first copy it reads) and every repost its filters
/// keep, whatever the terms (`RepostJoin`):
///
///     J  POST-ID  MENTION  SPELLING...               post POST-ID carries MENTION (any kind extracted; spellings with --columns)
///     X  POST-ID  TEXT                               its text, when a word term asks
///     R  REPOST-ID  SUBJECT-ID  AUTHOR  SPELLING  TIME   a repost: its author (@did… or -), as written, creation second (or -)
///
/// `aggregate` keeps the first copy of each post's `J`/`X` lines it reads,
/// and after its last input matches the reposts against the header's terms,
/// each carrying its subject's mentions, as the report of the same inputs does.
///
/// Terms and mentions are normalised (`#stanford`, `@nasa`, `from:jack`);
/// a backslash, tab, CR or LF inside them is written `\\`, `\t`, `\r`, `\n`,
/// and a space that ends one `\s` (a line's last field would lose it).
/// A tweet's lines for one term are consecutive, and they are one copy of
/// it: a copy read right after another (a duplicated line) is not written,
/// so that consecutive lines never merge two copies. Outputs of several
/// extracts over disjoint inputs, with the same terms, may be concatenated
/// in any order: `aggregate` dedups on (term, tweet id), keeping the first
/// copy it reads (a header line ends the copy before it).
public enum ExtractFormat {
    public static let version = 1
    /// The version that carries kinds, authors and spellings.
    public static let factsVersion = 2
    public static let magic = "smashtag-extract"
    /// The counts format's name; its version is `version` too.
    public static let countsMagic = "smashtag-counts"
    /// The pair counts format's name; its version is `version` too.
    public static let pairsMagic = "smashtag-pairs"

    /// What a version 2 header says its lines carry, after the version.
    public static let carries = "carries=kind,author,spellings"
    public static let countsCarries = "carries=retweets,authors,display"

    public static func header(_ terms: [Term], version: Int = version, times: Bool = false) -> String {
        let said = version == factsVersion ? [carries(facts: true, times: times)] : times ? [carries(facts: false, times: true)] : []
        return (["H", magic, String(times ? factsVersion : version)] + said + terms.map { escape($0.description) })
            .joined(separator: "\t") + "\n"
    }

    /// The `carries=` field of a version 2 extract header.
    public static func carries(facts: Bool, times: Bool) -> String {
        facts ? (times ? carries + ",time" : carries) : "carries=time"
    }

    /// What a line whose mention has no kind's sign is told.
    static let unsigned = "a mention without its kind's sign (# hashtag, @ user, $ symbol, + url, ^ host, = domain, ! poster)"

    static func escape(_ s: String) -> String {
        // A line's white space at its end is trimmed as it is read (`LineFraming`):
        // a field's last space is written `\s`, so a line's last field keeps it.
        let spaceAtEnd = s.utf8.last == 0x20
        guard spaceAtEnd || s.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        var out = ""
        for ch in s.unicodeScalars.dropLast(spaceAtEnd ? 1 : 0) {
            switch ch {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(ch)
            }
        }
        if spaceAtEnd { out += "\\s" }
        return out
    }

    static func unescape(_ s: Substring) -> String? {
        guard s.contains("\\") else { return String(s) }
        var out = ""
        var it = s.unicodeScalars.makeIterator()
        while let ch = it.next() {
            guard ch == "\\" else { out.unicodeScalars.append(ch); continue }
            switch it.next() {
            case "\\": out += "\\"
            case "t": out += "\t"
            case "n": out += "\n"
            case "r": out += "\r"
            case "s": out += " "
            default: return nil
            }
        }
        return out
    }
}

/// SPEC §16's `J`, `X` and `R` lines (`ExtractFormat`, `PostsLines`): what
/// `aggregate` needs to join the reposts of every input with their subjects.
public enum RepostLines {
    /// Appends the lines of `j` to `buffer` (each post's first copy only, by
    /// `written`); returns how many.
    static func write(_ j: RepostJoins, into buffer: inout String, written: inout Set<UInt64>) -> Int {
        var lines = 0
        for s in j.subjects where written.insert(s.id).inserted {
            let id = PostIdentity.text(of: s.id)
            var spelled: [String: [String]] = [:]
            for (k, sp) in s.spellings { spelled[k, default: []].append(ExtractFormat.escape(sp)) }
            for k in s.keys {
                buffer += "J\t\(id)\t\(ExtractFormat.escape(k))"
                for sp in spelled[k] ?? [] { buffer += "\t" + sp }
                buffer += "\n"
                lines += 1
            }
            if let text = s.text {
                buffer += "X\t\(id)\t\(ExtractFormat.escape(text))\n"
                lines += 1
            }
        }
        for r in j.reposts {
            let time = r.time == PostPart.unknownTime ? "-" : String(r.time)
            buffer += "R\t\(PostIdentity.text(of: r.id))\t\(PostIdentity.text(of: r.subject))\t"
                + "\(r.author.map(ExtractFormat.escape) ?? "-")\t\((r.authorSpelling ?? r.author).map(ExtractFormat.escape) ?? "-")\t\(time)\n"
            lines += 1
        }
        return lines
    }

    /// Reads `J`, `X` and `R` lines into a `RepostJoin`: each post's first
    /// copy counts (its lines are consecutive; a later copy's add nothing).
    final class Reader {
        private let join = RepostJoin()
        private var subject: RepostJoins.Subject?
        private var subjectKnown = false

        /// Call with every line's fields before reading it: a line that is
        /// not the post's next `J`/`X` line ends the post being read.
        func lineStarts(_ fields: [Substring]) {
            guard let s = subject else { return }
            if (fields.first == "J" || fields.first == "X") && fields.count > 1 && PostIdentity.parse(fields[1]) == s.id { return }
            close()
        }

        private func close() {
            if let s = subject, !subjectKnown { join.add(subject: s) }
            subject = nil
        }

        /// Reads a `J`, `X` or `R` line; returns what is wrong with it, if anything.
        func read(_ fields: [Substring]) -> String? {
            if fields[0] == "R" {
                guard fields.count == 6, let id = PostIdentity.parse(fields[1]), let of = PostIdentity.parse(fields[2]),
                      let author = ExtractFormat.unescape(fields[3]), author == "-" || author.signedKind == .user,
                      let spelling = ExtractFormat.unescape(fields[4]), fields[5] == "-" || Int64(fields[5]) != nil else {
                    return "a repost line is R, its id, its subject's id, its author (@name or -), as written, and a time (or -)"
                }
                join.add(repost: RepostJoins.Repost(id: id, subject: of, author: author == "-" ? nil : author,
                                                    authorSpelling: spelling == "-" ? nil : spelling,
                                                    time: Int64(fields[5]) ?? PostPart.unknownTime))
                return nil
            }
            guard fields.count >= 3, let id = PostIdentity.parse(fields[1]) else {
                return "a post's line is J or X, a post id and a mention (with its spellings) or a text"
            }
            if fields[0] == "X" && fields.count != 3 { return "a text line is X, a post id and a text" }
            if subject == nil {
                subjectKnown = join.knows(subject: id)
                subject = RepostJoins.Subject(id: id, keys: [], spellings: [], text: nil)
            }
            if fields[0] == "X" {
                guard let text = ExtractFormat.unescape(fields[2]) else { return "a text with a bad escape" }
                subject?.text = text
                return nil
            }
            guard let m = ExtractFormat.unescape(fields[2]), m.signedKind != nil else { return ExtractFormat.unsigned }
            var spellings: [(key: String, spelling: String)] = []
            for sp in fields.dropFirst(3) {
                guard let spelling = ExtractFormat.unescape(sp), spelling.utf8.first == m.utf8.first else {
                    return "a spelling without its mention's sign"
                }
                spellings.append((m, spelling))
            }
            subject?.keys.append(m)
            subject?.spellings += spellings
            return nil
        }

        /// After the last line: the reposts that match, as `RepostJoin.resolved` makes them; nil when none.
        func resolved(terms: [Term], fields: PostFields, counted: MentionKinds, keep: (Int64?) -> Bool = { _ in true }) -> PostPart? {
            close()
            guard !join.isEmpty else { return nil }
            let part = join.resolved(terms: terms, fields: fields, counted: counted, keep: keep)
            return part.count > 0 ? part : nil
        }
    }
}

/// Writes extractions as extract lines, streaming, in input order.
public final class ExtractWriter: RepostCarryingSink {
    private let terms: [String]
    private let write: (String) -> Bool
    private var buffer = ""
    /// Lines written, and whether the reader went away (a closed pipe).
    public private(set) var lines = 0
    public private(set) var closed = false
    /// The (term, tweet id) of the last lines written: a copy of that tweet
    /// right after it would merge into it when read back, so it is dropped.
    private var last: (term: Int, id: UInt64)?

    /// Version 2 lines, with each tweet's kind, author and spellings.
    private let withFacts: Bool
    /// Version 2 lines with each tweet's creation time (`extract --by`).
    private let withTimes: Bool

    /// - Parameters:
    ///   - facts: true to write version 2 (the extractions then carry every fact).
    ///   - times: true to write version 2 with creation times (the extractions then carry them).
    ///   - write: writes a chunk; returns false when the output is gone.
    public init(terms: [Term], facts: Bool = false, times: Bool = false, write: @escaping (String) -> Bool) {
        self.terms = terms.map { ExtractFormat.escape($0.description) }
        self.write = write
        withFacts = facts
        withTimes = times
        buffer = ExtractFormat.header(terms, version: facts ? ExtractFormat.factsVersion : ExtractFormat.version, times: times)
    }

    /// The posts whose `J`/`X` lines are written (their first copy's).
    private var subjectsWritten = Set<UInt64>()

    public func add(_ e: PostPart) {
        guard !closed else { return }
        if !e.joins.isEmpty { addJoins(e.joins) }
        if withFacts || withTimes { return addWithFacts(e) }
        let keys = e.keys.map(ExtractFormat.escape)
        for i in 0..<e.tweetIDs.count {
            let id = PostIdentity.text(of: e.tweetIDs[i])
            var mask = e.termMasks[i]
            let mentions = e.mentions(of: i)
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                // The first copy counts (as in a report): a later copy next to it is left out.
                if let l = last, l.term == t, l.id == e.tweetIDs[i] { continue }
                last = (t, e.tweetIDs[i])
                if mentions.isEmpty {
                    buffer += "T\t\(terms[t])\t\(id)\n"
                    lines += 1
                }
                for m in mentions {
                    buffer += "M\t\(terms[t])\t\(id)\t\(keys[Int(m)])\n"
                    lines += 1
                }
            }
            if buffer.utf8.count > 1 << 16 { flush() }
        }
    }

    /// SPEC §16: the `J`/`X` lines of the Bluesky posts a repost may name, and the `R` lines of the reposts.
    private func addJoins(_ j: RepostJoins) {
        lines += RepostLines.write(j, into: &buffer, written: &subjectsWritten)
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    /// Version 2: a `T` line with kind and author (and time) opens every
    /// copy; each `M` line carries the spellings of its mention.
    private func addWithFacts(_ e: PostPart) {
        let keys = e.keys.map(ExtractFormat.escape)
        let spellings = e.spellingStrings.map(ExtractFormat.escape)
        for i in 0..<e.tweetIDs.count {
            let id = PostIdentity.text(of: e.tweetIDs[i])
            var mask = e.termMasks[i]
            let mentions = e.mentions(of: i)
            var opening = ""
            if withFacts {
                opening += "\t" + (e.retweets[i] ? "r" : "o") + "\t" + (e.authors[i] < 0 ? "-" : keys[Int(e.authors[i])])
            }
            if withTimes { opening += "\t" + String(e.times[i]) }
            var written: [Int32: [String]] = [:]
            if withFacts {
                for j in e.spellings(of: i) {
                    let s = e.spellingTexts[j], m = e.spellingMentions[j]
                    written[m, default: []].append(s == PostPart.keySpelling ? keys[Int(m)] : spellings[Int(s)])
                }
            }
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                if let l = last, l.term == t, l.id == e.tweetIDs[i] { continue }
                last = (t, e.tweetIDs[i])
                buffer += "T\t\(terms[t])\t\(id)\(opening)\n"
                lines += 1
                for m in mentions {
                    buffer += "M\t\(terms[t])\t\(id)\t\(keys[Int(m)])"
                    for sp in written[m] ?? [] { buffer += "\t" + sp }
                    buffer += "\n"
                    lines += 1
                }
            }
            if buffer.utf8.count > 1 << 16 { flush() }
        }
    }

    /// The Bluesky handles the run met (SPEC §16), after its tweets, so
    /// `aggregate` shows accounts as a report of the same inputs does:
    /// `A DID HANDLE TIME` (named by an identity event or a post view at TIME,
    /// microseconds) and `S DID HANDLE COUNT [POST]` (spelled so COUNT times
    /// in the text of post POST, or in texts of no post known), so that a
    /// post read by two runs (two splits of a Spark job) counts once.
    /// Nothing when the run met none.
    public func writeHandles(_ book: HandleBook = .shared) {
        let named = book.named
        for n in named {
            buffer += "A\t\(ExtractFormat.escape(n.did))\t\(ExtractFormat.escape(n.handle))\t\(n.time)\n"
            lines += 1
        }
        let (loose, posts) = book.postSpellings
        for s in loose {
            buffer += "S\t\(ExtractFormat.escape(s.did))\t\(ExtractFormat.escape(s.handle))\t\(s.count)\n"
            lines += 1
        }
        for s in posts {
            buffer += "S\t\(ExtractFormat.escape(s.did))\t\(ExtractFormat.escape(s.handle))\t\(s.count)\t\(s.post)\n"
            lines += 1
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

/// Reads extract lines into an `Aggregator` (or, for `aggregate --pairs`,
/// a `PairAggregator`): the other half of the format.
public final class ExtractReader: RecordHandler {
    /// Terms of the first header, in order; nil before it.
    public private(set) var terms: [Term]?
    public private(set) var aggregator: Aggregator?
    /// With `pairs`: what the lines add up to, instead of `aggregator`.
    public private(set) var pairAggregator: PairAggregator?
    /// Whether pairs are counted (`aggregate --pairs`).
    public let pairs: Bool
    /// `aggregate --max-pair-mentions` (SPEC §12.5).
    private let maxPairMentions: Int
    /// Where the tweet being read was read (its T line), to name it when it carries too many mentions.
    private var tweetPlace: (origin: Origin, line: Int)?
    /// Where bad lines and unreadable input go: the run's `ProblemLedger`.
    private let problems: any ProblemSink
    public private(set) var records = 0
    private var termIndex: [String: Int] = [:]
    /// After a header of the wrong kind for this reader (counts under
    /// `--pairs`, pair counts without), its lines are passed over.
    private var refusedHeader = false
    private var current: (term: Int, id: UInt64)?
    private var mentions: [String] = []
    /// The tweets read, as parts for the aggregator (the one part type every path carries).
    private var builder: PartBuilder<KeyedNumbering<String>>
    /// Tweets a part holds before it goes to the aggregator.
    private static let partSize = 1 << 16
    /// With `pairs`: the tweets over `--max-pair-mentions`, each once, the first few with their place.
    public private(set) var overLimit: OverLimitTweets
    private let control: RunControl
    /// What the report's columns need counted besides tweets.
    private let facts: PostFields
    /// The kinds counted (`aggregate --kinds`, SPEC §13): mentions of other kinds are passed over.
    private let kinds: MentionKinds
    /// The version of the header read last.
    private var version = ExtractFormat.version
    private var tweetFacts = TweetFacts()
    /// Inputs of version 1 read while `facts` asks for more (named once).
    public private(set) var lacksFacts = false
    /// With `aggregate --by`: the buckets, and `--since`/`--until` (seconds) the times must be within.
    private let buckets: TimeBuckets?
    private let window: (since: Int64?, until: Int64?)
    /// What the version 2 header read last says its lines carry.
    private var carriesFacts = true, carriesTimes = false
    private var tweetTime: Int64?
    /// Inputs without creation times read while `--by` asks for them (named once).
    public private(set) var lacksTimes = false
    /// SPEC §16: the Bluesky posts and reposts read (`J`, `X`, `R` lines), joined after the last input.
    private let reposts = RepostLines.Reader()
    /// `aggregate --trend` (SPEC §14): makes the sink the tweets go to, once the header names the terms.
    private let makeSink: (([Term]) -> PartSink)?
    /// The sink `makeSink` made, instead of `aggregator`.
    public private(set) var sink: PartSink?

    /// - Parameters:
    ///   - pairs: count pairs (`aggregate --pairs`) instead of mentions.
    ///   - facts: what to count besides tweets (`aggregate --columns`).
    ///   - buckets: `aggregate --by`: count per bucket; the inputs must carry times.
    ///   - since, until: with `buckets`, tweets outside these times are left out.
    ///   - problems: where bad lines and unreadable input are counted and kept (the run's `ProblemLedger`).
    public init(control: RunControl, pairs: Bool = false, maxPairMentions: Int = OverLimitTweets.defaultLimit,
                facts: PostFields = .init(), buckets: TimeBuckets? = nil,
                since: Int64? = nil, until: Int64? = nil, problems: any ProblemSink, sink makeSink: (([Term]) -> PartSink)? = nil) {
        self.makeSink = makeSink
        self.control = control
        self.problems = problems
        self.pairs = pairs
        self.maxPairMentions = maxPairMentions
        self.facts = facts
        kinds = facts.mentionKinds
        self.buckets = buckets
        window = (since, until)
        var fields = pairs ? PostFields() : facts
        fields.times = !pairs && (buckets != nil || makeSink != nil)
        builder = PartBuilder<KeyedNumbering<String>>(fields: fields)
        overLimit = OverLimitTweets(limit: maxPairMentions)
    }

    public var shouldStop: Bool { control.isStopped }

    public func skipped(_ origin: Origin, reason: String) { problems.skipped(origin, reason: reason) }

    public func problem(_ p: InputProblem) {
        problems.problem(p)
        control.problemSeen(p)
    }

    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        records += 1
        let text = String(decoding: bytes, as: UTF8.self)
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        func bad(_ why: String) {
            problem(InputProblem(.notATweet, origin: origin, line: line, reason: "not an extract line: \(why)"))
        }
        if refusedHeader && fields.first != "H" { return }
        reposts.lineStarts(fields)
        switch fields.first {
        case "H":
            // Another extract's output starts: its first tweet is a copy of its own.
            finishTweet()
            guard fields.count >= 3, fields[1] == Substring(ExtractFormat.magic) || fields[1] == Substring(ExtractFormat.countsMagic)
                    || fields[1] == Substring(ExtractFormat.pairsMagic) else {
                return bad("a header names smashtag-extract, smashtag-counts or smashtag-pairs")
            }
            refusedHeader = false
            if pairs && fields[1] == Substring(ExtractFormat.countsMagic) {
                refusedHeader = true
                return bad("smashtag-counts lines carry no pairs: aggregate them without --pairs (their lines are passed over)")
            }
            if !pairs && fields[1] == Substring(ExtractFormat.pairsMagic) {
                refusedHeader = true
                return bad("smashtag-pairs lines are pair counts: aggregate them with --pairs (their lines are passed over)")
            }
            guard let v = Int(fields[2]), v == ExtractFormat.version || v == ExtractFormat.factsVersion else {
                return bad("format version \(fields[2]); this smashtag reads versions 1 and 2")
            }
            version = v
            var termFields = fields.dropFirst(3)
            carriesFacts = v == ExtractFormat.factsVersion
            carriesTimes = false
            if v == ExtractFormat.factsVersion {
                let isExtract = fields[1] == Substring(ExtractFormat.magic)
                let wants = isExtract ? [true, false].flatMap { f in [false, true].map { (f, $0) } }.filter { $0.0 || $0.1 }
                    .map { (ExtractFormat.carries(facts: $0.0, times: $0.1), $0.0, $0.1) }
                    : [(ExtractFormat.countsCarries, true, false), (ExtractFormat.carries(facts: false, times: true), false, true),
                       (ExtractFormat.countsCarries + ",time", true, true)]
                guard fields.count >= 4, let said = wants.first(where: { fields[3] == Substring($0.0) }) else {
                    return bad("a version 2 header says what its lines carry (\(wants.map(\.0).joined(separator: " or "))) before the terms")
                }
                (carriesFacts, carriesTimes) = (said.1, said.2)
                termFields = fields.dropFirst(4)
            }
            if makeSink != nil && !(carriesTimes && carriesFacts) && !lacksTimes {
                lacksTimes = true
                problem(InputProblem(.notATweet, origin: origin, line: line,
                                     reason: "this input carries no creation times, authors or spellings for --trend: extract with --trend"))
            }
            if buckets != nil && !carriesTimes && !lacksTimes {
                lacksTimes = true
                problem(InputProblem(.notATweet, origin: origin, line: line,
                                     reason: "this input carries no creation times for --by: extract with --by"))
            }
            if makeSink == nil && !carriesFacts && facts.any && !lacksFacts {
                lacksFacts = true
                problem(InputProblem(.notATweet, origin: origin, line: line,
                                     reason: (version == ExtractFormat.version ? "format version 1" : "this input (carries=time)")
                                         + " carries no kinds, authors or spellings for --columns: "
                                         + "extract (or run the Spark job) with the same --columns"))
            }
            let names = termFields.compactMap(ExtractFormat.unescape)
            // A part marks a tweet's terms as the bits of one word, as a run does (`extract` writes 64 at most).
            guard names.count <= TermMatcher.maxTerms else {
                refusedHeader = true
                return bad("a header of \(names.count) terms; a run takes at most \(TermMatcher.maxTerms) "
                           + "(split the terms over several extracts; its lines are passed over)")
            }
            if let terms {
                if names != terms.map(\.description) {
                    problem(InputProblem(.notATweet, origin: origin, line: line,
                                         reason: "extracted with other terms (\(names.joined(separator: " "))) than the first input; its lines for unknown terms are skipped"))
                }
                return
            }
            var parsed: [Term] = []
            for name in names {
                guard let t = try? Term(parsing: name) else { return bad("bad term '\(name)' in the header") }
                parsed.append(t)
            }
            terms = parsed
            if let makeSink {
                sink = makeSink(parsed)
            } else if pairs {
                pairAggregator = PairAggregator(terms: parsed, maxMentions: maxPairMentions)
            } else {
                aggregator = Aggregator(terms: parsed, facts: facts, buckets: buckets)
            }
            for (i, t) in parsed.enumerated() where termIndex[t.description] == nil { termIndex[t.description] = i }
        case "J", "X", "R":
            finishTweet()
            if let why = reposts.read(fields) { return bad(why) }
        case "A", "S":
            // A Bluesky handle (SPEC §16), for showing accounts: no tweet of its own.
            finishTweet()
            if let why = HandleBook.shared.read(handleLine: fields, spelled: "S") { return bad(why) }
        case "M", "T":
            guard terms != nil else { return bad("a mention line before any header") }
            let isM = fields[0] == "M"
            let v2 = version == ExtractFormat.factsVersion
            if v2 {
                let opening = 3 + (carriesFacts ? 2 : 0) + (carriesTimes ? 1 : 0)
                guard isM ? (carriesFacts ? fields.count >= 4 : fields.count == 4) : fields.count == opening else {
                    return bad("expected \(isM ? (carriesFacts ? "4 or more" : "4") : String(opening)) fields")
                }
            } else {
                guard fields.count == (isM ? 4 : 3) else { return bad("expected \(isM ? 4 : 3) fields") }
            }
            guard let name = ExtractFormat.unescape(fields[1]), let t = termIndex[name] else {
                return bad("a term that is not in the header")
            }
            guard let id = PostIdentity.parse(fields[2]) else { return bad("a tweet id that is not an unsigned 64-bit integer") }
            if v2 && !isM {
                // Version 2: a T line opens every copy.
                var time: Int64?
                if carriesTimes {
                    guard let seconds = Int64(fields[fields.count - 1]) else { return bad("a time that is not a whole number of seconds") }
                    time = seconds
                }
                var opened = TweetFacts()
                if carriesFacts {
                    guard fields[3] == "o" || fields[3] == "r" else { return bad("a kind that is neither o nor r") }
                    guard let author = ExtractFormat.unescape(fields[4]), author == "-" || author.signedKind == .user else {
                        return bad("an author that is neither @name nor -")
                    }
                    opened = TweetFacts(retweet: fields[3] == "r", author: author == "-" ? nil : author)
                }
                closeTweet()
                current = (t, id)
                if pairs { tweetPlace = (origin, line) }
                tweetFacts = opened
                tweetTime = time
                return
            }
            if current.map({ $0.term != t || $0.id != id }) ?? true {
                if v2 { return bad("a mention line without its tweet's T line") }
                closeTweet()
                current = (t, id)
                if pairs { tweetPlace = (origin, line) }
            }
            if isM {
                guard let m = ExtractFormat.unescape(fields[3]), let kind = m.signedKind else {
                    return bad(ExtractFormat.unsigned)
                }
                var spellings: [(String, String)] = []
                for sp in fields.dropFirst(4) {
                    guard let spelling = ExtractFormat.unescape(sp), spelling.utf8.first == m.utf8.first else {
                        return bad("a spelling without its mention's sign")
                    }
                    spellings.append((m, spelling))
                }
                guard kinds.has(kind) else { return }
                mentions.append(m)
                tweetFacts.spellings += spellings
            }
        case "N", "C":
            guard terms != nil else { return bad("a count line before any header") }
            guard makeSink == nil else { return bad("counts carry no tweets, authors or times for --trend: extract with --trend") }
            let isC = fields[0] == "C"
            let v2 = version == ExtractFormat.factsVersion && carriesFacts
            // With times, the creation second follows the term.
            let shift = carriesTimes ? 1 : 0
            let expected = (isC ? (v2 ? 7 : 4) : (v2 ? 5 : 3)) + shift
            guard fields.count == expected else { return bad("expected \(expected) fields") }
            guard let name = ExtractFormat.unescape(fields[1]), let t = termIndex[name] else {
                return bad("a term that is not in the header")
            }
            var time: Int64?
            if carriesTimes {
                guard let seconds = Int64(fields[2]) else { return bad("a time that is not a whole number of seconds") }
                time = seconds
                guard inWindow(time) else { return }
            }
            guard let count = Int(fields[(isC ? 3 : 2) + shift]), count >= 0 else { return bad("a count that is not a whole number") }
            finishTweet()
            if isC {
                guard let m = ExtractFormat.unescape(fields[2 + shift]), let kind = m.signedKind else {
                    return bad(ExtractFormat.unsigned)
                }
                guard kinds.has(kind) else { return }
                aggregator?.add(counted: count, term: t, mention: m, time: time)
                pairAggregator?.add(counted: count, term: t, mention: m)
            } else {
                aggregator?.add(counted: count, term: t, time: time)
                pairAggregator?.add(counted: count, term: t)
            }
            if v2 {
                let at = (isC ? 4 : 3) + shift
                guard let rts = Int(fields[at]), let authors = Int(fields[at + 1]), rts >= 0, authors >= 0 else {
                    return bad("a count that is not a whole number")
                }
                let display = isC ? ExtractFormat.unescape(fields[6 + shift]) : nil
                let extra = CountedColumns(retweets: rts, authors: authors, display: display)
                aggregator?.add(counted: extra, term: t, mention: isC ? ExtractFormat.unescape(fields[2 + shift]) : nil, time: time)
            }
        case "P":
            guard terms != nil else { return bad("a pair line before any header") }
            guard let pairAggregator else { return bad("a pair line: aggregate pair counts with --pairs") }
            guard fields.count == 5 else { return bad("expected 5 fields") }
            guard let name = ExtractFormat.unescape(fields[1]), let t = termIndex[name] else {
                return bad("a term that is not in the header")
            }
            guard let weight = Int(fields[4]), weight >= 0 else { return bad("a weight that is not a whole number") }
            guard let a = ExtractFormat.unescape(fields[2]), let b = ExtractFormat.unescape(fields[3]),
                  let ka = a.signedKind, let kb = b.signedKind else {
                return bad(ExtractFormat.unsigned)
            }
            guard kinds.has(ka), kinds.has(kb) else { return }
            guard a != b else { return bad("a pair of one mention with itself") }
            finishTweet()
            pairAggregator.add(counted: weight, term: t, pair: a, b)
        default:
            bad("it starts with neither H, M, T, N, C, P, A, S, J, X nor R")
        }
    }

    /// Whether a tweet of creation time `time` is within `--since`/`--until` (with `--by`).
    private func inWindow(_ time: Int64?) -> Bool {
        guard buckets != nil, let time else { return true }
        if let since = window.since, time < since { return false }
        if let until = window.until, time >= until { return false }
        return true
    }

    /// Counts the tweet being read and hands the tweets read so far to the
    /// aggregator; call at the end of input too.
    public func finishTweet() {
        closeTweet()
        handOn()
    }

    /// SPEC §16: after the last input, the reposts read that match a term,
    /// each carrying its subject's mentions, go to the aggregator.
    public func finishReposts() {
        finishTweet()
        guard let terms, let part = reposts.resolved(terms: terms, fields: builder.fields, counted: kinds, keep: { inWindow($0) })
        else { return }
        if pairs {
            for i in 0..<part.count where part.mentions(of: i).count > maxPairMentions {
                overLimit.note(OverLimitTweet(id: part.tweetIDs[i], mentions: part.mentions(of: i).count))
            }
        }
        guard part.count > 0 else { return }
        aggregator?.add(part)
        pairAggregator?.add(part)
        sink?.add(part)
    }

    /// Hands the part built so far to the aggregator.
    private func handOn() {
        let part = builder.take()
        guard part.count > 0 else { return }
        aggregator?.add(part)
        pairAggregator?.add(part)
        sink?.add(part)
    }

    /// Adds the tweet being read to the part being built (the part goes on when full).
    private func closeTweet() {
        if let c = current, inWindow(tweetTime) {
            let distinct = builder.append(id: c.id, mask: 1 << UInt64(c.term), mentions: mentions, text: { $0 },
                                          retweet: tweetFacts.retweet, author: tweetFacts.author,
                                          spellings: tweetFacts.spellings, time: tweetTime)
            if pairs && distinct > maxPairMentions {
                overLimit.note(OverLimitTweet(id: c.id, mentions: distinct, origin: tweetPlace?.origin, line: tweetPlace?.line))
            }
        }
        current = nil
        tweetTime = nil
        mentions.removeAll(keepingCapacity: true)
        tweetFacts = TweetFacts()
        if builder.count >= Self.partSize { handOn() }
    }
}

extension HandleBook {
    /// Reads a handle line of extract lines: `A DID HANDLE TIME`, or
    /// (`spelled` its letter) `S DID HANDLE COUNT [POST]`; the reason it is
    /// bad, or nil when read.
    public func read(handleLine fields: [Substring], spelled letter: String) -> String? {
        let isNamed = fields.first == "A"
        guard fields.count == 4 || !isNamed && fields.count == 5, let did = ExtractFormat.unescape(fields[1]),
              let handle = ExtractFormat.unescape(fields[2]), let n = Int64(fields[3]) else {
            return "a handle line is A or \(letter), a DID, a handle and a number (and, for \(letter), a post's identity)"
        }
        if isNamed {
            name(did: did, handle: handle, time: n)
        } else if fields.count == 5 {
            // The post as `J` lines write it (`PostIdentity.text`).
            guard let post = PostIdentity.parse(fields[4]), n > 0, n <= Int32.max else {
                return "a spelling line's post is a post's identity, its count from 1 to \(Int32.max)"
            }
            spelled(post: post, did: did, handle: handle, count: Int(n))
        } else {
            spelled(did: did, handle: handle, count: Int(clamping: n))
        }
        return nil
    }
}
