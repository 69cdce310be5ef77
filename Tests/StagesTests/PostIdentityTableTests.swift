import Synchronization
import XCTest
@testable import Stages

/// The interning table finds a string met again by its bytes under its
/// hash, and stays exact when two different strings share a hash (a 64-bit
/// collision, forced here by giving both the same one).
final class PostIdentityTableTests: XCTestCase {
    private func number(_ t: inout PostIdentity.Table, _ s: String, hash: UInt64) -> Int {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBytes { raw in t.number(hash: hash, bytes: UnsafeRawBufferPointer(raw)) }
    }

    func testSameBytesSameNumberAndCollisionsStayApart() {
        var t = PostIdentity.Table()
        let a = number(&t, "at://did:plc:a/app.bsky.feed.post/1", hash: 7)
        let b = number(&t, "at://did:plc:b/app.bsky.feed.post/1", hash: 7)  // same hash, other text
        let c = number(&t, "https://x.example/s/1", hash: 9)
        XCTAssertEqual(Set([a, b, c]).count, 3, "three strings, three numbers")
        // Met again: the same numbers, nothing kept twice.
        XCTAssertEqual(number(&t, "at://did:plc:a/app.bsky.feed.post/1", hash: 7), a)
        XCTAssertEqual(number(&t, "at://did:plc:b/app.bsky.feed.post/1", hash: 7), b)
        XCTAssertEqual(number(&t, "https://x.example/s/1", hash: 9), c)
        XCTAssertEqual(t.count, 3)
        // A prefix of a kept string, under its hash, is another string.
        let prefix = number(&t, "at://did:plc:a/app.bsky.feed.post/", hash: 7)
        XCTAssertFalse([a, b, c].contains(prefix))
        XCTAssertEqual(t.text(prefix), "at://did:plc:a/app.bsky.feed.post/")
        XCTAssertEqual(t.texts, ["at://did:plc:a/app.bsky.feed.post/1", "at://did:plc:b/app.bsky.feed.post/1",
                                 "https://x.example/s/1", "at://did:plc:a/app.bsky.feed.post/"])
        XCTAssertEqual(t.text(b), "at://did:plc:b/app.bsky.feed.post/1")
        // Hashes that differ only in the top bits, which a slot does not keep: apart too.
        let d = number(&t, "at://did:plc:d/app.bsky.feed.post/1", hash: 7 | 1 << 63)
        XCTAssertFalse([a, b, c, prefix].contains(d))
        XCTAssertEqual(t.text(d), "at://did:plc:d/app.bsky.feed.post/1")
        XCTAssertEqual(number(&t, "at://did:plc:a/app.bsky.feed.post/1", hash: 7), a)
        XCTAssertEqual(number(&t, "at://did:plc:d/app.bsky.feed.post/1", hash: 7 | 1 << 63), d)
        XCTAssertEqual(t.count, 5)
    }

    /// Past the first slots: 20,000 strings, their hashes chosen so that
    /// eight at a time land in one slot of every size the table grows
    /// through, found again after it grew.
    func testStringsAreFoundAgainAfterTheTableGrows() {
        var t = PostIdentity.Table()
        let texts = (0..<20_000).map { "https://m.example/statuses/\($0)" }
        let first = texts.enumerated().map { number(&t, $1, hash: Self.clustered($0)) }
        XCTAssertEqual(Set(first).count, texts.count)
        for (i, s) in texts.enumerated().reversed() { XCTAssertEqual(number(&t, s, hash: Self.clustered(i)), first[i]) }
        XCTAssertEqual(t.count, texts.count, "each string kept once")
        XCTAssertEqual(first.map { t.text($0) }, texts)
        XCTAssertEqual(t.texts, texts)
    }

    private static func clustered(_ i: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: (i / 8) &* 2_654_435_761)) | UInt64(i % 8) << 40 }

    func testTheProcessTableRoundTrips() {
        let uri = "at://did:plc:roundtrip/app.bsky.feed.post/\(UInt64.random(in: 0..<UInt64.max))"
        let n = PostIdentity.interned(uri)
        XCTAssertGreaterThanOrEqual(n, PostIdentity.internedBase)
        XCTAssertEqual(Array(uri.utf8).withUnsafeBytes { PostIdentity.interned(bytes: $0) }, n)
        XCTAssertEqual(PostIdentity.text(of: n), uri)
        XCTAssertNil(PostIdentity.tweetID(of: n))
        XCTAssertEqual(PostIdentity.of(tweetID: 42), 42)
        let big = PostIdentity.of(tweetID: UInt64.max)
        XCTAssertEqual(PostIdentity.text(of: big), String(UInt64.max))
        XCTAssertEqual(PostIdentity.tweetID(of: big), UInt64.max)
        XCTAssertEqual(PostIdentity.of(tweetID: UInt64.max), big)
    }

    /// Many strings from four threads at once (more threads than cores, so
    /// a lock's holder is now and then put aside while others wait): each
    /// string gets one number, every number gives its string back, and the
    /// order of the bytes is the order of the strings' UTF-8 (whichever
    /// shards the two fell in).
    func testShardsFromFourThreadsAndByteOrder() {
        let texts = (0..<20_000).map { "at://did:plc:shards\($0 % 7)/app.bsky.feed.post/é\($0)" }
        let results = Mutex([[UInt64]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            let mine = (k % 2 == 0 ? texts : texts.reversed()).map { PostIdentity.interned($0) }
            results.withLock { $0[k] = k % 2 == 0 ? mine : mine.reversed() }
        }
        let numbers = results.withLock { $0 }
        for k in 1..<4 { XCTAssertEqual(numbers[k], numbers[0], "thread \(k)") }
        XCTAssertEqual(Set(numbers[0]).count, texts.count)
        XCTAssertEqual(numbers[0].map(PostIdentity.text(of:)), texts)
        for _ in 0..<2_000 {
            let i = Int.random(in: 0..<texts.count), j = Int.random(in: 0..<texts.count)
            XCTAssertEqual(PostIdentity.bytesPrecede(numbers[0][i], numbers[0][j]),
                           Array(texts[i].utf8).lexicographicallyPrecedes(Array(texts[j].utf8)), "\(texts[i]) / \(texts[j])")
        }
    }
}
