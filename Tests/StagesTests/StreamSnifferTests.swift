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
