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

    /// The memo of the last date read must change no result: a stream of
    /// times, mostly of one day as a dump's are, with every kind of bad
    /// byte (in the time of day, in the date's words, a length off by one),
    /// read with one memo throughout against `parse` alone.
    func testDateMemoGivesParsesOwnResults() throws {
        var rng = SystemRandomNumberGenerator()
        let good = ["Sun Mar 01 20:38:46 +0000 2020", "Sun Mar 01 23:59:60 +0000 2020", "Mon Mar 02 00:00:00 +0000 2020",
                    "Sat Feb 29 12:00:00 +0000 2020", "Sat Feb 29 12:00:00 -0130 2020", "Sat Feb 29 12:00:00 +0530 2020",
                    "Tue Dec 31 23:59:59 +0000 1968", "2021-04-01T15:52:31.000Z", "2021-04-01T15:52:31Z",
                    "2021-04-01 15:52:31+02:00", "2021-04-01T15:52:31", "2021-04-01T00:00:00.123456-11:30",
                    "2020-02-29T23:59:59.9Z", "1969-12-31T23:59:59Z"]
        let alphabet = Array("0123456789 :+-TZ.aAMrFebSun".utf8)
        var memo = CreatedAt.DateMemo(), memoUTC = CreatedAt.DateMemo()
        var compared = 0, valid = 0, viaMemo = 0
        var day = good[0]
        for _ in 0..<60_000 {
            // Mostly the day before's, as a dump goes.
            if Int.random(in: 0..<5, using: &rng) == 0 { day = good.randomElement(using: &rng)! }
            var bytes = Array(day.utf8)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                // Another time of the same day: digits at 11–18 (some out of range).
                for i in [11, 12, 14, 15, 17, 18] { bytes[i] = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &rng) }
            case 4..<7:
                // A byte anywhere made another.
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            case 7:
                if Bool.random(using: &rng) { bytes.removeLast() } else { bytes.append(alphabet.randomElement(using: &rng)!) }
            default:
                break
            }
            let plain = bytes.withUnsafeBytes { CreatedAt.parse($0, noOffsetIsUTC: false) }
            let plainUTC = bytes.withUnsafeBytes { CreatedAt.parse($0, noOffsetIsUTC: true) }
            let hadMemo = memo.hasDate(of: bytes)
            let memoed = bytes.withUnsafeBytes { CreatedAt.parse($0, noOffsetIsUTC: false, memo: &memo) }
            let memoedUTC = bytes.withUnsafeBytes { CreatedAt.parse($0, noOffsetIsUTC: true, memo: &memoUTC) }
            XCTAssertEqual(memoed, plain, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(memoedUTC, plainUTC, String(decoding: bytes, as: UTF8.self))
            compared += 1
            if plain != nil { valid += 1 }
            if hadMemo && plain != nil { viaMemo += 1 }
        }
        // The stream must have exercised the memo on valid times, and bad ones beside.
        XCTAssertGreaterThan(viaMemo, 5_000)
        XCTAssertGreaterThan(compared - valid, 10_000)
        // By hand: a day read, then a time of it, then a bad hour and a bad day of that month.
        var m = CreatedAt.DateMemo()
        func read(_ s: String) -> Int64? { Array(s.utf8).withUnsafeBytes { CreatedAt.parse($0, noOffsetIsUTC: true, memo: &m) } }
        XCTAssertEqual(read("Wed Apr 06 19:13:37 +0000 2011"), 1_302_117_217)
        XCTAssertEqual(read("Wed Apr 06 19:13:38 +0000 2011"), 1_302_117_218)
        XCTAssertEqual(read("Wed Apr 06 00:00:00 -0130 2011"), 1_302_048_000 + 5_400)
        XCTAssertNil(read("Wed Apr 06 24:00:00 -0130 2011"))
        XCTAssertNil(read("Wed Apr 31 00:00:00 -0130 2011"))
        XCTAssertEqual(read("2011-04-06T19:13:37.5+01:00"), 1_302_117_217 - 3_600)
        XCTAssertEqual(read("2011-04-06 19:13:39"), 1_302_117_219)
        XCTAssertNil(read("2011-04-06T19:60:39Z"))
    }
}
