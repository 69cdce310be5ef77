import Foundation
import XCTest
@testable import Stages

/// `created_at` in v1.1's form, `Wed Apr 06 19:13:37 +0000 2011`, against
/// Foundation's own reading of the same text, on every day of a leap year
/// and a common one, at offsets east and west; and what is no date.
final class CreatedAtTests: XCTestCase {
    func testClassicFormAgreesWithFoundationOnEveryDay() throws {
        let writer = DateFormatter()
        writer.locale = Locale(identifier: "en_US_POSIX")
        writer.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        var checked = 0
        for zone in ["UTC", "Asia/Kolkata", "America/St_Johns"] {
            writer.timeZone = TimeZone(identifier: zone)
            // 2020 (a leap year) and 2021, every day, at a time that moves through the day.
            var t = try XCTUnwrap(CreatedAt.parse("2020-01-01T00:00:00Z"))
            let end = try XCTUnwrap(CreatedAt.parse("2022-01-01T00:00:00Z"))
            while t < end {
                let text = writer.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
                XCTAssertEqual(CreatedAt.parse(text), t, text)
                checked += 1
                t += 86_400 + 3_671
            }
        }
        XCTAssertGreaterThan(checked, 2_000)
        XCTAssertEqual(CreatedAt.parse("Wed Apr 06 19:13:37 +0000 2011"), 1_302_117_217)
        XCTAssertEqual(CreatedAt.parse("Wed Apr 06 19:13:37 -0130 2011"), 1_302_117_217 + 5_400)
        for bad in ["Wed Apx 06 19:13:37 +0000 2011", "Wed apr 06 19:13:37 +0000 2011", "Wed Feb 30 19:13:37 +0000 2011",
                    "Wed Feb 29 19:13:37 +0000 2011", "Wed Apr 06 24:13:37 +0000 2011", "Wed Apr 06 19:13:37 0000 2011",
                    "Wed Apr 06 19:13:37 +0000 20x1", "Wed Apr 06 19:13:37 +0000 2011 "] {
            XCTAssertNil(CreatedAt.parse(bad), bad)
        }
        XCTAssertEqual(CreatedAt.parse("Tue Feb 29 00:00:00 +0000 2000"), 951_782_400)
    }
}
