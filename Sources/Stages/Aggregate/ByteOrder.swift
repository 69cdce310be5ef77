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

extension Array where Element == MentionCount {
    /// Sorts the rows in report order (count, highest first; ties by mention
    /// in ascending order of UTF-8 bytes), as `sort(by: MentionCount.reportOrder)`
    /// does, comparing two words of each mention's first bytes before its
    /// bytes. Every mention's bytes are copied once into one buffer, so a tie
    /// beyond the first 16 bytes (links of one site, posters of one count)
    /// is one `memcmp` there, with no string touched while sorting.
    mutating func sortInReportOrder() {
        guard count > 1 else { return }
        let rows = self
        let order = reportOrder(count: count, rowCount: { rows[$0].count }) { i, bytes in
            var mention = rows[i].mention
            mention.withUTF8 { bytes.append(contentsOf: $0) }
        }
        self = order.map { rows[Int($0)] }
    }
}

/// The places `0..<count` in report order: by `rowCount(i)`, highest
/// first, then by the bytes `appendKey(i, &buffer)` appends, ascending.
/// Every key's bytes are copied once into one buffer, so a tie beyond the
/// first 16 bytes (links of one site, posters of one count) is one `memcmp`
/// there, and the sort itself touches no string.
func reportOrder(count: Int, rowCount: (Int) -> Int, appendKey: (Int, inout [UInt8]) -> Void) -> [Int32] {
    var keys = [ReportOrderKey]()
    keys.reserveCapacity(count)
    var bytes: [UInt8] = []
    for i in 0..<count {
        let start = bytes.count
        appendKey(i, &bytes)
        let (p, q) = bytes.withUnsafeBufferPointer { ReportOrderKey.words(UnsafeBufferPointer(rebasing: $0[start...])) }
        keys.append(ReportOrderKey(count: rowCount(i), prefix: p, more: q, start: start, length: bytes.count - start, index: Int32(i)))
    }
    bytes.withUnsafeBufferPointer { arena in
        let base = arena.baseAddress
        keys.sort { a, b in
            if a.count != b.count { return a.count > b.count }
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            if a.more != b.more { return a.more < b.more }
            let n = Swift.min(a.length, b.length)
            let c = n == 0 ? 0 : memcmp(base! + a.start, base! + b.start, n)
            return c != 0 ? c < 0 : a.length < b.length
        }
    }
    return keys.map(\.index)
}

/// What `sortInReportOrder` sorts: a row's count, its mention's first bytes, its place.
private struct ReportOrderKey {
    var count: Int
    var prefix: UInt64
    var more: UInt64
    /// Where the mention's bytes are in the sort's buffer.
    var start: Int
    var length: Int
    var index: Int32

    /// The first 16 of `b` as two words, the first byte highest in the first, zeros after a
    /// shorter string's end: two mentions whose words differ are in the order
    /// of their words (a tie needs the bytes).
    @inline(__always)
    static func words(_ b: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var v: UInt64 = 0, w: UInt64 = 0
        let n = Swift.min(b.count, 16)
        for i in 0..<Swift.min(n, 8) { v |= UInt64(b[i]) << UInt64(56 - 8 * i) }
        if n > 8 { for i in 8..<n { w |= UInt64(b[i]) << UInt64(56 - 8 * (i - 8)) } }
        return (v, w)
    }
}
