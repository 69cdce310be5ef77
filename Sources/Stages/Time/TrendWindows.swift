/// The windows of `smashtag trend` (SPEC §14): the current window and the
/// baseline windows it is compared with, as half-open `[start, end)`
/// instants (seconds since 1970 UTC).
///
///     --current 7d --now T --tz Z     the 7 calendar days in Z that end at T's local midnight
///     --current 6h                    the 6 whole hours that end at the start of T's hour
///     --current 2w                    the 2 ISO weeks that end at T's Monday, 00:00 local
///     --current A..B                  [A, B), A and B as --since/--until take them
///
///     --baseline previous             the window of the same length just before (default)
///     --baseline weekago              the current window, each bound 7 calendar days back
///     --baseline mean:K               the K windows of the same length before the current one
///     --baseline A..B                 any window, its counts scaled by current/baseline length
///
/// "The same length" of a window of N days (or weeks) is N calendar days in
/// the zone, so a day across a clock change holds 23 or 25 hours and the day
/// before it is still one day; hours are 3,600 seconds each, and an explicit
/// `A..B` steps back by its length in seconds. Only an explicit baseline is
/// scaled (by the ratio of the lengths in seconds).
///
/// Local wall-clock times are turned into instants through `ZoneOffsets`
/// (the system's tz database): a local midnight that is skipped (a zone
/// that moves its clocks at 00:00) is the first instant of that day.
public struct TrendWindows: Sendable, Equatable {
    /// A half-open window of instants.
    public struct Window: Sendable, Equatable {
        public var start: Int64
        public var end: Int64
        public init(_ start: Int64, _ end: Int64) {
            self.start = start
            self.end = end
        }
        /// Whether instant `t` is in the window.
        @inline(__always)
        public func contains(_ t: Int64) -> Bool { t >= start && t < end }
        public var length: Int64 { end - start }
        /// `2020-03-01T00:00:00Z..2020-03-08T00:00:00Z`
        public var description: String { CreatedAt.isoSeconds(start) + ".." + CreatedAt.isoSeconds(end) }
    }

    /// `--current`.
    public enum Current: Sendable, Equatable {
        /// The last `count` whole units before the present one.
        case last(Int, Unit)
        /// An explicit `[A, B)`.
        case span(Int64, Int64)
    }

    /// The units of a relative window.
    public enum Unit: String, Sendable {
        case hour = "h", day = "d", week = "w"
    }

    /// `--baseline`.
    public enum Baseline: Sendable, Equatable {
        case previous, weekago
        case mean(Int)
        case span(Int64, Int64)
    }

    /// The current window.
    public let current: Window
    /// The baseline windows, latest first (one, but for `mean:K`).
    public let baselines: [Window]
    /// What each baseline count is multiplied by: 1, or the current window's
    /// length over the explicit baseline's (in seconds), reduced.
    public let scale: (numerator: Int64, denominator: Int64)
    public let currentOption: Current
    public let baselineOption: Baseline

    public static func == (a: TrendWindows, b: TrendWindows) -> Bool {
        a.current == b.current && a.baselines == b.baselines && a.scale == b.scale
    }

    /// The baseline as one span: from the earliest baseline window's start to the latest's end.
    public var baselineSpan: Window {
        Window(baselines.map(\.start).min()!, baselines.map(\.end).max()!)
    }

    /// - Parameters:
    ///   - now: `--now`, the present (seconds since 1970 UTC).
    ///   - zone: `--tz`.
    /// - Throws: `TrendOptionError` for an empty window.
    public init(current: Current, baseline: Baseline, now: Int64, zone: ZoneOffsets) throws(TrendOptionError) {
        currentOption = current
        baselineOption = baseline
        let clock = LocalClock(zone: zone)
        /// The window `back` lengths before the current one.
        func window(back: Int64) -> Window {
            switch current {
            case .span(let a, let b):
                let l = b - a
                return Window(a - back * l, b - back * l)
            case .last(let n, .hour):
                let end = now - TimeBuckets.floorMod(clock.local(now), 3600) - back * Int64(n) * 3600
                return Window(end - Int64(n) * 3600, end)
            case .last(let n, let unit):
                let days = Int64(n) * (unit == .week ? 7 : 1)
                let today = clock.day(of: now)
                let last = unit == .week ? today - TimeBuckets.floorMod(today + 3, 7) : today
                let endDay = last - back * days
                return Window(clock.midnight(of: endDay - days), clock.midnight(of: endDay))
            }
        }
        let cur = window(back: 0)
        guard cur.start < cur.end else { throw TrendOptionError("--current names an empty window (its start is not before its end)") }
        self.current = cur
        switch baseline {
        case .previous:
            baselines = [window(back: 1)]
            scale = (1, 1)
        case .weekago:
            baselines = [Window(clock.weekEarlier(cur.start), clock.weekEarlier(cur.end))]
            scale = (1, 1)
        case .mean(let k):
            guard k >= 1 else { throw TrendOptionError("--baseline mean:K averages K ≥ 1 windows") }
            baselines = (1...Int64(k)).map { window(back: $0) }
            scale = (1, 1)
        case .span(let a, let b):
            guard a < b else { throw TrendOptionError("--baseline names an empty window (its start is not before its end)") }
            baselines = [Window(a, b)]
            let g = Self.gcd(cur.length, b - a)
            scale = (cur.length / g, (b - a) / g)
        }
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    /// How `--current` and `--baseline` print: `7d`, `A..B`; `previous`, `mean:4`.
    public var currentText: String {
        switch currentOption {
        case .last(let n, let u): return "\(n)\(u.rawValue)"
        case .span(let a, let b): return CreatedAt.isoSeconds(a) + ".." + CreatedAt.isoSeconds(b)
        }
    }

    public var baselineText: String {
        switch baselineOption {
        case .previous: return "previous"
        case .weekago: return "weekago"
        case .mean(let k): return "mean:\(k)"
        case .span(let a, let b): return CreatedAt.isoSeconds(a) + ".." + CreatedAt.isoSeconds(b)
        }
    }

    // MARK: Parsing the options

    /// Parses `--current`: `Nh`, `Nd`, `Nw` (N ≥ 1) or `A..B`; nil when malformed.
    ///
    /// - Parameter time: how a bound is read (`TweetFilter.time`).
    public static func parseCurrent(_ s: String, time: (String) throws -> Int64) rethrows -> Current? {
        if let (a, b) = try span(s, time: time) { return .span(a, b) }
        guard let last = s.last, let unit = Unit(rawValue: String(last)),
              s.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(s.dropLast()), n >= 1, n <= 100_000 else { return nil }
        return .last(n, unit)
    }

    /// Parses `--baseline`: `previous`, `weekago`, `mean:K` or `A..B`; nil when malformed.
    public static func parseBaseline(_ s: String, time: (String) throws -> Int64) rethrows -> Baseline? {
        switch s {
        case "previous": return .previous
        case "weekago": return .weekago
        default: break
        }
        if s.hasPrefix("mean:") {
            let k = s.dropFirst(5)
            guard !k.isEmpty, k.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(k), n >= 1, n <= 10_000 else { return nil }
            return .mean(n)
        }
        if let (a, b) = try span(s, time: time) { return .span(a, b) }
        return nil
    }

    private static func span(_ s: String, time: (String) throws -> Int64) rethrows -> (Int64, Int64)? {
        guard let r = s.range(of: "..") else { return nil }
        return (try time(String(s[..<r.lowerBound])), try time(String(s[r.upperBound...])))
    }
}

/// A window option that names no window: a usage error.
public struct TrendOptionError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Local wall-clock time in one zone, for the windows: an instant's local
/// second and day, and the first instant of a local day or second.
struct LocalClock {
    let zone: ZoneOffsets

    /// The local wall-clock second of instant `t` (seconds since 1970 as if local were UTC).
    func local(_ t: Int64) -> Int64 { t + zone.offset(at: t) }

    /// The local day (days since 1970-01-01) of instant `t`.
    func day(of t: Int64) -> Int64 { TimeBuckets.floorDiv(local(t), 86_400) }

    /// The first instant of local day `day`.
    func midnight(of day: Int64) -> Int64 { firstInstant(atOrAfterLocal: day * 86_400) }

    /// `t`'s local wall-clock time 7 calendar days earlier, as an instant.
    func weekEarlier(_ t: Int64) -> Int64 { firstInstant(atOrAfterLocal: local(t) - 7 * 86_400) }

    /// The first instant whose local time is `l`, or, when the clocks skip
    /// `l`, the instant they skip it at (the first with a local time after it).
    func firstInstant(atOrAfterLocal l: Int64) -> Int64 {
        var found: Int64?
        for probe in [l - 86_400, l, l + 86_400, l - zone.offset(at: l)] {
            let t = l - zone.offset(at: probe)
            if local(t) == l, found.map({ t < $0 }) ?? true { found = t }
        }
        if let found { return found }
        // Skipped: the change lies between the instants l takes at the offsets before and after it.
        var lo = l - 26 * 3600, hi = l + 26 * 3600  // local(lo) < l <= local(hi)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if local(mid) >= l { hi = mid } else { lo = mid }
        }
        return hi
    }
}
