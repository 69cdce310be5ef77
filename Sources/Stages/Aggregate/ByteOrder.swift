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
