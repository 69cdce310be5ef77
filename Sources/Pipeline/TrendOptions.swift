import Foundation
import Stages

/// The options of SPEC §14 that say what `trend` compares and how it
/// scores, parsed in one place for `smashtag trend` and `aggregate --trend`:
///
///     --current WINDOW          Nh, Nd, Nw (the last N whole units before the present one) or A..B
///     --baseline WHICH          previous, weekago, mean:K or A..B [default: previous]
///     --now T                   the present [default: the clock]
///     --tz ZONE                 the zone days and weeks are counted in [default: UTC]
///     --min-authors N           N, under which the score is 0 [default: 5]
///     --by-tweets               o and b count distinct tweets, not authors
///     --all                     every row, not only those scoring above 0
struct TrendOptions {
    /// What the summary's oldest and newest times are of.
    enum Ends {
        /// The matching tweets a run over dumps or extract lines read.
        case tweetsRead
        /// Every post of a store, which reads its windows' span alone.
        case store

        var noun: String { self == .tweetsRead ? "matching tweet read" : "post in the store" }
        var none: String { self == .tweetsRead ? "no matching tweet of known time was read" : "the store holds no post of known time" }
    }

    var current: TrendWindows.Current?
    var baseline = TrendWindows.Baseline.previous
    var now: Int64?
    var zone: ZoneOffsets?
    var minAuthors = 5
    var byTweets = false
    var all = false

    static let names = ["--current", "--baseline", "--now", "--tz", "--min-authors", "--by-tweets", "--all"]

    /// Takes option `name` (and its value) when it is one of these; whether it was.
    mutating func parse(_ name: String, _ a: inout ArgumentReader) throws(UsageError) -> Bool {
        switch name {
        case "--current":
            let v = try a.value()
            let parsed: TrendWindows.Current?
            do { parsed = try TrendWindows.parseCurrent(v, time: { try Self.time($0, "--current") }) } catch { throw error as! UsageError }
            guard let parsed else {
                throw UsageError("--current takes a number of hours, days or weeks from 1 to 100,000 (6h, 1d, 7d, 2w) or a window A..B "
                                 + "(2020-03-01..2020-03-08, or date-times with Z or an offset), not '\(v)'")
            }
            current = parsed
        case "--baseline":
            let v = try a.value()
            let parsed: TrendWindows.Baseline?
            do { parsed = try TrendWindows.parseBaseline(v, time: { try Self.time($0, "--baseline") }) } catch { throw error as! UsageError }
            guard let parsed else {
                throw UsageError("--baseline takes previous, weekago, mean:K (K from 1 to 10,000) or a window A..B, not '\(v)'")
            }
            baseline = parsed
        case "--now": now = try Self.time(try a.value(), "--now")
        case "--tz":
            let v = try a.value()
            do { zone = try ZoneOffsets(v) } catch { throw UsageError(error.description) }
        case "--min-authors": minAuthors = try a.number(min: 1)
        case "--by-tweets": byTweets = true
        case "--all": all = true
        default: return false
        }
        return true
    }

    /// A bound, as `--since` reads it.
    static func time(_ s: String, _ name: String) throws(UsageError) -> Int64 {
        do {
            return try TweetFilter.time(s)
        } catch .noOffset {
            throw UsageError("\(name) '\(s)' has no time zone: write it with Z or an offset, as in 2020-03-01T12:00:00Z "
                             + "(a date alone, 2020-03-01, means 00:00 UTC)")
        } catch {
            throw UsageError("\(name) takes dates such as 2020-03-01 (00:00 UTC) or ISO 8601 date-times with Z or an offset "
                             + "such as 2020-03-01T12:00:00Z, not '\(s)'")
        }
    }

    var zoneName: String { zone?.name ?? "UTC" }

    /// The windows; call once the options are parsed.
    ///
    /// - Throws: a usage error without `--current`, or for an empty window.
    mutating func windows() throws(UsageError) -> TrendWindows {
        guard let current else {
            throw UsageError("trend needs --current WINDOW: 1d, 7d, 6h, 2w (the last whole days, hours or weeks) or A..B")
        }
        let present = now ?? Int64(Date().timeIntervalSince1970.rounded(.down))
        now = present
        do {
            return try TrendWindows(current: current, baseline: baseline, now: present, zone: zone ?? (try! ZoneOffsets("UTC")))
        } catch {
            throw UsageError(error.description)
        }
    }

    /// What the run summary says of the windows, and of a current window
    /// that ends after the newest tweet read or a baseline that starts
    /// before the oldest (lines without `smashtag: `). `of` names what
    /// `oldest` and `newest` are of.
    func lines(_ w: TrendWindows, oldest: Int64?, newest: Int64?, of ends: Ends = .tweetsRead) -> [String] {
        var how = "--current \(w.currentText)"
        if case .last = w.currentOption {
            how += ", --now \(CreatedAt.isoSeconds(now ?? 0))"
        }
        how += ", --tz \(zoneName)"
        var baseline = "baseline \(w.baselineSpan.description) (\(w.baselineText)"
        if w.baselines.count > 1 { baseline += ": the mean of \(w.baselines.count) windows" }
        if w.scale != (1, 1) { baseline += ", its counts scaled by \(w.scale.numerator)/\(w.scale.denominator)" }
        baseline += ")"
        var out = ["current window \(w.current.description) (\(how)); \(baseline)"]
        guard let oldest, let newest else {
            out.append(ends.none + ": both windows are empty")
            return out
        }
        if w.current.end > newest + 1 {
            out.append("the current window is partial: it ends at \(CreatedAt.isoSeconds(w.current.end)), "
                       + "after the newest \(ends.noun) (\(CreatedAt.isoSeconds(newest)))")
        }
        if w.baselineSpan.start < oldest {
            out.append("the baseline starts at \(CreatedAt.isoSeconds(w.baselineSpan.start)), before the oldest \(ends.noun) "
                       + "(\(CreatedAt.isoSeconds(oldest))): its counts may be too low")
        }
        return out
    }
}
