import XCTest
@testable import Stages

/// The interning table finds a string met again by its bytes under its
/// hash, and stays exact when two different strings share a hash (a 64-bit
/// collision, forced here by giving both the same one).
final class PostIdentityTableTests: XCTestCase {
    private func number(_ t: inout PostIdentity.Table, _ s: String, hash: UInt64, made: inout [String]) -> UInt64 {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBytes { raw in
            t.number(hash: hash, bytes: UnsafeRawBufferPointer(raw), make: { made.append(s); return s })
        }
    }

    func testSameBytesSameNumberAndCollisionsStayApart() {
        var t = PostIdentity.Table()
        var made: [String] = []
        let base = PostIdentity.internedBase
        let a = number(&t, "at://did:plc:a/app.bsky.feed.post/1", hash: 7, made: &made)
        let b = number(&t, "at://did:plc:b/app.bsky.feed.post/1", hash: 7, made: &made)  // same hash, other text
        let c = number(&t, "https://x.example/s/1", hash: 9, made: &made)
        XCTAssertEqual([a, b, c], [base, base + 1, base + 2])
        // Met again: the same numbers, and no string made for a string found by its bytes.
        XCTAssertEqual(number(&t, "at://did:plc:a/app.bsky.feed.post/1", hash: 7, made: &made), a)
        XCTAssertEqual(number(&t, "at://did:plc:b/app.bsky.feed.post/1", hash: 7, made: &made), b)
        XCTAssertEqual(number(&t, "https://x.example/s/1", hash: 9, made: &made), c)
        XCTAssertEqual(made, ["at://did:plc:a/app.bsky.feed.post/1", "at://did:plc:b/app.bsky.feed.post/1",
                              "https://x.example/s/1", "at://did:plc:b/app.bsky.feed.post/1"])
        // A prefix of a kept string, under its hash, is another string.
        XCTAssertEqual(number(&t, "at://did:plc:a/app.bsky.feed.post/", hash: 7, made: &made), base + 3)
        XCTAssertEqual(t.texts, ["at://did:plc:a/app.bsky.feed.post/1", "at://did:plc:b/app.bsky.feed.post/1",
                                 "https://x.example/s/1", "at://did:plc:a/app.bsky.feed.post/"])
    }

    /// Past the first slots: 20,000 strings, their hashes chosen so that
    /// eight at a time land in one slot of every size the table grows
    /// through, found again after it grew.
    func testStringsAreFoundAgainAfterTheTableGrows() {
        var t = PostIdentity.Table()
        var made: [String] = []
        let base = PostIdentity.internedBase
        let texts = (0..<20_000).map { "https://m.example/statuses/\($0)" }
        for (i, s) in texts.enumerated() { XCTAssertEqual(number(&t, s, hash: Self.clustered(i), made: &made), base + UInt64(i)) }
        for (i, s) in texts.enumerated().reversed() { XCTAssertEqual(number(&t, s, hash: Self.clustered(i), made: &made), base + UInt64(i)) }
        XCTAssertEqual(made, texts, "each string made once")
        XCTAssertEqual(t.texts, texts)
    }

    private static func clustered(_ i: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: (i / 8) &* 2_654_435_761)) | UInt64(i % 8) << 40 }

    func testTheProcessTableRoundTrips() {
        let uri = "at://did:plc:roundtrip/app.bsky.feed.post/\(UInt64.random(in: 0..<UInt64.max))"
        let n = PostIdentity.interned(uri)
        XCTAssertGreaterThanOrEqual(n, PostIdentity.internedBase)
        XCTAssertEqual(Array(uri.utf8).withUnsafeBytes { PostIdentity.interned(bytes: $0) }, n)
        XCTAssertEqual(PostIdentity.text(of: n), uri)
        XCTAssertEqual(PostIdentity.of(tweetID: 42), 42)
        XCTAssertEqual(PostIdentity.text(of: PostIdentity.of(tweetID: UInt64.max)), String(UInt64.max))
    }
}
