import XCTest
@testable import Stages

/// A post's facets spell DIDs as handles by their bytes: those counts and
/// the ones given as strings (extract lines, a store) are one tally,
/// whenever and in whatever order the book is read.
final class HandleBookTests: XCTestCase {
    private func spell(_ book: HandleBook, _ did: String, _ handle: String) {
        let d = Array(did.utf8), h = Array(handle.utf8)
        d.withUnsafeBytes { dp in h.withUnsafeBytes { hp in book.spelled(didBytes: dp, handleBytes: hp) } }
    }

    func testSpellingsByBytesAndByStringsAreOneTally() {
        let book = HandleBook()
        spell(book, "did:plc:a", "ann.example")
        spell(book, "did:plc:a", "ann.example")
        spell(book, "did:plc:a", "annie.example")
        XCTAssertEqual(book.handle(of: "did:plc:a"), "ann.example")
        // After a read: more by bytes, and by strings, add to what was folded.
        spell(book, "did:plc:a", "annie.example")
        spell(book, "did:plc:a", "annie.example")
        XCTAssertEqual(book.handle(of: "did:plc:a"), "annie.example", "3 against 2")
        book.spelled(did: "did:plc:a", handle: "ann.example", count: 2)
        XCTAssertEqual(book.handle(of: "did:plc:a"), "ann.example", "4 against 3")
        book.spelled(did: "did:plc:b", handle: "bob.example")
        spell(book, "did:plc:b", "bob.example")
        spell(book, "did:plc:bb", "bob.example")
        let entries = book.entries.spelled.map { "\($0.did) \($0.handle) \($0.count)" }
        XCTAssertEqual(entries, ["did:plc:a ann.example 4", "did:plc:a annie.example 3", "did:plc:b bob.example 2",
                                 "did:plc:bb bob.example 1"])
        // A name outranks every spelling; forgetting forgets the counts not yet read too.
        book.name(did: "did:plc:b", handle: "robert.example", time: 5)
        XCTAssertEqual(book.handle(of: "did:plc:b"), "robert.example")
        spell(book, "did:plc:c", "cy.example")
        book.removeAll()
        XCTAssertNil(book.handle(of: "did:plc:c"))
        XCTAssertTrue(book.entries.spelled.isEmpty)
        spell(book, "did:plc:c", "cy.example")
        XCTAssertEqual(book.handle(of: "did:plc:c"), "cy.example")
    }

    /// A key is a Bluesky account's when it is `@` or `!`, `did:` and at least one more byte.
    func testWhichKeysAreAccountsByDID() {
        for key in ["@did:plc:abc", "!did:web:example.com", "@did:x"] { XCTAssertTrue(HandleBook.isDIDKey(key), key) }
        for key in ["@did:", "!did:", "#did:plc:abc", "$did:x", "@DID:plc:x", "@di", "", "@", "@ did:x", "did:plc:x",
                    "@didn:x", "+did:plc:x", "@did\u{301}:x"] {
            XCTAssertFalse(HandleBook.isDIDKey(key), key)
        }
        // Beyond ASCII after the prefix is still a DID key (its bytes decide).
        XCTAssertTrue(HandleBook.isDIDKey("@did:é"))
    }
}
