import Dispatch
import Foundation
import XCTest
@testable import Stages

/// SPEC §13's **domain** under the system's Public Suffix List. Expected
/// values worked out by hand from /usr/share/publicsuffix/public_suffix_list.dat
/// (Debian's publicsuffix 20230209): `co.uk`, `github.io` (private),
/// `blogspot.com` (private), `*.ck` with `!www.ck`, `de`, `個人.hk`.
final class RegistrableDomainTests: XCTestCase {
    let psl = RegistrableDomain.shared

    private func check(_ host: String, _ want: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(psl.domain(ofHost: host), want, host, file: file, line: line)
    }

    func testTheSystemListIsLoaded() {
        XCTAssertEqual(psl.source, RegistrableDomain.systemListFile)
    }

    /// The compiled list read at start answers as the text it was made from,
    /// for hosts under every rule of the text (a name under it, two names
    /// under it, the rule's own name; wildcards and exceptions alike).
    func testTheCompiledListAnswersAsTheText() throws {
        let text = RegistrableDomain(listFile: RegistrableDomain.systemListText)
        XCTAssertEqual(text.source, RegistrableDomain.systemListText)
        let lines = try String(contentsOfFile: RegistrableDomain.systemListText, encoding: .utf8).split(separator: "\n")
        var hosts = 0, differ: [String] = []
        for line in lines {
            let rule = line.trimmingCharacters(in: .whitespaces)
            if rule.isEmpty || rule.hasPrefix("//") { continue }
            var name = rule
            if name.hasPrefix("!") { name.removeFirst() }
            if name.hasPrefix("*.") { name.removeFirst(2) }
            for host in [name, "a." + name, "b.a." + name, "x.y.z." + name] {
                hosts += 1
                let (compiled, plain) = (psl.domain(ofHost: host), text.domain(ofHost: host))
                if compiled != plain { differ.append("\(host): \(compiled) / \(plain)") }
            }
        }
        XCTAssertGreaterThan(hosts, 30_000)
        XCTAssertEqual(differ, [], "\(differ.count) hosts differ")
    }

    func testICANNRules() {
        check("news.bbc.co.uk", "bbc.co.uk")
        check("bbc.co.uk", "bbc.co.uk")
        check("notbbc.co.uk", "notbbc.co.uk")
        check("a.b.c.example.com", "example.com")
        check("example.com", "example.com")
    }

    func testPrivateRules() {
        check("a.b.github.io", "b.github.io")
        check("b.github.io", "b.github.io")
        check("a.blogspot.com", "a.blogspot.com")
    }

    func testAPublicSuffixIsItsOwnDomain() {
        check("co.uk", "co.uk")
        check("com", "com")
        check("github.io", "github.io")
        check("blogspot.com", "blogspot.com")
    }

    func testOneLabelIsItsOwnDomain() {
        check("localhost", "localhost")
        check("intranet", "intranet")
    }

    func testIPAddressesAreTheirOwnDomain() {
        check("192.168.0.1", "192.168.0.1")
        check("8.8.8.8", "8.8.8.8")
        check("[::1]", "[::1]")
        check("[2001:db8::1]", "[2001:db8::1]")
    }

    func testWildcardAndException() {
        // `*.ck`: every `x.ck` is a suffix, so `a.b.ck` is registrable under `b.ck`.
        check("a.b.ck", "a.b.ck")
        check("x.a.b.ck", "a.b.ck")
        check("b.ck", "b.ck")
        // `!www.ck`: www.ck is no suffix; its suffix is `ck`.
        check("www.ck", "www.ck")
        check("x.www.ck", "www.ck")
    }

    func testInternationalisedHosts() {
        check("bücher.de", "bücher.de")
        check("www.bücher.de", "bücher.de")
        check("www.xn--bcher-kva.de", "xn--bcher-kva.de")
        check("a.b.個人.hk", "b.個人.hk")
        check("a.b.xn--gmqw5a.hk", "b.xn--gmqw5a.hk")  // 個人 in punycode
    }

    func testHostsAreNormalisedFirst() {
        check("News.BBC.co.UK", "bbc.co.uk")
        check("WWW.Bücher.DE", "bücher.de")
        check("LOCALHOST", "localhost")
    }

    func testCachedAndSharedAcrossThreads() {
        let hosts = ["news.bbc.co.uk", "a.b.github.io", "co.uk", "192.168.0.1", "x.www.ck", "www.bücher.de"]
        let want = ["bbc.co.uk", "b.github.io", "co.uk", "192.168.0.1", "www.ck", "bücher.de"]
        let fresh = RegistrableDomain()
        let wrong = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for r in 0..<2_000 {
                let k = (t + r) % hosts.count
                if fresh.domain(ofHost: hosts[k]) != want[k] { wrong.add() }
            }
        }
        XCTAssertEqual(wrong.value, 0)
    }

    func testAListFileGivenIsUsed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(getpid()).dat").path
        try "// tiny\nexample\n*.wild\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tiny = RegistrableDomain(listFile: path)
        XCTAssertEqual(tiny.source, path)
        XCTAssertEqual(tiny.domain(ofHost: "a.b.example"), "b.example")
        XCTAssertEqual(tiny.domain(ofHost: "a.b.c.wild"), "b.c.wild")
        // Not in this list: the implicit `*` rule, so the last two labels.
        XCTAssertEqual(tiny.domain(ofHost: "a.news.bbc.co.uk"), "co.uk")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
