/// A validating, allocation-free pull scanner over the bytes of one JSON record.
///
/// The tweet decoder asks it for the few fields a report needs and has it
/// *skip* everything else. Skipping still validates: a record whose syntax is
/// broken anywhere is rejected, so a truncated line is never half-counted.
///
/// Nothing here recurses: `skipValue()` keeps its own stack of container
/// kinds, so a record nested a million levels deep is scanned (or rejected)
/// without touching the thread's stack.
///
/// - Complexity: O(n) time in the record's length, O(depth / 64) memory.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var pos: Int = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have a nil base address; point at a dummy byte.
        if let b = bytes.baseAddress, bytes.count > 0 {
            base = b.assumingMemoryBound(to: UInt8.self)
        } else {
            base = JSONScanner.emptyByte
        }
        count = bytes.count
    }

    nonisolated(unsafe) private static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.pointee = 0
        return UnsafePointer(p)
    }()

    // MARK: Primitives

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < count {
            let c = base[pos]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos &+= 1
        }
    }

    /// The next significant byte, without consuming it.
    @inline(__always)
    mutating func peek() throws(JSONError) -> UInt8 {
        skipWhitespace()
        guard pos < count else { throw JSONError(offset: pos, reason: .unexpectedEnd) }
        return base[pos]
    }

    /// Reads a string whose opening quote is next; returns its raw contents.
    mutating func readString() throws(JSONError) -> ByteSpan {
        guard try peek() == UInt8(ascii: "\"") else {
            throw JSONError(offset: pos, reason: .unexpectedByte(base[pos]))
        }
        let start = pos &+ 1
        let (end, escaped) = try JSONScanner.scanString(base, from: start, count: count)
        pos = end &+ 1
        return ByteSpan(start: start, end: end, escaped: escaped)
    }

    /// Finds the closing quote of a string whose contents start at `from`,
    /// validating escapes and UTF-8 and rejecting raw control characters.
    ///
    /// A string's first 16 bytes are looked at in line: most keys and flags
    /// end there. Longer runs go 16 bytes at a time (`nextSpecial`); a run of
    /// escapes, as in text the API wrote as `\u03b1\u03c0…`, is taken in one
    /// tight loop.
    @inline(__always)
    static func scanString(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> (end: Int, escaped: Bool) {
        #if arch(x86_64)
        // Most strings of a tweet (keys, flags, names) are short and plain:
        // one 16-byte look, in line at the call, finds their closing quote.
        if from &+ 16 <= n {
            let v = UnsafeRawPointer(b).loadUnaligned(fromByteOffset: from, as: __m128i.self)
            let mask = _mm_movemask_epi8(specialBytes(v))
            if mask == 0 { return try scanLongString(b, from: from &+ 16, count: n) }
            let j = from &+ Int(mask.trailingZeroBitCount)
            if b[j] == 0x22 { return (j, false) }
        }
        #endif
        return try scanLongString(b, from: from, count: n)
    }

    /// `scanString` with 32 bytes looked at in line: for the keys of a
    /// `user` object, a third of which are 16 to 31 bytes long
    /// (`profile_background_image_url_https`). Only `stringMember` uses it:
    /// in every caller the second look costs more registers than it saves.
    @inline(__always)
    static func scanKey(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> (end: Int, escaped: Bool) {
        #if arch(x86_64)
        if from &+ 32 <= n {
            let raw = UnsafeRawPointer(b)
            let low = UInt32(truncatingIfNeeded: _mm_movemask_epi8(specialBytes(raw.loadUnaligned(fromByteOffset: from, as: __m128i.self))))
            let mask = low != 0 ? low
                : UInt32(truncatingIfNeeded: _mm_movemask_epi8(specialBytes(raw.loadUnaligned(fromByteOffset: from &+ 16, as: __m128i.self)))) << 16
            if mask == 0 { return try scanLongString(b, from: from &+ 32, count: n) }
            let j = from &+ Int(mask.trailingZeroBitCount)
            if b[j] == 0x22 { return (j, false) }
        }
        #endif
        return try scanString(b, from: from, count: n)
    }

    #if arch(x86_64)
    /// Lanes of `v` that hold `"`, `\\`, a control byte or a non-ASCII byte.
    @inline(__always)
    static func specialBytes(_ v: __m128i) -> __m128i {
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C))),
                     _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)))
    }
    #endif

    /// `scanString`'s loop, for strings with escapes, non-ASCII bytes or
    /// more than 16 bytes.
    ///
    /// It first looks at 16 more bytes, without the loop's set-up: that
    /// finds the end of the many plain keys and values of 16 to 31 bytes
    /// (`profile_sidebar_border_color`, dates, short URLs).
    @inline(never)
    static func scanLongString(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> (end: Int, escaped: Bool) {
        #if arch(x86_64)
        if from &+ 16 <= n {
            let v = UnsafeRawPointer(b).loadUnaligned(fromByteOffset: from, as: __m128i.self)
            let mask = _mm_movemask_epi8(specialBytes(v))
            guard mask != 0 else { return try scanStringLoop(b, from: from &+ 16, count: n) }
            // The bytes before the hit are plain: the loop may start at it.
            let j = from &+ Int(mask.trailingZeroBitCount)
            if b[j] == 0x22 { return (j, false) }
            return try scanStringLoop(b, from: j, count: n)
        }
        #endif
        return try scanStringLoop(b, from: from, count: n)
    }

    /// `scanLongString`'s loop.
    @inline(never)
    static func scanStringLoop(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> (end: Int, escaped: Bool) {
        var i = from
        var escaped = false
        while true {
            i = nextSpecial(b, from: i, count: n)
            guard i < n else { throw JSONError(offset: n, reason: .unexpectedEnd) }
            let c = b[i]
            if c == 0x22 { return (i, escaped) }
            if c >= 0x80 {
                // Outside strings any such byte is a syntax error, so checking
                // here checks the whole record's UTF-8 (RFC 8259 §8.1). A run
                // of characters beyond ASCII (a word of Greek, Japanese, emoji)
                // is checked here to its end, not one vector load a character.
                repeat {
                    guard let length = UTF8Check.sequenceLength(b, at: i, count: n) else {
                        throw JSONError(offset: i, reason: .invalidUTF8)
                    }
                    i &+= length
                } while i < n && b[i] >= 0x80
                continue
            }
            guard c == 0x5C else { throw JSONError(offset: i, reason: .controlCharacterInString) }
            escaped = true
            repeat {
                // `\uXXXX`, most escapes of a tweet's text, with one word load and compare.
                if i &+ 8 <= n {
                    let w = UInt64(littleEndian: UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    if w & 0xFFFF == 0x755C {
                        guard areHexDigits(UInt32(truncatingIfNeeded: w &>> 16)) else { throw JSONError(offset: i, reason: .badEscape) }
                        i &+= 6
                        continue
                    }
                }
                guard i &+ 1 < n else { throw JSONError(offset: n, reason: .unexpectedEnd) }
                let e = b[i &+ 1]
                if e == 0x75 {  // \uXXXX
                    guard i &+ 5 < n else { throw JSONError(offset: n, reason: .unexpectedEnd) }
                    guard areHexDigits(UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i &+ 2, as: UInt32.self)) else {
                        throw JSONError(offset: i, reason: .badEscape)
                    }
                    i &+= 6
                } else if e == 0x22 || e == 0x5C || e == 0x2F || e == 0x6E || e == 0x74 || e == 0x72 || e == 0x62 || e == 0x66 {
                    i &+= 2
                } else {
                    throw JSONError(offset: i, reason: .badEscape)
                }
            } while i < n && b[i] == 0x5C
        }
    }

    /// The position of the first `"`, `\\`, byte below 0x20 or non-ASCII
    /// byte at or after `from`, or `count` when there is none.
    ///
    /// Sixteen bytes at a time with SSE2: two `pcmpeqb` and one signed
    /// `pcmpgtb` (which catches both control and non-ASCII bytes), then
    /// `pmovmskb` turns the lanes into a bit mask whose lowest bit is the hit.
    /// Elsewhere, Swift's `SIMD16` does the same with the mask read as two words.
    @inline(__always)
    static func nextSpecial(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        var i = from
        let raw = UnsafeRawPointer(base)
        #if arch(x86_64)
        while i &+ 16 <= count {
            let mask = _mm_movemask_epi8(specialBytes(raw.loadUnaligned(fromByteOffset: i, as: __m128i.self)))
            if mask != 0 { return i &+ Int(mask.trailingZeroBitCount) }
            i &+= 16
        }
        #else
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C)
        let space = SIMD16<Int8>(repeating: 0x20)
        while i &+ 16 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let hit = (v .== quote) .| (v .== backslash) .| (unsafeBitCast(v, to: SIMD16<Int8>.self) .< space)
            let words = unsafeBitCast(hit, to: SIMD2<UInt64>.self)
            if words[0] != 0 { return i &+ (words[0].trailingZeroBitCount &>> 3) }
            if words[1] != 0 { return i &+ 8 &+ (words[1].trailingZeroBitCount &>> 3) }
            i &+= 16
        }
        #endif
        while i < count {
            let c = base[i]
            if c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 { return i }
            i &+= 1
        }
        return count
    }

    /// Scans a number token and returns its span; validates RFC 8259 grammar.
    mutating func readNumber() throws(JSONError) -> ByteSpan {
        skipWhitespace()
        let start = pos
        pos = try JSONScanner.skipNumber(base, from: pos, count: count)
        return ByteSpan(start: start, end: pos, escaped: false)
    }

    /// Skips a number token starting at `from`; returns where it ends.
    @inline(__always)
    static func skipNumber(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int {
        var i = from
        if i < n && b[i] == UInt8(ascii: "-") { i &+= 1 }
        guard i < n, isDigit(b[i]) else { throw unexpected(b, at: i, count: n) }
        if b[i] == UInt8(ascii: "0") {
            i &+= 1
        } else {
            i &+= 1
            // Eight digits at a time (a tweet's ids have 18 or 19): a byte is a
            // digit when neither it - '0' nor it + 0x46 sets its top bit.
            while i &+ 8 <= n {
                let w = UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let notDigit = ((w &- 0x3030_3030_3030_3030) | (w &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
                if notDigit != 0 {
                    i &+= UInt64(littleEndian: notDigit).trailingZeroBitCount &>> 3
                    break
                }
                i &+= 8
            }
            while i < n && isDigit(b[i]) { i &+= 1 }
        }
        if i < n && (b[i] == UInt8(ascii: ".") || b[i] | 0x20 == UInt8(ascii: "e")) {
            var scanner = JSONScanner(UnsafeRawBufferPointer(start: b, count: n))
            scanner.pos = i
            try scanner.numberTail()
            return scanner.pos
        }
        return i
    }

    /// The fraction and exponent of a number, rare in tweets.
    private mutating func numberTail() throws(JSONError) {
        if pos < count && base[pos] == UInt8(ascii: ".") {
            pos &+= 1
            guard pos < count, isDigit(base[pos]) else { throw JSONScanner.unexpected(base, at: pos, count: count) }
            while pos < count && isDigit(base[pos]) { pos &+= 1 }
        }
        if pos < count && (base[pos] | 0x20) == UInt8(ascii: "e") {
            pos &+= 1
            if pos < count && (base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-")) { pos &+= 1 }
            guard pos < count, isDigit(base[pos]) else { throw JSONScanner.unexpected(base, at: pos, count: count) }
            while pos < count && isDigit(base[pos]) { pos &+= 1 }
        }
    }

    // MARK: Skipping

    /// Skips one whole value of any kind, validating it.
    ///
    /// Most values a tweet's walk skips are scalars (a count, a flag, a
    /// null, a URL): those are stepped over here, in line at the call, and
    /// only objects and arrays go to `skipContainer`.
    @inline(__always)
    mutating func skipValue() throws(JSONError) {
        let b = base, n = count
        var i = pos
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n else { pos = i; throw JSONError(offset: i, reason: .unexpectedEnd) }
        switch b[i] {
        case UInt8(ascii: "\""): pos = try JSONScanner.skipString(b, from: i &+ 1, count: n)
        case UInt8(ascii: "n"): pos = try JSONScanner.skipLiteral(b, from: i, count: n, 0x6C6C_756E)  // "null"
        case UInt8(ascii: "t"): pos = try JSONScanner.skipLiteral(b, from: i, count: n, 0x6575_7274)  // "true"
        case UInt8(ascii: "f") where i &+ 5 <= n && b[i &+ 4] == UInt8(ascii: "e"):
            pos = try JSONScanner.skipLiteral(b, from: i, count: n, 0x736C_6166) &+ 1  // "fals" + "e"
        case UInt8(ascii: "0")...UInt8(ascii: "9"): pos = try JSONScanner.skipNumber(b, from: i, count: n)
        default:
            pos = try JSONScanner.skipContainer(b, from: i, count: n)
        }
    }

    /// Skips one whole value of any kind, validating it, without recursion.
    mutating func skipContainer() throws(JSONError) {
        pos = try JSONScanner.skipContainer(base, from: pos, count: count)
    }

    /// Skips the value at (white space before) `from`, validating it,
    /// without recursion; returns where it ends.
    ///
    /// The hot loop of the decoder (most of a tweet is skipped): strings go
    /// through the SSE2 scan, literals are compared four bytes at a time,
    /// and punctuation is looked for first where JSON without white space
    /// has it, so a member of a skipped object costs its key's and value's
    /// scans and a few compares.
    @inline(never)
    static func skipContainer(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int {
        if let end = try skipNumberArray(b, from: from, count: n) { return end }
        var stack = ContainerStack()
        var i = from
        while true {
            // A value is expected here.
            if !(i < n && b[i] > 0x20) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
            }
            switch b[i] {
            case UInt8(ascii: "\""):
                i = try JSONScanner.skipString(b, from: i &+ 1, count: n)
            case UInt8(ascii: "{"):
                i &+= 1
                while i < n && isSpace(b[i]) { i &+= 1 }
                if i < n && b[i] == UInt8(ascii: "}") { i &+= 1; break }
                stack.push(object: true)
                i = try JSONScanner.skipKey(b, from: i, count: n)
                continue
            case UInt8(ascii: "["):
                i &+= 1
                while i < n && isSpace(b[i]) { i &+= 1 }
                if i < n && b[i] == UInt8(ascii: "]") { i &+= 1; break }
                stack.push(object: false)
                continue
            case UInt8(ascii: "t"): i = try JSONScanner.skipLiteral(b, from: i, count: n, 0x6575_7274)  // "true"
            case UInt8(ascii: "n"): i = try JSONScanner.skipLiteral(b, from: i, count: n, 0x6C6C_756E)  // "null"
            case UInt8(ascii: "f"):
                guard i &+ 5 <= n, b[i &+ 4] == UInt8(ascii: "e") else { throw JSONError(offset: i, reason: .unexpectedByte(b[i])) }
                i = try JSONScanner.skipLiteral(b, from: i, count: n, 0x736C_6166) &+ 1  // "fals" + "e"
            default:
                i = try JSONScanner.skipNumber(b, from: i, count: n)
            }
            // After a value: close finished containers, or move to the next member.
            while true {
                guard !stack.isEmpty else { return i }
                if !(i < n && b[i] > 0x20) {
                    while i < n && isSpace(b[i]) { i &+= 1 }
                    guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
                }
                let d = b[i]
                if d == UInt8(ascii: ",") {
                    i &+= 1
                    if stack.topIsObject { i = try JSONScanner.skipKey(b, from: i, count: n) }
                    break
                }
                if d == (stack.topIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i &+= 1
                    stack.pop()
                    continue
                }
                throw JSONError(offset: i, reason: .unexpectedByte(d))
            }
        }
    }

    /// Skips a flat array of numbers without white space (`"indices":[12,21]`
    /// of every entity) when one starts at `from`; nil when something else
    /// does, for `skipContainer`'s general loop to take from the start. The
    /// numbers are checked by `skipNumber`, as that loop checks them, so an
    /// error is the same either way.
    @inline(__always)
    static func skipNumberArray(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int? {
        guard from &+ 2 < n, b[from] == UInt8(ascii: "[") else { return nil }
        var i = from &+ 1
        while true {
            guard isDigit(b[i]) else { return nil }
            i = try skipNumber(b, from: i, count: n)
            guard i < n else { return nil }
            let c = b[i]
            if c == UInt8(ascii: "]") { return i &+ 1 }
            guard c == UInt8(ascii: ","), i &+ 1 < n else { return nil }
            i &+= 1
        }
    }

    /// Skips `"key" :` starting at (white space before) the quote; returns the
    /// position after the colon.
    @inline(__always)
    static func skipKey(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int {
        var i = from
        if !(i < n && b[i] == UInt8(ascii: "\"")) {
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
            guard b[i] == UInt8(ascii: "\"") else { throw JSONError(offset: i, reason: .unexpectedByte(b[i])) }
        }
        i = try skipString(b, from: i &+ 1, count: n)
        if i < n && b[i] == UInt8(ascii: ":") { return i &+ 1 }
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
        guard b[i] == UInt8(ascii: ":") else { throw JSONError(offset: i, reason: .unexpectedByte(b[i])) }
        return i &+ 1
    }

    /// Skips a string's contents and closing quote; validates its escapes.
    @inline(__always)
    static func skipString(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int {
        try scanString(b, from: from, count: n).end &+ 1
    }

    /// Skips a four-byte literal given as a little-endian word.
    @inline(__always)
    static func skipLiteral(_ b: UnsafePointer<UInt8>, from i: Int, count n: Int, _ word: UInt32) throws(JSONError) -> Int {
        guard i &+ 4 <= n else { throw JSONError(offset: n, reason: .unexpectedEnd) }
        let w = UInt32(littleEndian: UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: UInt32.self))
        guard w == word else { throw JSONError(offset: i, reason: .unexpectedByte(b[i])) }
        return i &+ 4
    }

    /// Validates the object that starts next and returns the string value of
    /// its member `name` (or `other`); the last such member wins, and one
    /// whose value is not a string gives nil, as JSON readers that keep the
    /// last duplicate key have it. For the many-keyed objects a tweet only
    /// needs one field of (`user`, an entity), with keys scanned in place.
    ///
    /// One tight loop per member: the punctuation is looked for right where
    /// JSON without white space has it (the slow path skips white space), a
    /// key is compared by its length and at most two word loads, and the
    /// value is skipped in line unless it is a container.
    mutating func stringMember(_ name: StaticString, or other: StaticString? = nil) throws(JSONError) -> ByteSpan? {
        let b = base, n = count
        var i = pos
        defer { pos = i }
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "{") else {
            throw JSONScanner.unexpected(b, at: i, count: n)
        }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        if i < n && b[i] == UInt8(ascii: "}") { i &+= 1; return nil }
        let first = MemberName(name), second = MemberName(other ?? name)
        var found: ByteSpan?
        while true {
            if !(i < n && b[i] == UInt8(ascii: "\"")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: "\"") else {
                    throw JSONScanner.unexpected(b, at: i, count: n)
                }
            }
            let keyStart = i &+ 1
            let (keyEnd, keyEscaped) = try JSONScanner.scanKey(b, from: keyStart, count: n)
            i = keyEnd &+ 1
            if !(i < n && b[i] == UInt8(ascii: ":")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: ":") else {
                    throw JSONScanner.unexpected(b, at: i, count: n)
                }
            }
            i &+= 1
            let length = keyEnd &- keyStart
            if keyEscaped || first.matches(b + keyStart, length) || second.matches(b + keyStart, length) {
                // Rare: the member looked for (or a key written with escapes).
                let key = ByteSpan(start: keyStart, end: keyEnd, escaped: keyEscaped)
                if !keyEscaped || self.key(key, is: name) || (other.map { self.key(key, is: $0) } ?? false) {
                    (found, i) = try JSONScanner.stringValue(b, from: i, count: n)
                } else {
                    i = try JSONScanner.skipAny(b, from: i, count: n)
                }
            } else if i < n && b[i] == UInt8(ascii: "\"") {
                i = try JSONScanner.skipString(b, from: i &+ 1, count: n)
            } else if i &+ 5 <= n && JSONScanner.isNullOrTrue(b, at: i) {
                i &+= 4
            } else {
                i = try JSONScanner.skipNonString(b, from: i, count: n)
            }
            if i < n && b[i] == UInt8(ascii: ",") { i &+= 1; continue }
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
            if b[i] == UInt8(ascii: ",") { i &+= 1; continue }
            if b[i] == UInt8(ascii: "}") { i &+= 1; return found }
            throw JSONError(offset: i, reason: .unexpectedByte(b[i]))
        }
    }

    /// The value at (white space before) `from`: its span when it is a
    /// string, nil when it is another value (skipped); and where it ends.
    @inline(never)
    static func stringValue(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> (ByteSpan?, Int) {
        var i = from
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "\"") else { return (nil, try skipNonString(b, from: i, count: n)) }
        let (end, escaped) = try scanString(b, from: i &+ 1, count: n)
        return (ByteSpan(start: i &+ 1, end: end, escaped: escaped), end &+ 1)
    }

    /// Skips the value at (white space before) `from`, as `skipValue` does.
    @inline(never)
    static func skipAny(_ b: UnsafePointer<UInt8>, from: Int, count n: Int) throws(JSONError) -> Int {
        var i = from
        while i < n && isSpace(b[i]) { i &+= 1 }
        return try skipNonString(b, from: i, count: n)
    }

    /// Whether `null` or `true` is at `i` (four bytes there).
    @inline(__always)
    static func isNullOrTrue(_ b: UnsafePointer<UInt8>, at i: Int) -> Bool {
        let w = UInt32(littleEndian: UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: UInt32.self))
        return w == 0x6C6C_756E || w == 0x6575_7274
    }

    /// Skips the value at `i` (white space already skipped) as `skipValue`
    /// does, with the same errors: scalars in line, containers (and every
    /// byte that starts no value) through `skipContainer`.
    @inline(__always)
    static func skipNonString(_ b: UnsafePointer<UInt8>, from i: Int, count n: Int) throws(JSONError) -> Int {
        guard i < n else { throw JSONError(offset: i, reason: .unexpectedEnd) }
        let c = b[i]
        if c &- 0x30 < 10 { return try skipNumber(b, from: i, count: n) }
        if c == UInt8(ascii: "n") { return try skipLiteral(b, from: i, count: n, 0x6C6C_756E) }  // "null"
        if c == UInt8(ascii: "t") { return try skipLiteral(b, from: i, count: n, 0x6575_7274) }  // "true"
        if c == UInt8(ascii: "f") && i &+ 5 <= n && b[i &+ 4] == UInt8(ascii: "e") {
            return try skipLiteral(b, from: i, count: n, 0x736C_6166) &+ 1  // "fals" + "e"
        }
        if c == UInt8(ascii: "\"") { return try skipString(b, from: i &+ 1, count: n) }
        return try skipContainer(b, from: i, count: n)
    }

    // MARK: Iteration helpers

    /// Calls `body` once per member of the object that starts next, with the
    /// scanner placed on the member's value; `body` must consume that value.
    ///
    /// The punctuation between members is read with a local position, so a
    /// member costs its key's scan and a few compares.
    @inline(__always)
    mutating func forEachMember(_ body: (inout JSONScanner, ByteSpan) throws(JSONError) -> Void) throws(JSONError) {
        let b = base, n = count
        var i = pos
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "{") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        if i < n && b[i] == UInt8(ascii: "}") { pos = i &+ 1; return }
        while true {
            if !(i < n && b[i] == UInt8(ascii: "\"")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: "\"") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            }
            let (end, escaped) = try JSONScanner.scanString(b, from: i &+ 1, count: n)
            let key = ByteSpan(start: i &+ 1, end: end, escaped: escaped)
            i = end &+ 1
            if !(i < n && b[i] == UInt8(ascii: ":")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: ":") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            }
            pos = i &+ 1
            try body(&self, key)
            i = pos
            if i < n && b[i] == UInt8(ascii: ",") { i &+= 1; continue }
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            if b[i] == UInt8(ascii: ",") { i &+= 1; continue }
            guard b[i] == UInt8(ascii: "}") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            pos = i &+ 1
            return
        }
    }

    /// `forEachMember` from inside an object, just after a member's value:
    /// calls `body` for each member left, and ends past the object's `}`.
    @inline(__always)
    mutating func forEachRemainingMember(_ body: (inout JSONScanner, ByteSpan) throws(JSONError) -> Void) throws(JSONError) {
        let b = base, n = count
        var i = pos
        while true {
            if i < n && b[i] == UInt8(ascii: ",") {
                i &+= 1
            } else {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
                if b[i] == UInt8(ascii: ",") {
                    i &+= 1
                } else {
                    guard b[i] == UInt8(ascii: "}") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
                    pos = i &+ 1
                    return
                }
            }
            if !(i < n && b[i] == UInt8(ascii: "\"")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: "\"") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            }
            let (end, escaped) = try JSONScanner.scanString(b, from: i &+ 1, count: n)
            let key = ByteSpan(start: i &+ 1, end: end, escaped: escaped)
            i = end &+ 1
            if !(i < n && b[i] == UInt8(ascii: ":")) {
                while i < n && isSpace(b[i]) { i &+= 1 }
                guard i < n, b[i] == UInt8(ascii: ":") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            }
            pos = i &+ 1
            try body(&self, key)
            i = pos
        }
    }

    /// Calls `body` once per element of the array that starts next, with the
    /// scanner placed on the element; `body` must consume it.
    @inline(__always)
    mutating func forEachElement(_ body: (inout JSONScanner) throws(JSONError) -> Void) throws(JSONError) {
        let b = base, n = count
        var i = pos
        while i < n && isSpace(b[i]) { i &+= 1 }
        guard i < n, b[i] == UInt8(ascii: "[") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
        i &+= 1
        while i < n && isSpace(b[i]) { i &+= 1 }
        if i < n && b[i] == UInt8(ascii: "]") { pos = i &+ 1; return }
        while true {
            pos = i
            try body(&self)
            i = pos
            while i < n && isSpace(b[i]) { i &+= 1 }
            guard i < n else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            if b[i] == UInt8(ascii: ",") { i &+= 1; continue }
            guard b[i] == UInt8(ascii: "]") else { pos = i; throw JSONScanner.unexpected(b, at: i, count: n) }
            pos = i &+ 1
            return
        }
    }

    /// The error for the byte at `i` (or the end of the record) where
    /// something else was due.
    static func unexpected(_ b: UnsafePointer<UInt8>, at i: Int, count n: Int) -> JSONError {
        i < n ? JSONError(offset: i, reason: .unexpectedByte(b[i])) : JSONError(offset: i, reason: .unexpectedEnd)
    }

    /// Reads a string value, or skips a value of another kind and returns nil.
    @inline(__always)
    mutating func stringOrSkip() throws(JSONError) -> ByteSpan? {
        if try peek() == UInt8(ascii: "\"") { return try readString() }
        try skipValue()
        return nil
    }

    /// Whether the raw key bytes equal `name` (keys with escapes are decoded first).
    @inline(__always)
    func key(_ span: ByteSpan, is name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        if span.escaped { return JSONText.decode(span, in: base).utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: n)) }
        guard span.end &- span.start == n else { return false }
        return JSONScanner.sameBytes(base + span.start, name.utf8Start, n)
    }

    /// Whether the `n` bytes at `p` and `q` are equal: two overlapping word
    /// loads each for the 4 to 16 bytes of almost every key, a call
    /// to `memcmp` only beyond.
    @inline(__always)
    static func sameBytes(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let a = UnsafeRawPointer(p), c = UnsafeRawPointer(q)
        if n >= 8 {
            guard n <= 16 else { return memcmp(p, q, n) == 0 }
            return a.loadUnaligned(as: UInt64.self) == c.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == c.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        if n >= 4 {
            return a.loadUnaligned(as: UInt32.self) == c.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == c.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        }
        var k = 0
        while k < n { if p[k] != q[k] { return false }; k &+= 1 }
        return true
    }

    /// The bytes of a span, for callers that compare or hash them.
    @inline(__always)
    func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end &- span.start)
    }
}

/// A member name a scan looks for, compared by length first.
struct MemberName {
    let start: UnsafePointer<UInt8>
    let length: Int

    @inline(__always)
    init(_ name: StaticString) {
        start = name.utf8Start
        length = name.utf8CodeUnitCount
    }

    /// Whether the `count` unescaped key bytes at `p` are this name.
    @inline(__always)
    func matches(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        count == length && JSONScanner.sameBytes(p, start, count)
    }
}

#if arch(x86_64)
// Clang's own SSE2 intrinsics, which the Swift toolchain ships as a module.
import _Builtin_intrinsics.intel
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
