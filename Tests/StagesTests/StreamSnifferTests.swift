import XCTest
@testable import Stages

/// One sniffer, one rule for the byte-order mark: it counts only as a
/// stream's first three bytes.
final class StreamSnifferTests: XCTestCase {
    private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    func testKinds() {
        let columns = CSVColumns()
        XCTAssertEqual(StreamSniffer.kind(of: [0x1F, 0x8B, 8, 0], columns: columns), .archive(.compressed("gzip")))
        XCTAssertEqual(StreamSniffer.kind(of: bom + Array(#"{"id":1}"#.utf8), columns: columns), .text)
        XCTAssertEqual(StreamSniffer.kind(of: bom + Array(" window.YTD.follower.part0 = [".utf8), columns: columns),
                       .nonTweetArchiveData("follower"))
        guard case .unrecognisedCSV(let why) = StreamSniffer.kind(of: bom + Array("Number,Body\n1,x\n".utf8), columns: columns) else {
            return XCTFail("a BOM before column names that name no id is still named")
        }
        XCTAssertTrue(why.contains("--id-column"), why)
        XCTAssertEqual(StreamSniffer.kind(of: bom + Array("id,text\n1,x\n".utf8), columns: columns), .text)
    }

    /// Issue 17, items 1 and 2: an account archive's own files by their content.
    func testAccountArchiveFilesByContent() {
        let columns = CSVColumns()
        XCTAssertEqual(StreamSniffer.kind(of: Array("window.__THAR_CONFIG = {\n  \"userInfo\" : {".utf8), columns: columns),
                       .archiveManifest)
        XCTAssertEqual(StreamSniffer.kind(of: bom + Array("window.__THAR_CONFIG".utf8), columns: columns), .archiveManifest)
        XCTAssertEqual(StreamSniffer.kind(of: Array("window.__THAR_CONFIGURE = 1".utf8), columns: columns), .text)
        XCTAssertEqual(StreamSniffer.kind(of: Array("window.YTD.community_tweet.part0 = [".utf8), columns: columns), .text)
        XCTAssertEqual(StreamSniffer.kind(of: Array("window.YTD.deleted_tweets.part0 = [".utf8), columns: columns), .deletedTweets)
        XCTAssertEqual(StreamSniffer.kind(of: Array("window.YTD.deleted_tweets.part0 = [".utf8), columns: columns,
                                          includeDeleted: true), .text)
    }

    /// Issue 17, item 24: a v7 tar header (no magic, a checksum that adds up); one byte off is not one.
    func testV7TarHeaderByItsChecksum() {
        var h = [UInt8](repeating: 0, count: 512)
        for (at, field) in [(0, "a.json"), (100, "0000644\0"), (124, "00000000012\0"), (136, "14712345670\0")] {
            h.replaceSubrange(at..<at + field.utf8.count, with: Array(field.utf8))
        }
        h[156] = UInt8(ascii: "0")
        let sum = (0..<512).reduce(0) { $0 + ((148..<156).contains($1) ? 0x20 : Int(h[$1])) }
        let field = Array(String(sum, radix: 8).utf8)
        h.replaceSubrange(148..<148 + field.count, with: field)
        h[148 + field.count] = 0
        XCTAssertEqual(Magic.detect(h), .container("tar"))
        h[0] = UInt8(ascii: "b")
        XCTAssertEqual(Magic.detect(h), .plain)
    }

    /// Issue 17, item 16: which records could be tweets, for the bound on inputs that hold none.
    func testWhichRecordsCouldBeTweets() {
        func could(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { InputBudget.couldBeTweet($0) } }
        XCTAssertTrue(could(#"{"id":1}"#))
        XCTAssertTrue(could(#" {"tweet":{"id_str":"5"}} "#))
        XCTAssertTrue(could(#"[{"data":{"id":"5"}}]"#))
        XCTAssertTrue(could(#"{"id":1}"#))
        // SPEC §16: a Jetstream event (`did`), a post view (`uri`, its author's `did`), a Mastodon status (`id`).
        XCTAssertTrue(could(#"{"time_us":1,"kind":"commit","did":"did:plc:a"}"#))
        XCTAssertTrue(could(#"{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1"}}"#))
        XCTAssertTrue(could(#"{"uri":"https://mastodon.social/users/a/statuses/1"}"#))
        XCTAssertTrue(could(#"{"id"}"#))
        XCTAssertFalse(could(#"{"di":1,"ur":2,"i":3,"rid":4,"xdid":5}"#))
        XCTAssertFalse(could("{}"))
        XCTAssertFalse(could(#"{"limit":{"track":5}}"#))
        XCTAssertFalse(could(#"x{"id":1}"#))
        XCTAssertFalse(could(#"{"id":1"#))
        XCTAssertFalse(could(""))
    }

    func testTheMarkCountsOnlyAtTheStart() {
        XCTAssertTrue(StreamSniffer.startsWithObject(bom + Array(" \n{\"id\":1}".utf8)))
        XCTAssertTrue(StreamSniffer.startsWithObject(Array("{".utf8)))
        // Its bytes elsewhere, or a part of it, are data: not an object first.
        XCTAssertFalse(StreamSniffer.startsWithObject([0xBB] + Array("{".utf8)))
        XCTAssertFalse(StreamSniffer.startsWithObject([0x20] + bom + Array("{".utf8)))
        XCTAssertFalse(StreamSniffer.startsWithObject(bom + bom + Array("{".utf8)))
        XCTAssertEqual(StreamSniffer.bomLength(bom + [0x7B]), 3)
        XCTAssertEqual(StreamSniffer.bomLength([0xEF, 0xBB]), 0)
    }

    /// Planning takes the same rule: a JSON-lines file with a BOM is cut into
    /// ranges; one whose first bytes are a stray `BB` is read whole.
    func testPlanningCutsOnlyJSONLinesBehindARealMark() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = (1...400).map { #"{"id_str":"\#($0)","text":"x"}"# }.joined(separator: "\n") + "\n"
        let good = dir.appendingPathComponent("bom.jsonl"), stray = dir.appendingPathComponent("stray.jsonl")
        try Data(bom + Array(lines.utf8)).write(to: good)
        try Data([0xBB] + Array(lines.utf8)).write(to: stray)
        XCTAssertGreaterThan(InputPlan(paths: [good.path], splitSize: 1024).units.count, 1)
        XCTAssertEqual(InputPlan(paths: [stray.path], splitSize: 1024).units.count, 1)
    }
}
