#if canImport(Glibc)
import Glibc
#endif

/// Where a record came from: the path, the chain of archive members leading
/// to it (outermost first), so messages can name both.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var members: [String]

    public init(path: String, members: [String] = []) {
        self.path = path
        self.members = members
    }

    func member(_ name: String) -> Origin { Origin(path: path, members: members + [name]) }

    /// `dumps/a.tar (member 2019/03/01/00.json.bz2)`, or the path alone.
    public var description: String {
        members.isEmpty ? path : "\(path) (member \(members.joined(separator: " » ")))"
    }
}

/// Where bad input goes when it is met on the consumer's thread, in input
/// order, rather than in a scan's pieces: the run's `ProblemLedger`, for a
/// reader that is its own consumer (`ExtractReader` under `aggregate`).
public protocol ProblemSink: AnyObject {
    /// Bad input: counted, and kept with its provenance while the sink has room.
    func problem(_ problem: InputProblem)
    /// A member or file passed over on purpose.
    func skipped(_ origin: Origin, reason: String)
}

/// Receives what the reader finds, in order.
public protocol RecordHandler: AnyObject {
    /// One record; the bytes are valid only during the call.
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin)
    /// One record that is an element of an array sharing its line with others
    /// (a one-line array): `element` is its index, `offset` the stream offset it starts at.
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin)
    /// Input that could not be read or framed.
    func problem(_ problem: InputProblem)
    /// A member or file passed over on purpose (not tweet data).
    func skipped(_ origin: Origin, reason: String)
    /// Whether to stop now (`--strict` after a problem, or an interrupt).
    var shouldStop: Bool { get }
    /// Called before the first record of a unit: `mapped` when the records
    /// will point into a memory-mapped file that outlives the call.
    func beginStream(mapped: Bool)
    /// A CSV stream starts: the rows up to the end of the stream are its rows.
    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin)
    /// One row of the current CSV stream; the bytes are valid only during the call.
    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin)
}

extension RecordHandler {
    public func beginStream(mapped: Bool) {}
    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        record(bytes, line: line, origin: origin)
    }
}

/// Something in the input that was skipped as bad (SPEC §8).
public struct InputProblem: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for summaries by reason.
    public enum Kind: String, Sendable, CaseIterable {
        case invalidJSON = "invalid JSON"
        case badRow = "bad CSV row"
        case notATweet = "not a tweet"
        case badID = "bad tweet id"
        case tooLong = "record too long"
        /// Not skipped: the tweet is kept with U+FFFD in place of the bad bytes.
        case invalidUTF8 = "invalid UTF-8 replaced"
        /// A file, member or stream with no bytes at all (a collector that died
        /// before writing): named, and stops a `--strict` run, but not a failure.
        case empty = "empty input"
        case unreadable = "unreadable input"
        case corrupt = "corrupt or truncated data"
        /// An input given up at one of `ReadPolicy`'s bounds (a bomb, not text, no tweets).
        case limit = "input limit reached"

        /// Whether it ends a whole stream or input (always shown: it says why the records stop).
        public var stopsStream: Bool { self == .corrupt || self == .unreadable || self == .limit }
    }

    public var kind: Kind
    public var origin: Origin
    /// The line the bad record starts on; nil for a whole file or stream.
    public var line: Int?
    /// For an element of an array that shares its line with others: its
    /// index in the array and the offset of its first byte in the stream.
    public var element: (index: Int, offset: Int64)?
    public var reason: String

    public init(_ kind: Kind, origin: Origin, line: Int?, reason: String) {
        self.kind = kind
        self.origin = origin
        self.line = line
        self.reason = reason
    }

    /// `line 1`, or `line 1, element 3 (byte 1234)` for an element of a one-line array.
    public var place: String? {
        guard let line else { return nil }
        guard let element else { return "line \(line)" }
        return "line \(line), element \(element.index) (byte \(element.offset))"
    }

    public var description: String {
        if let place { return "\(origin), \(place): \(reason)" }
        return "\(origin): \(reason)"
    }
}

/// Turns a file, a byte range, standard input or any `ByteSource` into
/// records, opening compressed streams and containers on the way — also
/// when a member is itself compressed or a container (SPEC §3).
///
/// One reader per worker: it owns the record buffer, which grows up to the
/// record cap and is reused for every input the worker reads.
public final class InputReader {
    public let maxRecord: Int
    /// The columns that make a stream a CSV export.
    public let csvColumns: CSVColumns
    /// What is read besides live tweets, and the bounds of one input's work.
    public var policy = ReadPolicy()
    private var buffer: UnsafeMutableRawBufferPointer
    /// Where live progress is counted, if anywhere.
    public var progress: RunControl?
    /// Bytes of input the last `read(_:handler:)` consumed (compressed size for compressed input).
    public private(set) var lastUnitBytes: Int64 = 0
    /// Containers nest at most this deep (a zip bomb of zips ends here).
    static let maxDepth = 8
    /// How deep they nest under `--no-input-limits` (recursion stays finite).
    static let maxDepthUnlimited = 32
    /// What the current input has cost so far, against `policy`'s bounds.
    private var budget = InputBudget()

    /// - Parameters:
    ///   - maxRecord: the longest record kept; longer ones are reported and skipped.
    ///   - bufferSize: the initial read buffer; it grows for long records.
    ///   - csvColumns: the id and text columns a CSV header must name.
    public init(maxRecord: Int = 16 << 20, bufferSize: Int = 4 << 20, csvColumns: CSVColumns = CSVColumns()) {
        self.maxRecord = maxRecord
        self.csvColumns = csvColumns
        buffer = .allocate(byteCount: max(16, bufferSize), alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// Reads one work unit and hands every record to `handler`.
    ///
    /// Problems are reported to the handler, never thrown: a bad member does
    /// not stop the next one.
    ///
    /// - Returns: the number of lines the unit spans (for byte ranges, whose
    ///   line numbers are relative to the range).
    @discardableResult
    public func read(_ unit: WorkUnit, handler: RecordHandler) -> Int {
        lastUnitBytes = 0
        budget = InputBudget()
        let origin = Origin(path: unit.displayPath)
        let source: ByteSource
        switch unit.kind {
        case .standardInput:
            source = FileSource(descriptor: 0)
        case .file(let path), .range(let path, _), .tarMember(let path, _, _):
            do {
                var range: Range<Int64>?
                if case .range(_, let r) = unit.kind { range = r }
                if case .tarMember(_, let r, _) = unit.kind { range = r }
                source = try FileSource(path: path, range: range)
            } catch {
                handler.problem(InputProblem(.unreadable, origin: origin, line: nil, reason: "cannot open: \(error.message)"))
                return 0
            }
        }
        if let file = source as? FileSource { file.progress = progress }
        budget.stored = source as? FileSource
        defer { budget.stored = nil }
        defer { if let file = source as? FileSource { lastUnitBytes += file.bytesRead } }
        if case .tarMember(_, _, let member) = unit.kind {
            return readFirstMember(source, origin: origin.member(member), handler: handler)
        }
        if case .range(let path, let r) = unit.kind, let now = InputReader.fileSize(source), now < r.upperBound {
            // Planned when the file was longer: it shrank before this range was read.
            handler.problem(InputProblem(.corrupt, origin: origin, line: nil,
                                         reason: "the file changed while it was read: it shrank to \(now) bytes, below this part of it "
                                            + "(bytes \(r.lowerBound)-\(r.upperBound) of \(path)); what was read before counts"))
            if now <= r.lowerBound { return 0 }
        }
        if let file = source as? FileSource, let mapped = MappedFile(file) {
            // A plain file: frame it in place, no copies.
            if case .range = unit.kind {
                return frame(mapped, origin: origin, layout: .lines, handler: handler)
            }
            let kind = StreamSniffer.kind(of: Array(mapped.bytes.prefix(4096)), columns: csvColumns,
                                         includeDeleted: policy.includeDeleted)
            if kind == .text && Magic.isISO9660(mapped.bytes) {
                return read(source, origin: origin, depth: 0, handler: handler)  // a disc image: libarchive reads it
            }
            if kind == .text && !passedOverScript(Array(mapped.bytes.prefix(4096)), origin: origin, handler: handler) {
                return frame(mapped, origin: origin, layout: .undecided, handler: handler)
            }
            if kind == .text { return 0 }
            if textOnlyProblem(kind, origin: origin, handler: handler) { return 0 }
        }
        if case .range = unit.kind {
            // A range of a file already known to be JSON lines.
            return frame(source, origin: origin, layout: .lines, handler: handler)
        }
        return read(source, origin: origin, depth: 0, reportEmpty: unit.kind != .standardInput, handler: handler)
    }

    /// The size of the regular file behind `source`, if it is one.
    static func fileSize(_ source: ByteSource) -> Int64? {
        guard let file = source as? FileSource else { return nil }
        var st = stat()
        guard fstat(file.fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// Reads the one member a `.tarMember` unit's range starts with.
    private func readFirstMember(_ source: ByteSource, origin: Origin, handler: RecordHandler) -> Int {
        do {
            let archive = try ArchiveReader(source: source)
            guard let entry = try archive.nextEntry(), entry.isRegularFile else { return 0 }
            if let target = entry.hardLink {
                handler.skipped(origin, reason: InputReader.hardLinkReason(target))
                return 0
            }
            return read(archive.entryData(), origin: origin, depth: 1, handler: handler)
        } catch {
            handler.problem(InputProblem(.corrupt, origin: origin, line: nil, reason: "corrupt tar member: \(error.message)"))
            return 0
        }
    }

    /// Frames a memory-mapped file (or range), handing out records in place.
    ///
    /// Pages already framed are given back every 16 MiB, so resident memory
    /// stays bounded however big the file is.
    private func frame(_ mapped: MappedFile, origin: Origin, layout: RecordFramer.Layout, handler: RecordHandler) -> Int {
        handler.beginStream(mapped: true)
        var framer = RecordFramer(layout: layout, maxRecord: maxRecord, csvColumns: csvColumns)
        let bytes = mapped.bytes
        var released = 0, counted = 0
        defer {
            progress?.addBytes(bytes.count - counted)
            lastUnitBytes += Int64(bytes.count)
        }
        // The framer sees the mapping a window at a time, so that skipping an
        // over-long record (a 1 GB line) gives its pages back as it goes
        // rather than holding them all resident until the record ends.
        var limit = min(bytes.count, InputReader.mappedWindow)
        while true {
            let event = framer.next(limit == bytes.count ? bytes : UnsafeRawBufferPointer(rebasing: bytes[..<limit]),
                                    isEnd: limit == bytes.count)
            if mapped.changed {
                handler.problem(shrank(mapped, origin: origin, line: framer.line))
                return framer.line - 1
            }
            switch event {
            case .record(let range, let line):
                if !budget.tweetLikeSeen, framer.layout != .csv,
                   let p = budget.noTweet(UnsafeRawBufferPointer(rebasing: bytes[range]), line: line, origin: origin, policy) {
                    handler.problem(p)
                    return framer.line - 1
                }
                if framer.layout == .csv {
                    handler.csvRow(UnsafeRawBufferPointer(rebasing: bytes[range]), line: line, origin: origin)
                } else if let place = framer.place(recordStart: range.lowerBound) {
                    handler.record(UnsafeRawBufferPointer(rebasing: bytes[range]), line: line, element: place.element,
                                   offset: place.offset, origin: origin)
                } else {
                    handler.record(UnsafeRawBufferPointer(rebasing: bytes[range]), line: line, origin: origin)
                }
                if handler.shouldStop { return framer.line - 1 }
                if range.upperBound - counted > 1 << 20 {
                    progress?.addBytes(range.upperBound - counted)
                    counted = range.upperBound
                }
                if range.lowerBound - released > 16 << 20 {
                    released = mapped.release(upTo: range.lowerBound)
                }
            case .csvHeader(let header, let line):
                handler.beginCSV(header, line: line, origin: origin)
            case .tooLong(let line):
                handler.problem(tooLong(origin, line))
                if handler.shouldStop { return framer.line - 1 }
            case .endless(let line):
                handler.problem(endless(origin, line))
                return framer.line - 1
            case .needMore:
                guard limit < bytes.count else { return framer.line - 1 }
                limit = min(bytes.count, limit + InputReader.mappedWindow)
                if framer.retainFrom - released > 16 << 20 { released = mapped.release(upTo: framer.retainFrom) }
            }
        }
    }

    /// How much of a mapped file the framer is shown at a time.
    static let mappedWindow = 64 << 20

    /// Reads a stream of unknown kind: sniffs it, then frames it or opens it with libarchive.
    ///
    /// - Parameter reportEmpty: whether a stream without a single byte is
    ///   reported (not for standard input, which may well be empty).
    @discardableResult
    public func read(_ source: ByteSource, origin: Origin, depth: Int = 0, reportEmpty: Bool = true,
                     handler: RecordHandler) -> Int {
        var prefix: [UInt8], stream: ByteSource
        do {
            (prefix, stream) = try sniff(source, count: 4096)
            if prefix.count == 4096 && prefix.contains(0),
               case .text = StreamSniffer.kind(of: prefix, columns: csvColumns, includeDeleted: policy.includeDeleted) {
                // Binary bytes that are no known format may be an ISO 9660 image's system
                // area (zeros, or a hybrid image's boot code): its magic is at 32 KiB.
                let deeper = try sniff(stream, count: Magic.isoMagicEnd)
                stream = deeper.source
                if Magic.isISO9660(deeper.prefix) { prefix = deeper.prefix }
            }
        } catch {
            // A file that cannot be read, or a member or stream damaged before its first bytes.
            handler.problem(source is FileSource
                ? InputProblem(.unreadable, origin: origin, line: nil, reason: "cannot read: \(error.message)")
                : InputProblem(.corrupt, origin: origin, line: 1, reason: "corrupt or truncated data, nothing could be read: \(error.message)"))
            return 0
        }
        if prefix.isEmpty {
            if reportEmpty { handler.problem(InputProblem(.empty, origin: origin, line: nil, reason: "empty, nothing to read")) }
            return 0
        }
        var kind = StreamSniffer.kind(of: prefix, columns: csvColumns, includeDeleted: policy.includeDeleted)
        if Magic.isISO9660(prefix) { kind = .archive(.container("iso9660")) }
        guard case .archive(let magic) = kind else {
            if textOnlyProblem(kind, origin: origin, handler: handler) { return 0 }
            if passedOverScript(prefix, origin: origin, handler: handler) { return 0 }
            return frame(stream, origin: origin, layout: .undecided, handler: handler)
        }
        let maxDepth = policy.maxMembers == nil ? InputReader.maxDepthUnlimited : InputReader.maxDepth
        guard depth < maxDepth else {
            handler.problem(InputProblem(.limit, origin: origin, line: nil,
                                         reason: "archives nested more than \(maxDepth) deep; not opened"
                                            + (policy.maxMembers == nil ? "" : " (--no-input-limits opens \(InputReader.maxDepthUnlimited))")))
            return 0
        }
        if magic == .compressed("gzip") {
            // zlib checks what libarchive's gzip filter does not: each member's CRC-32 and length.
            let gzip = GzipSource(stream)
            let lines = read(gzip, origin: origin, depth: depth + 1, handler: handler)
            if let trailing = gzip.trailing {
                handler.problem(InputProblem(.corrupt, origin: origin, line: nil, reason: trailing))
            }
            return lines
        }
        let archive: ArchiveReader
        do {
            archive = try ArchiveReader(source: stream)
        } catch {
            handler.problem(InputProblem(error.notDamage ? .unreadable : .corrupt, origin: origin, line: nil,
                                         reason: error.notDamage ? error.message
                                            : "corrupt or truncated \(magic.name) data, skipped: \(error.message)"))
            return 0
        }
        var lines = 0
        while !handler.shouldStop && !budget.spent {
            let entry: ArchiveReader.Entry
            do {
                guard let next = try archive.nextEntry(damaged: { error in
                    handler.problem(InputProblem(.corrupt, origin: origin, line: nil,
                                                 reason: "damaged \(magic.name) header, its member is lost; the members after it are read (\(error.message))"))
                }) else { break }
                entry = next
            } catch {
                handler.problem(InputProblem(error.notDamage ? .unreadable : .corrupt, origin: origin, line: nil,
                                             reason: error.notDamage ? error.message
                                                : "corrupt or truncated \(magic.name) data, the rest is skipped: \(error.message)"))
                break
            }
            guard entry.isRegularFile else { continue }
            budget.members += 1
            if let max = policy.maxMembers, budget.members > max {
                budget.spent = true
                handler.problem(InputProblem(.limit, origin: origin, line: nil,
                                             reason: "more than \(max) archive members in one input (nested archives, a zip "
                                                + "bomb?): the rest is skipped (--no-input-limits reads on)"))
                break
            }
            if entry.isRaw {
                lines += read(archive.entryData(), origin: origin, depth: depth + 1, handler: handler)
                continue
            }
            let memberOrigin = origin.member(entry.path)
            if let target = entry.hardLink {
                handler.skipped(memberOrigin, reason: InputReader.hardLinkReason(target))
                continue
            }
            if let why = InputReader.skipReason(name: entry.path) {
                handler.skipped(memberOrigin, reason: why)
                continue
            }
            _ = read(archive.entryData(), origin: memberOrigin, depth: depth + 1, handler: handler)
        }
        return lines
    }

    /// Frames a stream into records.
    ///
    /// - Returns: the number of lines read.
    private func frame(_ source: ByteSource, origin: Origin, layout: RecordFramer.Layout,
                       handler: RecordHandler) -> Int {
        var framer = RecordFramer(layout: layout, maxRecord: maxRecord, csvColumns: csvColumns)
        var filled = 0
        var atEnd = false
        while true {
            let event = framer.next(UnsafeRawBufferPointer(start: buffer.baseAddress, count: filled), isEnd: atEnd)
            switch event {
            case .record(let range, let line):
                let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[range])
                if !budget.tweetLikeSeen, framer.layout != .csv, let p = budget.noTweet(bytes, line: line, origin: origin, policy) {
                    handler.problem(p)
                    return framer.line - 1
                }
                if framer.layout == .csv {
                    handler.csvRow(bytes, line: line, origin: origin)
                } else if let place = framer.place(recordStart: range.lowerBound) {
                    handler.record(bytes, line: line, element: place.element, offset: place.offset, origin: origin)
                } else {
                    handler.record(bytes, line: line, origin: origin)
                }
                if handler.shouldStop { return framer.line - 1 }
            case .csvHeader(let header, let line):
                handler.beginCSV(header, line: line, origin: origin)
            case .tooLong(let line):
                handler.problem(tooLong(origin, line))
            case .endless(let line):
                handler.problem(endless(origin, line))
                return framer.line - 1
            case .needMore:
                // Between reads, so that --strict or an interrupt also stops a stream
                // that yields no records (an over-long one being skipped).
                if atEnd || handler.shouldStop { return framer.line - 1 }
                let keep = framer.retainFrom
                if keep > 0 {
                    if filled > keep { memmove(buffer.baseAddress!, buffer.baseAddress! + keep, filled - keep) }
                    filled -= keep
                    framer.shift(by: keep)
                }
                if filled > buffer.count / 2 { grow() }
                do {
                    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                    if n == 0 { atEnd = true }
                    filled += n
                    budget.expanded += Int64(n)
                    if let p = budget.overExpanded(origin: origin, line: framer.line, policy) {
                        handler.problem(p)
                        return framer.line - 1
                    }
                } catch {
                    handler.problem(InputProblem(.corrupt, origin: origin, line: framer.line,
                                                 reason: "corrupt or truncated data, the rest is skipped: \(error.message)"))
                    return framer.line - 1
                }
            }
        }
    }

    /// Why a hard-link member is passed over: its bytes are its target's, read there.
    static func hardLinkReason(_ target: String) -> String {
        "a hard link to \(target), whose tweets are read there (not again)"
    }

    /// The file shrank while it was mapped: what was read counts, the rest is gone.
    private func shrank(_ mapped: MappedFile, origin: Origin, line: Int) -> InputProblem {
        InputProblem(.corrupt, origin: origin, line: line,
                     reason: "the file changed while it was read: it shrank from \(mapped.sizeWhenMapped) to \(mapped.sizeNow) bytes "
                        + "(truncated or rewritten, as logrotate's copytruncate does); what was read before counts, the rest is not read")
    }

    private func tooLong(_ origin: Origin, _ line: Int) -> InputProblem {
        InputProblem(.tooLong, origin: origin, line: line,
                     reason: "record longer than --max-record (\(maxRecord) bytes), skipped")
    }

    private func endless(_ origin: Origin, _ line: Int) -> InputProblem {
        let run = RecordFramer(maxRecord: maxRecord).endlessRun
        return InputProblem(.tooLong, origin: origin, line: line,
                            reason: "no record in the \(run) bytes from here on (64 × --max-record: no line end, or only "
                                + "blank lines): not text, or a decompression bomb; the rest of the stream is skipped")
    }

    private func grow() {
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 64)
        bigger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = bigger
    }

    // MARK: What is not tweet data

    /// File endings that are never dumps: an account archive's pages, media
    /// and fonts, and a folder's documentation. Skipped in folders and
    /// containers; a file named on the command line is always read.
    static let nonDataExtensions: Set<String> = [
        "html", "htm", "css", "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff",
        "mp4", "mov", "webm", "m4a", "m4v", "mp3", "ogg", "wav", "woff", "woff2", "ttf", "otf", "eot",
        "pdf", "md", "rst", "yml", "yaml", "py", "sh", "swift", "map",
    ]

    /// Names of a folder's own documents (any ending): `LICENSE`, `README.md`, …
    static let nonDataNames: Set<String> = ["LICENSE", "LICENCE", "COPYING", "README", "NOTICE", "AUTHORS", "CHANGELOG"]

    /// Why a member or walked file is skipped by its name, or nil to read it.
    public static func skipReason(name: String) -> String? {
        let parts = name.split(separator: "/").filter { $0 != "." && $0 != ".." }  // `./a.json` is not hidden
        if parts.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" }) { return "hidden" }
        guard let last = parts.last else { return nil }
        let stem = last.split(separator: ".").first.map { $0.uppercased() } ?? ""
        if nonDataNames.contains(stem) { return "not tweet data (\(last))" }
        guard let dot = last.lastIndex(of: ".") else { return nil }
        let ext = last[last.index(after: dot)...].lowercased()
        return nonDataExtensions.contains(ext) ? "not tweet data (.\(ext))" : nil
    }

    /// The kind of an account-archive `window.YTD.<kind>.partN` file that is
    /// not tweets (likes, followers, …); nil for tweets and everything else.
    static func nonTweetArchiveData(_ prefix: [UInt8]) -> String? { StreamSniffer.nonTweetArchiveData(prefix) }

    /// Passes over a `.js` file that is neither JSON nor account-archive data:
    /// an archive's own scripts (`assets/js/…`), which no dump holds.
    private func passedOverScript(_ prefix: [UInt8], origin: Origin, handler: RecordHandler) -> Bool {
        let name = origin.members.last ?? origin.path
        guard name.utf8.count > 3, name.lowercased().hasSuffix(".js") else { return false }
        let i = StreamSniffer.contentStart(prefix)
        guard i < prefix.count else { return false }
        if prefix[i] == UInt8(ascii: "[") || prefix[i] == UInt8(ascii: "{") { return false }
        if prefix[i...].starts(with: Array("window.YTD.".utf8)) { return false }
        handler.skipped(origin, reason: "a script (.js that is not JSON or account-archive data), no tweets")
        return true
    }

    /// Passes over a text stream the sniffer says holds no tweets, or names
    /// it as bad; false for a stream to frame.
    private func textOnlyProblem(_ kind: StreamSniffer.Kind, origin: Origin, handler: RecordHandler) -> Bool {
        switch kind {
        case .nonTweetArchiveData(let name):
            handler.skipped(origin, reason: "account-archive data that holds no tweets (\(name))")
            return true
        case .archiveManifest:
            handler.skipped(origin, reason: "the account archive's manifest (window.__THAR_CONFIG), no tweets")
            return true
        case .deletedTweets:
            handler.skipped(origin, reason: "tweets the account deleted (deleted_tweets); --deleted include reads them")
            return true
        case .unrecognisedCSV(let why):
            handler.problem(InputProblem(.notATweet, origin: origin, line: nil, reason: why))
            return true
        case .text, .archive: return false
        }
    }
}

extension Magic {
    var name: String {
        switch self {
        case .compressed(let n), .container(let n): return n
        case .plain: return "plain"
        }
    }
}
