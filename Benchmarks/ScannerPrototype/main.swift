// A measuring prototype for issue 16, not part of the product: how much a
// bit-mask JSON validator costs on this machine, to weigh it against the
// current scanner's walk (see Benchmarks/SCANNER-2026-12-01.md).
//
// Stage 1 classifies 64 bytes at a time with AVX-512BW (quotes, backslashes,
// escaped bytes by carry arithmetic, string interiors by prefix XOR,
// structural bytes outside strings, control bytes inside strings, escapes
// and their \uXXXX digits) and writes the positions of structural bytes,
// quotes and scalar starts; stage 2 checks the grammar over those positions
// (a stack of containers, keys followed by colons, scalars checked in place).
// It decodes nothing. Records are the file's lines, found with memchr.
//
//     swiftc -O -Xcc -mavx512bw -Xcc -mavx512f -target-cpu znver4 main.swift -o scanner-prototype
//     ./scanner-prototype FILE MODE    # 0: framing only, 1: stage 1, 2: stages 1 and 2,
//                                      # 3: stage 1 and stage 2 as a table-driven automaton,
//                                      # 4: 3 with brackets matched and a walk to the report's fields
//
// It needs a processor with AVX-512BW; it checks /proc/cpuinfo first.
import _Builtin_intrinsics.intel
import Glibc
import Foundation

@inline(__always) func bits(_ m: SIMDMask<SIMD64<Int8>>) -> UInt64 {
    _mm512_movepi8_mask(unsafeBitCast(m, to: __m512i.self))
}
@inline(__always) func prefixXOR(_ x: UInt64) -> UInt64 {
    var x = x
    x ^= x << 1; x ^= x << 2; x ^= x << 4; x ^= x << 8; x ^= x << 16; x ^= x << 32
    return x
}

struct Stage1 {
    var index: UnsafeMutablePointer<UInt32>
    var capacity: Int
    init(capacity: Int) { self.capacity = capacity; index = .allocate(capacity: capacity + 64) }

    /// Returns structural count, or -1 on an error found in bulk.
    @inline(never)
    mutating func run(_ p: UnsafeRawPointer, _ n: Int, openingQuotesOnly: Bool = false) -> Int {
        var count = 0
        var prevEscaped: UInt64 = 0   // 1 if the block's first byte is escaped
        var prevInString: UInt64 = 0  // all ones when inside a string
        var prevScalar: UInt64 = 0
        var uCarry: UInt64 = 0
        var bad: UInt64 = 0
        var i = 0
        var pad = SIMD64<UInt8>(repeating: 0x20)
        while i < n {
            let v: SIMD64<UInt8>
            if i + 64 <= n { v = p.loadUnaligned(fromByteOffset: i, as: SIMD64<UInt8>.self) }
            else {
                _ = withUnsafeMutableBytes(of: &pad) { memcpy($0.baseAddress!, p + i, n - i) }
                v = pad
            }
            let bs = bits(v .== SIMD64(repeating: 0x5C))
            let q = bits(v .== SIMD64(repeating: 0x22))
            let low = unsafeBitCast(_mm512_or_si512(unsafeBitCast(v, to: __m512i.self), _mm512_set1_epi8(0x20)), to: SIMD64<UInt8>.self)
            let op = bits(low .== SIMD64(repeating: 0x7B)) | bits(low .== SIMD64(repeating: 0x7D))
                | bits(v .== SIMD64(repeating: 0x3A)) | bits(v .== SIMD64(repeating: 0x2C))
            let ws = bits(v .== SIMD64(repeating: 0x20)) | bits(v .== SIMD64(repeating: 0x0A))
                | bits(v .== SIMD64(repeating: 0x0D)) | bits(v .== SIMD64(repeating: 0x09))
            let ctl = bits(v .< SIMD64(repeating: 0x20))
            // escaped characters
            var escaped: UInt64 = 0
            if bs | prevEscaped != 0 {
                let odd: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
                // A backslash run that starts on an even bit and ends on an odd one (or
                // the reverse) has odd length: the byte after it is escaped. Subtracting
                // the run starts from the odd bits carries through each run to its end.
                let potential = bs & ~prevEscaped
                let maybeEscaped = potential << 1
                let maybeEscapedAndOddBits = maybeEscaped | odd
                let evenSeriesCodesAndOddBits = maybeEscapedAndOddBits &- potential
                let escapeAndTerminalCode = evenSeriesCodesAndOddBits ^ odd
                escaped = escapeAndTerminalCode ^ (bs | prevEscaped)
                prevEscaped = (escapeAndTerminalCode & bs) >> 63
            }
            let realQ = q & ~escaped
            let inStr = prefixXOR(realQ) ^ prevInString
            prevInString = UInt64(bitPattern: Int64(bitPattern: inStr) >> 63)
            // control chars (< 0x20 ASCII) inside strings are errors; outside: only ws allowed
            let stringBody = inStr & ~realQ
            bad |= ctl & stringBody
            let outside = ~(inStr | realQ)
            let scalar = outside & ~op & ~ws
            let scalarStart = scalar & ~(scalar << 1 | prevScalar)
            prevScalar = scalar >> 63
            var s = (op & outside) | (openingQuotesOnly ? realQ & inStr : realQ) | scalarStart
            if i + 64 > n { s &= (1 << UInt64(n - i)) &- 1 }
            if escaped | uCarry != 0 {
                let e = escaped & stringBody
                let u = bits(v .== SIMD64(repeating: 0x75))
                let valid = bits(v .== SIMD64(repeating: 0x22)) | bs | bits(v .== SIMD64(repeating: 0x2F))
                    | bits(v .== SIMD64(repeating: 0x62)) | bits(v .== SIMD64(repeating: 0x66)) | bits(v .== SIMD64(repeating: 0x6E))
                    | bits(v .== SIMD64(repeating: 0x72)) | bits(v .== SIMD64(repeating: 0x74)) | u
                bad |= e & ~valid
                let ue = e & u
                let raw = unsafeBitCast(v, to: __m512i.self)
                let digit = unsafeBitCast(_mm512_sub_epi8(raw, _mm512_set1_epi8(0x30)), to: SIMD64<UInt8>.self)
                let letter = unsafeBitCast(_mm512_sub_epi8(_mm512_or_si512(raw, _mm512_set1_epi8(0x20)), _mm512_set1_epi8(0x61)), to: SIMD64<UInt8>.self)
                let hex = bits(digit .< SIMD64(repeating: 10)) | bits(letter .< SIMD64(repeating: 6))
                let need = ue << 1 | ue << 2 | ue << 3 | ue << 4 | uCarry
                uCarry = (ue >> 63) * 0xF | ((ue >> 62) & 1) * 0x7 | ((ue >> 61) & 1) * 0x3 | ((ue >> 60) & 1)
                bad |= need & ~hex
            }
            // flatten
            let base = UInt32(i)
            let c = s.nonzeroBitCount
            var t = s
            var j = count
            while t != 0 {
                index[j] = base &+ UInt32(t.trailingZeroBitCount); t &= t &- 1
                index[j + 1] = base &+ UInt32(t.trailingZeroBitCount); t &= t &- 1
                index[j + 2] = base &+ UInt32(t.trailingZeroBitCount); t &= t &- 1
                index[j + 3] = base &+ UInt32(t.trailingZeroBitCount); t &= t &- 1
                j += 4
            }
            count += c
            i += 64
        }
        if prevInString != 0 || bad != 0 || uCarry != 0 { return -1 }
        return count
    }
}
@inline(__always) func hex4(_ w: UInt32) -> Bool {
    var ok = true
    for s in stride(from: 0, to: 32, by: 8) {
        let c = UInt8(truncatingIfNeeded: w >> UInt32(s))
        let d = c &- 0x30, l = (c | 0x20) &- 0x61
        ok = ok && (d < 10 || l < 6)
    }
    return ok
}

/// Stage 2: grammar over the structurals.
@inline(never)
func stage2(_ p: UnsafePointer<UInt8>, _ n: Int, _ idx: UnsafePointer<UInt32>, _ count: Int, stack: UnsafeMutablePointer<UInt8>) -> Bool {
    var k = 0
    var depth = 0
    var expectValue = true
    while k < count {
        let at = Int(idx[k]); let c = p[at]
        if expectValue {
            switch c {
            case 0x7B: // {
                stack[depth] = 1; depth += 1; k += 1
                guard k < count else { return false }
                let a = Int(idx[k])
                if p[a] == 0x7D { depth -= 1; k += 1; expectValue = false; if depth == 0 { return k == count }; continue }
                guard p[a] == 0x22, k + 2 < count, p[Int(idx[k+2])] == 0x3A else { return false }
                k += 3; continue
            case 0x5B:
                stack[depth] = 0; depth += 1; k += 1
                guard k < count else { return false }
                if p[Int(idx[k])] == 0x5D { depth -= 1; k += 1; expectValue = false; if depth == 0 { return k == count }; continue }
                continue
            case 0x22: k += 2; expectValue = false
            default:
                guard c != 0x7D, c != 0x5D, c != 0x3A, c != 0x2C, scalarOK(p, n, at) else { return false }
                k += 1; expectValue = false
            }
            if depth == 0 { return k == count }
        } else {
            switch c {
            case 0x2C:
                k += 1
                if stack[depth - 1] == 1 {
                    guard k + 1 < count, p[Int(idx[k])] == 0x22, p[Int(idx[k+2])] == 0x3A else { return false }
                    k += 3
                }
                expectValue = true
            case 0x7D:
                guard stack[depth - 1] == 1 else { return false }
                depth -= 1; k += 1; if depth == 0 { return k == count }
            case 0x5D:
                guard stack[depth - 1] == 0 else { return false }
                depth -= 1; k += 1; if depth == 0 { return k == count }
            default: return false
            }
        }
    }
    return false
}
/// Stage 2 as a table-driven automaton (mode 3): the positions hold opening
/// quotes only (a string is one position; stage 1 saw it closed), each
/// position's byte gives a class, the state and class the next state, and
/// only brackets touch the stack. States: 0 value at the top, 1 value in an
/// object, 2 value in an array, 3 an array's first value or its end, 4 an
/// object's first key or its end, 5 a key, 6 a colon, 7 after a value in an
/// object, 8 after a value in an array, 9 done, 10 error. Classes: 0 `{`,
/// 1 `[`, 2 `}`, 3 `]`, 4 `:`, 5 `,`, 6 `"`, 7 a scalar. 12 and 13 open an
/// object or an array, 14 closes one.
let classOf: [UInt8] = (0..<256).map { c in
    switch UInt8(c) {
    case 0x7B: 0
    case 0x5B: 1
    case 0x7D: 2
    case 0x5D: 3
    case 0x3A: 4
    case 0x2C: 5
    case 0x22: 6
    default: 7
    }
}
let transitions: [UInt8] = {
    var t = [UInt8](repeating: 10, count: 11 * 8)
    func set(_ state: Int, _ cls: Int, _ next: UInt8) { t[state * 8 + cls] = next }
    for (state, after) in [(0, 9), (1, 7), (2, 8), (3, 8)] as [(Int, UInt8)] {
        set(state, 6, after); set(state, 7, after); set(state, 0, 12); set(state, 1, 13)
    }
    set(3, 3, 14)
    set(4, 6, 6); set(4, 2, 14)
    set(5, 6, 6)
    set(6, 4, 1)
    set(7, 5, 5); set(7, 2, 14)
    set(8, 5, 2); set(8, 3, 14)
    return t
}()
let afterOf: [UInt8] = [9, 7, 8, 8, 10, 10, 10, 10, 10, 10, 10]

@inline(never)
func stage2Table(_ p: UnsafePointer<UInt8>, _ n: Int, _ idx: UnsafePointer<UInt32>, _ count: Int,
                 stack: UnsafeMutablePointer<UInt8>, opens: UnsafeMutablePointer<Int32>? = nil,
                 jump: UnsafeMutablePointer<Int32>? = nil) -> Bool {
    var state: UInt8 = 0
    var depth = 0
    var scalarsOK = true
    classOf.withUnsafeBufferPointer { cls in
        transitions.withUnsafeBufferPointer { table in
            afterOf.withUnsafeBufferPointer { after in
                for k in 0..<count {
                    let at = Int(idx[k])
                    let c = cls[Int(p[at])]
                    let t = table[Int(state) &* 8 &+ Int(c)]
                    if t < 12 {
                        state = t
                    } else if t == 14 {
                        depth &-= 1
                        if depth < 0 { state = 10; return }
                        state = stack[depth]
                        if let jump, let opens { jump[Int(opens[depth])] = Int32(k) }
                    } else {
                        stack[depth] = after[Int(state)]
                        opens?[depth] = Int32(k)
                        depth &+= 1
                        state = t == 12 ? 4 : 3
                    }
                    if c == 7 && !scalarOK(p, n, at) { scalarsOK = false }
                }
            }
        }
    }
    return scalarsOK && state == 9 && depth == 0
}

/// Mode 4: `stage2Table` recording, for each opening bracket, the position
/// of its closing one (`jump`), then a walk of the record through
/// the positions alone, as a decoder on them would: the top-level members,
/// `user.screen_name`, `entities.hashtags[].text` and `user_mentions`, into
/// `retweeted_status` and `quoted_status`; a value the walk does not want is
/// passed over by one jump. Returns the bytes of the spans found (a check
/// sum), or -1 for an invalid record. Compact JSON only (the bench's).
@inline(never)
func stage2AndWalk(_ p: UnsafePointer<UInt8>, _ n: Int, _ idx: UnsafePointer<UInt32>, _ count: Int,
                   stack: UnsafeMutablePointer<UInt8>, opens: UnsafeMutablePointer<Int32>, jump: UnsafeMutablePointer<Int32>) -> Int {
    guard stage2Table(p, n, idx, count, stack: stack, opens: opens, jump: jump) else { return -1 }
    var found = 0
    /// The key at position m (an opening quote) equals `name`.
    @inline(__always) func key(_ m: Int, is name: StaticString) -> Bool {
        let start = Int(idx[m]) + 1, end = Int(idx[m + 1]) - 1  // the colon follows the closing quote
        return end - start == name.utf8CodeUnitCount && memcmp(p + start, name.utf8Start, end - start) == 0
    }
    /// The string at position m (an opening quote) as bytes: up to the next position's byte, less the quote.
    @inline(__always) func stringLength(_ m: Int) -> Int { Int(idx[m + 1]) - 1 - (Int(idx[m]) + 1) }
    /// The position after the value at m.
    @inline(__always) func after(_ m: Int) -> Int {
        let c = p[Int(idx[m])]
        return c == 0x7B || c == 0x5B ? Int(jump[m]) + 1 : m + 1
    }
    func members(of object: Int, _ body: (Int, Int) -> Void) {
        var m = object + 1
        while p[Int(idx[m])] != 0x7D {
            body(m, m + 2)
            m = after(m + 2)
            if p[Int(idx[m])] == 0x2C { m += 1 }
        }
    }
    func entityTexts(of array: Int, key name: StaticString) {
        var e = array + 1
        while p[Int(idx[e])] == 0x7B {
            members(of: e) { k, v in if key(k, is: name) { found += stringLength(v) } }
            e = Int(jump[e]) + 1
            if p[Int(idx[e])] == 0x2C { e += 1 }
        }
    }
    func tweet(_ object: Int) {
        members(of: object) { k, v in
            if key(k, is: "id_str") { found += stringLength(v) }
            else if key(k, is: "user") { members(of: v) { k, v in if key(k, is: "screen_name") { found += stringLength(v) } } }
            else if key(k, is: "entities") {
                members(of: v) { k, v in
                    if key(k, is: "hashtags") { entityTexts(of: v, key: "text") }
                    else if key(k, is: "user_mentions") { entityTexts(of: v, key: "screen_name") }
                }
            } else if key(k, is: "retweeted_status") || key(k, is: "quoted_status") { tweet(v) }
        }
    }
    if p[Int(idx[0])] == 0x7B { tweet(0) }
    return found
}

@inline(__always) func scalarOK(_ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int) -> Bool {
    let c = p[at]
    if c == 0x74 { return at + 4 <= n && p[at+1] == 0x72 && p[at+2] == 0x75 && p[at+3] == 0x65 && (at + 4 == n || !isScalarByte(p[at+4])) }
    if c == 0x66 { return at + 5 <= n && p[at+1] == 0x61 && p[at+2] == 0x6C && p[at+3] == 0x73 && p[at+4] == 0x65 && (at + 5 == n || !isScalarByte(p[at+5])) }
    if c == 0x6E { return at + 4 <= n && p[at+1] == 0x75 && p[at+2] == 0x6C && p[at+3] == 0x6C && (at + 4 == n || !isScalarByte(p[at+4])) }
    var i = at
    if p[i] == 0x2D { i += 1 }
    guard i < n, p[i] &- 0x30 < 10 else { return false }
    if p[i] == 0x30 { i += 1 } else { while i < n && p[i] &- 0x30 < 10 { i += 1 } }
    if i < n && p[i] == 0x2E { i += 1; guard i < n, p[i] &- 0x30 < 10 else { return false }; while i < n && p[i] &- 0x30 < 10 { i += 1 } }
    if i < n && p[i] | 0x20 == 0x65 {
        i += 1
        if i < n && (p[i] == 0x2B || p[i] == 0x2D) { i += 1 }
        guard i < n, p[i] &- 0x30 < 10 else { return false }
        while i < n && p[i] &- 0x30 < 10 { i += 1 }
    }
    return i == n || !isScalarByte(p[i])
}

@inline(__always) func isScalarByte(_ c: UInt8) -> Bool {
    !(c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x2C || c == 0x7D || c == 0x5D || c == 0x3A)
}

if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8), !info.contains(" avx512bw") {
    fputs("scanner-prototype: this processor has no AVX-512BW\n", stderr)
    exit(2)
}
let path = CommandLine.arguments[1]
let mode = Int(CommandLine.arguments[2])!  // 0: framing only, 1: stage 1, 2: stages 1 and 2, 3: stage 2 as a table, 4: 3 and a walk
let fd = open(path, O_RDONLY)
let size = Int(lseek(fd, 0, SEEK_END))
let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)!
let bytes = base.assumingMemoryBound(to: UInt8.self)
var s1 = Stage1(capacity: 1 << 20)
let stack = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
let opens = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << 20)
let jump = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << 22)
var foundBytes = 0
var pos = 0, records = 0, bad = 0, structurals = 0
var t0 = timespec(); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0)
while pos < size {
    let nl = memchr(bytes + pos, 0x0A, size - pos)
    let end = nl.map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes) } ?? size
    if end > pos {
        records += 1
        let c = mode == 0 ? 0 : s1.run(UnsafeRawPointer(bytes + pos), end - pos, openingQuotesOnly: mode >= 3)
        if c < 0 { bad += 1 } else {
            structurals += c
            if mode == 2 && !stage2(bytes + pos, end - pos, s1.index, c, stack: stack) { bad += 1 }
            if mode == 3 && !stage2Table(bytes + pos, end - pos, s1.index, c, stack: stack) { bad += 1 }
            if mode == 4 {
                let f = stage2AndWalk(bytes + pos, end - pos, s1.index, c, stack: stack, opens: opens, jump: jump)
                if f < 0 { bad += 1 } else { foundBytes += f }
            }
        }
    }
    pos = end + 1
}
var t1 = timespec(); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1)
var ru = rusage(); getrusage(RUSAGE_SELF.rawValue, &ru); print("user", Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) * 1e-6, "sys", Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) * 1e-6)
let secs = Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) * 1e-9
print("found \(foundBytes) bytes of fields; records \(records) bad \(bad) structurals \(structurals) (\(structurals / max(records,1))/record) \(secs) CPU-s, \(Double(size) / secs / 1e9) GB/s")
