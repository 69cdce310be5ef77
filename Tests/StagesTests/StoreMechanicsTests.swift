import Foundation
import Synchronization
import XCTest
@testable import Stages

/// The pieces under the store: dates, file fingerprints, the writer lock,
/// the ordered handoff and the parallel scan.
final class StoreMechanicsTests: XCTestCase {
    func testCreatedAtReadsBothFormsAndSnowflakes() {
        XCTAssertEqual(CreatedAt.parse("Wed Apr 06 19:13:37 +0000 2011"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("2011-04-06T19:13:37.000Z"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("2011-04-06T19:13:37Z"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("2011-04-06T21:13:37+02:00"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("Wed Apr 06 20:13:37 +0100 2011"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("Thu Feb 29 00:00:00 +0000 2024"), 1_709_164_800)
        for bad in ["", "Wed Foo 06 19:13:37 +0000 2011", "2011-13-06T19:13:37Z", "2011-04-06", "yesterday",
                    "2011-04-06T19:13:37.000", "Wed Apr 06 19:13:37 +0000 201"] {
            XCTAssertNil(CreatedAt.parse(bad), bad)
        }
        // 1101454535685083166 was posted at 2019-03-01T12:10:00Z (its created_at says so).
        XCTAssertEqual(CreatedAt.fromSnowflake(1_101_454_535_685_083_166), CreatedAt.parse("2019-03-01T12:10:00.000Z"))
        XCTAssertNil(CreatedAt.fromSnowflake(12345))
        XCTAssertEqual(CreatedAt.iso(1_302_117_217), "2011-04-06T19:13:37.000Z")
        XCTAssertEqual(CreatedAt.iso(0), "1970-01-01T00:00:00.000Z")
        for day in stride(from: Int64(-800_000), to: 800_000, by: 97) {
            let (y, m, d) = CreatedAt.civil(day)
            XCTAssertEqual(CreatedAt.days(y, m, d), day)
        }
    }

    func testFileStateTellsAnUntouchedFileFromAChangedOne() throws {
        let folder = try StoreFolder()
        let small = try folder.write("small.jsonl", "{\"id\":1}\n")
        let a = try XCTUnwrap(FileState(path: small))
        XCTAssertEqual(FileState(path: small), a)
        try folder.write("small.jsonl", "{\"id\":2}\n")
        XCTAssertNotEqual(FileState(path: small)?.fingerprint, a.fingerprint, "same size, other bytes")

        // A big file is sampled; a byte changed in its first MiB shows.
        var bytes = [UInt8](repeating: 0x61, count: 9 << 20)
        let big = folder.path("big.jsonl")
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        let b = try XCTUnwrap(FileState(path: big))
        bytes[1000] = 0x62
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        XCTAssertNotEqual(FileState(path: big)?.fingerprint, b.fingerprint)
        XCTAssertNil(FileState(path: folder.path("missing")))
        XCTAssertNil(FileState(path: folder.url.path), "a folder has no state of its own")
    }

    func testASecondWriterWaitsThenFailsNamingTheStore() throws {
        let folder = try StoreFolder()
        let path = folder.path("s.db")
        let first = try Store.writable(path)
        let started = Date()
        XCTAssertThrowsError(try Store(path: path, access: .write(command: "second"), create: true, wait: 0.3)) { error in
            let e = error as! StoreError
            XCTAssertEqual(e.code, .busy)
            XCTAssertTrue(e.description.contains(path), e.description)
            XCTAssertTrue(e.description.contains("pid \(getpid()), test"), e.description)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
        // Readers are not kept waiting, and the lock is free once the first is done.
        XCTAssertEqual(try Store(path: path, access: .read).tweetCount, 0)
        first.close()
        XCTAssertNoThrow(try Store(path: path, access: .write(command: "third"), wait: 0))
    }

    func testOrderedHandoffGivesChunksInUnitOrderWhateverTheFinishingOrder() {
        let units = 40
        let handoff = OrderedHandoff<Int>(units: units, capacity: 3)
        let next = Atomic<Int>(0)
        DispatchQueue.global().async {
            // As ParallelIngest does: each worker takes the next unit when it is free.
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                while case let unit = next.wrappingAdd(1, ordering: .relaxed).oldValue, unit < units {
                    for chunk in 0..<(unit % 3 + 1) {
                        usleep(UInt32((unit * 7 + chunk * 13) % 5) * 200)
                        handoff.submit(unit * 10 + chunk, unit: unit, last: chunk == unit % 3)
                    }
                }
            }
            handoff.close()
        }
        var got: [Int] = []
        while let (_, item, _) = handoff.next() { got.append(item) }
        XCTAssertEqual(got, (0..<units).flatMap { u in (0..<(u % 3 + 1)).map { u * 10 + $0 } })
    }

    /// Pieces numbered within their unit come out in (unit, index) order
    /// whatever order they are submitted in; a reader ahead of the consumer
    /// has room only while fewer than `capacity` pieces are held, the reader
    /// of the unit being consumed while fewer than `capacity` of its own are.
    func testOrderedHandoffOrdersNumberedPiecesAndBoundsReadersAhead() {
        let handoff = OrderedHandoff<String>(units: 3, capacity: 2)
        handoff.submit("1.1", unit: 1, index: 1, last: true)
        handoff.submit("1.0", unit: 1, index: 0, last: false)
        XCTAssertFalse(handoff.hasRoom(for: 2), "two held ahead of the consumer")
        XCTAssertTrue(handoff.hasRoom(for: 0), "the unit being consumed holds none of its own")
        handoff.submit("0.2", unit: 0, index: 2, last: true)
        handoff.submit("0.0", unit: 0, index: 0, last: false)
        XCTAssertFalse(handoff.hasRoom(for: 0), "two of its own held")
        handoff.submit("0.1", unit: 0, index: 1, last: false)
        handoff.submit("2.0", unit: 2, index: 0, last: true)
        handoff.close()
        var got: [String] = []
        while let (_, item, _) = handoff.next() {
            got.append(item)
            if item == "0.2" { XCTAssertFalse(handoff.hasRoom(for: 2), "unit 1 now being consumed: 2 pieces held ahead") }
        }
        XCTAssertEqual(got, ["0.0", "0.1", "0.2", "1.0", "1.1", "2.0"])
    }

    func testAParallelScanCountsWhatOneScanCounts() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        XCTAssertTrue(try store.enableText())
        try store.ingest(StoreFixtures.samplePaths)
        let terms = StoreFixtures.terms + [try Term(parsing: "stanford")]
        let single = try store.counts(of: terms, parallel: false)
        store.parallelScanThreshold = 1
        let split = try store.counts(of: terms, parallel: true)
        for term in terms {
            XCTAssertEqual(split[term]?.tweets, single[term]?.tweets, "\(term)")
            XCTAssertEqual(split[term]?.mentions, single[term]?.mentions, "\(term)")
        }
        assertSameReports(try store.reports(terms, minCount: 1, top: nil), statelessReports(StoreFixtures.samplePaths, terms))
    }
    /// The id ranges a parallel count is cut into hold every tweet once:
    /// contiguous from `Int64.min` to `Int64.max`, their tweets (counted by
    /// SQLite) adding up to the store's, the snowflakes and the ids below them cut apart.
    func testIDRangesHoldEveryTweetOnce() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        // Tweets (snowflake ids) and Bluesky and Mastodon posts (the store's own ids, below them). Their
        // handles go to the process's book: forgotten after, as a run of its own would.
        addTeardownBlock { HandleBook.shared.removeAll() }
        try store.ingest(StoreFixtures.samplePaths + [StoreFixtures.root.appendingPathComponent("Tests/Fixtures/social").path])
        let total = try XCTUnwrap(try store.db.integer("SELECT count(*) FROM tweet"))
        let snowflake = Int64(CreatedAt.firstSnowflake)
        XCTAssertGreaterThan(try store.db.integer("SELECT count(*) FROM tweet WHERE id < ?1", [snowflake]) ?? 0, 0)
        XCTAssertGreaterThan(total, 10)
        for count in [1, 3, 16] {
            let ranges = try XCTUnwrap(try store.idRanges(count: count))
            XCTAssertEqual(ranges.first?.lowerBound, Int64.min)
            XCTAssertEqual(ranges.last?.upperBound, Int64.max)
            for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(b.lowerBound, a.upperBound + 1) }
            XCTAssertLessThanOrEqual(ranges.count, 2 * count)
            var sum: Int64 = 0
            for r in ranges {
                sum += try store.db.integer("SELECT count(*) FROM tweet WHERE id BETWEEN ?1 AND ?2", [r.lowerBound, r.upperBound]) ?? 0
            }
            XCTAssertEqual(sum, total, "\(count) ranges")
            // No range holds both a snowflake and a smaller id.
            XCTAssertTrue(ranges.contains { $0.upperBound == snowflake - 1 }, "\(count) ranges")
        }
        let empty = try Store.writable(folder.path("empty.db"))
        XCTAssertNil(try empty.idRanges(count: 4))
    }

    /// A span read on several connections reads one snapshot: the
    /// connections beside a reader are kept only when they see its
    /// generation, so an ingest committed after the reader's transaction
    /// began leaves the span to the reader alone.
    func testPieceReadersShareTheReadersSnapshotOrAreNone() throws {
        let folder = try StoreFolder()
        let path = folder.path("s.db")
        let paths = StoreFixtures.samplePaths
        XCTAssertGreaterThan(paths.count, 1)
        try Store.writable(path).ingest(Array(paths.prefix(1)))
        let reader = try Store(path: path, access: .read, wait: 0)
        reader.spanReaders = 3
        try reader.db.beginRead()
        let seen = try reader.generation()
        let others = try reader.pieceReaders()
        XCTAssertEqual(others.count, 2)
        XCTAssertEqual(try others.map { try $0.generation() }, [seen, seen])
        Store.endReads(others)
        // A commit while the reader's transaction stands: the others would see it, the reader does not.
        let tweetsBefore = try reader.tweetCount
        try Store.writable(path).ingest(Array(paths.dropFirst()))
        XCTAssertEqual(try reader.tweetCount, tweetsBefore)
        XCTAssertEqual(try reader.pieceReaders().count, 0)
        reader.db.endRead()
        // A new transaction sees the commit, and the others see it too.
        try reader.db.beginRead()
        XCTAssertGreaterThan(try reader.tweetCount, tweetsBefore)
        let again = try reader.pieceReaders()
        XCTAssertEqual(again.count, 2)
        Store.endReads(again)
        reader.db.endRead()
    }
}
