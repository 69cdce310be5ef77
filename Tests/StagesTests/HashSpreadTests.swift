import XCTest
@testable import Stages

/// The in-memory tables (a worker's `MentionTable`, `KeyNumbering`, post
/// identities) take a slot from a hash's low bits. Keys of one family that
/// differ only in their last bytes (`author150567`, a record key at the end
/// of an AT-URI) must spread as a random function would: 100,000 keys into
/// 2^17 slots meet about 69,900 (131,072 · (1 − e^(−100,000/131,072))).
final class HashSpreadTests: XCTestCase {
    private static let slots = 1 << 17
    /// 90% of what a random function meets: the mention hash met 15,085 for `authorN` before its final mix.
    private static let least = 63_000

    private func distinctLowBits(_ keys: [String], _ hash: (UnsafeRawBufferPointer) -> UInt64) -> Int {
        var met = Set<Int>()
        for key in keys {
            var k = key
            k.withUTF8 { met.insert(Int(truncatingIfNeeded: hash(UnsafeRawBufferPointer($0))) & (Self.slots - 1)) }
        }
        return met.count
    }

    func testMentionHashSpreadsKeysThatDifferInTheirLastBytes() {
        for family in ["author", "tag", "user_", "example.com/p/", "covid19_"] {
            let keys = (0..<100_000).map { family + String($0) }
            let met = distinctLowBits(keys) { MentionTable.hash($0, kind: MentionKind.user.rawValue) }
            XCTAssertGreaterThan(met, Self.least, family)
        }
    }

    func testPostIdentityHashSpreadsRecordKeys() {
        let keys = (0..<100_000).map { "at://did:plc:abcdefghijklmnopqrstuvwx/app.bsky.feed.post/3l" + String(1_000_000 + $0, radix: 32) }
        XCTAssertGreaterThan(distinctLowBits(keys, PostIdentity.hash), Self.least)
        let statuses = (0..<100_000).map { "https://mastodon.social/users/someone/statuses/1133" + String(100_000_000 + $0) }
        XCTAssertGreaterThan(distinctLowBits(statuses, PostIdentity.hash), Self.least)
    }
}
