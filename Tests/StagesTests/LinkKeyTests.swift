import XCTest
@testable import Stages

/// SPEC §13's link key, host and quote-permalink rules; every expected value
/// worked out by hand from the SPEC's five steps.
final class LinkKeyTests: XCTestCase {
    /// Compares keys byte for byte (Swift's `==` on strings is canonical
    /// equivalence, which would hide a missing NFC).
    private func assertKey(_ s: String, _ want: String?, file: StaticString = #filePath, line: UInt = #line) {
        let got = LinkKey.key(s)
        XCTAssertEqual(got.map { Array($0.utf8) }, want.map { Array($0.utf8) },
                       "\(s.debugDescription) → \(got.debugDescription)", file: file, line: line)
    }

    func testTheSpecsExample() {
        assertKey("https://www.Example.com:443/a/?utm_source=x&id=3#top", "www.example.com/a?id=3")
    }

    // MARK: Step 1: the scheme

    func testSchemeInAnyCase() {
        assertKey("HTTP://Example.COM/Path", "example.com/Path")
        assertKey("HtTpS://x.org:443", "x.org")
        assertKey("Https://x.org:80", "x.org:80")
    }

    func testOtherSchemesAreNoLinks() {
        assertKey("ftp://example.com/file", nil)
        assertKey("FTP://example.com/", nil)
        assertKey("mailto:someone@example.com", nil)
        assertKey("javascript:alert(1)", nil)
        assertKey("tel:+15551234", nil)
        assertKey("httpx://example.com/", nil)
        assertKey("git+ssh://example.com/r", nil)
        // A `:` that no digits follow is a scheme's, not a port's.
        assertKey("example.com:/x", nil)
    }

    func testNoSchemeReadsAsHTTP() {
        assertKey("example.com/x", "example.com/x")
        assertKey("Example.com/x/?utm_medium=a", "example.com/x")
        assertKey("example.com", "example.com")
        // host:port is no scheme; the port goes as with http.
        assertKey("example.com:8080/x", "example.com:8080/x")
        assertKey("example.com:80/x", "example.com/x")
        assertKey("example.com:443/x", "example.com:443/x")
        assertKey("localhost:3000", "localhost:3000")
        assertKey("example.com:8080?q=1", "example.com:8080?q=1")
        assertKey("user@example.com/x", "example.com/x")
    }

    func testNoAuthorityIsNoLink() {
        assertKey("http:example.com", nil)
        assertKey("https:/example.com", nil)
        assertKey("//example.com/x", nil)  // http:////example.com/x: empty authority
        assertKey("http://", nil)
        assertKey("", nil)
    }

    // MARK: Step 2: the authority

    func testUserinfoUpToTheLastAt() {
        assertKey("http://a@b@example.com/x", "example.com/x")
        assertKey("http://user:pw@Example.com", "example.com")
        assertKey("https://u:p@example.com:8443/", "example.com:8443")
        // An `@` after the authority is the path's or the query's.
        assertKey("http://example.com/@name", "example.com/@name")
        assertKey("http://example.com?to=a@b", "example.com?to=a@b")
    }

    func testEmptyHostIsNoLink() {
        assertKey("http://user@/x", nil)
        assertKey("http://./", nil)
        assertKey("http://:80/", nil)
        assertKey("https://@", nil)
        assertKey("http:///path", nil)
    }

    func testOneTrailingDotOffTheHost() {
        assertKey("http://example.com./a", "example.com/a")
        assertKey("http://Example.COM.:8080", "example.com:8080")
        assertKey("http://example.com../", "example.com.")
    }

    func testHostNormalisedAsSection5() {
        assertKey("http://BÜCHER.de/Ä", "bücher.de/Ä")
        assertKey("http://cafe\u{301}.fr/cafe\u{301}", "caf\u{E9}.fr/cafe\u{301}")  // NFC in the host only
        assertKey("http://[2001:DB8::1]/", "[2001:db8::1]")
    }

    func testPortsPerScheme() {
        assertKey("http://example.com:80/a", "example.com/a")
        assertKey("https://example.com:443/", "example.com")
        assertKey("http://example.com:443/", "example.com:443")
        assertKey("https://example.com:80", "example.com:80")
        assertKey("http://example.com:8080/x", "example.com:8080/x")
        assertKey("http://example.com:/x", "example.com/x")
        assertKey("https://example.com:/", "example.com")
        assertKey("http://example.com:080/", "example.com:080")  // compared as written
    }

    func testIPv6KeepsBracketsAndPort() {
        assertKey("http://[::1]:8080/x", "[::1]:8080/x")
        assertKey("https://[::1]:443", "[::1]")
        assertKey("http://[::1]", "[::1]")
    }

    // MARK: Step 3: fragment and path

    func testFragmentDropped() {
        assertKey("http://example.com/a#b?c=1", "example.com/a")
        assertKey("http://example.com#frag", "example.com")
        assertKey("http://example.com/a?x=1#y&z=2", "example.com/a?x=1")
        assertKey("http://example.com/a/#top", "example.com/a")
    }

    func testSlashPathBecomesEmpty() {
        assertKey("http://example.com/", "example.com")
        assertKey("http://example.com", "example.com")
        assertKey("http://example.com/?a=1", "example.com?a=1")
    }

    func testOneTrailingSlashDroppedOnly() {
        assertKey("http://example.com/a/", "example.com/a")
        assertKey("http://example.com/a//", "example.com/a/")
        assertKey("http://example.com//", "example.com/")
        assertKey("http://example.com/a/b/?q", "example.com/a/b?q")
    }

    func testPathKeptAsWritten() {
        assertKey("http://example.com/A/B%2f/%7Euser", "example.com/A/B%2f/%7Euser")
    }

    // MARK: Step 4: the query

    func testEachTrackingNameInAnyCase() {
        assertKey("http://e.com/p?FBCLID=1&GClid=2&dclid&MsClkId=4&IGSHID=5&mc_CID=6&MC_EID=7&k=v", "e.com/p?k=v")
        for name in ["fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid", "mc_eid"] {
            assertKey("http://e.com/p?\(name)=x&a=1", "e.com/p?a=1")
            assertKey("http://e.com/p?a=1&\(name.uppercased())=x", "e.com/p?a=1")
            assertKey("http://e.com/p?\(name)", "e.com/p")
        }
        // Only the names themselves: not longer, not shorter, not the values.
        assertKey("http://e.com/?fbclidx=1&gclid2=3&mc_ci=4&a=fbclid", "e.com?fbclidx=1&gclid2=3&mc_ci=4&a=fbclid")
    }

    func testUTMPrefix() {
        assertKey("http://e.com?UTM_Source=a&utm_=b&utm=c&utmx_d=e&xutm_f=g&Utm_Campaign", "e.com?utm=c&utmx_d=e&xutm_f=g")
        assertKey("http://e.com/?a=utm_x", "e.com?a=utm_x")
        assertKey("http://e.com/?utm%5Fsource=x", "e.com?utm%5Fsource=x")  // escapes not decoded
    }

    func testEmptyItemsDropped() {
        assertKey("http://e.com/?&&a=1&&b=2&", "e.com?a=1&b=2")
        assertKey("http://e.com/x?", "e.com/x")
        assertKey("http://e.com/x?&", "e.com/x")
        assertKey("http://e.com/?=", "e.com?=")  // not empty: an empty name
    }

    func testOrderKept() {
        assertKey("http://e.com/?b=2&a=1&utm_x=0&c=3&a=0", "e.com?b=2&a=1&c=3&a=0")
    }

    func testQuestionMarkOnlyWhenItemsRemain() {
        assertKey("http://e.com/a?utm_source=x", "e.com/a")
        assertKey("http://e.com/a?utm_source=x&fbclid=y", "e.com/a")
        assertKey("http://e.com/a?utm_source=x&z", "e.com/a?z")
    }

    // MARK: Not links

    func testControlCharactersAndWhiteSpaceAreNoLinks() {
        for c in ["\u{0}", "\t", "\n", "\u{1F}", " ", "\u{7F}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}",
                  "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}"] {
            assertKey("http://e.com/a\(c)b", nil)
            assertKey("\(c)http://e.com/", nil)
        }
        // Neighbours of white space are not white space.
        assertKey("http://e.com/\u{200B}\u{2030}\u{A1}", "e.com/\u{200B}\u{2030}\u{A1}")
    }

    // MARK: host(ofKey:)

    func testHostOfKey() {
        XCTAssertEqual(LinkKey.host(ofKey: "www.example.com"), "example.com")
        XCTAssertEqual(LinkKey.host(ofKey: "www.example.com:8080/a?b"), "example.com")
        XCTAssertEqual(LinkKey.host(ofKey: "news.bbc.co.uk/x"), "news.bbc.co.uk")
        XCTAssertEqual(LinkKey.host(ofKey: "example.com?x=1"), "example.com")
        XCTAssertEqual(LinkKey.host(ofKey: "[::1]:8080/x"), "[::1]")
        XCTAssertEqual(LinkKey.host(ofKey: "[::1]"), "[::1]")
        XCTAssertEqual(LinkKey.host(ofKey: "www.www.a.com"), "www.a.com")  // one `www.` only
        XCTAssertEqual(LinkKey.host(ofKey: "wwwx.com"), "wwwx.com")
        XCTAssertEqual(LinkKey.host(ofKey: "www2.example.com/a"), "www2.example.com")
        XCTAssertEqual(LinkKey.host(ofKey: "www."), "www.")
        XCTAssertEqual(LinkKey.host(ofKey: LinkKey.key("https://www.Example.com:443/a/?utm_source=x&id=3#top")!), "example.com")
    }

    // MARK: isQuotePermalink

    func testQuotePermalinks() {
        let yes = [
            "twitter.com/jack/status/20", "x.com/jack/status/20/photo/1", "mobile.twitter.com/jack/status/20?s=19",
            "www.x.com/i/web/status/20", "twitter.com/i/web/status/20", "www.twitter.com/Jack_Dorsey/status/20",
            "mobile.x.com/a/status/20/", "twitter.com/i/status/20",
        ]
        for k in yes { XCTAssertTrue(LinkKey.isQuotePermalink(k, quotedID: 20), k) }
        let no = [
            "twitter.com/jack/status/201", "twitter.com/jack/status/2", "twitter.com/jack/status/020",
            "api.twitter.com/jack/status/20", "twitter.com:8080/jack/status/20", "twitter.com//status/20",
            "twitter.com/status/20", "twitter.com/jack/statuses/20", "twitter.com/jack/Status/20",
            "twitter.com/jack/status/", "twitter.com/jack/status/20abc", "nottwitter.com/jack/status/20",
            "twitter.com.evil.com/jack/status/20", "twitter.com/i/web/status/x20", "twitter.com/jack/x/status/20",
            "twitter.com?jack/status/20", "m.twitter.com/jack/status/20", "twitter.com/jack/status/-20",
        ]
        for k in no { XCTAssertFalse(LinkKey.isQuotePermalink(k, quotedID: 20), k) }
        XCTAssertFalse(LinkKey.isQuotePermalink("twitter.com/jack/status/20", quotedID: 21))
        XCTAssertTrue(LinkKey.isQuotePermalink("x.com/a/status/18446744073709551615", quotedID: .max))
        XCTAssertFalse(LinkKey.isQuotePermalink("x.com/a/status/18446744073709551616", quotedID: .max))
        XCTAssertFalse(LinkKey.isQuotePermalink("x.com/a/status/184467440737095516150", quotedID: .max))
        XCTAssertTrue(LinkKey.isQuotePermalink("x.com/a/status/0", quotedID: 0))
        // From a link as written, through its key.
        let k = LinkKey.key("https://Mobile.Twitter.com:443/jack/status/1234567890123456789/?s=20#m")!
        XCTAssertEqual(k, "mobile.twitter.com/jack/status/1234567890123456789?s=20")
        XCTAssertTrue(LinkKey.isQuotePermalink(k, quotedID: 1_234_567_890_123_456_789))
    }

    // MARK: A link for a key (export)

    /// `link(ofKey:)` writes a link whose key is the key again, and the
    /// hand-worked link for each rule it must undo: a kept port 80 (https),
    /// kept port 443 (http), a path ending in `/` (one more), a host ending
    /// in `.` (one more), the `/` path a `//` makes, a query on no path.
    func testALinkForAKeyHasThatKey() {
        let cases: [(key: String, link: String)] = [
            ("www.example.com/a?id=3", "http://www.example.com/a?id=3"),
            ("x.org:80", "https://x.org:80"),
            ("x.org:443/p", "http://x.org:443/p"),
            ("x.com/a/", "http://x.com/a//"),
            ("x.com/", "http://x.com//"),
            ("example.com.", "http://example.com.."),
            ("example.com.:8080/q", "http://example.com..:8080/q"),
            ("x.com?a=b@c", "http://x.com?a=b@c"),
            ("[::1]:8080/x", "http://[::1]:8080/x"),
            ("[::1]", "http://[::1]"),
            ("bücher.de", "http://bücher.de"),
            ("x.com/a/?q=1", "http://x.com/a//?q=1"),
        ]
        for (key, link) in cases {
            XCTAssertEqual(LinkKey.link(ofKey: key), link, key)
            assertKey(link, key)
        }
        // Every key made from these strings comes back from its link.
        for s in ["https://Example.com:80//", "http://a.b.c.:443/x//?utm_source=1&k=v#f", "HTTPS://u:p@[::1]:80/?", "x.y/%2F/", "h.io:0/"] {
            guard let key = LinkKey.key(s) else { XCTFail(s); continue }
            assertKey(LinkKey.link(ofKey: key), key)
        }
    }
}
