#if canImport(Glibc)
import Glibc
#endif

/// What one input (a work unit: a file, a stream, standard input) has cost
/// so far, against `ReadPolicy`'s bounds: bytes expanded per byte stored,
/// archive members at any depth, and records from its start none of which
/// could be a tweet. A bound reached is one `.limit` problem that names it
/// and the option that lifts it; the rest of the input is not read.
struct InputBudget {
    /// The input's file as stored, whose bytes read are the compressed size.
    var stored: FileSource?
    /// Bytes framed so far, after decompression (the mapped path adds none: it expands nothing).
    var expanded: Int64 = 0
    var members = 0
    /// Set when a bound stopped the input: every level of it stops.
    var spent = false
    /// Whether a record that could be a tweet was seen (then the check is off for the input).
    private(set) var tweetLikeSeen = false
    private var recordsWithoutTweet = 0

    /// The problem that ends the input when it has expanded past the policy's ratio.
    mutating func overExpanded(origin: Origin, line: Int, _ policy: ReadPolicy) -> InputProblem? {
        guard let ratio = policy.maxExpansion, expanded > policy.expansionFloor, let stored else { return nil }
        let read = max(1, stored.bytesRead)
        guard expanded / read > ratio else { return nil }
        spent = true
        return InputProblem(.limit, origin: origin, line: line,
                            reason: "expanded \(expanded) bytes from \(read) stored, more than \(ratio) times: a "
                                + "decompression bomb; the rest of the input is skipped (--no-input-limits reads on)")
    }

    /// Counts a record that may or may not be a tweet; the problem that ends
    /// the input when too many in a row from its start cannot be.
    ///
    /// A record can be a tweet only if it is an object or array (it starts
    /// and ends so) holding `"id` (an id or id_str key; a status's `id`),
    /// `"did` or `"uri` (a Bluesky event's or author's DID, a post view's
    /// AT-URI: SPEC §16's posts hold no `id`) or `"\u` (a key
    /// written with escapes). Random bytes pass about once in 10⁹ lines.
    @inline(__always)
    mutating func noTweet(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin, _ policy: ReadPolicy) -> InputProblem? {
        if InputBudget.couldBeTweet(bytes) {
            tweetLikeSeen = true
            return nil
        }
        recordsWithoutTweet += 1
        guard let max = policy.maxRecordsWithoutTweet, recordsWithoutTweet >= max else { return nil }
        spent = true
        return InputProblem(.limit, origin: origin, line: line,
                            reason: "none of the first \(max) records could be a tweet (none is JSON holding an id): not "
                                + "tweet data; the rest of the input is skipped (--no-input-limits reads on)")
    }

    static func couldBeTweet(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let b = bytes.bindMemory(to: UInt8.self)
        guard let first = b.firstIndex(where: { !isSpace($0) }), let last = b.lastIndex(where: { !isSpace($0) }),
              (b[first] == UInt8(ascii: "{") && b[last] == UInt8(ascii: "}"))
                || (b[first] == UInt8(ascii: "[") && b[last] == UInt8(ascii: "]")) else { return false }
        var i = 0
        while i + 3 < b.count {
            if b[i] == 0x22 {
                let (x, y, z) = (b[i + 1], b[i + 2], b[i + 3])
                if x == UInt8(ascii: "i") && y == UInt8(ascii: "d") { return true }
                if x == 0x5C && y == UInt8(ascii: "u") { return true }
                // A Bluesky post's identity: a Jetstream event's or an author's `did`, a view's `uri`.
                if x == UInt8(ascii: "d") && y == UInt8(ascii: "i") && z == UInt8(ascii: "d") { return true }
                if x == UInt8(ascii: "u") && y == UInt8(ascii: "r") && z == UInt8(ascii: "i") { return true }
            }
            i += 1
        }
        return false
    }
}
