import Synchronization

/// The per-worker stages, record by record: decode, extract, match; the
/// matches of a unit go into an `Extraction`.
///
/// A worker keeps one scanner for all the units it takes, so its decoder
/// buffers and mention table are reused; `begin`/`finish` bracket a unit.
public final class UnitScanner: RecordHandler {
    private let decoder = TweetDecoder()
    private let table = MentionTable()
    private let matcher: TermMatcher
    private let extractor: MentionExtractor
    /// For CSV rows without entity columns, whatever `extractor` is.
    private let textExtractor: MentionExtractor
    private let csv = CSVDecoder()
    private let control: RunControl
    private var mentions = MentionSet()
    private var result = Extraction()
    private var localKeys: [Int32: Int32] = [:]

    public init(terms: [Term], extractor: MentionExtractor = EntitiesExtractor(),
                textExtractor: MentionExtractor = TextExtractor(), control: RunControl) {
        matcher = TermMatcher(terms: terms, table: table)
        self.extractor = extractor
        self.textExtractor = textExtractor
        self.control = control
    }

    public func begin() {
        result = Extraction()
        localKeys.removeAll(keepingCapacity: true)
    }

    public func finish(lines: Int) -> Extraction {
        result.lines = lines
        return result
    }

    public var shouldStop: Bool { control.isStopped }

    public func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        result.stats.records += 1
        do {
            try decoder.decode(bytes)
        } catch {
            problem(InputProblem(origin: origin, line: line, reason: error.message))
            return
        }
        for rejected in decoder.rejected {
            problem(InputProblem(origin: origin, line: line, reason: rejected.message))
        }
        result.stats.notices += decoder.notices
        for index in decoder.outputs {
            result.stats.tweets += 1
            mentions.removeAll()
            extractor.extract(index, from: decoder, table: table, into: &mentions)
            let mask = matcher.match(index, in: decoder, table: table, mentions: mentions)
            guard mask != 0 else { continue }
            result.tweetIDs.append(decoder.objects[index].id)
            result.termMasks.append(mask)
            for id in mentions.ids {
                if let local = localKeys[id] {
                    result.mentions.append(local)
                } else {
                    let local = Int32(result.keys.count)
                    result.keys.append(table.keys[Int(id)])
                    localKeys[id] = local
                    result.mentions.append(local)
                }
            }
            result.mentionEnds.append(Int32(result.mentions.count))
        }
    }

    // MARK: CSV

    public func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) {
        csv.header = header
    }

    /// A CSV row: decoded into the same fields a JSON tweet has, then the
    /// same extract and match. Rows with entity columns take `extractor`
    /// (entities, or text under `--mentions-from text`); rows without, text.
    public func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        result.stats.records += 1
        do {
            try csv.decode(bytes, into: decoder)
        } catch {
            problem(InputProblem(origin: origin, line: line, reason: error.message))
            return
        }
        let chosen = csv.header?.hasEntities == true ? extractor : textExtractor
        for index in decoder.outputs { take(index, using: chosen) }
    }

    /// Extracts and matches tweet `index` of the decoder, keeping it if it
    /// matched (the steps `record` takes inline on the JSON hot path).
    private func take(_ index: Int, using extractor: MentionExtractor) {
        result.stats.tweets += 1
        mentions.removeAll()
        extractor.extract(index, from: decoder, table: table, into: &mentions)
        let mask = matcher.match(index, in: decoder, table: table, mentions: mentions)
        guard mask != 0 else { return }
        result.tweetIDs.append(decoder.objects[index].id)
        result.termMasks.append(mask)
        for id in mentions.ids {
            if let local = localKeys[id] {
                result.mentions.append(local)
            } else {
                let local = Int32(result.keys.count)
                result.keys.append(table.keys[Int(id)])
                localKeys[id] = local
                result.mentions.append(local)
            }
        }
        result.mentionEnds.append(Int32(result.mentions.count))
    }

    public func problem(_ p: InputProblem) {
        result.addProblem(p)
        control.problemSeen(p)
    }

    public func skipped(_ origin: Origin, reason: String) {
        result.stats.skippedMembers += 1
        result.skipped.append((origin, reason))
    }
}

/// What all workers of a run share: the stop flag (set by `--strict` on the
/// first problem, or by an interrupt) and the problem that stopped the run.
public final class RunControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let firstProblem = Mutex<InputProblem?>(nil)
    public let strict: Bool

    public init(strict: Bool) { self.strict = strict }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Under `--strict`, the first problem stops every worker.
    func problemSeen(_ p: InputProblem) {
        guard strict else { return }
        firstProblem.withLock { if $0 == nil { $0 = p } }
        stop()
    }

    /// The problem that stopped a strict run.
    public var stoppingProblem: InputProblem? { firstProblem.withLock { $0 } }
}
