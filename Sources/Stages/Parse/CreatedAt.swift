/// A tweet's creation time in seconds since 1970-01-01 UTC, from the forms
/// the APIs write, or from the tweet id itself.
///
///     v1.1, archive   Wed Apr 06 19:13:37 +0000 2011
///     v2              2021-04-01T15:52:31.000Z   (also without fraction, or with ±hh:mm)
///
/// Parsed by hand from the bytes: no locale, no formatter, no allocation.
public enum CreatedAt {
    /// Parses either form; nil for anything else. With `noOffsetIsUTC`
    /// (SPEC §12.1) an ISO 8601 time without a zone is UTC; without it, a
    /// time with no zone is refused (a date typed on the command line).
    public static func parse(_ bytes: UnsafeRawBufferPointer, noOffsetIsUTC: Bool = false) -> Int64? {
        guard let first = bytes.first else { return nil }
        return isDigit(first) ? iso(bytes, noOffsetIsUTC: noOffsetIsUTC) : classic(bytes)
    }

    public static func parse(_ text: String, noOffsetIsUTC: Bool = false) -> Int64? {
        var t = text
        return t.withUTF8 { parse(UnsafeRawBufferPointer($0), noOffsetIsUTC: noOffsetIsUTC) }
    }

    /// The first snowflake id, of 2010-11-04 (SPEC §12.1).
    public static let firstSnowflake: UInt64 = 29_700_859_247

    /// The time encoded in a snowflake id (every tweet since November 2010):
    /// its bits above the low 22 are milliseconds since Twitter's epoch
    /// (1288834974657). Nil for ids below the first snowflake (the older
    /// sequential ids, test fixtures).
    public static func fromSnowflake(_ id: UInt64) -> Int64? {
        guard id >= firstSnowflake else { return nil }
        let ms = Int64(id >> 22) + 1_288_834_974_657
        return ms >= 0 ? ms / 1000 : (ms - 999) / 1000
    }

    /// `2021-04-01T15:52:31.000Z` as ISO 8601 (UTC, whole seconds), as the v2 API writes it.
    public static func iso(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, m, d) = civil(days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = y < 1000 && y >= 0 ? String(repeating: "0", count: 4 - String(y).count) + String(y) : String(y)
        return "\(year)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)).000Z"
    }

    /// `2021-04-01T15:52:31Z`: ISO 8601 in UTC, whole seconds (how a filter's bound prints).
    public static func isoSeconds(_ seconds: Int64) -> String {
        String(iso(seconds).dropLast(5)) + "Z"
    }

    // MARK: Forms

    /// `Wed Apr 06 19:13:37 +0000 2011`
    private static func classic(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 30, b[3] == 0x20, b[7] == 0x20, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              b[19] == 0x20, b[25] == 0x20,
              let month = month(b[4], b[5], b[6]),
              let day = number(b, 8, 2), let h = number(b, 11, 2), let mi = number(b, 14, 2),
              let s = number(b, 17, 2), let offset = offset(b, 20, colon: false), let year = number(b, 26, 4)
        else { return nil }
        return epoch(year, month, day, h, mi, s, offset)
    }

    /// `2021-04-01T15:52:31.000Z`, `2021-04-01T15:52:31Z`, `2021-04-01T15:52:31+02:00`
    private static func iso(_ b: UnsafeRawBufferPointer, noOffsetIsUTC: Bool) -> Int64? {
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              let h = number(b, 11, 2), let mi = number(b, 14, 2), let s = number(b, 17, 2)
        else { return nil }
        var i = 19
        if i < b.count, b[i] == 0x2E {  // a fraction of a second: dropped
            i += 1
            while i < b.count, isDigit(b[i]) { i += 1 }
        }
        if i == b.count { return noOffsetIsUTC ? epoch(year, month, day, h, mi, s, 0) : nil }
        let zone: Int64
        if b[i] == 0x5A {
            guard i + 1 == b.count else { return nil }
            zone = 0
        } else {
            guard i + 6 == b.count, let z = offset(b, i, colon: true) else { return nil }
            zone = z
        }
        return epoch(year, month, day, h, mi, s, zone)
    }

    // MARK: Pieces

    private static func epoch(_ y: Int64, _ m: Int64, _ d: Int64, _ h: Int64, _ mi: Int64, _ s: Int64, _ offset: Int64) -> Int64? {
        guard (1...12).contains(m), d >= 1, d <= daysIn(m, of: y), h < 24, mi < 60, s < 61 else { return nil }
        return days(y, m, d) * 86_400 + h * 3600 + mi * 60 + s - offset
    }

    /// Days in month `m` of year `y` (February has 29 in leap years), so
    /// that `2020-02-30` is no date rather than 1 March.
    static func daysIn(_ m: Int64, of y: Int64) -> Int64 {
        switch m {
        case 2: return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
    ///
    /// Counts from 1 March, so the leap day ends a year: 400-year eras of
    /// 146097 days, then years of 365 days plus a day every 4th year but every 100th.
    static func days(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01: the inverse of `days`.
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inline(__always)
    private static func number(_ b: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Int64? {
        var n: Int64 = 0
        for i in at..<at + count {
            guard isDigit(b[i]) else { return nil }
            n = n * 10 + Int64(b[i] - 0x30)
        }
        return n
    }

    /// `+0000` (classic) or `+02:00` (ISO): seconds east of UTC.
    @inline(__always)
    private static func offset(_ b: UnsafeRawBufferPointer, _ at: Int, colon: Bool) -> Int64? {
        guard b[at] == 0x2B || b[at] == 0x2D, let h = number(b, at + 1, 2) else { return nil }
        if colon { guard b[at + 3] == 0x3A else { return nil } }
        guard let m = number(b, at + (colon ? 4 : 3), 2) else { return nil }
        let seconds = h * 3600 + m * 60
        return b[at] == 0x2D ? -seconds : seconds
    }

    /// `Jan` … `Dec`: 1 … 12 (three bytes as one integer, one switch).
    @inline(__always)
    private static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int64? {
        switch UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) {
        case 0x4A_61_6E: return 1   // Jan
        case 0x46_65_62: return 2   // Feb
        case 0x4D_61_72: return 3   // Mar
        case 0x41_70_72: return 4   // Apr
        case 0x4D_61_79: return 5   // May
        case 0x4A_75_6E: return 6   // Jun
        case 0x4A_75_6C: return 7   // Jul
        case 0x41_75_67: return 8   // Aug
        case 0x53_65_70: return 9   // Sep
        case 0x4F_63_74: return 10  // Oct
        case 0x4E_6F_76: return 11  // Nov
        case 0x44_65_63: return 12  // Dec
        default: return nil
        }
    }

    @inline(__always)
    private static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
}
