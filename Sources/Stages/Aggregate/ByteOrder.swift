#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Whether this string comes before `other` in ascending order of their
    /// UTF-8 bytes (the order of every tie in a report, SPEC §7): one
    /// `memcmp` over the stored bytes where both are stored contiguously,
    /// as Swift's own strings are, else the bytes one by one.
    @inline(__always)
    func precedesInUTF8(_ other: String) -> Bool {
        let ordered = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b -> Bool in
                let n = Swift.min(a.count, b.count)
                let c = n == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, n)
                return c != 0 ? c < 0 : a.count < b.count
            }
        }
        if let ordered, let ordered { return ordered }
        return utf8.lexicographicallyPrecedes(other.utf8)
    }
}

extension String {
    /// The first 8 bytes of this string's UTF-8, the first in the highest
    /// byte, zeros after a shorter string's end: two strings whose prefixes
    /// differ are in the order of their prefixes (a tie needs the bytes).
    @inline(__always)
    var utf8Prefix: UInt64 {
        if let p = utf8.withContiguousStorageIfAvailable({ b -> UInt64 in
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(i < b.count ? b[i] : 0) }
            return v
        }) { return p }
        var v: UInt64 = 0, n = 0
        for byte in utf8.prefix(8) { v = v << 8 | UInt64(byte); n += 1 }
        return n == 8 ? v : v << UInt64(8 * (8 - n))
    }
}

extension Array where Element == MentionCount {
    /// Sorts the rows in report order (count, highest first; ties by mention
    /// in ascending order of UTF-8 bytes), as `sort(by: MentionCount.reportOrder)`
    /// does, comparing a word of each mention's first bytes before its bytes.
    mutating func sortInReportOrder() {
        guard count > 1 else { return }
        var keys = [ReportOrderKey]()
        keys.reserveCapacity(count)
        for (i, row) in enumerated() { keys.append(ReportOrderKey(count: row.count, prefix: row.mention.utf8Prefix, index: Int32(i))) }
        self.withUnsafeBufferPointer { rows in
            keys.sort { a, b in
                if a.count != b.count { return a.count > b.count }
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                return rows[Int(a.index)].mention.precedesInUTF8(rows[Int(b.index)].mention)
            }
        }
        self = keys.map { self[Int($0.index)] }
    }
}

/// What `sortInReportOrder` sorts: a row's count, its mention's first bytes, its place.
private struct ReportOrderKey {
    var count: Int
    var prefix: UInt64
    var index: Int32
}
