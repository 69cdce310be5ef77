import Foundation
import XCTest

/// Every input the fuzzer ever broke smashtag with (`Tests/Fixtures/fuzz`,
/// named after its target and what broke), replayed through the fuzzer's
/// own checks (`FuzzCheck`) for the target its name starts with.
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    func testEveryInputTheFuzzerBrokeIsReadTheSameWhateverTheReadSizes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names where name != "README.md" {
            let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
            XCTAssertNil(FuzzCheck.run(bytes, target: FuzzCheck.Target.of(fileName: name)), name)
        }
    }

    /// Every target on the fixtures it is seeded with: nothing broken on good input.
    func testEveryTargetHoldsOnItsSeeds() throws {
        let fixtures = Self.folder.deletingLastPathComponent()
        let seeds: [(FuzzCheck.Target, String)] = [
            (.bluesky, "social/jetstream.jsonl"), (.bluesky, "social/views.json"), (.mastodon, "social/mastodon.jsonl"),
            (.links, "social/mastodon.jsonl"), (.trend, "trend/rise.jsonl"), (.posts, "posts/v11.jsonl"),
        ]
        for (target, path) in seeds {
            let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
            XCTAssertNil(FuzzCheck.run(bytes, target: target), "\(target) \(path)")
        }
        for target in FuzzCheck.Target.allCases {
            XCTAssertNil(FuzzCheck.run(Array("https://www.Example.com/x?utm_source=a $AAPL #Rust <b>&amp;</b>\u{1B}[31m".utf8), target: target),
                         "\(target)")
        }
    }
}
