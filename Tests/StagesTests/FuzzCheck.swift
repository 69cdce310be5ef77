import Stages

/// What the fuzzer does with one input, shared by the libFuzzer target
/// (`Tests/Fuzz`, which links this file) and the regression tests that
/// replay every input it ever crashed on (`Tests/Fixtures/fuzz`).
///
/// The bytes are read as a stream (`InputReader` over a `MemorySource`)
/// with several read and buffer sizes and a small record cap, so the
/// framer's boundary, cap and end-of-input paths all run; every record goes
/// through the decoder, the extractor and the matcher (`UnitScanner`). Then
/// the whole input is decoded as one record.
///
/// Besides crashes, sanitizer reports and hangs, one property is checked:
/// framing does not depend on how the bytes arrive. Every read size must
/// yield the same records, lines and problems as one read of everything.
enum FuzzCheck {
    static let maxRecord = 512

    /// Runs one input; returns a description of a broken property, or nil.
    static func run(_ bytes: [UInt8]) -> String? {
        // A stream that starts with an archive's magic goes to libarchive: read it once.
        let splits: [(chunk: Int, buffer: Int)] = Magic.detect(Array(bytes.prefix(4096))).needsArchive
            ? [(.max, 1 << 16)]
            : [(.max, 1 << 16), (1, 16), (7, 64), (61, 1000), (4093, 4096)]
        var first: [String]?
        for (chunk, buffer) in splits {
            let log = FuzzLog()
            let reader = InputReader(maxRecord: maxRecord, bufferSize: buffer)
            reader.read(MemorySource(bytes, chunk: chunk), origin: Origin(path: "fuzz"), handler: log)
            _ = log.scanner.finish(lines: 0)
            if let first, first != log.events {
                return "framing differs with reads of \(chunk) bytes:\n  \(first)\n  \(log.events)"
            }
            if first == nil { first = log.events }
        }
        // The decoder on the whole input as one record, as a pretty-printed document reaches it.
        let whole = FuzzLog()
        bytes.withUnsafeBytes { whole.scanner.record($0, line: 1, origin: Origin(path: "fuzz")) }
        _ = whole.scanner.finish(lines: 1)
        return nil
    }
}

/// Logs what the reader hands out (to compare read sizes) and passes every
/// record on to a `UnitScanner`.
final class FuzzLog: RecordHandler {
    static let terms = ["*", "#stanford", "@nasa", "from:nasa", "stanford"].map { try! Term(parsing: $0) }
    let scanner = UnitScanner(terms: FuzzLog.terms, control: RunControl(strict: false))
    var events: [String] = []

    init() { scanner.begin() }

    func record(_ bytes: UnsafeRawBufferPointer, line: Int, origin: Origin) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        events.append("record line \(line) \(origin): \(bytes.count) bytes \(String(hash, radix: 16)) "
                      + String(decoding: bytes.prefix(24), as: UTF8.self).debugDescription)
        scanner.record(bytes, line: line, origin: origin)
    }

    /// An element of a one-line array: its index and offset must not depend on the reads either.
    func record(_ bytes: UnsafeRawBufferPointer, line: Int, element: Int, offset: Int64, origin: Origin) {
        events.append("element \(element) at byte \(offset)")
        record(bytes, line: line, origin: origin)
    }

    func problem(_ problem: InputProblem) {
        events.append("problem \(problem)")
        scanner.problem(problem)
    }

    func skipped(_ origin: Origin, reason: String) { events.append("skipped \(origin): \(reason)") }

    var shouldStop: Bool { false }
}
