import XCTest
@testable import Stages

/// The buckets of SPEC §12.4, hand-worked: ISO weeks across a new year, the
/// DST days of Europe/Berlin (23 and 25 hours), the skipped and the repeated
/// hour, zones checked against the tz database.
final class TimeBucketsTests: XCTestCase {
    private func buckets(_ unit: TimeBuckets.Unit, _ zone: String = "UTC") throws -> TimeBuckets {
        TimeBuckets(unit: unit, zone: try ZoneOffsets(zone))
    }

    private func at(_ iso: String) throws -> Int64 { try XCTUnwrap(CreatedAt.parse(iso)) }

    func testISOWeeksAcrossTheNewYearOf2020() throws {
        let week = try buckets(.week)
        XCTAssertEqual(week.name(of: try at("2020-12-27T23:59:59Z")), "2020-W52")  // a Sunday
        XCTAssertEqual(week.name(of: try at("2020-12-28T00:00:00Z")), "2020-W53")  // Monday
        XCTAssertEqual(week.name(of: try at("2020-12-31T23:59:59Z")), "2020-W53")
        XCTAssertEqual(week.name(of: try at("2021-01-01T00:00:00Z")), "2020-W53")  // a Friday of 2021 in 2020's last week
        XCTAssertEqual(week.name(of: try at("2021-01-03T23:59:59Z")), "2020-W53")
        XCTAssertEqual(week.name(of: try at("2021-01-04T00:00:00Z")), "2021-W01")
        // And the other way: 2024-12-30 (a Monday) is in 2025's first week.
        XCTAssertEqual(week.name(of: try at("2024-12-30T00:00:00Z")), "2025-W01")
        XCTAssertEqual(week.name(of: try at("2020-03-01T12:00:00Z")), "2020-W09")
        XCTAssertEqual(week.names(from: try at("2020-12-20T00:00:00Z"), through: try at("2021-01-10T00:00:00Z")),
                       ["2020-W51", "2020-W52", "2020-W53", "2021-W01"])
        // In Berlin, 23:30 UTC on Sunday 3 January is already Monday.
        XCTAssertEqual(try buckets(.week, "Europe/Berlin").name(of: try at("2021-01-03T23:30:00Z")), "2021-W01")
    }

    func testTheOtherUnitsNameWallClockTime() throws {
        let t = try at("2020-03-01T13:05:00Z")
        XCTAssertEqual(try buckets(.hour).name(of: t), "2020-03-01T13")
        XCTAssertEqual(try buckets(.day).name(of: t), "2020-03-01")
        XCTAssertEqual(try buckets(.month).name(of: t), "2020-03")
        XCTAssertEqual(try buckets(.year).name(of: t), "2020")
        XCTAssertEqual(try buckets(.hour, "Asia/Kolkata").name(of: t), "2020-03-01T18")  // +05:30
        XCTAssertEqual(try buckets(.day, "America/New_York").name(of: try at("2020-03-01T04:59:59Z")), "2020-02-29")
        XCTAssertEqual(try buckets(.year, "America/New_York").name(of: try at("2021-01-01T04:59:59Z")), "2020")
    }

    /// 2021-03-28: Berlin's clocks go from 02:00 CET to 03:00 CEST (01:00 UTC).
    func testTheBerlinSpringDayHas23HoursAndNo2AM() throws {
        let hour = try buckets(.hour, "Europe/Berlin"), day = try buckets(.day, "Europe/Berlin")
        let start = try at("2021-03-27T23:00:00Z"), end = try at("2021-03-28T22:00:00Z")  // local midnight to midnight
        XCTAssertEqual(day.name(of: start), "2021-03-28")
        XCTAssertEqual(day.name(of: end - 1), "2021-03-28")
        XCTAssertEqual(day.name(of: end), "2021-03-29")
        XCTAssertEqual(day.name(of: start - 1), "2021-03-27")
        XCTAssertEqual((end - start) / 3600, 23)
        let hours = hour.names(from: start, through: end - 1)
        XCTAssertEqual(hours.count, 23)
        XCTAssertFalse(hours.contains("2021-03-28T02"), "the skipped hour is no bucket")
        XCTAssertEqual(hour.name(of: try at("2021-03-28T00:59:59Z")), "2021-03-28T01")
        XCTAssertEqual(hour.name(of: try at("2021-03-28T01:00:00Z")), "2021-03-28T03")
        XCTAssertNil(hour.instant(in: "2021-03-28T02"))
        XCTAssertEqual(day.names(from: start - 1, through: end), ["2021-03-27", "2021-03-28", "2021-03-29"])
    }

    /// 2021-10-31: from 03:00 CEST back to 02:00 CET (01:00 UTC).
    func testTheBerlinAutumnDayHas25HoursAndOne2AMBucket() throws {
        let hour = try buckets(.hour, "Europe/Berlin"), day = try buckets(.day, "Europe/Berlin")
        let start = try at("2021-10-30T22:00:00Z"), end = try at("2021-10-31T23:00:00Z")
        XCTAssertEqual(day.name(of: start), "2021-10-31")
        XCTAssertEqual(day.name(of: end - 1), "2021-10-31")
        XCTAssertEqual(day.name(of: end), "2021-11-01")
        XCTAssertEqual((end - start) / 3600, 25)
        let hours = hour.names(from: start, through: end - 1)
        XCTAssertEqual(hours.count, 24, "the repeated hour is one bucket")
        XCTAssertEqual(hours.filter { $0 == "2021-10-31T02" }.count, 1)
        XCTAssertEqual(hour.name(of: try at("2021-10-31T00:30:00Z")), "2021-10-31T02")  // CEST
        XCTAssertEqual(hour.name(of: try at("2021-10-31T01:30:00Z")), "2021-10-31T02")  // CET
        XCTAssertEqual(hour.name(of: try at("2021-10-31T02:00:00Z")), "2021-10-31T03")
    }

    /// Samoa crossed the date line at the end of 2011-12-29: 2011-12-30 never happened there.
    func testASkippedDayIsNoBucket() throws {
        let day = try buckets(.day, "Pacific/Apia")
        XCTAssertEqual(day.names(from: try at("2011-12-29T12:00:00Z"), through: try at("2011-12-31T12:00:00Z")),
                       ["2011-12-29", "2011-12-31", "2012-01-01"])
        XCTAssertNil(day.instant(in: "2011-12-30"))
    }

    func testAnInstantInEveryNamedBucket() throws {
        for (unit, zone) in [(TimeBuckets.Unit.hour, "Europe/Berlin"), (.day, "America/New_York"), (.week, "Asia/Kolkata"),
                             (.month, "Australia/Lord_Howe"), (.year, "UTC")] {
            let b = try buckets(unit, zone)
            let names = b.names(from: try at("2020-12-25T00:00:00Z"), through: try at("2021-04-05T00:00:00Z"))
            XCTAssertFalse(names.isEmpty)
            for name in names {
                let t = try XCTUnwrap(b.instant(in: name), "\(unit) \(zone) \(name)")
                XCTAssertEqual(b.name(of: t), name)
            }
        }
    }

    func testZonesComeFromTheTzDatabase() throws {
        XCTAssertNoThrow(try ZoneOffsets("Europe/Berlin"))
        XCTAssertNoThrow(try ZoneOffsets("UTC"))
        for bad in ["Europe/Nowhere", "europe/berlin/", "../etc/passwd", "/usr/share/zoneinfo/UTC", "", "Europe", "Mars/Olympus"] {
            XCTAssertThrowsError(try ZoneOffsets(bad), bad)
        }
        XCTAssertEqual(try ZoneOffsets("Europe/Berlin").offset(at: try at("2021-07-01T00:00:00Z")), 7200)
        XCTAssertEqual(try ZoneOffsets("Europe/Berlin").offset(at: try at("2021-01-01T00:00:00Z")), 3600)
        // Two zones in one process: each asks with its own TZ.
        let ny = try ZoneOffsets("America/New_York"), berlin = try ZoneOffsets("Europe/Berlin")
        XCTAssertEqual(ny.offset(at: 0), -18_000)
        XCTAssertEqual(berlin.offset(at: 0), 3600)
        XCTAssertEqual(ny.offset(at: 0), -18_000)
    }
}
