import Foundation
import XCTest
@testable import Stages

/// The small lists a worker empties once a record or a tweet, and the gzip
/// look ahead's read into a buffer: each against what it must equal, worked
/// out here (a `Set` for distinctness, the file's own bytes for `peek`).
final class PerRecordListTests: XCTestCase {
    /// Inserts, emptied, inserted again, across the point where a hash set
    /// takes over: the same answers as a `Set` of what was inserted since
    /// the last `removeAll`, the elements in the order first inserted, and
    /// nothing from before a `removeAll` seen again.
    func testDistinctListAgreesWithASetAcrossRemoveAll() {
        var list = DistinctList<Int32>()
        var rng = SystemRandomNumberGenerator()
        for round in 0..<300 {
            list.removeAll()
            var reference = Set<Int32>(), order: [Int32] = []
            // Rounds of 0 to 40 inserts of values 0..<30: some stay under the linear limit, some pass it.
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                let v = Int32.random(in: 0..<30, using: &rng)
                let fresh = reference.insert(v).inserted
                if fresh { order.append(v) }
                XCTAssertEqual(list.insert(v), fresh, "round \(round), value \(v)")
            }
            XCTAssertEqual(list.count, reference.count)
            XCTAssertEqual(Array(list.elements), order)
            for v in Int32(0)..<30 { XCTAssertEqual(list.contains(v), reference.contains(v), "round \(round), value \(v)") }
        }
    }

    /// Stale elements past the count are not met again: 20 values, emptied,
    /// then 3 others; the first 20 are absent and can be inserted anew.
    func testDistinctListForgetsWhatWasRemoved() {
        var list = DistinctList<String>()
        for i in 0..<20 { XCTAssertTrue(list.insert("#t\(i)")) }
        XCTAssertFalse(list.insert("#t7"))
        list.removeAll()
        XCTAssertEqual(list.count, 0)
        XCTAssertTrue(list.elements.isEmpty)
        for s in ["#a", "#b", "#c"] { XCTAssertTrue(list.insert(s)) }
        XCTAssertFalse(list.contains("#t0"))
        XCTAssertFalse(list.contains("#t19"))
        XCTAssertTrue(list.insert("#t0"))
        XCTAssertEqual(Array(list.elements), ["#a", "#b", "#c", "#t0"])
    }

    /// A mention written as its key and the same mention written otherwise
    /// are two pairs; each once per tweet; a new tweet starts empty.
    func testSeenSpellingsTellsKeyFromWrittenSpellings() {
        var seen = SeenSpellings()
        XCTAssertTrue(seen.insert(5, nil))
        XCTAssertFalse(seen.insert(5, nil))
        XCTAssertTrue(seen.insert(5, "#Stanford"))
        XCTAssertFalse(seen.insert(5, "#Stanford"))
        XCTAssertTrue(seen.insert(5, "#STANFORD"))
        XCTAssertTrue(seen.insert(6, nil))
        XCTAssertTrue(seen.insert(6, "#Stanford"))
        seen.removeAll()
        XCTAssertTrue(seen.insert(5, nil))
        XCTAssertTrue(seen.insert(5, "#Stanford"))
    }

    /// `Array.clear` empties lists of every size and keeps their storage.
    func testClearEmptiesAndKeepsTheStorage() {
        for n in [0, 1, 3, 8, 9, 100] {
            var ints = Array(0..<n)
            var strings = (0..<n).map { "s\($0) with more than fifteen bytes" }
            let capacity = ints.capacity
            Array.clear(&ints)
            Array.clear(&strings)
            XCTAssertTrue(ints.isEmpty, "\(n)")
            XCTAssertTrue(strings.isEmpty, "\(n)")
            XCTAssertGreaterThanOrEqual(ints.capacity, capacity, "\(n)")
            ints.append(42)
            XCTAssertEqual(ints, [42])
        }
    }

    /// `peek(at:into:)` reads the file's bytes at an offset, fewer only at
    /// its end, and leaves the position alone; `peek(at:count:)` agrees.
    func testPeekIntoABufferReadsTheFilesBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("peek-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        try Data(bytes).write(to: url)
        let file = try FileSource(path: url.path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { buffer.deallocate() }
        for (offset, expected) in [(0, 64), (500, 64), (990, 10), (1000, 0), (2000, 0)] {
            let n = try file.peek(at: Int64(offset), into: buffer)
            XCTAssertEqual(n, expected, "at \(offset)")
            XCTAssertEqual(Array(buffer.prefix(n)), Array(bytes.dropFirst(offset).prefix(n)), "at \(offset)")
            XCTAssertEqual(try file.peek(at: Int64(offset), count: 64), Array(bytes.dropFirst(offset).prefix(64)), "at \(offset)")
        }
        XCTAssertEqual(file.position, 0)
    }

    /// `ByteArena` holds exactly the runs appended, in order, across its
    /// growth; a copy is a value (appending to one leaves the other as it was).
    func testByteArenaHoldsTheRunsAppended() {
        var arena = ByteArena(), expected: [UInt8] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<3000 {
            if i % 7 == 0 {
                let b = UInt8.random(in: 0...255, using: &rng)
                arena.append(b)
                expected.append(b)
            } else {
                let run = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                run.withUnsafeBytes { arena.append($0) }
                expected += run
            }
            XCTAssertEqual(arena.count, expected.count)
        }
        XCTAssertEqual(Array(arena.storage.prefix(arena.count)), expected)
        var copy = arena
        [UInt8]([1, 2, 3]).withUnsafeBytes { copy.append($0) }
        XCTAssertEqual(arena.count, expected.count)
        XCTAssertEqual(Array(arena.storage.prefix(arena.count)), expected)
        XCTAssertEqual(Array(copy.storage.prefix(copy.count)), expected + [1, 2, 3])
    }

    /// The part a builder starts after taking one is empty, with room for
    /// as many of each list as the one taken held (and none where it held none).
    func testANewPartHasTheRoomOfTheLast() {
        var last = PostPart()
        for i in 0..<700 {
            last.tweetIDs.append(UInt64(i))
            last.termMasks.append(1)
            last.mentionEnds.append(Int32(3 * i + 3))
            last.mentions += [0, 1, 2]
            last.times.append(Int64(i))
        }
        last.keys = (0..<300).map { "#k\($0)" }
        let next = PostPart(roomOf: last)
        XCTAssertEqual(next.count, 0)
        XCTAssertTrue(next.mentions.isEmpty && next.keys.isEmpty && next.times.isEmpty)
        XCTAssertGreaterThanOrEqual(next.tweetIDs.capacity, 700)
        XCTAssertGreaterThanOrEqual(next.mentions.capacity, 2_100)
        XCTAssertGreaterThanOrEqual(next.keys.capacity, 300)
        XCTAssertGreaterThanOrEqual(next.times.capacity, 700)
        XCTAssertEqual(next.authors.capacity, 0)
        XCTAssertEqual(next.spellingMentions.capacity, 0)
    }
}
