import CPSL
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The registrable domain of a link's host (SPEC §13 **domain**) under the
/// Public Suffix List, ICANN and private rules alike, through libpsl:
/// `news.bbc.co.uk` → `bbc.co.uk`, `a.b.github.io` → `b.github.io`.
///
/// **Which list.** The system's: Debian's `publicsuffix` package, read in
/// the compiled form the package ships beside the text
/// (`/usr/share/publicsuffix/public_suffix_list.dafsa`, made from
/// `public_suffix_list.dat` by the same build: it loads in microseconds,
/// where parsing the text costs about 30 million instructions, a tenth of
/// a 30 MB report); when that is absent, the text with `psl_load_file`;
/// then libpsl's distribution file (`psl_dist_filename()`); only when none
/// loads, the copy compiled into libpsl (`psl_builtin`), and `source` says
/// so. `psl_latest(NULL)` is not used: it chooses between the distribution
/// file and the compiled-in copy by modification times, so which list
/// answers would depend on file dates rather than on what the system holds.
///
/// **Which hosts are their own domain.** An IPv4 address (dotted quad, as
/// `inet_pton` reads it), a bracketed IPv6 address (`[::1]`), a host that is
/// itself a public suffix (`co.uk`, `github.io`, `b.ck` under `*.ck`), and
/// a host of one label (`localhost`: the list's implicit `*` rule makes it a
/// suffix). libpsl answers NULL for the last three and treats an IP address
/// as a name (`192.168.0.1` → `0.1`), hence the checks here.
///
/// **Internationalised hosts.** libpsl takes a lowercase UTF-8 name or its
/// punycode (`bücher.de`, `xn--bcher-kva.de`) and answers in the form it
/// was given; it does not lowercase. Hosts are normalised as SPEC §5 (NFC,
/// full lowercasing) before the look-up, so `BBC.CO.UK` and `Bücher.DE` work
/// too (link keys' hosts are already normalised).
///
/// **Cost.** It runs per link: answers are cached per host, in a dictionary
/// behind a lock (the report's two worker threads share one instance; a
/// hit costs a lock and a hash). The cache is emptied once it holds
/// `cacheLimit` hosts, so a dump of millions of distinct hosts cannot grow
/// it without bound. libpsl's look-ups only read the loaded list, so one
/// context serves every thread.
public final class RegistrableDomain: Sendable {
    /// The instance over the system's list, loaded on first use.
    public static let shared = RegistrableDomain()

    /// How many hosts the cache holds before it is emptied.
    public static let cacheLimit = 1 << 16

    /// The list's file, or `builtin` for libpsl's compiled-in copy.
    public let source: String

    /// Read-only after `init`; libpsl's look-ups do not write to it.
    nonisolated(unsafe) private let context: OpaquePointer
    private let ownsContext: Bool
    private let cache = Mutex<[String: String]>([:])

    /// The system's list (Debian's `publicsuffix`), compiled.
    public static let systemListFile = "/usr/share/publicsuffix/public_suffix_list.dafsa"
    /// The same list as text.
    public static let systemListText = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// A wrapper over the list in `file` when given (for tests), else the
    /// system's (see the type's notes for the order of fall-backs).
    public init(listFile file: String? = nil) {
        var candidates: [String] = []
        if let file { candidates.append(file) }
        candidates += [Self.systemListFile, Self.systemListText]
        if let dist = psl_dist_filename(), dist.pointee != 0 { candidates.append(String(cString: dist)) }
        for path in candidates {
            if let ctx = psl_load_file(path) {
                context = ctx
                ownsContext = true
                source = path
                return
            }
        }
        // libpsl always carries a compiled-in list; a NULL here would be a broken install.
        context = psl_builtin()!
        ownsContext = false
        source = "builtin"
    }

    deinit {
        if ownsContext { psl_free(context) }
    }

    /// The registrable domain of `host` (a host as in SPEC §13 **host**:
    /// no port, no userinfo), or `host` itself when it is an IP address, a
    /// public suffix or one label (normalised as SPEC §5 either way).
    public func domain(ofHost host: String) -> String {
        if let hit = cache.withLock({ $0[host] }) { return hit }
        let answer = lookUp(host)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[host] = answer
        }
        return answer
    }

    private func lookUp(_ given: String) -> String {
        let host = MentionKey.normalize(given)
        if host.isEmpty || host.hasPrefix("[") || Self.isIPv4(host) { return host }
        guard host.utf8.contains(UInt8(ascii: ".")) else { return host }
        // The answer points into the argument: read it while the argument lives.
        return host.withCString { name in
            guard let found = psl_registrable_domain(context, name) else { return host }
            return String(cString: found)
        }
    }

    /// A dotted-quad IPv4 address (`192.168.0.1`), as `inet_pton` reads it.
    static func isIPv4(_ host: String) -> Bool {
        guard let last = host.utf8.last, (last &- UInt8(ascii: "0")) < 10 else { return false }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }
}
