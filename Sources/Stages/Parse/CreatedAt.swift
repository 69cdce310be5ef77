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

    /// `parse(_:noOffsetIsUTC:)`, the date's days taken from `memo` when
    /// its bytes are those of a date read through it before: a dump's posts
    /// fall on few days, so nearly every time is of a date met already,
    /// told by comparing two or three words. The time of day is read
    /// and checked as always; the result is `parse`'s, byte for byte.
    @inline(__always)
    public static func parse(_ bytes: UnsafeRawBufferPointer, noOffsetIsUTC: Bool = false, memo: inout DateMemo) -> Int64? {
        guard let first = bytes.first else { return nil }
        return isDigit(first) ? iso(bytes, noOffsetIsUTC: noOffsetIsUTC, memo: &memo) : classic(bytes, memo: &memo)
    }

    /// The dates read through `parse(_:noOffsetIsUTC:memo:)`: up to 128 of
    /// each form (a dump's days, in any order), each by its bytes as words
    /// and what it adds to the time of day, in one of the two places its
    /// words mix to (so two dates met in turn do not push each other out).
    /// A reader keeps one (a worker's record, from record to record).
    public struct DateMemo {
        /// Classic: bytes 3..<11 (` Apr 06 `), 19..<27 (` +0000 2`) and
        /// 26..<30 (`2011`), and the date's days × 86,400 less the offset.
        fileprivate struct Classic {
            var a: UInt64 = 0, b: UInt64 = 0, c: UInt32 = 0, base: Int64 = 0, set = false
        }
        /// ISO 8601: bytes 0..<8 (`2021-04-`) and 8..<10 (`01`), and the date's days × 86,400.
        fileprivate struct ISO {
            var a: UInt64 = 0, b: UInt16 = 0, base: Int64 = 0, set = false
        }
        fileprivate var classic = [Classic](repeating: Classic(), count: 128)
        fileprivate var iso = [ISO](repeating: ISO(), count: 128)

        public init() {}

        /// The first of the two places of a date whose words mix to `x` (the other is the next).
        @inline(__always)
        fileprivate static func slot(_ x: UInt64) -> Int { Int(truncatingIfNeeded: (x &* 0x9E37_79B9_7F4A_7C15) >> 58) << 1 }

        /// Where a new date goes of the two places from `slot`: an empty one, else the second.
        @inline(__always)
        fileprivate static func place(_ slot: Int, empty: Bool) -> Int { empty ? slot : slot | 1 }

        /// A classic date's words (bytes 3..<11, 19..<27 and 26..<30 of `p`) and the first of its places.
        @inline(__always)
        fileprivate static func classicKey(_ p: UnsafeRawPointer) -> (a: UInt64, b: UInt64, c: UInt32, slot: Int) {
            let a = p.loadUnaligned(fromByteOffset: 3, as: UInt64.self), b = p.loadUnaligned(fromByteOffset: 19, as: UInt64.self)
            let c = p.loadUnaligned(fromByteOffset: 26, as: UInt32.self)
            return (a, b, c, slot(a ^ b &* 31 ^ UInt64(c)))
        }

        /// An ISO 8601 date's words (bytes 0..<8 and 8..<10 of `p`) and the first of its places.
        @inline(__always)
        fileprivate static func isoKey(_ p: UnsafeRawPointer) -> (a: UInt64, b: UInt16, slot: Int) {
            let a = p.loadUnaligned(as: UInt64.self), b = p.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
            return (a, b, slot(a &+ UInt64(b)))
        }

        /// What the classic date `k` adds to a time of day, when held.
        @inline(__always)
        fileprivate func classicBase(_ k: (a: UInt64, b: UInt64, c: UInt32, slot: Int)) -> Int64? {
            var m = classic[k.slot]
            if !(m.a == k.a && m.b == k.b && m.c == k.c) { m = classic[k.slot | 1] }
            return m.set && m.a == k.a && m.b == k.b && m.c == k.c ? m.base : nil
        }

        /// What the ISO 8601 date `k` adds to a time of day, when held.
        @inline(__always)
        fileprivate func isoBase(_ k: (a: UInt64, b: UInt16, slot: Int)) -> Int64? {
            var m = iso[k.slot]
            if !(m.a == k.a && m.b == k.b) { m = iso[k.slot | 1] }
            return m.set && m.a == k.a && m.b == k.b ? m.base : nil
        }

        /// Whether the date `bytes` begin with is held (for tests).
        func hasDate(of bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { b in
                if b.count == 30, classicBase(DateMemo.classicKey(b.baseAddress!)) != nil { return true }
                return b.count >= 19 && isoBase(DateMemo.isoKey(b.baseAddress!)) != nil
            }
        }
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

    /// `classic`, the date from `memo` when its words are a date it holds.
    private static func classic(_ b: UnsafeRawBufferPointer, memo: inout DateMemo) -> Int64? {
        guard b.count == 30, let p = b.baseAddress else { return nil }
        let k = DateMemo.classicKey(p)
        if let base = memo.classicBase(k) {
            // Bytes 3–10 and 19–29 are a date `classic` read: its separators, month, day, offset and year.
            guard let seconds = clock(p) else { return nil }
            return base + seconds
        }
        guard let t = classic(b) else { return nil }
        memo.classic[DateMemo.place(k.slot, empty: !memo.classic[k.slot].set)] =
            DateMemo.Classic(a: k.a, b: k.b, c: k.c, base: t - secondsOfDay(b), set: true)
        return t
    }

    /// `iso`, the date from `memo` when its words are a date it holds.
    private static func iso(_ b: UnsafeRawBufferPointer, noOffsetIsUTC: Bool, memo: inout DateMemo) -> Int64? {
        guard b.count >= 19, let p = b.baseAddress else { return nil }
        let k = DateMemo.isoKey(p)
        if let base = memo.isoBase(k) {
            // Bytes 0–9 are a date `iso` read: its separators, year, month and day.
            guard let (h, mi, s, zone) = isoTime(b, noOffsetIsUTC: noOffsetIsUTC), h < 24, mi < 60, s < 61 else { return nil }
            return base + h * 3600 + mi * 60 + s - zone
        }
        guard let t = iso(b, noOffsetIsUTC: noOffsetIsUTC), let (_, _, _, zone) = isoTime(b, noOffsetIsUTC: noOffsetIsUTC) else {
            return nil
        }
        memo.iso[DateMemo.place(k.slot, empty: !memo.iso[k.slot].set)] =
            DateMemo.ISO(a: k.a, b: k.b, base: t - secondsOfDay(b) + zone, set: true)
        return t
    }

    /// `HH:MM:SS` at bytes 11–18 (both forms put it there) as seconds of
    /// the day, nil unless it is two digits, a colon, two, a colon and two,
    /// with the ranges `epoch` checks (hour below 24, minute below 60,
    /// second below 61): the eight bytes read and checked as one word.
    @inline(__always)
    static func clock(_ p: UnsafeRawPointer) -> Int64? {
        let w = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        // Digits at bytes 0, 1, 3, 4, 6, 7: high nibble 3, and no carry into it when 6 is added (0x30–0x39);
        // colons at bytes 2 and 5.
        let high: UInt64 = 0xF0F0_00F0_F000_F0F0, threes: UInt64 = 0x3030_0030_3000_3030
        guard w & high == threes, (w &+ 0x0606_0006_0600_0606) & high == threes,
              w & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000
        else { return nil }
        let d = w & 0x0F0F_000F_0F00_0F0F
        @inline(__always) func digit(_ k: UInt64) -> Int64 { Int64(truncatingIfNeeded: (d >> (8 * k)) & 0xFF) }
        let h = digit(0) * 10 + digit(1), mi = digit(3) * 10 + digit(4), s = digit(6) * 10 + digit(7)
        guard h < 24, mi < 60, s < 61 else { return nil }
        return h * 3600 + mi * 60 + s
    }

    /// Hours, minutes and seconds at bytes 11–18 (both forms put them there), as seconds; of a time already read.
    private static func secondsOfDay(_ b: UnsafeRawBufferPointer) -> Int64 {
        (number(b, 11, 2) ?? 0) * 3600 + (number(b, 14, 2) ?? 0) * 60 + (number(b, 17, 2) ?? 0)
    }

    /// `2021-04-01T15:52:31.000Z`, `2021-04-01T15:52:31Z`, `2021-04-01T15:52:31+02:00`
    private static func iso(_ b: UnsafeRawBufferPointer, noOffsetIsUTC: Bool) -> Int64? {
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, let year = number(b, 0, 4), let month = number(b, 5, 2),
              let day = number(b, 8, 2), let (h, mi, s, zone) = isoTime(b, noOffsetIsUTC: noOffsetIsUTC)
        else { return nil }
        return epoch(year, month, day, h, mi, s, zone)
    }

    /// What follows an ISO 8601 date (`b.count` at least 19): `T` or a
    /// space, the time of day, a fraction (dropped) and the zone (UTC when
    /// there is none and `noOffsetIsUTC`); nil when any of it is not so.
    /// The time's ranges are `epoch`'s to check.
    @inline(__always)
    private static func isoTime(_ b: UnsafeRawBufferPointer, noOffsetIsUTC: Bool) -> (Int64, Int64, Int64, Int64)? {
        guard b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              let h = number(b, 11, 2), let mi = number(b, 14, 2), let s = number(b, 17, 2)
        else { return nil }
        var i = 19
        if i < b.count, b[i] == 0x2E {  // a fraction of a second: dropped
            i += 1
            while i < b.count, isDigit(b[i]) { i += 1 }
        }
        if i == b.count { return noOffsetIsUTC ? (h, mi, s, 0) : nil }
        let zone: Int64
        if b[i] == 0x5A {
            guard i + 1 == b.count else { return nil }
            zone = 0
        } else {
            guard i + 6 == b.count, let z = offset(b, i, colon: true) else { return nil }
            zone = z
        }
        return (h, mi, s, zone)
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
