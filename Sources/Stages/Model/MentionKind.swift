/// The kinds of mention a report counts (SPEC §13), in the order reports
/// print them: hashtag, user, symbol, url, host, domain, poster.
///
/// Every path carries a mention as one string, its **key**: the kind's
/// sign byte, then the normalised name. Hashtags, users and symbols print
/// their key as it is (`#swift`, `@nasa`, `$aapl`); the other kinds carry a
/// sign of their own that never reaches a report (`+` url, `^` host, `=`
/// domain, `!` poster): `+example.com/a` prints `example.com/a`, `!nasa`
/// prints `@nasa`. So a user and a poster of one name are two mentions,
/// and the store and the extract lines keep the kind with the key.
public enum MentionKind: UInt8, Sendable, CaseIterable, Comparable {
    case hashtag = 0
    case user = 1
    case symbol = 2
    case url = 3
    case host = 4
    case domain = 5
    case poster = 6

    public static func < (a: MentionKind, b: MentionKind) -> Bool { a.rawValue < b.rawValue }

    /// The key's first byte.
    @inline(__always)
    public var signByte: UInt8 {
        switch self {
        case .hashtag: return UInt8(ascii: "#")
        case .user: return UInt8(ascii: "@")
        case .symbol: return UInt8(ascii: "$")
        case .url: return UInt8(ascii: "+")
        case .host: return UInt8(ascii: "^")
        case .domain: return UInt8(ascii: "=")
        case .poster: return UInt8(ascii: "!")
        }
    }

    /// The key's sign, as a string.
    public var sign: String { String(UnicodeScalar(signByte)) }

    /// The sign a report prints before the name: `#`, `@`, `$`, none for links.
    public var printedSign: String {
        switch self {
        case .hashtag: return "#"
        case .user, .poster: return "@"
        case .symbol: return "$"
        case .url, .host, .domain: return ""
        }
    }

    /// The kind's name in `--kinds` and in a report's `type` column.
    public var name: String {
        switch self {
        case .hashtag: return "hashtag"
        case .user: return "user"
        case .symbol: return "symbol"
        case .url: return "url"
        case .host: return "host"
        case .domain: return "domain"
        case .poster: return "poster"
        }
    }

    /// The JSON array of a term's object that holds the kind's rows.
    public var plural: String { name + "s" }

    /// The table's section heading (`Hashtags`, `Urls` is written `URLs`).
    public var title: String {
        switch self {
        case .url: return "URLs"
        default: return name.prefix(1).uppercased() + plural.dropFirst()
        }
    }

    /// The kind of a sign byte, if it is one.
    @inline(__always)
    public static func of(signByte b: UInt8?) -> MentionKind? {
        switch b {
        case UInt8(ascii: "#"): return .hashtag
        case UInt8(ascii: "@"): return .user
        case UInt8(ascii: "$"): return .symbol
        case UInt8(ascii: "+"): return .url
        case UInt8(ascii: "^"): return .host
        case UInt8(ascii: "="): return .domain
        case UInt8(ascii: "!"): return .poster
        default: return nil
        }
    }

    /// The kind named `name` in `--kinds`.
    public init?(name: String) {
        guard let k = MentionKind.allCases.first(where: { $0.name == name }) else { return nil }
        self = k
    }
}

/// A set of kinds (`--kinds`), iterated in report order.
public struct MentionKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(_ kind: MentionKind) { rawValue = 1 << kind.rawValue }

    public init<S: Sequence>(_ kinds: S) where S.Element == MentionKind {
        var raw: UInt8 = 0
        for k in kinds { raw |= 1 << k.rawValue }
        rawValue = raw
    }

    /// SPEC §7's two kinds, `--kinds`'s default.
    public static let standard = MentionKinds([.hashtag, .user])
    public static let every = MentionKinds(MentionKind.allCases)
    /// The kinds that come from a post's links.
    public static let links = MentionKinds([.url, .host, .domain])

    @inline(__always)
    public func has(_ kind: MentionKind) -> Bool { rawValue & (1 << kind.rawValue) != 0 }

    /// The kinds in report order.
    public var ordered: [MentionKind] { MentionKind.allCases.filter { has($0) } }

    /// `hashtag,user`: the names, comma-separated, in report order.
    public var names: String { ordered.map(\.name).joined(separator: ",") }

    /// Parses `--kinds LIST`: names separated by commas, in any order, each at most once.
    public init(parsing list: String) throws(KindsError) {
        var raw: UInt8 = 0
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()).lowercased()
            guard let k = MentionKind(name: name) else {
                throw KindsError(message: "--kinds: '\(part)' is not a kind; the kinds are "
                                 + MentionKind.allCases.map(\.name).joined(separator: ", "))
            }
            raw |= 1 << k.rawValue
        }
        guard raw != 0 else { throw KindsError(message: "--kinds needs at least one kind") }
        rawValue = raw
    }
}

/// A `--kinds` list that names no kind; a usage error.
public struct KindsError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension String {
    /// The kind of a key (`#stanford`, `@nasa`, `+example.com/a`) by its
    /// first byte, not its first `Character`: a key may hold combining marks
    /// right after its sign (`#\u{301}abc`), which make one character with it.
    @inline(__always)
    public var signedKind: MentionKind? { MentionKind.of(signByte: utf8.first) }

    /// A key without its sign (the first scalar), marks after it kept.
    public var unsigned: String { String(unicodeScalars.dropFirst()) }

    /// A key as reports print it: `#swift`, `@nasa`, `$aapl` as they are,
    /// a link's key without a sign, a poster with `@`.
    public var printedKey: String {
        guard let kind = signedKind else { return self }
        switch kind {
        case .hashtag, .user, .symbol: return self
        case .url, .host, .domain: return unsigned
        case .poster: return "@" + unsigned
        }
    }

    /// Whether `self` comes before `other` in the UTF-8 bytes of their
    /// printed forms (SPEC §13: pairs of every kind sort so), the kinds'
    /// order breaking a tie of a user and a poster of one name.
    public func printedPrecedes(_ other: String) -> Bool {
        let a = printedKey, b = other.printedKey
        if a == b { return (signedKind?.rawValue ?? 0) < (other.signedKind?.rawValue ?? 0) }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
