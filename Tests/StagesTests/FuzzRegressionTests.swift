import Foundation
import XCTest

/// Every input the fuzzer ever broke the reader or the decoder with
/// (`Tests/Fixtures/fuzz`, named after what broke), replayed through the
/// fuzzer's own checks (`FuzzCheck`).
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    func testEveryInputTheFuzzerBrokeIsReadTheSameWhateverTheReadSizes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names where name != "README.md" {
            let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
            XCTAssertNil(FuzzCheck.run(bytes), name)
        }
    }
}
