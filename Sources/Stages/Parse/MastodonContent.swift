import CXML

/// A Mastodon status's `content` (SPEC §16), HTML as the server wrote it,
/// read by libxml2's HTML parser: its text with the tags removed and the
/// entities decoded, and the `href` of its anchors that are neither mention
/// nor hashtag links (Mastodon marks those with the classes `mention` and
/// `hashtag`).
///
/// Where §16 is silent: a `<br>` is a line break and paragraphs are
/// separated by a blank line, as Mastodon's own plain-text rendering does,
/// so words of two paragraphs never run together.
struct MastodonContent {
    private(set) var text: [UInt8] = []
    private(set) var links: [[UInt8]] = []

    /// Parses the content string's bytes (`escaped`: as JSON writes them, escapes undone first).
    init(_ raw: UnsafeRawBufferPointer, escaped: Bool) {
        let html: [UInt8] = escaped ? JSONText.unescape(raw.bindMemory(to: UInt8.self)) : Array(raw)
        guard !html.isEmpty else { return }
        _ = MastodonContent.initialized
        let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                            | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_NOBLANKS.rawValue)
        let doc = html.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { htmlReadMemory($0, Int32(p.count), nil, "UTF-8", options) }
        }
        guard let doc else { return }
        defer { xmlFreeDoc(doc) }
        var paragraphs = 0
        walk(doc.pointee.children, paragraphs: &paragraphs)
    }

    /// libxml2 sets itself up once, before any thread parses.
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private mutating func walk(_ first: xmlNodePtr?, paragraphs: inout Int) {
        var node = first
        while let n = node {
            switch n.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let c = n.pointee.content { text.append(contentsOf: UnsafeBufferPointer(start: c, count: strlen(UnsafeRawPointer(c).assumingMemoryBound(to: CChar.self)))) }
            case XML_ELEMENT_NODE:
                let name = n.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
                if name == "br" {
                    text.append(0x0A)
                } else {
                    if name == "p" {
                        if paragraphs > 0 { text.append(contentsOf: [0x0A, 0x0A]) }
                        paragraphs += 1
                    }
                    if name == "a", let href = Self.attribute(n, "href"), !href.isEmpty {
                        let classes = (Self.attribute(n, "class") ?? []).split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A })
                        let marked = classes.contains { $0.elementsEqual("mention".utf8) || $0.elementsEqual("hashtag".utf8) }
                        if !marked { links.append(href) }
                    }
                    walk(n.pointee.children, paragraphs: &paragraphs)
                }
            default:
                break
            }
            node = n.pointee.next
        }
    }

    private static func attribute(_ n: xmlNodePtr, _ name: String) -> [UInt8]? {
        guard let value = xmlGetProp(n, name) else { return nil }
        defer { free(value) }  // xmlFree is free: smashtag never sets libxml2's allocator
        return Array(UnsafeBufferPointer(start: value, count: strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))))
    }

    /// The host of a URL, lowercased, without userinfo or port (`https://Mastodon.Social:443/@a` → `mastodon.social`).
    static func host(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        var authority = Substring(url[scheme.upperBound...])
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") { authority = authority[..<colon] }
        let host = authority.lowercased()
        return host.isEmpty ? nil : host
    }
}

#if canImport(Glibc)
import Glibc
#endif
