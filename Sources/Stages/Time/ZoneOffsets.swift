import Foundation
import Synchronization

/// A time zone of the system's tz database (`/usr/share/zoneinfo`, Debian's
/// `tzdata`), read through the C library: the offset from UTC at any
/// instant, daylight saving time included.
///
/// glibc answers for one zone per process, the one `TZ` names; `offset(at:)`
/// sets `TZ` to `:NAME` (a file under the zoneinfo directory) and calls
/// `tzset` when the zone in force is another, then reads `tm_gmtoff` from
/// `localtime_r`. Both sit behind one process-wide lock, since `TZ` is
/// global state; callers cache what they read (`TimeBuckets` asks once per
/// UTC hour), so the lock is rarely taken. Every C call of this concern is
/// in this file.
///
/// glibc takes an unknown name for UTC without a word, so `init` checks the
/// name against the zoneinfo directory first (`TZDIR` when set, as glibc
/// reads it).
public final class ZoneOffsets: Sendable {
    /// The IANA name (`Europe/Berlin`).
    public let name: String
    /// UTC itself: no lookup at all (and no need for `tzdata`).
    private let isUTC: Bool

    /// The zone in force in the C library, and its lock.
    private static let current = Mutex<String?>(nil)

    /// - Throws: `ZoneError` when `name` is not a zone of the tz database.
    public init(_ name: String) throws(ZoneError) {
        self.name = name
        isUTC = name == "UTC"
        guard !isUTC else { return }
        guard Self.isZoneFile(name) else { throw ZoneError(name: name) }
    }

    /// Where the C library finds zone files.
    static var directory: String { ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo" }

    /// Whether `name` is a relative path of plain name parts to a TZif file.
    static func isZoneFile(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, parts.allSatisfy({ part in
            !part.isEmpty && part != "." && part != ".."
                && part.utf8.allSatisfy { $0 &- 0x30 < 10 || ($0 | 0x20) &- 0x61 < 26 || $0 == 0x5F || $0 == 0x2D || $0 == 0x2B }
        }) else { return false }
        guard let handle = FileHandle(forReadingAtPath: directory + "/" + name) else { return false }
        defer { try? handle.close() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue,
              let magic = try? handle.read(upToCount: 4) else { return false }
        return magic == Data("TZif".utf8)
    }

    /// Seconds east of UTC at instant `t` (seconds since 1970 UTC).
    public func offset(at t: Int64) -> Int64 {
        if isUTC { return 0 }
        return Self.current.withLock { zone in
            if zone != name {
                setenv("TZ", ":" + name, 1)
                tzset()
                zone = name
            }
            var time = time_t(t)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return 0 }
            return Int64(parts.tm_gmtoff)
        }
    }

    /// An unknown `--tz` name.
    public struct ZoneError: Error, CustomStringConvertible {
        public var name: String
        public var description: String {
            "--tz '\(name)' is not a time zone of the tz database (\(ZoneOffsets.directory)): give an IANA name such as "
                + "Europe/Berlin, America/New_York or UTC (install the tzdata package if the directory is missing)"
        }
    }
}
