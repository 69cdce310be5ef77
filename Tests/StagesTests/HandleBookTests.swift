import XCTest
@testable import Stages

/// A post's facets spell DIDs as handles by their bytes: those counts and
/// the ones given as strings (extract lines, a store) are one tally,
/// whenever and in whatever order the book is read.
final class HandleBookTests: XCTestCase {
    private var nextPost: UInt64 = 1

    /// A post of its own (a new identity each call, unless `post` is given) spells `did` as each of `handles`.
    private func spell(_ book: HandleBook, _ did: String, _ handles: String..., post: UInt64? = nil) {
        let id = post ?? { nextPost += 1; return nextPost }()
        let d = Array(did.utf8), hs = handles.map { Array($0.utf8) }
        var spellings = HandleBook.Spellings()
        d.withUnsafeBytes { dp in
            func add(_ k: Int) {
                guard k < hs.count else { return book.spelled(post: id, spellings) }
                hs[k].withUnsafeBytes { hp in
                    spellings.append(didBytes: dp, handleBytes: hp)
                    add(k + 1)
                }
            }
            add(0)
        }
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
        book.spelled(did: "did:plc:b", handle: "bob.example", count: 1)
        spell(book, "did:plc:b", "bob.example")
        spell(book, "did:plc:bb", "bob.example")
        let entries = book.spellingTotals.map { "\($0.did) \($0.handle) \($0.count)" }
        XCTAssertEqual(entries, ["did:plc:a ann.example 4", "did:plc:a annie.example 3", "did:plc:b bob.example 2",
                                 "did:plc:bb bob.example 1"])
        // A name outranks every spelling; forgetting forgets the counts not yet read too.
        book.name(did: "did:plc:b", handle: "robert.example", time: 5)
        XCTAssertEqual(book.handle(of: "did:plc:b"), "robert.example")
        spell(book, "did:plc:c", "cy.example")
        book.removeAll()
        XCTAssertNil(book.handle(of: "did:plc:c"))
        XCTAssertTrue(book.spellingTotals.isEmpty)
        spell(book, "did:plc:c", "cy.example")
        XCTAssertEqual(book.handle(of: "did:plc:c"), "cy.example")
    }

    /// SPEC §6 and §16: a post's spellings count once however many copies of
    /// it are read, in whatever order; a copy that spells a pair more often
    /// than those before it adds the difference (the most any copy spells).
    /// Worked by hand: post 1 spells `one` twice, read three times; posts 2
    /// and 3 spell `two` once each, post 2 read twice: `one` 2, `two` 2 — a
    /// tie, the first in bytes (`zed.one`); a copy of post 3 spelling `two`
    /// twice more makes `two` 4 against 2.
    func testCopiesOfAPostSpellOnce() {
        let book = HandleBook()
        for _ in 0..<3 { spell(book, "did:plc:z", "zed.one", "zed.one", post: 1) }
        spell(book, "did:plc:z", "zed.two", post: 2)
        spell(book, "did:plc:z", "zed.two", post: 2)
        spell(book, "did:plc:z", "zed.two", post: 3)
        XCTAssertEqual(book.spellingTotals.map { "\($0.handle) \($0.count)" }, ["zed.one 2", "zed.two 2"])
        XCTAssertEqual(book.handle(of: "did:plc:z"), "zed.one")
        spell(book, "did:plc:z", "zed.two", "zed.two", "zed.two", post: 3)
        XCTAssertEqual(book.spellingTotals.map { "\($0.handle) \($0.count)" }, ["zed.one 2", "zed.two 4"])
        XCTAssertEqual(book.handle(of: "did:plc:z"), "zed.two")
        // Copies given as extract lines (a post's count) follow the same rule, and so does the order:
        // the same copies read the other way round give the same counts.
        let other = HandleBook()
        other.spelled(post: 3, did: "did:plc:z", handle: "zed.two", count: 3)
        other.spelled(post: 3, did: "did:plc:z", handle: "zed.two", count: 1)
        other.spelled(post: 2, did: "did:plc:z", handle: "zed.two", count: 1)
        other.spelled(post: 1, did: "did:plc:z", handle: "zed.one", count: 2)
        other.spelled(post: 2, did: "did:plc:z", handle: "zed.two", count: 1)
        XCTAssertEqual(other.spellingTotals.map { "\($0.handle) \($0.count)" }, ["zed.one 2", "zed.two 4"])
        // What extract lines carry: by post, and those of no post apart.
        other.spelled(did: "did:plc:z", handle: "zed.three", count: 5)
        let lines = other.postSpellings
        XCTAssertEqual(lines.loose.map { "\($0.did) \($0.handle) \($0.count)" }, ["did:plc:z zed.three 5"])
        XCTAssertEqual(lines.posts.map { "\($0.did) \($0.handle) \($0.count)" }, ["did:plc:z zed.one 2", "did:plc:z zed.two 1", "did:plc:z zed.two 3"])
    }

    /// A post of 20,000 mentions, each of another DID spelled once, read twice, then a copy spelling
    /// the first of them once more: each DID's handle spelled once, the first twice (the dictionaries'
    /// way, which a post of so many pairs takes from its first copy on).
    func testAPostOfManyMentionsSpellsEachOnce() {
        let book = HandleBook()
        let pairs = (0..<20_000).map { (Array("did:plc:m\($0)".utf8), Array("m\($0).example".utf8)) }
        func read(_ pairs: [([UInt8], [UInt8])]) {
            let bytes = pairs.flatMap { $0.0 + $0.1 }
            bytes.withUnsafeBytes { raw in
                var spellings = HandleBook.Spellings(), at = 0
                for (d, h) in pairs {
                    spellings.append(didBytes: UnsafeRawBufferPointer(rebasing: raw[at..<at + d.count]),
                                     handleBytes: UnsafeRawBufferPointer(rebasing: raw[at + d.count..<at + d.count + h.count]))
                    at += d.count + h.count
                }
                book.spelled(post: 7, spellings)
            }
        }
        read(pairs)
        read(pairs)
        read(pairs + [pairs[0]])
        let totals = book.spellingTotals
        XCTAssertEqual(totals.count, 20_000)
        XCTAssertEqual(totals.filter { $0.count == 1 }.count, 19_999)
        XCTAssertEqual(totals.first { $0.did == "did:plc:m0" }?.count, 2)
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
