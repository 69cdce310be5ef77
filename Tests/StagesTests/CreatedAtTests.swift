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

    /// `clock` reads `HH:MM:SS` at bytes 11–18 as one word: against a byte
    /// by byte reading, for every byte value at each of the eight places of
    /// a valid time, and for every hour, minute and second up to 99.
    func testClockReadsTheTimeOfDayAsBytesWould() {
        func reference(_ t: [UInt8]) -> Int64? {
            func two(_ i: Int) -> Int64? {
                guard t[i] &- 0x30 < 10, t[i + 1] &- 0x30 < 10 else { return nil }
                return Int64(t[i] - 0x30) * 10 + Int64(t[i + 1] - 0x30)
            }
            guard t[2] == 0x3A, t[5] == 0x3A, let h = two(0), let m = two(3), let s = two(6), h < 24, m < 60, s < 61 else { return nil }
            return h * 3600 + m * 60 + s
        }
        func clock(_ t: [UInt8]) -> Int64? {
            (Array(repeating: UInt8(ascii: "x"), count: 11) + t + [0x20]).withUnsafeBytes { CreatedAt.clock($0.baseAddress!) }
        }
        var valid = 0
        for place in 0..<8 {
            for byte in 0...255 {
                var t = Array("12:34:56".utf8)
                t[place] = UInt8(byte)
                XCTAssertEqual(clock(t), reference(t), "\(t)")
                if reference(t) != nil { valid += 1 }
            }
        }
        for v in 0..<100 {
            for t in [String(format: "%02d:00:00", v), String(format: "00:%02d:00", v), String(format: "00:00:%02d", v)] {
                let bytes = Array(t.utf8)
                XCTAssertEqual(clock(bytes), reference(bytes), t)
                if reference(bytes) != nil { valid += 1 }
            }
        }
        // Worked out by hand: 12:34:56 stays a time with 0–2 for its first digit (3), any second digit (10),
        // a colon (1 each), 0–5 for the tens of minutes (6) and of seconds (6), any last digit (10, 10):
        // 47; and hours 0–23, minutes 0–59, seconds 0–60: 145.
        XCTAssertEqual(valid, 47 + 145)
        XCTAssertEqual(clock(Array("23:59:60".utf8)), 86_400)
        XCTAssertNil(clock(Array("24:00:00".utf8)))
    }
}
