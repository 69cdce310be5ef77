import Foundation
import XCTest

/// A post's identity (`PostIdentity`): tweet ids of 2^63 and more are
/// interned, not cut to 63 bits, so dedup stays exact on the whole 64-bit
/// range, on every path, and what leaves the process is the id as written.
final class IdentityTests: XCTestCase {
    /// Ids 2^64-1 (twice) and 2^63: two distinct tweets, by hand.
    static let lines = """
        {"id_str":"18446744073709551615","text":"#a #b","entities":{"hashtags":[{"text":"a"},{"text":"b"}]}}
        {"id_str":"18446744073709551615","text":"#a #b","entities":{"hashtags":[{"text":"a"},{"text":"b"}]}}
        {"id_str":"9223372036854775808","text":"#a","entities":{"hashtags":[{"text":"a"}]}}
        {"id_str":"9223372036854775807","text":"#b","entities":{"hashtags":[{"text":"b"}]}}

        """

    func testTheTopOfTheRangeDedupsExactlyOnEveryPath() throws {
        let input = Data(Self.lines.utf8)
        let want = "term,type,mention,count\n*,hashtag,#a,2\n*,hashtag,#b,2\n"
        let direct = try Smashtag.report(["*", "-", "--min-count", "1", "--format", "csv", "-q"], stdin: input)
        XCTAssertEqual(direct.stdout, want)
        let lines = try Smashtag.run(["extract", "*", "-", "-q"], stdin: input)
        XCTAssertEqual(lines.stdout, """
            H\tsmashtag-extract\t1\t*
            M\t*\t18446744073709551615\t#a
            M\t*\t18446744073709551615\t#b
            M\t*\t9223372036854775808\t#a
            M\t*\t9223372036854775807\t#b

            """)
        let aggregated = try Smashtag.run(["aggregate", "--min-count", "1", "--format", "csv", "-q"], stdin: Data(lines.stdout.utf8))
        XCTAssertEqual(aggregated.stdout, want)
        // A tweet over --max-pair-mentions is named by its id as written.
        let three = #"{"id_str":"18446744073709551614","text":"x","entities":{"hashtags":[{"text":"a"},{"text":"b"},{"text":"c"}]}}"# + "\n"
        let pairs = try Smashtag.run(["pairs", "*", "-", "--max-pair-mentions", "2", "--min-count", "1", "--format", "csv"],
                                     stdin: Data(three.utf8))
        XCTAssertEqual(pairs.stdout, "term,source,target,weight\n")
        XCTAssertTrue(pairs.stderr.contains("tweet 18446744073709551614 carries 3 distinct mentions"), pairs.stderr)
    }

    func testAStoreKeepsThemApart() throws {
        let dir = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                              appropriateFor: URL(fileURLWithPath: NSTemporaryDirectory()), create: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.jsonl")
        try Self.lines.write(to: file, atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("s.db").path
        let ingest = try Smashtag.run(["ingest", file.path, "--store", store, "-q"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let r = try Smashtag.report(["*", "--store", store, "--min-count", "1", "--format", "csv", "-q"])
        XCTAssertEqual(r.stdout, "term,type,mention,count\n*,hashtag,#a,2\n*,hashtag,#b,2\n")
        let exported = try Smashtag.run(["export", "--store", store])
        XCTAssertTrue(exported.stdout.contains("18446744073709551615"), exported.stdout)
        XCTAssertTrue(exported.stdout.contains("9223372036854775808"), exported.stdout)
    }
}
