import XCTest
@testable import Stages

/// The brace scan the layout decision and the document layout share.
final class JSONNestingTests: XCTestCase {
    /// The steps of `text`, from `nesting`, as one letter a byte: w(ithin), c(losed), l(ine feed).
    private func steps(_ text: String, _ nesting: JSONNesting = JSONNesting()) -> String {
        var n = nesting
        return String(text.utf8.map { byte -> Character in
            switch n.take(byte) {
            case .within: "w"
            case .closed: "c"
            case .lineFeed: "l"
            }
        })
    }

    func testAnObjectClosesAtItsLastBrace() {
        XCTAssertEqual(steps(#"{"a":[1,{"b":2}]}"#), "wwwwwwwwwwwwwwwwc")
        // Brackets and quotes inside strings, escaped quotes and backslashes, are text.
        XCTAssertEqual(steps(#"{"}\"]":"\\"}"#), "wwwwwwwwwwwwc")
    }

    func testAStringScalarClosesAtItsQuote() {
        XCTAssertEqual(steps(#"ab\"c" "#, JSONNesting(inString: true)), "wwwwwcw")
    }

    func testLineFeedsAreToldApartFromEscapedOnes() {
        var n = JSONNesting()
        XCTAssertEqual(steps("{\n\"a\n"), "wlwwl")
        _ = n.take(UInt8(ascii: "{"))
        _ = n.take(UInt8(ascii: "\""))
        XCTAssertEqual(n.take(0x0A), .lineFeed)
        XCTAssertTrue(n.inString, "a raw line feed in a string: no JSON, lines")
        _ = n.take(0x5C)
        XCTAssertEqual(n.take(0x0A), .within, "escaped: not a line break of the scan")
        XCTAssertEqual(n.depth, 1)
        var quiet = JSONNesting()
        XCTAssertEqual(Array("{\n\"\n\"}".utf8).map { quiet.take($0, lineFeeds: false) },
                       [.within, .within, .within, .within, .within, .closed], "the document layout counts line feeds itself")
    }
}
