/// Tweets read from a stretch of one work unit, in input order: what the
/// store keeps of each (SPEC §10). The seam between the parallel readers and
/// the store's single writer, as `Extraction` is for a report.
///
/// - Complexity: memory O(tweets × mentions) of the chunk; keys and
///   texts are stored once per chunk and per tweet.
struct IngestChunk {
    var ids: [UInt64] = []
    /// Seconds since 1970 (`CreatedAt`), or nil when unknown.
    var createdAt: [Int64?] = []
    /// Index into `keys` of the author's `@name`, or -1.
    var authors: [Int32] = []
    /// End of tweet i's mentions in `mentions` (its start is the previous end).
    var mentionEnds: [Int32] = []
    /// Indices into `keys`.
    var mentions: [Int32] = []
    /// Signed, normalised keys (`#swift`, `@nasa`) this chunk uses.
    var keys: [String] = []
    /// Full texts (the retweeted tweet's for a retweet), when the store keeps them.
    var texts: [String?] = []

    var stats = RunStats()
    var problems: [InputProblem] = []
    var skipped: [(origin: Origin, reason: String)] = []
    /// Lines the unit spans; set on its last chunk.
    var lines = 0
    /// Set on a last chunk when the run was stopped before the unit was read
    /// to its end: the unit's file is not recorded as ingested.
    var cutShort = false

    var count: Int { ids.count }

    func mentions(of i: Int) -> ArraySlice<Int32> {
        let start = i == 0 ? 0 : Int(mentionEnds[i - 1])
        return mentions[start..<Int(mentionEnds[i])]
    }
}

/// The per-worker stages of an ingest, record by record: decode, extract,
/// and keep every tweet (not only those matching a term) with its id,
/// author, creation time, mention set and, with `keepText`, full text.
///
/// The mention set is exactly the one `EntitiesExtractor` gives a report,
/// so a report from the store equals a report from the dumps. A unit's
/// tweets leave in chunks of `chunkSize` through `emit`, so a big compressed
/// file streams into the store instead of piling up in memory.
final class IngestScanner: RecordHandler {
    private let decoder = TweetDecoder()
    private let table = MentionTable()
    private let extractor: MentionExtractor
    private let control: RunControl
    private let keepText: Bool
    private let chunkSize: Int
    private var mentions = MentionSet()
    private var chunk = IngestChunk()
    private var localKeys: [Int32: Int32] = [:]
    /// Receives each full chunk, then the unit's last one (`last` true).
    var emit: (_ chunk: IngestChunk, _ last: Bool) -> Void = { _, _ in }

    init(keepText: Bool, chunkSize: Int, control: RunControl, extractor: MentionExtractor = EntitiesExtractor()) {
        self.keepText = keepText
        self.chunkSize = max(1, chunkSize)
        self.control = control
        self.extractor = extractor
    }

    func begin() {
        chunk = IngestChunk()
        localKeys.removeAll(keepingCapacity: true)
    }

    /// Emits the unit's last chunk, with its line count and the unit's input count and bytes.
    func finish(lines: Int, inputs: Int, bytes: Int64) {
        chunk.lines = lines
        chunk.cutShort = control.isStopped
        chunk.stats.inputs = inputs
        chunk.stats.bytes = bytes
        emit(chunk, true)
        begin()
    }

    var shouldStop: Bool { control.isStopped }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        chunk.stats.records += 1
        do {
            try decoder.decode(bytes)
        } catch {
            problem(InputProblem(.invalidJSON, origin: origin, line: line, reason: error.message))
            return
        }
        for rejected in decoder.rejected {
            problem(InputProblem(rejected == .badID ? .badID : .notATweet, origin: origin, line: line, reason: rejected.message))
        }
        chunk.stats.notices += decoder.notices
        for index in decoder.outputs {
            add(index)
        }
        if chunk.count >= chunkSize {
            emit(chunk, false)
            begin()
        }
    }

    // MARK: CSV exports, as `UnitScanner` reads them

    private let csv = CSVDecoder()
    private let textExtractor = TextExtractor()

    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) { csv.header = header }

    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        chunk.stats.records += 1
        do {
            try csv.decode(bytes, into: decoder)
        } catch {
            problem(InputProblem(.badRow, origin: origin, line: line, reason: error.message))
            return
        }
        let chosen: MentionExtractor = csv.header?.hasEntities == true ? extractor : textExtractor
        for index in decoder.outputs { add(index, using: chosen) }
        if chunk.count >= chunkSize {
            emit(chunk, false)
            begin()
        }
    }

    private func add(_ index: Int, using chosen: MentionExtractor? = nil) {
        chunk.stats.tweets += 1
        let fields = decoder.objects[index]
        chunk.ids.append(fields.id)
        chunk.createdAt.append(fields.createdAt.flatMap(createdAt) ?? CreatedAt.fromSnowflake(fields.id))
        var author: Int32 = -1
        if let a = decoder.author(of: index),
           let id = table.id(raw: decoder.bytes(a), escaped: a.escaped, kind: .user) {
            author = local(id)
        }
        chunk.authors.append(author)
        mentions.removeAll()
        (chosen ?? extractor).extract(index, from: decoder, table: table, into: &mentions)
        for id in mentions.ids { chunk.mentions.append(local(id)) }
        chunk.mentionEnds.append(Int32(chunk.mentions.count))
        if keepText {
            let source = decoder.retweet(of: index).flatMap(decoder.fullText(of:)) ?? decoder.fullText(of: index)
            chunk.texts.append(source.map(decoder.string))
        }
    }

    private func createdAt(_ span: ByteSpan) -> Int64? {
        span.escaped ? CreatedAt.parse(decoder.string(span)) : CreatedAt.parse(decoder.bytes(span))
    }

    /// The chunk's index of a key of the worker's table.
    private func local(_ id: Int32) -> Int32 {
        if let l = localKeys[id] { return l }
        let l = Int32(chunk.keys.count)
        chunk.keys.append(table.keys[Int(id)])
        localKeys[id] = l
        return l
    }

    func problem(_ p: InputProblem) {
        chunk.stats.badRecords += 1
        if chunk.problems.count < Extraction.problemLimit { chunk.problems.append(p) }
        control.problemSeen(p)
    }

    func skipped(_ origin: Origin, reason: String) {
        chunk.stats.skippedMembers += 1
        chunk.skipped.append((origin, reason))
    }
}
