import XCTest
@testable import Stages

/// The ledger as the sink of a reader that is its own consumer (`aggregate`):
/// every problem counted, the first `problemLimit` kept with their lines.
final class ProblemLedgerTests: XCTestCase {
    private let file = Origin(path: "lines.tsv")

    func testProblemsPastTheLimitAreCountedNotKept() {
        let ledger = ProblemLedger()
        let n = ProblemLedger.problemLimit + 500
        for line in 1...n {
            ledger.problem(InputProblem(.notATweet, origin: file, line: line, reason: "not an extract line"))
        }
        XCTAssertEqual(ledger.problems.count, ProblemLedger.problemLimit)
        XCTAssertEqual(ledger.problems.last?.line, ProblemLedger.problemLimit, "the first ones are kept")
        XCTAssertEqual(ledger.badRecords, n)
        XCTAssertEqual(ledger.badByKind, [.notATweet: n])
        XCTAssertEqual(ledger.problemCounts.map(\.origin), [file])
        XCTAssertEqual(ledger.problemCounts.map(\.count), [n])
        XCTAssertEqual(ledger.unnamedProblems, 0)
    }

    func testDamageToAWholeStreamIsKeptPastTheLimit() {
        let ledger = ProblemLedger()
        for line in 1...ProblemLedger.problemLimit {
            ledger.problem(InputProblem(.notATweet, origin: file, line: line, reason: "bad"))
        }
        let corrupt = Origin(path: "broken.zst")
        ledger.problem(InputProblem(.corrupt, origin: corrupt, line: nil, reason: "truncated"))
        XCTAssertEqual(ledger.problems.count, ProblemLedger.problemLimit + 1)
        XCTAssertEqual(ledger.problems.last?.origin, corrupt)
        XCTAssertEqual(ledger.problemCounts.map(\.count), [ProblemLedger.problemLimit, 1])
    }

    func testFilesPastTheOriginLimitAreCountedUnnamed() {
        let ledger = ProblemLedger()
        let files = ProblemLedger.originLimit + 3
        for i in 0..<files {
            ledger.problem(InputProblem(.empty, origin: Origin(path: "f\(i)"), line: nil, reason: "empty"))
        }
        XCTAssertEqual(ledger.problemCounts.count, ProblemLedger.originLimit)
        XCTAssertEqual(ledger.unnamedProblems, 3)
        XCTAssertEqual(ledger.badRecords, files)
        XCTAssertEqual(ledger.failures, 0, "an empty input is no failure")
        XCTAssertFalse(ledger.nothingRead)
        ledger.skipped(Origin(path: "a.png"), reason: "not tweet data")
        XCTAssertEqual(ledger.skipped.count, 1)
        XCTAssertEqual(ledger.stats.skippedMembers, 1)
    }

    func testThePlansProblemsComeFirst() {
        let plan = InputPlan(paths: ["/nonexistent/smashtag-ledger-test"], splitSize: .max)
        let ledger = ProblemLedger(plan: plan)
        ledger.problem(InputProblem(.notATweet, origin: file, line: 2, reason: "bad"))
        XCTAssertEqual(ledger.problems.map(\.origin.path), ["/nonexistent/smashtag-ledger-test", "lines.tsv"])
        XCTAssertEqual(ledger.badRecords, 2)
        XCTAssertTrue(ledger.nothingRead, "no record read, and a path failed")
    }
}
