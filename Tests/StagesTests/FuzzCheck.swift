import Stages

/// What the fuzzer does with one input, shared by the libFuzzer target
/// (`Tests/Fuzz`, which links this file) and the regression tests that
/// replay every input it ever crashed on (`Tests/Fixtures/fuzz`).
///
/// Each `Target` reads the input its own way (`FUZZ_TARGET` picks one):
///
/// - `stream`: the bytes are read as a stream (`InputReader` over a
///   `MemorySource`) with several read and buffer sizes and a small record
///   cap, so the framer's boundary, cap and end-of-input paths all run;
///   every record goes through the decoder, the extractor and the matcher
///   (`UnitScanner`). Then the whole input is decoded as one record.
/// - `bluesky`, `mastodon`, `links`: the bytes (and, for `mastodon` and
///   `links`, a post made of them) go through every command's consumer
///   (`CommandRun`): every kind of mention (symbols, links, hosts,
///   domains, posters), report's, trend's and posts' aggregators and
///   their documents, and the lines of `extract --trend` and
///   `extract --posts` read back by `aggregate --trend` and `--posts`.
/// - `trend`, `posts`: the bytes as the lines `aggregate --trend` and
///   `aggregate --posts` read, then as posts through `CommandRun`.
///
/// Besides crashes, sanitizer reports and hangs, properties are checked:
/// framing does not depend on how the bytes arrive (every read size must
/// yield the same records, lines, problems and documents as one read of
/// everything); a table for a terminal holds no control character; and
/// `aggregate --trend` and `aggregate --posts` write, from the extract lines
/// of a run, what `trend` and `posts` write from the run itself.
enum FuzzCheck {
    static let maxRecord = 512

    /// What an input is read as.
    enum Target: String, CaseIterable {
        case stream, bluesky, mastodon, links, trend, posts

        /// A saved input's target, from its file name's first word
        /// (`mastodon-deep-nesting`); `stream` for any other name.
        static func of(fileName: String) -> Target {
            let word = fileName.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
            return Target(rawValue: word) ?? .stream
        }
    }

    /// Runs one input; returns a description of a broken property, or nil.
    static func run(_ bytes: [UInt8], target: Target = .stream) -> String? {
        switch target {
        case .stream:
            return alone { stream(bytes) }
        case .bluesky:
            return alone { CommandRun.check(bytes) } ?? alone { CommandRun.check(FuzzPost.jetstream(bytes)) }
        case .mastodon:
            return alone { CommandRun.check(bytes) } ?? alone { CommandRun.check(FuzzPost.mastodon(bytes)) }
        case .links:
            let tweet = FuzzPost.tweet(bytes)
            return alone { CommandRun.check(bytes) } ?? alone { CommandRun.check(tweet) }
                ?? alone { CommandRun.check(tweet, extractor: TextExtractor(kinds: .every)) }
        case .trend:
            return alone { LinesRun.check(bytes, posts: false) } ?? alone { CommandRun.check(bytes) }
        case .posts:
            return alone { LinesRun.check(bytes, posts: true) } ?? alone { CommandRun.check(bytes) }
        }
    }

    /// One check as a run of its own: Bluesky handles (`HandleBook.shared`)
    /// are a process's, and each check stands for a command run by itself
    /// (an `aggregate --posts` then a `trend` are two processes), so the
    /// book starts and ends empty.
    private static func alone(_ check: () -> String?) -> String? {
        HandleBook.shared.removeAll()
        defer { HandleBook.shared.removeAll() }
        return check()
    }

    /// The read sizes of a check: one read of everything, then smaller ones.
    /// A stream that starts with an archive's magic goes to libarchive: read it once.
    static func splits(_ bytes: [UInt8], all: Bool) -> [(chunk: Int, buffer: Int)] {
        if Magic.detect(Array(bytes.prefix(4096))).needsArchive { return [(.max, 1 << 16)] }
        return all ? [(.max, 1 << 16), (1, 16), (7, 64), (61, 1000), (4093, 4096)] : [(.max, 1 << 16), (1, 16), (61, 1000)]
    }

    static func stream(_ bytes: [UInt8]) -> String? {
        var first: [String]?
        for (chunk, buffer) in splits(bytes, all: true) {
            let log = FuzzLog()
            let reader = InputReader(maxRecord: maxRecord, bufferSize: buffer)
            reader.read(MemorySource(bytes, chunk: chunk), origin: Origin(path: "fuzz"), handler: log)
            _ = log.scanner.finish(lines: 0)
            if let first, first != log.events {
                return "framing differs with reads of \(chunk) bytes:\n  \(first)\n  \(log.events)"
            }
            if first == nil { first = log.events }
        }
        // The decoder on the whole input as one record, as a pretty-printed document reaches it.
        let whole = FuzzLog()
        bytes.withUnsafeBytes { whole.scanner.record($0, line: 1, origin: Origin(path: "fuzz")) }
        _ = whole.scanner.finish(lines: 1)
        return nil
    }

    /// The first control character of a table meant for a terminal (a line
    /// break aside), described; nil when there is none.
    static func controlCharacter(in table: String, of what: String) -> String? {
        for s in table.unicodeScalars where s != "\n" && (s.value < 0x20 || (0x7F...0x9F).contains(s.value)) {
            let hex = String(s.value, radix: 16, uppercase: true)
            return "\(what): control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) in the table:\n\(table)"
        }
        return nil
    }

    /// The terms every check matches: every form (SPEC §2, §13), and `*` for everything.
    static let terms = ["*", "#rust", "@bob", "from:ann", "$aapl", "domain:example.com", "url:example.com/x",
                        "stanford"].map { try! Term(parsing: $0) }

    /// Trend's windows: the day of the trend fixtures (`--current 1d --now
    /// 2020-03-08T10:00:00Z --baseline mean:2`), and 2024-05-01, the day of the
    /// Bluesky and Mastodon fixtures, against the day before.
    static let windows: [TrendWindows] = {
        let utc = try! ZoneOffsets("UTC")
        return [try! TrendWindows(current: .last(1, .day), baseline: .mean(2), now: 1_583_661_600, zone: utc),
                try! TrendWindows(current: .span(1_714_521_600, 1_714_608_000), baseline: .previous, now: 1_714_608_000, zone: utc)]
    }()
}

/// Problems and skipped members, in order (a `ProblemSink` for the line readers).
final class FuzzProblems: ProblemSink {
    var events: [String] = []
    func problem(_ problem: InputProblem) { events.append("problem \(problem)") }
    func skipped(_ origin: Origin, reason: String) { events.append("skipped \(origin): \(reason)") }
}

/// Posts made of the fuzzer's bytes, so that they land where a decoder
/// reads a field (a text, a link, an HTML `content`) and not only where it
/// reads a whole record.
enum FuzzPost {
    /// `bytes` as a JSON string's contents: quotes, backslashes and control
    /// bytes escaped, every other byte (invalid UTF-8 too) as it is.
    static func string(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
            case 0..<0x20: out += Array("\\u00\(b < 0x10 ? "0" : "")\(String(b, radix: 16))".utf8)
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// A Jetstream post whose text is `bytes`, with a tag facet over its first
    /// half and a link facet over the rest (ranges that may split a character).
    static func jetstream(_ bytes: [UInt8]) -> [UInt8] {
        let half = bytes.count / 2
        return Array(#"{"did":"did:plc:fz","time_us":1714561200000000,"kind":"commit","commit":{"rev":"r","operation":"create","collection":"app.bsky.feed.post","rkey":"f1","record":{"$type":"app.bsky.feed.post","createdAt":"2024-05-01T11:00:00.000Z","langs":["en"],"text":"#.utf8)
            + string(bytes) + Array(#","facets":[{"index":{"byteStart":0,"byteEnd":\#(half)},"features":[{"$type":"app.bsky.richtext.facet#tag","tag":"#.utf8)
            + string(bytes.prefix(half)) + Array(#"}]},{"index":{"byteStart":\#(half),"byteEnd":\#(bytes.count)},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"#.utf8)
            + string(bytes.dropFirst(half)) + Array(#"},{"$type":"app.bsky.richtext.facet#mention","did":"did:plc:aaa"}]}]},"cid":"c"}}"#.utf8)
            + [UInt8(ascii: "\n")]
    }

    /// A Mastodon status whose HTML `content`, tag and account name are `bytes`.
    static func mastodon(_ bytes: [UInt8]) -> [UInt8] {
        Array(#"{"id":"7","uri":"https://m.example/users/ann/statuses/7","created_at":"2024-05-01T10:00:00.000Z","account":{"id":"1","acct":"ann","display_name":"#.utf8)
            + string(bytes.prefix(64)) + Array(#","url":"https://m.example/@ann"},"content":"#.utf8) + string(bytes)
            + Array(#","tags":[{"name":"#.utf8) + string(bytes.prefix(64)) + Array(#"}],"mentions":[],"language":"en","reblog":null}"#.utf8)
            + [UInt8(ascii: "\n")]
    }

    /// A v1.1 tweet whose text, expanded link and symbol are `bytes`.
    static func tweet(_ bytes: [UInt8]) -> [UInt8] {
        let s = string(bytes)
        return Array(#"{"created_at":"Wed May 01 10:00:00 +0000 2024","id":1,"id_str":"1","text":"#.utf8) + s
            + Array(#","user":{"screen_name":"ann"},"entities":{"hashtags":[],"user_mentions":[],"symbols":[{"text":"#.utf8) + s
            + Array(#","indices":[0,1]}],"urls":[{"url":"https://t.co/x","expanded_url":"#.utf8) + s
            + Array(#","indices":[0,1]}]}}"#.utf8) + [UInt8(ascii: "\n")]
    }
}

/// Logs what the reader hands out (to compare read sizes) and passes every
/// record on to a `UnitScanner`.
final class FuzzLog: RecordHandler {
    static let terms = ["*", "#stanford", "@nasa", "from:nasa", "stanford"].map { try! Term(parsing: $0) }
    let scanner = UnitScanner(terms: FuzzLog.terms, control: RunControl(strict: false))
    var events: [String] = []

    init() { scanner.begin() }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        events.append("record line \(line) \(origin): \(bytes.count) bytes \(String(hash, radix: 16)) "
                      + String(decoding: bytes.prefix(24), as: UTF8.self).debugDescription)
        scanner.record(bytes, line: line, origin: origin)
    }

    /// An element of a one-line array: its index and offset must not depend on the reads either.
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        events.append("element \(element) at byte \(offset)")
        record(bytes, line: line, origin: origin)
    }

    func problem(_ problem: InputProblem) {
        events.append("problem \(problem)")
        scanner.problem(problem)
    }

    func skipped(_ origin: Origin, reason: String) { events.append("skipped \(origin): \(reason)") }

    var shouldStop: Bool { false }
}

/// One input through what `report`, `trend`, `posts` and `extract` do with
/// it: three scanners (each with the fields its command asks for, every
/// kind of mention) feed report's, trend's and posts' aggregators, whose
/// documents are rendered; trend's and posts' parts also become extract
/// lines, read back as `aggregate` reads them.
final class CommandRun: RecordHandler {
    /// A report's fields with every column, and `extract --trend`'s.
    static var reportFields: PostFields {
        var f = PostFields.all
        f.mentionKinds = .every
        return f
    }
    static var postsFields: PostFields {
        var f = PostFields()
        f.mentionKinds = []
        f.references = true
        f.texts = true
        return f
    }

    let report, trend, posts: UnitScanner
    var events: [String] = []

    init(extractor: @autoclosure () -> MentionExtractor) {
        let control = RunControl(strict: false)
        report = UnitScanner(terms: FuzzCheck.terms, extractor: extractor(), control: control, facts: Self.reportFields, times: true)
        trend = UnitScanner(terms: FuzzCheck.terms, extractor: extractor(), control: control,
                            facts: TrendAggregator.fields(kinds: .every), times: true)
        posts = UnitScanner(terms: FuzzCheck.terms, extractor: extractor(), control: control, facts: Self.postsFields)
        for s in [report, trend, posts] { s.begin() }
    }

    /// Reads `bytes` at several read sizes; a description of a broken property, or nil.
    static func check(_ bytes: [UInt8], extractor: @autoclosure () -> MentionExtractor = EntitiesExtractor(kinds: .every)) -> String? {
        var first: [String]?
        for (chunk, buffer) in FuzzCheck.splits(bytes, all: false) {
            let run = CommandRun(extractor: extractor())
            let reader = InputReader(maxRecord: FuzzCheck.maxRecord, bufferSize: buffer)
            reader.read(MemorySource(bytes, chunk: chunk), origin: Origin(path: "fuzz"), handler: run)
            let outputs: [String]
            switch run.outputs() {
            case .failure(let broken): return broken.description
            case .success(let o): outputs = o
            }
            let seen = run.events + outputs
            if let first, first != seen {
                return "output differs with reads of \(chunk) bytes:\n  \(first)\n  \(seen)"
            }
            if first == nil { first = seen }
        }
        return nil
    }

    /// Every document of the run, or a broken property.
    func outputs() -> Result<[String], FuzzFailure> {
        let reportPart = report.finish(lines: 0), trendPart = trend.finish(lines: 0), postsPart = posts.finish(lines: 0)
        var out: [String] = []

        // report
        let aggregator = Aggregator(terms: FuzzCheck.terms, facts: Self.reportFields)
        aggregator.add(reportPart)
        let reports = aggregator.reports(minCount: 1, top: nil).map { $0.showingHandles() }
        let table = ReportWriter.render(reports, as: .table, width: 80)
        if let bad = FuzzCheck.controlCharacter(in: table, of: "report") { return .failure(FuzzFailure(bad)) }
        out += [table, ReportWriter.render(reports, as: .csv), ReportWriter.render(reports, as: .json)]
        let page = (try? ReportWriter.bytes(ReportDocument(reports: reports), as: .html)) ?? []
        out.append(String(decoding: page, as: UTF8.self))

        // trend, and aggregate --trend from extract --trend's lines
        for windows in FuzzCheck.windows {
            let direct = TrendAggregator(terms: FuzzCheck.terms, windows: windows, kinds: .every)
            direct.add(trendPart)
            let trends = direct.trends(minimum: 1, byTweets: false, all: true, top: nil)
            let table = TrendWriter.render(trends, as: .table, width: 80)
            if let bad = FuzzCheck.controlCharacter(in: table, of: "trend") { return .failure(FuzzFailure(bad)) }
            let csv = TrendWriter.render(trends, as: .csv)
            out += [table, csv, TrendWriter.render(trends, as: .json)]

            var lines = ""
            let writer = ExtractWriter(terms: FuzzCheck.terms, facts: true, times: true) { lines += $0; return true }
            writer.add(reportPart)
            writer.writeHandles()
            writer.flush()
            let problems = FuzzProblems()
            let reader = ExtractReader(control: RunControl(strict: false), facts: TrendAggregator.fields(kinds: .every), problems: problems) {
                TrendAggregator(terms: $0, windows: windows, kinds: .every)
            }
            LinesRun.read(Array(lines.utf8), chunk: .max, buffer: 1 << 16, into: reader)
            reader.finishTweet()
            guard let read = reader.sink as? TrendAggregator else { return .failure(FuzzFailure("aggregate --trend: no header in\n\(lines)")) }
            let again = TrendWriter.render(read.trends(minimum: 1, byTweets: false, all: true, top: nil), as: .csv)
            if again != csv || !problems.events.isEmpty {
                return .failure(FuzzFailure("aggregate --trend differs from trend:\n\(csv)\n\(again)\n\(problems.events)\nlines:\n\(lines)"))
            }
        }

        // posts, and aggregate --posts from extract --posts's lines
        let postsAggregator = PostsAggregator(terms: FuzzCheck.terms, texts: true)
        postsAggregator.add(postsPart)
        let result = postsAggregator.posts(minCount: 1, top: nil)
        let postsTable = PostsWriter.render(result, columns: PostsColumn.allCases, as: .table, width: 80)
        if let bad = FuzzCheck.controlCharacter(in: postsTable, of: "posts") { return .failure(FuzzFailure(bad)) }
        let postsCSV = String(decoding: (try? PostsWriter.bytes(result, columns: PostsColumn.allCases, as: .csv)) ?? [], as: UTF8.self)
        out += [postsTable, postsCSV, PostsWriter.render(result, columns: PostsColumn.allCases, as: .json)]

        var lines = ""
        let writer = PostsLineWriter(terms: FuzzCheck.terms, texts: true) { lines += $0; return true }
        writer.add(postsPart)
        writer.flush()
        let problems = FuzzProblems()
        let reader = PostsLineReader(control: RunControl(strict: false), texts: true, problems: problems)
        LinesRun.read(Array(lines.utf8), chunk: .max, buffer: 1 << 16, into: reader)
        guard let read = reader.aggregator else { return .failure(FuzzFailure("aggregate --posts: no header in\n\(lines)")) }
        let again = String(decoding: (try? PostsWriter.bytes(read.posts(minCount: 1, top: nil), columns: PostsColumn.allCases, as: .csv)) ?? [],
                           as: UTF8.self)
        if again != postsCSV || !problems.events.isEmpty {
            return .failure(FuzzFailure("aggregate --posts differs from posts:\n\(postsCSV)\n\(again)\n\(problems.events)\nlines:\n\(lines)"))
        }
        return .success(out)
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        events.append("record line \(line): \(bytes.count) bytes \(String(hash, radix: 16))")
        for s in [report, trend, posts] { s.record(bytes, line: line, origin: origin) }
    }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        events.append("element \(element) at byte \(offset)")
        record(bytes, line: line, origin: origin)
    }

    func problem(_ problem: InputProblem) {
        events.append("problem \(problem)")
        for s in [report, trend, posts] { s.problem(problem) }
    }

    func skipped(_ origin: Origin, reason: String) { events.append("skipped \(origin): \(reason)") }

    var shouldStop: Bool { false }
}

/// A broken property, as `Result`'s failure.
struct FuzzFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The input as the lines `aggregate --trend` (`extract --trend`'s) or
/// `aggregate --posts` (`extract --posts`'s) reads, at several read sizes.
enum LinesRun {
    /// Reads `bytes` into `handler` as `aggregate` reads its inputs.
    static func read(_ bytes: [UInt8], chunk: Int, buffer: Int, into handler: RecordHandler) {
        let reader = InputReader(maxRecord: FuzzCheck.maxRecord, bufferSize: buffer)
        reader.policy.maxRecordsWithoutTweet = nil
        reader.read(MemorySource(bytes, chunk: chunk), origin: Origin(path: "fuzz"), handler: handler)
    }

    static func check(_ bytes: [UInt8], posts: Bool) -> String? {
        var first: [String]?
        for (chunk, buffer) in FuzzCheck.splits(bytes, all: false) {
            let problems = FuzzProblems()
            var out: [String] = []
            if posts {
                let reader = PostsLineReader(control: RunControl(strict: false), texts: true, problems: problems)
                read(bytes, chunk: chunk, buffer: buffer, into: reader)
                if let aggregator = reader.aggregator {
                    let result = aggregator.posts(minCount: 1, top: nil)
                    let table = PostsWriter.render(result, columns: PostsColumn.allCases, as: .table, width: 80)
                    if let bad = FuzzCheck.controlCharacter(in: table, of: "aggregate --posts") { return bad }
                    out += [table, PostsWriter.render(result, columns: PostsColumn.allCases, as: .json)]
                    out.append(String(decoding: (try? PostsWriter.bytes(result, columns: PostsColumn.allCases, as: .html)) ?? [], as: UTF8.self))
                }
            } else {
                for windows in FuzzCheck.windows {
                    let reader = ExtractReader(control: RunControl(strict: false), facts: TrendAggregator.fields(kinds: .every),
                                               problems: problems) { TrendAggregator(terms: $0, windows: windows, kinds: .every) }
                    read(bytes, chunk: chunk, buffer: buffer, into: reader)
                    reader.finishTweet()
                    guard let aggregator = reader.sink as? TrendAggregator else { continue }
                    let trends = aggregator.trends(minimum: 1, byTweets: false, all: true, top: nil)
                    let table = TrendWriter.render(trends, as: .table, width: 80)
                    if let bad = FuzzCheck.controlCharacter(in: table, of: "aggregate --trend") { return bad }
                    out += [table, TrendWriter.render(trends, as: .csv), TrendWriter.render(trends, as: .json)]
                    out.append(String(decoding: (try? TrendWriter.bytes(trends, as: .html)) ?? [], as: UTF8.self))
                }
            }
            let seen = problems.events + out
            if let first, first != seen {
                return "output differs with reads of \(chunk) bytes:\n  \(first)\n  \(seen)"
            }
            if first == nil { first = seen }
        }
        return nil
    }
}
