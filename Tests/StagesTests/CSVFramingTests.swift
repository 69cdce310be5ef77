import XCTest
@testable import Stages

/// Collects headers and rows of CSV streams as well as records.
final class CSVCollector: RecordHandler {
    var headers: [(CSVHeader, Int)] = []
    var rows: [(text: String, line: Int)] = []
    var records: [String] = []
    var problems: [InputProblem] = []
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        records.append(String(decoding: bytes, as: UTF8.self))
    }
    func beginCSV(_ header: CSVHeader, line: Int, origin: Origin) { headers.append((header, line)) }
    func csvRow(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        rows.append((String(decoding: bytes, as: UTF8.self), line))
    }
    func problem(_ problem: InputProblem) { problems.append(problem) }
    func skipped(_ origin: Origin, reason: String) {}
    var shouldStop: Bool { false }
}

final class CSVFramingTests: XCTestCase {
    private func frame(_ text: String, chunk: Int = .max, buffer: Int = 1 << 16, maxRecord: Int = 1 << 20,
                       columns: CSVColumns = CSVColumns()) -> CSVCollector {
        let c = CSVCollector()
        let reader = InputReader(maxRecord: maxRecord, bufferSize: buffer, csvColumns: columns)
        reader.read(MemorySource(Array(text.utf8), chunk: chunk), origin: Origin(path: "t.csv"), handler: c)
        return c
    }

    func testQuotedLineEndsDelimitersAndQuotesStayInTheirRow() {
        let c = frame("id,text,author\n1,\"a\nb, \"\"c\"\"\",x\n2,plain,y\n")
        XCTAssertEqual(c.headers.count, 1)
        XCTAssertEqual(c.headers.first?.1, 1)
        XCTAssertEqual(c.rows.map(\.text), ["1,\"a\nb, \"\"c\"\"\",x", "2,plain,y"])
        XCTAssertEqual(c.rows.map(\.line), [2, 4])
        XCTAssertTrue(c.records.isEmpty)
    }

    func testCRLFBOMBlankLinesAndNoFinalLineEnd() {
        let c = frame("\u{FEFF}\"ID\",\"Text\"\r\n\r\n1,\"x\r\ny\"\r\n2,z")
        XCTAssertEqual(c.headers.first?.0.id, 0)
        XCTAssertEqual(c.rows.map(\.text), ["1,\"x\r\ny\"", "2,z"])
        XCTAssertEqual(c.rows.map(\.line), [3, 5])
    }

    func testAQuoteInsideAnUnquotedFieldIsAnOrdinaryCharacter() {
        let c = frame("id,text\n1,a 5\" screen\n2,b\n")
        XCTAssertEqual(c.rows.map(\.text), ["1,a 5\" screen", "2,b"])
    }

    /// The same rows come out however the input is split across reads and buffers.
    func testRowSplitAcrossBuffersAtEveryOffset() {
        let inputs = [
            "id,text\r\n1,\"a\r\nb\"\"\"\r\n\r\n2,\"\"\"q\"\"\"\n3,é\n",
            "\u{FEFF}tweet_id;content\n1;\"x;\ny\"\n2;z",
        ]
        for input in inputs {
            let whole = frame(input)
            XCTAssertEqual(whole.headers.count, 1, input)
            XCTAssertFalse(whole.rows.isEmpty)
            for chunk in 1...input.utf8.count {
                let c = frame(input, chunk: chunk, buffer: 16)
                XCTAssertEqual(c.rows.map(\.text), whole.rows.map(\.text), "chunk \(chunk) of \(input)")
                XCTAssertEqual(c.rows.map(\.line), whole.rows.map(\.line), "chunk \(chunk) of \(input)")
                XCTAssertEqual(c.headers.count, 1)
            }
            XCTAssertEqual(frame(input, chunk: 7, buffer: 1).rows.map(\.text), whole.rows.map(\.text))
        }
    }

    func testHeaderRecognition() {
        let twarc = frame("id,conversation_id,author_id,text,entities.hashtags,entities.mentions,author.username,retweeted_username\n")
        let h = twarc.headers.first?.0
        XCTAssertEqual(h?.id, 0)
        XCTAssertEqual(h?.text, 3)
        XCTAssertEqual(h?.hashtags, 4)
        XCTAssertEqual(h?.mentions, 5)
        XCTAssertEqual(h?.author, 6)
        XCTAssertEqual(h?.retweetedAuthor, 7)
        XCTAssertEqual(h?.hasEntities, true)
        XCTAssertEqual(frame("id\ttext\tscreen_name\n1\tx\ty\n").headers.first?.0.delimiter, UInt8(ascii: "\t"))
        XCTAssertEqual(frame("id,id_str,text,full_text\n").headers.first?.0.id, 1, "id_str is preferred")
        XCTAssertEqual(frame("id,id_str,text,full_text\n").headers.first?.0.text, 3, "full_text is preferred")
        // No id or no text column: not CSV, so lines (bad JSON records, counted).
        XCTAssertTrue(frame("name,followers\nnasa,1\n").headers.isEmpty)
        XCTAssertTrue(frame("id,body\n1,x\n").headers.isEmpty)
        XCTAssertEqual(frame("id,body\n1,x\n", columns: CSVColumns(text: "Body")).rows.map(\.text), ["1,x"])
        // JSON is never taken for CSV.
        XCTAssertTrue(frame("{\"id\":1,\"text\":\"x\"}\n").headers.isEmpty)
        XCTAssertTrue(frame("window.YTD.tweets.part0 = [ {\"tweet\": {\"id\": \"1\", \"text\": \"x\"}} ]").headers.isEmpty)
    }

    func testOverlongRowsAndAnUnclosedQuote() {
        let long = String(repeating: "a", count: 5000)
        let c = frame("id,text\n1,x\n2,\"\(long)\"\n3,y\n", chunk: 100, buffer: 64, maxRecord: 1000)
        XCTAssertEqual(c.rows.map(\.text), ["1,x", "3,y"])
        XCTAssertEqual(c.problems.map(\.line), [3])
        // An unclosed quote holds the rest of the input: one row (bad, as the decoder will say).
        let u = frame("id,text\n1,\"open\n2,b\n")
        XCTAssertEqual(u.rows.map(\.text), ["1,\"open\n2,b\n"])
    }

    func testCSVFilesAreNeverCutIntoByteRanges() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "id,body\n"
        for i in 0..<2000 { text += "\(i),\"row\n\(i)\"\n" }
        let path = dir.appendingPathComponent("big.csv").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(InputPlan(paths: [path], splitSize: 1000).units.count, 1)
    }
}
