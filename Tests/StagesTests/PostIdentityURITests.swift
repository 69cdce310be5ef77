import XCTest
@testable import Stages

/// `PostIdentity.isURI`: `scheme://…` without white space, as Swift's
/// `Character.isWhitespace` knows white space, checked against that
/// definition written out plainly.
final class PostIdentityURITests: XCTestCase {
    func testURIsAreSchemeSlashSlashWithoutWhiteSpace() {
        func plain(_ s: String) -> Bool { s.contains("://") && !s.contains(where: { $0.isWhitespace }) }
        let cases = [
            "at://did:plc:a/app.bsky.feed.post/1", "https://m.example/users/ann/statuses/1", "https:/x", "https//x", ":/", "://",
            "a://", "a:/ /x", "https://a b", "https://a\tb", "https://a\u{0B}b", "https://a\u{1F}b", "https://a\u{85}b",
            "https://a\u{A0}b", "https://a\u{2028}b", "https://a\u{3000}b", "https://é.example/x", "https://a\r\nb", "", "x",
            "https://a\u{1C}b", "::/", ":://", "https://ok\u{200B}zero-width",
        ]
        for c in cases { XCTAssertEqual(PostIdentity.isURI(c), plain(c), c.debugDescription) }
        // Every byte value after a scheme, alone and after a non-ASCII letter.
        for v in 0..<0x80 {
            let c = "https://a" + String(UnicodeScalar(UInt8(v))) + "b"
            XCTAssertEqual(PostIdentity.isURI(c), plain(c), c.debugDescription)
            XCTAssertEqual(PostIdentity.isURI("é" + c), plain("é" + c), c.debugDescription)
        }
        XCTAssertEqual(PostIdentity.isURI(Substring("xx https://a").dropFirst(3)), true)
    }

    /// The byte-level check agrees with `isURI` on every ASCII byte in every
    /// position of a URI, and leaves text beyond ASCII to it.
    func testTheByteCheckAgreesOnASCII() {
        for b in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(b))
            for text in ["https://a" + c + "b", c + "https://ab", "https:/" + c + "/ab", "at://did:plc:x/" + c, c] {
                let bytes = Array(text.utf8)
                XCTAssertEqual(bytes.withUnsafeBytes { PostIdentity.isASCIIURI($0) }, PostIdentity.isURI(text), text.debugDescription)
            }
        }
        XCTAssertNil(Array("https://é.example/1".utf8).withUnsafeBytes { PostIdentity.isASCIIURI($0) })
    }
}
