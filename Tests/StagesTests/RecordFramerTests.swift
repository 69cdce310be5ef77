import XCTest
@testable import Stages

/// Collects what an `InputReader` hands out.
final class Collector: RecordHandler {
    var records: [(text: String, line: Int, origin: Origin)] = []
    var problems: [InputProblem] = []
    var skips: [(Origin, String)] = []
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        records.append((String(decoding: bytes, as: UTF8.self), line, origin))
    }
    func problem(_ problem: InputProblem) { problems.append(problem) }
    func skipped(_ origin: Origin, reason: String) { skips.append((origin, reason)) }
    var shouldStop: Bool { false }
}

final class RecordFramerTests: XCTestCase {
    /// Frames `text` read `chunk` bytes at a time through a buffer of `buffer` bytes.
    private func frame(_ text: String, chunk: Int = .max, buffer: Int = 1 << 16, maxRecord: Int = 1 << 20) -> Collector {
        let c = Collector()
        let reader = InputReader(maxRecord: maxRecord, bufferSize: buffer)
        reader.read(MemorySource(Array(text.utf8), chunk: chunk), origin: Origin(path: "t"), handler: c)
        return c
    }

    private func texts(_ c: Collector) -> [String] { c.records.map(\.text) }

    func testLinesWithCRLFBlankLinesAndBOM() {
        let c = frame("\u{FEFF}{\"a\":1}\r\n\r\n  {\"b\":2}\n{\"c\":3}")
        XCTAssertEqual(texts(c), [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        XCTAssertEqual(c.records.map(\.line), [1, 3, 4])
    }

    func testDocumentArrayStreamsElements() {
        let doc = "[\n  {\"a\": [1,\n 2]},\n  {\"b\": \"]}\\\"\"}\n]\n"
        let c = frame(doc)
        XCTAssertEqual(texts(c), ["{\"a\": [1,\n 2]}", #"{"b": "]}\""}"#])
        XCTAssertEqual(c.records.map(\.line), [2, 4])
    }

    func testAccountArchiveAssignment() {
        let c = frame("window.YTD.tweets.part0 = [ {\n \"tweet\": {\"id_str\": \"1\"}\n}, {\"tweet\": {}} ]")
        XCTAssertEqual(texts(c), ["{\n \"tweet\": {\"id_str\": \"1\"}\n}", #"{"tweet": {}}"#])
    }

    func testPrettyPrintedObjects() {
        let c = frame("{\n \"data\": [1]\n}\n{\n \"data\": [2]\n}\n")
        XCTAssertEqual(texts(c), ["{\n \"data\": [1]\n}", "{\n \"data\": [2]\n}"])
        XCTAssertEqual(c.records.map(\.line), [1, 4])
    }

    func testTruncatedDocumentIsOneRecord() {
        let c = frame("[\n{\"a\":1},\n{\"b\":")
        XCTAssertEqual(texts(c), [#"{"a":1}"#, #"{"b":"#])
    }

    /// The same records come out however the input is split across reads and buffers.
    func testRecordSplitAcrossBuffersAtEveryOffset() {
        let inputs = [
            "{\"id\":1,\"t\":\"é\\\"x\"}\r\n{\"id\":2}\n\n{\"id\":3}\n",
            "\u{FEFF}[\n {\"id\":1},\n {\"id\":\"2\\\\\"}\n]",
            "window.YTD.tweets.part0 = [\n{\"tweet\":{\"id\":1}}]\n",
        ]
        for input in inputs {
            let expected = texts(frame(input))
            XCTAssertFalse(expected.isEmpty)
            for chunk in 1...input.utf8.count {
                XCTAssertEqual(texts(frame(input, chunk: chunk, buffer: 16)), expected, "chunk \(chunk) of \(input)")
            }
            XCTAssertEqual(texts(frame(input, chunk: 7, buffer: 1)), expected)
        }
    }

    func testOverlongRecordsAreReportedAndSkipped() {
        let long = "{\"x\":\"" + String(repeating: "a", count: 5000) + "\"}"
        let c = frame("{\"a\":1}\n\(long)\n{\"b\":2}\n", chunk: 100, buffer: 64, maxRecord: 1000)
        XCTAssertEqual(texts(c), [#"{"a":1}"#, #"{"b":2}"#])
        XCTAssertEqual(c.problems.map(\.line), [2])
        let d = frame("[{\"a\":1},\(long),{\"b\":2}]", chunk: 100, buffer: 64, maxRecord: 1000)
        XCTAssertEqual(texts(d), [#"{"a":1}"#, #"{"b":2}"#])
        XCTAssertEqual(d.problems.count, 1)
    }

    func testHTMLPageIsBadLinesNotAHang() {
        let c = frame("<html>\n<body>Rate limit exceeded</body>\n</html>\n")
        XCTAssertEqual(c.records.count, 3)
    }

    /// Found by the fuzzer: in a document, an over-long line that is not JSON
    /// was reported once per read, and its tail came out as records.
    func testOverlongNonJSONLineInADocumentIsOneProblemWhateverTheReads() {
        let input = "[{\"a\":1}\n<" + String(repeating: "x", count: 3000) + "\n{\"b\":2}\n"
        for chunk in [.max, 1, 7, 100] {
            let c = frame(input, chunk: chunk, buffer: 64, maxRecord: 1000)
            XCTAssertEqual(texts(c), [#"{"a":1}"#, #"{"b":2}"#], "chunk \(chunk)")
            XCTAssertEqual(c.problems.map(\.line), [2], "chunk \(chunk)")
        }
    }

    /// A line with no end (a bomb of one byte repeated) is skipped from the
    /// cap on and given up 64 × the cap later; what follows is not read.
    func testEndlessLineIsGivenUpAfter64TimesTheCap() {
        let bomb = "{\"a\":1}\n" + String(repeating: "A", count: 64 * 100 + 10) + "\n{\"b\":2}\n"
        for chunk in [.max, 1, 7, 333] {
            let c = frame(bomb, chunk: chunk, buffer: 64, maxRecord: 100)
            XCTAssertEqual(texts(c), [#"{"a":1}"#], "chunk \(chunk)")
            XCTAssertEqual(c.problems.map(\.line), [2, 2], "chunk \(chunk)")
            XCTAssertTrue(c.problems[1].reason.contains("decompression bomb"), c.problems[1].reason)
        }
        // Just under the limit the line ends in time, and the next record is read.
        let long = "{\"a\":1}\n" + String(repeating: "A", count: 64 * 100 - 10) + "\n{\"b\":2}\n"
        XCTAssertEqual(texts(frame(long, chunk: 7, buffer: 64, maxRecord: 100)), [#"{"a":1}"#, #"{"b":2}"#])
        // The same in a document: an endless value.
        let value = "[{\"a\":1},\"" + String(repeating: "A", count: 64 * 100 + 10) + "\",{\"b\":2}]"
        let d = frame(value, chunk: 7, buffer: 64, maxRecord: 100)
        XCTAssertEqual(texts(d), [#"{"a":1}"#])
        XCTAssertEqual(d.problems.count, 1, "given up while skipping: \(d.problems)")
    }

    /// Nothing but blank lines for 64 × the cap (a bomb of newlines) is given up too.
    func testBlankLinesAreGivenUpAfter64TimesTheCap() {
        for lead in ["", "{\"a\":1}\n"] {
            let input = lead + String(repeating: "\n", count: 64 * 100 + 10) + "{\"b\":2}\n"
            for chunk in [.max, 1, 7] {
                let c = frame(input, chunk: chunk, buffer: 64, maxRecord: 100)
                XCTAssertEqual(texts(c), lead.isEmpty ? [] : [#"{"a":1}"#], "chunk \(chunk)")
                XCTAssertEqual(c.problems.count, 1, "chunk \(chunk)")
            }
        }
        let fewer = String(repeating: "\r\n", count: 64 * 50 - 10) + "{\"b\":2}\n"
        XCTAssertEqual(texts(frame(fewer, chunk: 7, buffer: 64, maxRecord: 100)), [#"{"b":2}"#])
    }
}

final class SkipReasonTests: XCTestCase {
    func testNamesThatAreNotDumps() {
        XCTAssertNil(InputReader.skipReason(name: "./2019/03/01/00.json.bz2"))
        XCTAssertNil(InputReader.skipReason(name: "data/tweets.js"))
        XCTAssertNil(InputReader.skipReason(name: "stream-0001"))
        XCTAssertNotNil(InputReader.skipReason(name: "data/tweets_media/x.jpg"))
        XCTAssertNotNil(InputReader.skipReason(name: "Your archive.html"))
        XCTAssertNotNil(InputReader.skipReason(name: "a/.hidden.json"))
        XCTAssertNotNil(InputReader.skipReason(name: "__MACOSX/a.json"))
        XCTAssertNotNil(InputReader.skipReason(name: "LICENSE"))
        XCTAssertNotNil(InputReader.skipReason(name: "corpus/README.md"))
    }

    func testOnlyTweetsOfAnAccountArchiveAreRead() {
        XCTAssertNil(InputReader.nonTweetArchiveData(Array("window.YTD.tweets.part0 = [".utf8)))
        XCTAssertEqual(InputReader.nonTweetArchiveData(Array("\u{FEFF} window.YTD.like.part0 = [".utf8)), "like")
        XCTAssertNil(InputReader.nonTweetArchiveData(Array("{\"id\":1}".utf8)))
    }
}
