import Stages

/// The options of SPEC §12.2 and §12.3, parsed in one place for `report`,
/// `extract` and `aggregate`, so each takes them alike and names a bad value
/// the same way (a usage error, exit 2).
///
///     --since T                 tweets created at or after T (a date, 00:00 UTC, or a date-time with Z or an offset)
///     --until T                 tweets created before T
///     --retweets MODE           include, exclude or only [default: include]
///     --lang CODE[,CODE...]     tweets whose own lang is one of these
///     --columns LIST            the report's columns [default: term,type,mention,count]
///     --by UNIT                 a series per hour, day, week, month or year (SPEC §12.4)
///     --tz ZONE                 the zone --by counts in [default: UTC]
///     --kinds LIST              the kinds of mention counted (SPEC §13) [default: hashtag,user]
struct FilterOptions {
    var filter = TweetFilter()
    var columns = ReportColumns.standard
    var kinds = MentionKinds.standard
    /// `--by` and `--tz` (checked against the tz database as parsed).
    var by: TimeBuckets.Unit?
    var zone: ZoneOffsets?
    /// Whether `--retweets` was given (`trend` defaults to `exclude`).
    var retweetsGiven = false

    static let filterNames = ["--since", "--until", "--retweets", "--lang"]
    static let seriesNames = ["--by", "--tz"]
    static let names = filterNames + ["--columns", "--kinds"] + seriesNames

    /// What each counted post carries: the columns' facts and the kinds.
    var facts: PostFields {
        var f = columns.facts
        f.mentionKinds = kinds
        return f
    }

    /// Takes option `name` (and its value) when it is one of these;
    /// `--columns` only when `columns` is true.
    ///
    /// - Returns: whether it was.
    mutating func parse(_ name: String, _ a: inout ArgumentReader, columns takesColumns: Bool = true) throws(UsageError) -> Bool {
        switch name {
        case "--since": filter.since = try Self.time(try a.value(), name)
        case "--until": filter.until = try Self.time(try a.value(), name)
        case "--retweets":
            let v = try a.value()
            guard let m = TweetFilter.RetweetMode(rawValue: v) else {
                throw UsageError("--retweets takes include, exclude or only, not '\(v)'")
            }
            filter.retweets = m
            retweetsGiven = true
        case "--lang":
            let v = try a.value()
            guard let codes = TweetFilter.languages(v) else {
                throw UsageError("--lang takes language codes separated by commas, as in --lang en or --lang en,es,und, not '\(v)'")
            }
            filter.languages = codes.map { $0.lowercased() }
        case "--by":
            let v = try a.value()
            guard let unit = TimeBuckets.Unit(rawValue: v) else {
                throw UsageError("--by takes hour, day, week, month or year, not '\(v)'")
            }
            by = unit
        case "--tz":
            let v = try a.value()
            do { zone = try ZoneOffsets(v) } catch { throw UsageError(error.description) }
        case "--kinds":
            let v = try a.value()
            do { kinds = try MentionKinds(parsing: v) } catch { throw UsageError(error.description) }
        case "--columns" where takesColumns:
            let v = try a.value()
            do { columns = try ReportColumns(parsing: v) } catch { throw UsageError(error.description) }
        default: return false
        }
        return true
    }

    /// The buckets of `--by` in the zone of `--tz`, or nil without `--by`;
    /// call once the options are parsed. With `--by`, the filter leaves out
    /// tweets of unknown time (SPEC §12.4).
    ///
    /// - Throws: a usage error for `--tz` without `--by`.
    mutating func timeBuckets() throws(UsageError) -> TimeBuckets? {
        guard let by else {
            if zone != nil { throw UsageError("--tz names the zone --by counts in: give --by hour|day|week|month|year with it") }
            return nil
        }
        let buckets = TimeBuckets(unit: by, zone: zone ?? (try! ZoneOffsets("UTC")))
        filter.timeNeededBy = buckets.description
        return buckets
    }

    private static func time(_ s: String, _ name: String) throws(UsageError) -> Int64 {
        do {
            return try TweetFilter.time(s)
        } catch .noOffset {
            throw UsageError("\(name) '\(s)' has no time zone: write it with Z or an offset, as in 2020-03-01T12:00:00Z "
                             + "or 2020-03-01T12:00:00+01:00 (a date alone, 2020-03-01, means 00:00 UTC)")
        } catch {
            throw UsageError("\(name) takes a date such as 2020-03-01 (00:00 UTC) or an ISO 8601 date-time with Z or an offset "
                             + "such as 2020-03-01T12:00:00Z, not '\(s)'")
        }
    }
}
