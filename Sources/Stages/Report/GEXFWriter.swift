import CXML

/// The `gexf` format of `smashtag pairs`: GEXF 1.3 (gexf.net/1.3), one
/// undirected graph of one term's pairs, written by libxml2's text writer
/// (`xmlNewTextWriterMemory`, `xmlTextWriterStartDocument`,
/// `xmlTextWriterStartElement`, `xmlTextWriterWriteAttribute`,
/// `xmlTextWriterEndElement`, `xmlTextWriterEndDocument`), which escapes
/// every name and value. Every libxml2 call of the project is in this file,
/// and every return code goes through `check`.
///
///     <gexf xmlns="http://gexf.net/1.3" version="1.3" …>
///       <meta><creator>smashtag</creator><description>…</description></meta>
///       <graph mode="static" defaultedgetype="undirected">
///         <attributes class="node" mode="static">
///           <attribute id="type" title="type" type="string"/>
///           <attribute id="count" title="count" type="integer"/>
///         </attributes>
///         <nodes>
///           <node id="#gotrees" label="#gotrees"><attvalues>
///             <attvalue for="type" value="hashtag"/><attvalue for="count" value="84"/>
///           </attvalues></node> …
///         </nodes>
///         <edges><edge id="0" source="#gotrees" target="#stanford" weight="84"/> …</edges>
///       </graph>
///     </gexf>
///
/// Nodes are the mentions of the pairs, id and label their key, in
/// ascending UTF-8 bytes; `count` is the mention's count among the term's
/// matching tweets (the report's count). Edges are the pairs in pairs
/// order, numbered from 0. Characters XML 1.0 cannot hold at all (C0
/// controls other than tab, CR and LF; U+FFFE, U+FFFF) are written as
/// U+FFFD; tab, CR and LF inside a value are written as character
/// references, so they survive a reader's attribute normalisation.
public enum GEXFWriter {
    /// libxml2 failed (it only does when memory runs out).
    public struct Failure: Error, CustomStringConvertible {
        public var call: String
        public var description: String { "cannot write GEXF: libxml2's \(call) failed (out of memory?)" }
    }

    public static let namespace = "http://gexf.net/1.3"

    /// One GEXF document holding the graph of `pairs`.
    public static func document(_ pairs: TermPairs) throws(Failure) -> String {
        let w = try Writer()
        try w.check(xmlTextWriterSetIndent(w.writer, 1), "xmlTextWriterSetIndent")
        try w.check(xmlTextWriterSetIndentString(w.writer, "  "), "xmlTextWriterSetIndentString")
        try w.check(xmlTextWriterStartDocument(w.writer, "1.0", "UTF-8", nil), "xmlTextWriterStartDocument")
        try w.start("gexf")
        try w.attribute("xmlns", namespace)
        try w.attribute("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
        try w.attribute("xsi:schemaLocation", "http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd")
        try w.attribute("version", "1.3")
        try w.start("meta")
        try w.element("creator", "smashtag")
        try w.element("description", "Pairs of mentions carried by one tweet, among the \(pairs.tweets) distinct tweets matching \(pairs.term)")
        try w.end()
        try w.start("graph")
        try w.attribute("mode", "static")
        try w.attribute("defaultedgetype", "undirected")
        try w.start("attributes")
        try w.attribute("class", "node")
        try w.attribute("mode", "static")
        for (id, type) in [("type", "string"), ("count", "integer")] {
            try w.start("attribute")
            try w.attribute("id", id)
            try w.attribute("title", id)
            try w.attribute("type", type)
            try w.end()
        }
        try w.end()
        try w.start("nodes")
        // A node's id is the mention as printed; a poster whose name is also a
        // user node's gets ` (poster)` after it, so that ids stay unique.
        func kind(_ k: Int) -> MentionKind { k < pairs.nodeKinds.count ? pairs.nodeKinds[k] : pairs.nodes[k].mention.signedKind ?? .hashtag }
        let printed = Set(pairs.nodes.indices.filter { kind($0) != .poster }.map { pairs.nodes[$0].mention })
        func id(_ mention: String, _ kind: MentionKind) -> String {
            kind == .poster && printed.contains(mention) ? mention + " (poster)" : mention
        }
        for (k, node) in pairs.nodes.enumerated() {
            let nodeKind = kind(k)
            try w.start("node")
            try w.attribute("id", id(node.mention, nodeKind))
            try w.attribute("label", node.mention)
            try w.start("attvalues")
            for (key, value) in [("type", nodeKind.name), ("count", String(node.count))] {
                try w.start("attvalue")
                try w.attribute("for", key)
                try w.attribute("value", value)
                try w.end()
            }
            try w.end()
            try w.end()
        }
        try w.end()
        try w.start("edges")
        for (n, pair) in pairs.pairs.enumerated() {
            try w.start("edge")
            try w.attribute("id", String(n))
            try w.attribute("source", id(pair.source, pair.sourceKind))
            try w.attribute("target", id(pair.target, pair.targetKind))
            try w.attribute("weight", String(pair.weight))
            try w.end()
        }
        try w.end()
        try w.end()  // graph
        try w.end()  // gexf
        try w.check(xmlTextWriterEndDocument(w.writer), "xmlTextWriterEndDocument")
        return try w.text()
    }

    /// XML 1.0's characters: others become U+FFFD.
    static func xmlSafe(_ s: String) -> String {
        func allowed(_ v: UInt32) -> Bool {
            v == 0x09 || v == 0x0A || v == 0x0D || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
        }
        guard !s.unicodeScalars.allSatisfy({ allowed($0.value) }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars { out.append(allowed(u.value) ? u : "\u{FFFD}") }
        return String(out)
    }

    /// A text writer into a memory buffer; freed with it.
    private final class Writer {
        let buffer: xmlBufferPtr
        let writer: xmlTextWriterPtr

        init() throws(Failure) {
            guard let b = xmlBufferCreate() else { throw Failure(call: "xmlBufferCreate") }
            guard let w = xmlNewTextWriterMemory(b, 0) else {
                xmlBufferFree(b)
                throw Failure(call: "xmlNewTextWriterMemory")
            }
            buffer = b
            writer = w
        }

        deinit {
            xmlFreeTextWriter(writer)
            xmlBufferFree(buffer)
        }

        /// The one check: libxml2's writer returns -1 on failure, else the bytes written.
        func check(_ rc: Int32, _ call: String) throws(Failure) {
            if rc < 0 { throw Failure(call: call) }
        }

        func start(_ name: String) throws(Failure) {
            try check(xmlTextWriterStartElement(writer, name), "xmlTextWriterStartElement")
        }

        func end() throws(Failure) {
            try check(xmlTextWriterEndElement(writer), "xmlTextWriterEndElement")
        }

        func attribute(_ name: String, _ value: String) throws(Failure) {
            try check(xmlTextWriterWriteAttribute(writer, name, GEXFWriter.xmlSafe(value)), "xmlTextWriterWriteAttribute")
        }

        func element(_ name: String, _ text: String) throws(Failure) {
            try check(xmlTextWriterWriteElement(writer, name, GEXFWriter.xmlSafe(text)), "xmlTextWriterWriteElement")
        }

        /// What was written (flushed first).
        func text() throws(Failure) -> String {
            try check(xmlTextWriterFlush(writer), "xmlTextWriterFlush")
            guard let p = xmlBufferContent(buffer) else { throw Failure(call: "xmlBufferContent") }
            return String(decoding: UnsafeBufferPointer(start: p, count: Int(xmlBufferLength(buffer))), as: UTF8.self)
        }
    }
}
