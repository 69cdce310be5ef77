/// The time buckets of SPEC §12.4 (`--by UNIT --tz ZONE`): an instant's
/// bucket is named by its local wall-clock time in the zone.
///
///     hour    2020-03-01T13
///     day     2020-03-01
///     week    2020-W09        ISO 8601: weeks start on Monday, the year is the ISO week-year
///     month   2020-03
///     year    2020
///
/// Names sort as their buckets do. Because a bucket is named by wall-clock
/// time, the hour repeated when clocks go back is one bucket (it holds two
/// hours of instants) and the hour skipped when they go forward is none; a
/// day in `Europe/Berlin` holds 23 or 25 hours on the days clocks change.
///
/// One `TimeBuckets` belongs to one thread (the aggregator's): it caches the
/// zone's offset per UTC hour, so the C library is asked about twice an
/// hour of data, whatever the number of tweets.
///
/// - Complexity: `name(of:)` O(1) amortised; memory O(distinct UTC hours asked about).
public final class TimeBuckets {
    /// `--by`.
    public enum Unit: String, Sendable, CaseIterable {
        case hour, day, week, month, year

        /// The unit's mean length in seconds (the Gregorian calendar's mean month and year).
        public var meanSeconds: Int64 {
            switch self {
            case .hour: 3_600
            case .day: 86_400
            case .week: 604_800
            case .month: 2_629_746
            case .year: 31_556_952
            }
        }
    }

    public let unit: Unit
    public let zone: ZoneOffsets
    /// UTC hour → the offset through the whole hour, or nil when it changes within it.
    private var hourOffsets: [Int64: Int64?] = [:]

    public init(unit: Unit, zone: ZoneOffsets) {
        self.unit = unit
        self.zone = zone
    }

    /// How the options print (`--by day --tz Europe/Berlin`).
    public var description: String { "--by \(unit.rawValue) --tz \(zone.name)" }

    /// The zone's offset at `t`, through the per-hour cache.
    func offset(at t: Int64) -> Int64 {
        let hour = t >= 0 ? t / 3600 : (t - 3599) / 3600
        if let cached = hourOffsets[hour] {
            if let off = cached { return off }
            return zone.offset(at: t)
        }
        let start = zone.offset(at: hour * 3600), end = zone.offset(at: hour * 3600 + 3599)
        hourOffsets[hour] = start == end ? start : nil
        return start == end ? start : zone.offset(at: t)
    }

    /// Whether every instant of the UTC quarter hour holding `t` is in one
    /// bucket (the offset is constant through its hour and a whole number
    /// of quarter hours), so a caller may cache the name per quarter hour.
    func quarterIsUniform(_ t: Int64) -> Bool {
        let hour = t >= 0 ? t / 3600 : (t - 3599) / 3600
        _ = offset(at: t)
        guard let cached = hourOffsets[hour], let off = cached else { return false }
        return off % 900 == 0
    }

    /// The name of the bucket holding instant `t` (seconds since 1970 UTC).
    public func name(of t: Int64) -> String {
        let local = t + offset(at: t)
        let day = Self.floorDiv(local, 86_400)
        let (y, m, d) = CreatedAt.civil(day)
        switch unit {
        case .year: return Self.pad(y, 4)
        case .month: return Self.pad(y, 4) + "-" + Self.pad(m, 2)
        case .day: return Self.pad(y, 4) + "-" + Self.pad(m, 2) + "-" + Self.pad(d, 2)
        case .hour:
            return Self.pad(y, 4) + "-" + Self.pad(m, 2) + "-" + Self.pad(d, 2) + "T" + Self.pad((local - day * 86_400) / 3600, 2)
        case .week:
            let (year, week) = Self.isoWeek(day)
            return Self.pad(year, 4) + "-W" + Self.pad(week, 2)
        }
    }

    /// The ISO 8601 week-year and week of a day since 1970-01-01: the week
    /// (Monday to Sunday) belongs to the year that holds its Thursday.
    static func isoWeek(_ day: Int64) -> (year: Int64, week: Int64) {
        let weekday = floorMod(day + 3, 7)  // 0 Monday … 6 Sunday; 1970-01-01 was a Thursday
        let thursday = day - weekday + 3
        let year = CreatedAt.civil(thursday).year
        return (year, (thursday - CreatedAt.days(year, 1, 1)) / 7 + 1)
    }

    /// The local wall-clock second (seconds since 1970 as if local were UTC)
    /// at which the bucket after the one holding local second `local` begins.
    func nextStart(afterLocal local: Int64) -> Int64 {
        let day = Self.floorDiv(local, 86_400)
        let (y, m, _) = CreatedAt.civil(day)
        switch unit {
        case .hour: return (Self.floorDiv(local, 3600) + 1) * 3600
        case .day: return (day + 1) * 86_400
        case .week: return (day - Self.floorMod(day + 3, 7) + 7) * 86_400
        case .month: return (m == 12 ? CreatedAt.days(y + 1, 1, 1) : CreatedAt.days(y, m + 1, 1)) * 86_400
        case .year: return CreatedAt.days(y + 1, 1, 1) * 86_400
        }
    }

    /// The names of every bucket holding an instant from `first` through
    /// `last` (inclusive), ascending: the series' buckets, holes included,
    /// the skipped hour not.
    ///
    /// Walks bucket by bucket: the next bucket's wall-clock start, turned
    /// into an instant at the current offset, is checked; when the offset
    /// changed on the way, a binary search finds the first instant of the
    /// next bucket.
    ///
    /// - Complexity: O(buckets × log(bucket length)) offset lookups, mostly cached.
    public func names(from first: Int64, through last: Int64) -> [String] {
        guard first <= last else { return [] }
        var names = Set<String>()
        var t = first
        while t <= last {
            let current = name(of: t)
            names.insert(current)
            var next = nextStart(afterLocal: t + offset(at: t)) - offset(at: t)
            if next <= t { next = t + 1 }
            if name(of: next) == current || name(of: next - 1) != current {
                // The offset changed between t and next: find where the name first differs.
                var hi = next
                while name(of: hi) == current && hi <= last { hi += 3600 }
                var lo = t  // name(lo) == current, name(hi) != current (or hi beyond last)
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2
                    if name(of: mid) == current { lo = mid } else { hi = mid }
                }
                next = hi
            }
            t = next
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// An instant in the bucket named `name` (as `name(of:)` writes it), or
    /// nil when the name is malformed or no instant has it (a skipped hour).
    public func instant(in bucket: String) -> Int64? {
        let b = Array(bucket.utf8)
        func number(_ r: Range<Int>) -> Int64? {
            guard r.upperBound <= b.count, r.allSatisfy({ b[$0] &- 0x30 < 10 }) else { return nil }
            return Int64(String(decoding: b[r], as: UTF8.self))
        }
        let expected: Int
        switch unit {
        case .year: expected = 4
        case .month: expected = 7
        case .day: expected = 10
        case .hour: expected = 13
        case .week: expected = 8
        }
        guard b.count == expected, let y = number(0..<4) else { return nil }
        var local: Int64
        switch unit {
        case .year: local = CreatedAt.days(y, 1, 1) * 86_400
        case .week:
            guard b[4] == 0x2D, b[5] == 0x57, let w = number(6..<8), (1...53).contains(w) else { return nil }
            let jan4 = CreatedAt.days(y, 1, 4)
            local = (jan4 - Self.floorMod(jan4 + 3, 7) + (w - 1) * 7) * 86_400
        default:
            guard b[4] == 0x2D, let m = number(5..<7), (1...12).contains(m) else { return nil }
            local = CreatedAt.days(y, m, 1) * 86_400
            if unit == .day || unit == .hour {
                guard b[7] == 0x2D, let d = number(8..<10), (1...31).contains(d) else { return nil }
                local += (d - 1) * 86_400
            }
            if unit == .hour {
                guard b[10] == 0x54, let h = number(11..<13), h < 24 else { return nil }
                local += h * 3600
            }
        }
        // Offsets in force around the bucket's wall-clock start; one of them puts an instant in it.
        var tried = Set<Int64>()
        for probe in [local, local - 2 * 86_400, local + 2 * 86_400, local + 3600, local + 7200] {
            for off in [offset(at: probe), offset(at: probe - offset(at: probe))] where tried.insert(off).inserted {
                if name(of: local - off) == bucket { return local - off }
                // The wall-clock start may be skipped: the bucket then begins at the change.
                if name(of: local - off + 3600) == bucket { return local - off + 3600 }
            }
        }
        return nil
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }

    static func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
