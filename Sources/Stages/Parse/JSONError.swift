/// Why a record is not valid JSON, and where.
public struct JSONError: Error, Equatable {
    public enum Reason: Equatable, Sendable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case badEscape
        case controlCharacterInString
        case trailingBytes
        case invalidUTF8
    }
    public var offset: Int
    public var reason: Reason

    public var message: String {
        switch reason {
        case .unexpectedEnd: return "invalid JSON: the record ends early (truncated?)"
        case .unexpectedByte(let b):
            let shown = (0x21...0x7E).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16, uppercase: true)
            return "invalid JSON: unexpected \(shown) at byte \(offset + 1)"
        case .badEscape: return "invalid JSON: bad escape sequence at byte \(offset + 1)"
        case .controlCharacterInString: return "invalid JSON: raw control character in a string at byte \(offset + 1)"
        case .trailingBytes: return "invalid JSON: more text after the value at byte \(offset + 1)"
        case .invalidUTF8: return "invalid JSON: not UTF-8 at byte \(offset + 1) (the record is skipped)"
        }
    }
}

/// A decoder's failure to read a record, as the message a problem carries.
protocol RecordError: Error {
    var message: String { get }
}

extension RecordError {
    /// Runs `decode`; the message of its error, or nil when it read the record.
    @inline(__always)
    static func message(of decode: () throws(Self) -> Void) -> String? {
        do {
            try decode()
            return nil
        } catch {
            return error.message
        }
    }
}

extension JSONError: RecordError {}
