import Foundation
import XCTest

/// The folders of `Sources/Stages` depend on each other in one direction
/// only, in the order the README draws: no file names a type declared at
/// the top level of a folder further up.
final class LayoutTests: XCTestCase {
    static let order = ["Model", "Read", "Parse", "Extract", "Match", "Time", "Aggregate", "Store", "Run", "Report"]

    static let stages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Stages")

    /// The Swift files of each folder, with their text less comments and string literals.
    static func sources() throws -> [(folder: String, file: String, text: String)] {
        var out: [(String, String, String)] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: stages.path).sorted() {
            var isFolder: ObjCBool = false
            let url = stages.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            for file in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                    let l = String(line)
                    return l.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : l
                }.joined(separator: "\n")
                out.append((folder, file, code.replacingOccurrences(of: #""[^"\n]*""#, with: "\"\"", options: .regularExpression)))
            }
        }
        return out
    }

    func testFoldersFormTheDrawnOrder() throws {
        let sources = try Self.sources()
        XCTAssertEqual(Set(sources.map(\.folder)), Set(Self.order), "every folder has its place in the order")
        // Top-level declarations: a line that starts with one (no indentation).
        let declaration = try NSRegularExpression(
            pattern: #"^(?:public |internal |private |fileprivate |final |indirect )*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z][A-Za-z0-9_]*)"#,
            options: [.anchorsMatchLines])
        var owner: [String: String] = [:]
        for s in sources {
            let range = NSRange(s.text.startIndex..., in: s.text)
            for m in declaration.matches(in: s.text, range: range) {
                let name = String(s.text[Range(m.range(at: 1), in: s.text)!])
                XCTAssertNil(owner[name].flatMap { $0 == s.folder ? nil : $0 }, "\(name) is declared in two folders")
                owner[name] = s.folder
            }
        }
        XCTAssertGreaterThan(owner.count, 100, "the declarations were found")
        XCTAssertEqual(owner["PostPart"], "Model")
        var upward: [String] = []
        for s in sources {
            let rank = Self.order.firstIndex(of: s.folder)!
            for (name, folder) in owner where Self.order.firstIndex(of: folder)! > rank {
                if s.text.range(of: #"\b\#(name)\b"#, options: .regularExpression) != nil {
                    upward.append("\(s.folder)/\(s.file) names \(folder)'s \(name)")
                }
            }
        }
        XCTAssertEqual(upward.sorted(), [])
    }
}
