/// Decodes the rows of a CSV export (SPEC §3) into the same form the JSON
/// decoder gives — a `DecodedRecord` of one `DecodedTweet` — so that CSV
/// rows go through the same extract and match stages as JSON tweets:
///
///     id          the id column: an unsigned 64-bit decimal (else a bad record)
///     text        the text column; twarc-csv's `\n` escapes are line ends again
///     author      the author column, when there is one (a leading `@` dropped)
///     entities    `entities.hashtags` / `entities.mentions`: JSON arrays of
///                 `"#tag"` / `"@name"` strings (twarc-csv) or of objects with
///                 `tag` / `username` (as the API has them); else words
///     retweeted   `retweeted_username`: the retweeted tweet's author, carried
///                 as a user mention like a JSON retweet's; it or a retweeted
///                 id column, non-empty, makes the row a retweet (SPEC §12.1)
///     created_at, lang   as written
///
/// The fields a report reads are unquoted into a buffer the decoder owns;
/// the spans point there until the next row.
///
/// - Complexity: O(n) time in the row's length; memory O(longest row).
final class CSVDecoder {
    /// The header of the stream being read.
    var header: CSVHeader?
    /// The current row's tweet.
    let record = DecodedRecord()
    private var scratch: UnsafeMutableRawBufferPointer
    private var used = 0
    private var fields: [Range<Int>] = []

    init() { scratch = .allocate(byteCount: 1 << 12, alignment: 8) }

    deinit { scratch.deallocate() }

    /// Decodes one row; `record` then holds its tweet.
    ///
    /// - Throws: `CSVRowError` for a row whose field count differs from the
    ///   header's, or whose id is missing or not a 64-bit decimal.
    func decode(_ row: UnsafeRawBufferPointer) throws(CSVRowError) {
        record.reset(base: UnsafePointer(scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)))
        guard let h = header else { throw CSVRowError(message: "CSV row before any header") }
        CSVRow.fields(row, delimiter: h.delimiter, into: &fields)
        guard fields.count == h.fieldCount else {
            throw CSVRowError(message: "CSV row has \(fields.count) fields, the header \(h.fieldCount)")
        }
        // Unquoting never makes a field longer: the fields' lengths are enough
        // (counted per use, as options may name one column twice).
        var need = 0
        for k in [h.id, h.text, h.author, h.hashtags, h.mentions, h.retweetedAuthor, h.retweetedID, h.createdAt, h.lang,
                  h.quotedID, h.repliedID, h.quotedAuthor, h.repliedAuthor] {
            if let k { need += fields[k].count }
        }
        if scratch.count < need {
            scratch.deallocate()
            scratch = .allocate(byteCount: max(need, scratch.count * 2), alignment: 8)
        }
        used = 0
        let base = UnsafePointer(scratch.baseAddress!.assumingMemoryBound(to: UInt8.self))

        let id = trimmed(copy(row, fields[h.id]))
        guard !id.isEmpty else { throw CSVRowError(message: "not a tweet: the row has no id") }
        guard let idValue = JSONText.uint64(id, in: base) else { throw CSVRowError(message: RejectedObject.badID.message) }

        record.reset(base: base)
        var tweet = DecodedTweet(id: idValue)
        tweet.text = copy(row, fields[h.text], lineEscapes: true)
        if let a = h.author { tweet.author.name = name(copy(row, fields[a])) }
        if let k = h.hashtags { tweet.hashtags = entityList(copy(row, fields[k]), base, keys: "tag", "text") }
        if let k = h.mentions { tweet.users = entityList(copy(row, fields[k]), base, keys: "username", "screen_name") }
        if let k = h.retweetedAuthor, let author = name(copy(row, fields[k])) {
            tweet.retweeted = DecodedTweet.Retweeted(author: DecodedTweet.AuthorRef(name: author))
        }
        // Without a retweet column the row cannot say (its text may: `RT @name:`).
        if h.retweetedAuthor == nil && h.retweetedID == nil {
            tweet.markedRetweet = nil
        } else {
            tweet.markedRetweet = tweet.retweeted != nil || h.retweetedID.map { !trimmed(copy(row, fields[$0])).isEmpty } == true
        }
        if let k = h.createdAt { tweet.createdAt = trimmed(copy(row, fields[k])) }
        if let k = h.lang { tweet.lang = trimmed(copy(row, fields[k])) }
        references(of: &tweet, row, h, base)
        record.append(tweet)
    }

    /// SPEC §15: the retweeted, quoted and replied-to posts' ids and authors
    /// (twarc-csv's `referenced_tweets.*.id` and `*_username` columns); an
    /// id column that is empty or not a decimal names no post.
    private func references(of tweet: inout DecodedTweet, _ row: UnsafeRawBufferPointer, _ h: CSVHeader,
                            _ base: UnsafePointer<UInt8>) {
        func id(_ k: Int?) -> UInt64? {
            guard let k else { return nil }
            let s = trimmed(copy(row, fields[k]))
            return s.isEmpty ? nil : JSONText.uint64(s, in: base)
        }
        func postCopy(_ post: UInt64?, author k: Int?) -> DecodedTweet.Copy? {
            guard let post else { return nil }
            return DecodedTweet.Copy(id: post, author: DecodedTweet.AuthorRef(name: k.flatMap { name(copy(row, fields[$0])) }))
        }
        var r = DecodedTweet.References()
        r.retweeted = id(h.retweetedID)
        r.repliedTo = id(h.repliedID)
        // The quoted id stays out of `tweet.quoted` (which leaves a permalink out of a row's links, SPEC §13) so that
        // a row's links are what they were; its copy names it.
        let quoted = id(h.quotedID)
        r.retweetedCopy = postCopy(r.retweeted, author: h.retweetedAuthor)
        r.quotedCopy = postCopy(quoted, author: h.quotedAuthor)
        r.repliedCopy = postCopy(r.repliedTo, author: h.repliedAuthor)
        tweet.references = r
    }

    /// Copies a field's value into the scratch buffer; with `lineEscapes`,
    /// the two characters `\n` become a line end (twarc-csv writes line ends so).
    private func copy(_ row: UnsafeRawBufferPointer, _ field: Range<Int>, lineEscapes: Bool = false) -> ByteSpan {
        let start = used
        let out = scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)
        CSVRow.forEachValueByte(UnsafeRawBufferPointer(rebasing: row[field])) { b in
            if lineEscapes && b == UInt8(ascii: "n") && used > start && out[used - 1] == 0x5C {
                out[used - 1] = 0x0A
            } else {
                out[used] = b
                used += 1
            }
        }
        return ByteSpan(start: start, end: used, escaped: false)
    }

    private func trimmed(_ s: ByteSpan) -> ByteSpan {
        let p = scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var s = s
        while s.start < s.end && isSpace(p[s.start]) { s.start += 1 }
        while s.end > s.start && isSpace(p[s.end - 1]) { s.end -= 1 }
        return s
    }

    /// A screen name field: trimmed, without a leading `@`; nil when empty.
    private func name(_ s: ByteSpan) -> ByteSpan? {
        var s = trimmed(s)
        if s.start < s.end && scratch[s.start] == UInt8(ascii: "@") { s.start += 1 }
        return s.isEmpty ? nil : s
    }

    /// The names of an entity column, appended to the decoder's spans.
    ///
    /// A JSON array of strings (a leading `#` or `@` dropped) or of objects
    /// (the first of `keys` present); anything else is read as words
    /// separated by spaces, `,` `;` `|`, brackets or quotes.
    private func entityList(_ field: ByteSpan, _ base: UnsafePointer<UInt8>,
                            keys k1: StaticString, _ k2: StaticString) -> Range<Int> {
        let first = record.spanCount
        var found: [ByteSpan] = []
        // JSON spans are relative to the field: make them relative to `base`.
        func add(_ v: ByteSpan) { found.append(ByteSpan(start: v.start + field.start, end: v.end + field.start, escaped: v.escaped)) }
        var s = JSONScanner(UnsafeRawBufferPointer(start: base + field.start, count: field.end - field.start))
        do {
            guard !field.isEmpty, try s.peek() == UInt8(ascii: "[") else { throw JSONError(offset: 0, reason: .unexpectedEnd) }
            try s.forEachElement { (s: inout JSONScanner) throws(JSONError) in
                if try s.peek() == UInt8(ascii: "{") {
                    var value: ByteSpan?
                    try s.forEachMember { (s: inout JSONScanner, key: ByteSpan) throws(JSONError) in
                        if value == nil && (s.key(key, is: k1) || s.key(key, is: k2)) {
                            value = try s.stringOrSkip()
                        } else {
                            try s.skipValue()
                        }
                    }
                    if let value { add(value) }
                } else if let value = try s.stringOrSkip() {
                    add(value)
                }
            }
            s.skipWhitespace()
            if s.pos != s.count { throw JSONError(offset: s.pos, reason: .trailingBytes) }
        } catch {
            found = words(field)
        }
        for span in found {
            let name = withoutSign(span)
            if !name.isEmpty { record.appendSpan(name) }
        }
        return first..<record.spanCount
    }

    /// Words of a field that is not a JSON array: `#a #b`, `a, b`, `a;b`, `['a', 'b']`.
    private func words(_ field: ByteSpan) -> [ByteSpan] {
        var out: [ByteSpan] = []
        var i = field.start, start = -1
        while i <= field.end {
            let c: UInt8 = i < field.end ? scratch[i] : 0x20
            let separator = isSpace(c) || c == UInt8(ascii: ",") || c == UInt8(ascii: ";") || c == UInt8(ascii: "|")
                || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
            if separator {
                if start >= 0 { out.append(ByteSpan(start: start, end: i, escaped: false)) }
                start = -1
            } else if start < 0 {
                start = i
            }
            i += 1
        }
        return out
    }

    /// Drops a leading `#`, `@`, `＃` or `＠`.
    private func withoutSign(_ s: ByteSpan) -> ByteSpan {
        var s = s
        guard s.start < s.end else { return s }
        let c = scratch[s.start]
        if c == UInt8(ascii: "#") || c == UInt8(ascii: "@") {
            s.start += 1
        } else if c == 0xEF && s.end - s.start >= 3 && scratch[s.start + 1] == 0xBC
                    && (scratch[s.start + 2] == 0x83 || scratch[s.start + 2] == 0xA0) {
            s.start += 3
        }
        return s
    }
}

/// A CSV row that is not a tweet (SPEC §8: a bad record, with its line).
struct CSVRowError: RecordError {
    var message: String
}
