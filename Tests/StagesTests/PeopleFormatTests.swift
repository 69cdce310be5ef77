import XCTest
@testable import Stages

/// The pieces of the formats for people, on in-memory input (the formats
/// themselves are read by real readers in PipelineTests/PeopleReportTests).
final class PeopleFormatTests: XCTestCase {
    func testControlAndBidirectionalCharactersAreShownEscaped() {
        XCTAssertEqual(VisibleText.escaped("@evil\u{1B}[2J"), "@evil\\u001b[2J")
        XCTAssertEqual(VisibleText.escaped("#a\rb\nc\td"), "#a\\rb\\nc\\td")
        XCTAssertEqual(VisibleText.escaped("@abc\u{202E}def\u{2066}\u{200F}"), "@abc\\u202edef\\u2066\\u200f")
        XCTAssertEqual(VisibleText.escaped("x\u{7F}\u{85}\u{2028}"), "x\\u007f\\u0085\\u2028")
        XCTAssertEqual(VisibleText.escaped("a\\b"), "a\\\\b", "a backslash is doubled: every escape means one")
        XCTAssertEqual(VisibleText.escaped("#東京 café 👍"), "#東京 café 👍", "the rest is kept")
    }

    func testColumnsAreTerminalColumns() {
        XCTAssertEqual(VisibleText.columns("#stanford"), 9)
        XCTAssertEqual(VisibleText.columns("#東京"), 5)
        XCTAssertEqual(VisibleText.columns("ｆｕｌｌ"), 8, "fullwidth forms")
        XCTAssertEqual(VisibleText.columns("cafe\u{301}"), 4, "a combining mark takes none")
        XCTAssertEqual(VisibleText.columns("\u{1100}\u{1161}\u{11A8}"), 2, "conjoining jamo: one syllable")
        XCTAssertEqual(VisibleText.columns("👍"), 2)
        XCTAssertEqual(VisibleText.columns("a\u{200D}b"), 2, "a joiner takes none")
    }

    func testTableAlignsWideMentionsAndEscapesControls() throws {
        let term = try Term(parsing: "*")
        let r = TermReport(term: term, tweets: 3, hashtags: [MentionCount(mention: "#東京タワー", count: 12),
                                                            MentionCount(mention: "#a\rb", count: 3)],
                           users: [MentionCount(mention: "@x\u{1B}[2J", count: 2)])
        let text = TableRenderer(width: 80).render([r])
        XCTAssertFalse(text.contains("\r") || text.contains("\u{1B}"))
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("  #") }
        XCTAssertEqual(rows.map { VisibleText.columns(String($0)) }.count, 2)
        XCTAssertEqual(Set(rows.map { VisibleText.columns(String($0)) }).count, 1, "\(rows)")
        XCTAssertTrue(text.contains("  @x\\u001b[2J"), text)
    }

    func testHTMLEscapesTextAndAttributes() {
        XCTAssertEqual(HTMLReport.escape(#"<script>"a" & 'b'</script>"#),
                       "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;")
        XCTAssertEqual(HTMLReport.text("#x\u{1B}<b>"), "#x\\u001b&lt;b&gt;")
    }

    func testSheetNamesAreOnesExcelTakes() {
        var taken: Set<String> = ["summary"]
        XCTAssertEqual(XLSXReport.sheetName(for: "#stanford", taken: &taken), "#stanford")
        XCTAssertEqual(XLSXReport.sheetName(for: "from:nasa", taken: &taken), "from_nasa")
        XCTAssertEqual(XLSXReport.sheetName(for: "*", taken: &taken), "all tweets")
        XCTAssertEqual(XLSXReport.sheetName(for: "summary", taken: &taken), "summary (2)")
        XCTAssertEqual(XLSXReport.sheetName(for: "history", taken: &taken), "term history")
        XCTAssertEqual(XLSXReport.sheetName(for: "'quoted'", taken: &taken), "quoted")
        let long = XLSXReport.sheetName(for: "#" + String(repeating: "a", count: 40), taken: &taken)
        XCTAssertEqual(long.count, 31)
        XCTAssertEqual(XLSXReport.sheetName(for: "#" + String(repeating: "a", count: 41), taken: &taken).count, 31)
        XCTAssertFalse(taken.contains { $0.contains(":") || $0.contains("*") })
    }

    func testFormatFromTheFileName() {
        XCTAssertEqual(OutputFormat(fileName: "out/top.XLSX"), .xlsx)
        XCTAssertEqual(OutputFormat(fileName: "page.htm"), .html)
        XCTAssertEqual(OutputFormat(fileName: "rows.jsonl"), .report(.ndjson))
        XCTAssertNil(OutputFormat(fileName: "dir.v2/report"))
        XCTAssertNil(OutputFormat(fileName: ".csv"))
    }
}
