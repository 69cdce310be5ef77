extension Term {
    /// Parses a term as given on the command line.
    ///
    /// - Throws: `TermError` for an empty term, a bare `#`, `@` or `from:`,
    ///   or one holding whitespace or control characters.
    public init(parsing raw: String) throws(TermError) {
        if raw.isEmpty { throw TermError(term: raw, reason: "a term cannot be empty") }
        if raw.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            throw TermError(term: raw, reason: "a term cannot hold whitespace or control characters; give each word as its own term")
        }
        if raw.unicodeScalars.contains("\u{FFFD}") {
            throw TermError(term: raw, reason: "a term must be valid UTF-8 (it holds bytes that are not, shown as \u{FFFD})")
        }
        if raw == "*" { self.init(kind: .all, key: "*"); return }
        let (kind, body): (Kind, Substring)
        // Signs by their first scalar: a mark may follow one (`#\u{301}abc`, one character with it).
        let first = raw.unicodeScalars.first
        if first == "#" || first == "＃" {
            (kind, body) = (.hashtag, Substring(raw.unicodeScalars.dropFirst()))
        } else if first == "@" || first == "＠" {
            (kind, body) = (.user, Substring(raw.unicodeScalars.dropFirst()))
        } else if first == "$" || first == "＄" {
            (kind, body) = (.symbol, Substring(raw.unicodeScalars.dropFirst()))
        } else if raw.lowercased().hasPrefix("domain:") {
            (kind, body) = (.domain, raw.dropFirst(7))
        } else if raw.lowercased().hasPrefix("url:") {
            (kind, body) = (.url, raw.dropFirst(4))
        } else if raw.lowercased().hasPrefix("from:") {
            // `from:@jack` is written as often as `from:jack`, and means it.
            let name = raw.dropFirst(5)
            let at = name.unicodeScalars.first
            (kind, body) = (.author, at == "@" || at == "＠" ? Substring(name.unicodeScalars.dropFirst()) : name)
        } else {
            (kind, body) = (.word, Substring(raw))
        }
        if body.isEmpty {
            throw TermError(term: raw, reason: "'\(raw)' needs a name after it, as in #stanford, @nasa, $aapl, from:jack, "
                            + "domain:nytimes.com or url:example.com/a")
        }
        switch kind {
        case .hashtag:
            if let bad = body.unicodeScalars.first(where: { !TwitterText.isHashtagCharacter($0) }) {
                throw TermError(term: raw, reason: "a hashtag holds letters, digits, marks and _, so no hashtag can contain "
                                + "'\(bad.escaped(asASCII: false))': did you mean #\(body.prefix { TwitterText.isHashtagCharacter($0.unicodeScalars.first!) })?")
            }
        case .user, .author:
            // SPEC §16: a Mastodon account `user@host` and a Bluesky account by DID are keys as posts carry them.
            if let account = try Term.socialAccount(body, raw: raw) {
                self.init(kind: kind, key: account)
                return
            }
            if let bad = body.unicodeScalars.first(where: { !TwitterText.isScreenNameCharacter($0) }) {
                throw TermError(term: raw, reason: "a screen name holds only the letters A-Z, digits and _, so no name can contain "
                                + "'\(bad.escaped(asASCII: false))'")
            }
        case .symbol:
            if let bad = body.unicodeScalars.first(where: { !Term.isSymbolCharacter($0) }) {
                throw TermError(term: raw, reason: "a cashtag holds only the letters A-Z, digits, '.' and '_', so no cashtag can contain "
                                + "'\(bad.escaped(asASCII: false))'")
            }
        case .domain:
            var name = MentionKey.normalize(String(body))
            if name.hasPrefix("www.") { name.removeFirst(4) }
            if name.hasSuffix(".") { name.removeLast() }
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw TermError(term: raw, reason: "domain: takes a host name, as in domain:nytimes.com")
            }
            self.init(kind: .domain, key: name)
            return
        case .url:
            guard let key = LinkKey.key(String(body)) else {
                throw TermError(term: raw, reason: "url: takes an http or https link, as in url:https://example.com/a")
            }
            self.init(kind: .url, key: key)
            return
        case .word, .all:
            break
        }
        self.init(kind: kind, key: MentionKey.normalize(String(body)))
    }
}

extension Term {
    /// The key of a `@name` or `from:name` term that names an account of
    /// another platform (SPEC §16), as the posts' keys hold it: a Mastodon
    /// `user@host` (lowercased), a Bluesky DID (`did:plc:…`); nil for a
    /// Twitter screen name. A Bluesky handle (`alice.bsky.social`) is refused
    /// with what to give instead: accounts are keyed by DID, and which DID a
    /// handle names is known only once every input has been read.
    static func socialAccount(_ body: Substring, raw: String) throws(TermError) -> String? {
        let scalars = body.unicodeScalars
        func isASCIIWord(_ c: Unicode.Scalar) -> Bool {
            (c.value | 0x20) &- 0x61 < 26 || c.value &- 0x30 < 10 || c == "_"
        }
        if body.lowercased().hasPrefix("did:") {
            guard scalars.dropFirst(4).contains(":"),
                  !scalars.contains(where: { !(isASCIIWord($0) || $0 == "." || $0 == "-" || $0 == ":" || $0 == "%") }) else {
                throw TermError(term: raw, reason: "a Bluesky account's DID is did:METHOD:ID (did:plc:… or did:web:…), "
                                + "of letters, digits and . _ - : %")
            }
            return MentionKey.normalize(String(body))
        }
        if let at = body.firstIndex(of: "@") {
            let user = body[..<at], host = body[body.index(after: at)...]
            guard !user.isEmpty, host.contains("."), !host.hasPrefix("."), !host.hasSuffix("."),
                  !user.unicodeScalars.contains(where: { !(isASCIIWord($0) || $0 == "." || $0 == "-") }),
                  !host.unicodeScalars.contains(where: { !(isASCIIWord($0) || $0 == "." || $0 == "-") }) else {
                throw TermError(term: raw, reason: "a Mastodon account is user@host (letters, digits and _ . - in each), "
                                + "as in @ann@mastodon.social")
            }
            return MentionKey.normalize(String(body))
        }
        if body.contains("."), !scalars.contains(where: { !(isASCIIWord($0) || $0 == "." || $0 == "-") }) {
            throw TermError(term: raw, reason: "a screen name holds only the letters A-Z, digits and _, so no name can contain '.'; "
                            + "as a Bluesky handle, '\(body)' names no account here: smashtag keys Bluesky accounts by DID "
                            + "(a handle changes hands), so give the account's DID, @did:plc:… or from:did:plc:… "
                            + "(its posts' at://DID/… URIs hold it, as posts and trend print them)")
        }
        return nil
    }

    /// A character of a cashtag's name: twitter-text's ASCII letters, `.`
    /// and `_`, and digits, which the API's `symbols` entities may hold.
    static func isSymbolCharacter(_ c: Unicode.Scalar) -> Bool {
        (c.value | 0x20) &- 0x61 < 26 || c.value &- 0x30 < 10 || c == "." || c == "_"
    }
}

/// A term that cannot be searched for; a usage error (exit 2).
public struct TermError: Error, Equatable, CustomStringConvertible {
    public let term: String
    public let reason: String
    public var description: String { "invalid term '\(term)': \(reason)" }
}
