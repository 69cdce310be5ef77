import XCTest
@testable import Stages

/// The short walk of Jetstream's events that are no post
/// (`JetstreamNotice.swift`): which lines it takes, and that a record
/// decodes to the same thing whether it takes it or not.
///
/// A line with a space before it never starts with `{"did":"`, so the
/// decoder reads it by the full walk alone: that is the reference each
/// line is compared with.
final class JetstreamNoticeTests: XCTestCase {
    static let like = #"{"did":"did:plc:daf67y5u6bl6kfvu6nuauakh","time_us":1795910400003285,"kind":"commit","commit":{"rev":"3n3fvwr3nap24","operation":"create","collection":"app.bsky.feed.like","rkey":"3n3fvwr3nap23","record":{"$type":"app.bsky.feed.like","createdAt":"2026-11-28T23:59:59.995Z","subject":{"cid":"bafyreicsd","uri":"at://did:plc:mubt4gowl4vbjv5qxvwzh3iw/app.bsky.feed.post/3n3fvwr3nap25"}},"cid":"bafyrei7lr"}}"#
    static let post = ##"{"did":"did:plc:o3mcologgy6rfefzutoworpz","time_us":1795910400011501,"kind":"commit","commit":{"rev":"3n3fvwr3vbh2e","operation":"create","collection":"app.bsky.feed.post","rkey":"3n3fvwr3vbh2d","record":{"$type":"app.bsky.feed.post","createdAt":"2026-11-28T23:59:57.145Z","facets":[{"features":[{"$type":"app.bsky.richtext.facet#tag","tag":"Rust"}],"index":{"byteEnd":5,"byteStart":0}}],"langs":["en"],"text":"#Rust ok"},"cid":"bafyreijw"}}"##

    private func taken(_ line: String) -> Bool {
        Array(line.utf8).withUnsafeBytes { TweetDecoder.isJetstreamNotice($0) }
    }

    /// What a record decodes to, in words: its tweets' ids and mentions, what
    /// was rejected, the notices, or the error (its offset as in `line`).
    private func outcome(_ line: String, shift: Int = 0, withFields: Bool = true) -> String {
        do {
            HandleBook.shared.removeAll()
            let d = try decode(line)
            let named = HandleBook.shared.named.map { "\($0.did)=\($0.handle)@\($0.time)" }
            let tweets = d.tweets.map { ([String($0.id)] + $0.mentions.sorted()).joined(separator: " ") }
            return "tweets [\(tweets.joined(separator: "; "))] rejected [\(d.rejected.map { "\($0)" }.joined(separator: "; "))] notices \(d.notices)"
                + (named.isEmpty ? "" : " named [\(named.joined(separator: "; "))]")
                + (withFields ? fields(line) : "")
        } catch let e as JSONError {
            return "error \(e.reason) at \(e.offset - shift)"
        } catch {
            return "other error \(error)"
        }
    }

    /// Every field of the record's posts that later stages read, as text
    /// (the spans resolved, so that a line shifted by a space reads the same).
    private func fields(_ line: String) -> String {
        let decoder = TweetDecoder()
        return Array(line.utf8).withUnsafeBytes { raw -> String in
            guard (try? decoder.decode(raw)) != nil else { return " (no decode)" }
            let r = decoder.record
            func text(_ span: ByteSpan?) -> String { span.map { "\"" + r.string($0) + "\"" } ?? "-" }
            func list(_ range: Range<Int>) -> String { "[" + range.map { r.string(r.spans[$0]) }.joined(separator: ",") + "]" }
            return r.tweets.map { t in
                [" post \(PostIdentity.text(of: t.identity)) \(t.platform)", "author \(text(r.name(t.author)))",
                 "text \(text(t.text))", "created \(text(t.createdAt))", "lang \(text(t.lang))", "time \(t.fallbackTime.map(String.init) ?? "-")",
                 "tags \(list(t.hashtags))", "users \(list(t.users))", "links \(list(t.links))",
                 "repost of \(t.retweetedIdentity.map(PostIdentity.text(of:)) ?? "-") \(String(describing: t.markedRetweet))"].joined(separator: " | ")
            }.joined()
        }
    }

    /// The outcome of `line` worked out by hand, and the same by the full walk alone.
    private func check(_ line: String, taken expectTaken: Bool, _ expected: String, file: StaticString = #filePath, line n: UInt = #line) {
        XCTAssertEqual(taken(line), expectTaken, "taken", file: file, line: n)
        XCTAssertEqual(outcome(line, withFields: false), expected, file: file, line: n)
        XCTAssertEqual(outcome(" " + line, shift: 1, withFields: false), expected, "by the full walk", file: file, line: n)
        XCTAssertEqual(outcome(line), outcome(" " + line, shift: 1), "every field, by the full walk", file: file, line: n)
    }

    private static let notice = "tweets [] rejected [] notices 1"

    func testLikesFollowsAndDeletesAreTakenAsNotices() {
        check(Self.like, taken: true, Self.notice)
        let follow = #"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"rev":"r","operation":"create","collection":"app.bsky.graph.follow","rkey":"k","record":{"$type":"app.bsky.graph.follow","subject":"did:plc:b","createdAt":"2026-11-28T00:00:00Z"},"cid":"c"}}"#
        check(follow, taken: true, Self.notice)
        // A post deleted, a repost deleted: no record, no post.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"rev":"r","operation":"delete","collection":"app.bsky.feed.post","rkey":"k"}}"#, taken: true, Self.notice)
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"rev":"r","operation":"delete","collection":"app.bsky.feed.repost","rkey":"k"}}"#, taken: true, Self.notice)
        // White space anywhere between tokens, a time as a string, members in another order, an unknown member of `commit`.
        check(#"{"did":"did:plc:a" , "kind" : "commit","commit": { "collection":"app.bsky.feed.like", "record" : {} , "extra":[1,{"x":null}] ,"operation":"create"} ,"time_us":"17" } "#,
              taken: true, Self.notice)
        // A like of a DID with an escape in it: only names are compared, and the DID is none.
        check(#"{"did":"did:plc:\u0061","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like","record":{"t":"\ud83d\ude00"}}}"#, taken: true, Self.notice)
    }

    func testPostsAndOtherShapesGoToTheFullWalk() {
        check(Self.post, taken: false, "tweets [\(try! decode(Self.post).tweets[0].id) #rust] rejected [] notices 0")
        // The post's fields, read partly by the short walk and partly by the full one, worked out from the line.
        XCTAssertEqual(fields(Self.post), " post at://did:plc:o3mcologgy6rfefzutoworpz/app.bsky.feed.post/3n3fvwr3vbh2d bluesky"
                       + ##" | author "did:plc:o3mcologgy6rfefzutoworpz" | text "#Rust ok" | created "2026-11-28T23:59:57.145Z""##
                       + #" | lang "en" | time 1795910400 | tags [Rust] | users [] | links [] | repost of - Optional(false)"#)
        // Identity and account events: an identity names its handle, at its time.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"identity","identity":{"did":"did:plc:a","handle":"a.test"}}"#, taken: false,
              Self.notice + " named [did:plc:a=a.test@1]")
        // Its members in any order, escaped, the last of two, or no string; a DID from the event when the object has none.
        check(#"{"did":"did:plc:a","time_us":9,"kind":"identity","identity":{"seq":1,"handle":"x","time":"t","handle":"b\u002etest","did":"did:plc:\u0062"}}"#,
              taken: false, Self.notice + " named [did:plc:b=b.test@9]")
        check(#"{"did":"did:plc:a","time_us":9,"kind":"identity","identity":{"handle":"c.test","did":7}}"#, taken: false,
              Self.notice + " named [did:plc:a=c.test@9]")
        check(#"{"did":"did:plc:a","time_us":9,"kind":"identity","identity":{"handle":"","did":"did:plc:a"}}"#, taken: false, Self.notice)
        check(#"{"did":"did:plc:a","time_us":9,"kind":"identity","identity":{"handle":null}} "#, taken: false, Self.notice)
        // Something after the object: the full walk reads it (a Mastodon key here).
        check(#"{"did":"did:plc:a","time_us":9,"kind":"identity","identity":{"handle":"d.test"},"content":"x"}"#, taken: false,
              Self.notice + " named [did:plc:a=d.test@9]")
        check(#"{"did":"did:plc:a","time_us":1,"kind":"account","account":{"active":true,"did":"did:plc:a"}}"#, taken: true, Self.notice)
        // An account event holding a commit of a post, or no did: the first still a notice, the second no Jetstream event at all.
        check(#"{"did":"did:plc:a","kind":"account","commit":{"operation":"create","collection":"app.bsky.feed.post","rkey":"k"},"account":{"acct":"x"}}"#,
              taken: false, Self.notice)
        check(#"{"time_us":1,"kind":"account","account":{"active":true}}"#, taken: false, "tweets [] rejected [noURI] notices 0")
        // A key beyond Jetstream's at the top: it could be any platform's (here `did` and `kind` make it a notice still).
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like"},"id_str":"5","text":"x"}"#,
              taken: false, Self.notice)
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like"},"uri":"https://m.test/s/1","content":"<p>#Tag</p>"}"#,
              taken: false, Self.notice)
        // `record` before `collection`: the full walk reads it as a post's record.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"record":{},"collection":"app.bsky.feed.like"}}"#, taken: false, Self.notice)
        // A collection named with an escape, a key met twice, a kind that is no string.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.lik\u0065","record":{}}}"#, taken: false, Self.notice)
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like","collection":"app.bsky.graph.block"}}"#, taken: false, Self.notice)
        check(#"{"did":"did:plc:a","did":"did:plc:b","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like"}}"#, taken: false, Self.notice)
        // A like whose collection is then said again as a post's: no post (its record was skipped), not a notice either.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"operation":"create","collection":"app.bsky.feed.like","rkey":"k","record":{},"collection":"app.bsky.feed.post"}}"#,
              taken: false, "tweets [] rejected [noBlueskyPost] notices 0")
        // A post created, its operation after its collection and no record: no post, and no notice.
        check(#"{"did":"did:plc:a","time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.post","operation":"create","rkey":"k"}}"#,
              taken: false, "tweets [] rejected [noBlueskyPost] notices 0")
        // No did, or a did that is no string: not a Jetstream event to the full walk either.
        check(#"{"did":null,"time_us":1,"kind":"commit","commit":{"collection":"app.bsky.feed.like"}}"#, taken: false,
              "tweets [] rejected [noID] notices 0")
    }

    /// `record.tags` beyond ASCII, trimmed of white space and one `#` only
    /// where they hold them (U+3000 is white space, U+2026 is not).
    func testTagsBeyondASCIIAreTrimmedOnlyOfWhiteSpace() {
        let line = ##"{"did":"did:plc:t","time_us":1,"kind":"commit","commit":{"rev":"r","operation":"create","collection":"app.bsky.feed.post","rkey":"k","record":{"$type":"app.bsky.feed.post","createdAt":"2026-11-28T00:00:00Z","tags":["東京","\##u{3000}京都\##u{3000}","café","#タグ","\##u{A0}x","…続く"],"text":"t"}}}"##
        XCTAssertTrue(fields(line).contains(" | tags [東京,京都,café,タグ,x,…続く] | "), fields(line))
        XCTAssertEqual(fields(line), fields(" " + line))
    }

    func testBadJSONIsNamedByTheFullWalk() {
        // Truncated, a bad escape in the skipped record, a raw control byte, bytes after the object.
        check(String(Self.like.dropLast(2)), taken: false, "error unexpectedEnd at \(Self.like.utf8.count - 2)")
        let badEscape = Self.like.replacingOccurrences(of: "2026-11-28T23", with: #"2026-11-28\xT23"#)
        let at = Array(badEscape.utf8).firstIndex(of: UInt8(ascii: "\\"))!
        check(badEscape, taken: false, "error badEscape at \(at)")
        let control = Self.like.replacingOccurrences(of: "bafyrei7lr", with: "bafy\u{1}ei7lr")
        check(control, taken: false, "error controlCharacterInString at \(Array(control.utf8).firstIndex(of: 1)!)")
        check(Self.like + "x", taken: false, "error trailingBytes at \(Self.like.utf8.count)")
    }

    /// Every line made by deleting, doubling or changing one byte of a like,
    /// a follow's delete and a post decodes as the full walk decodes it.
    func testEveryOneByteChangeDecodesAsTheFullWalk() {
        let repost = #"{"did":"did:plc:r","time_us":1795910400011502,"kind":"commit","commit":{"rev":"3n3f","operation":"create","collection":"app.bsky.feed.repost","rkey":"3n3g","record":{"$type":"app.bsky.feed.repost","createdAt":"2026-11-28T23:59:58.000Z","subject":{"cid":"bafy","uri":"at://did:plc:o3mcologgy6rfefzutoworpz/app.bsky.feed.post/3n3fvwr3vbh2d"}},"cid":"bafyr"}}"#
        let account = #"{"did":"did:plc:a","time_us":17,"kind":"account","account":{"active":false,"did":"did:plc:a","seq":5,"status":"deactivated"}}"#
        let identity = #"{"did":"did:plc:a","time_us":17,"kind":"identity","identity":{"did":"did:plc:b","handle":"b.test","seq":5,"time":"2026-11-29T00:00:00.059Z"}}"#
        let lines = [Self.like, Self.post, repost, account, identity,
                     #"{"did":"did:plc:a","time_us":17,"kind":"commit","commit":{"rev":"r","operation":"delete","collection":"app.bsky.graph.follow","rkey":"k"}}"#]
        let replacements: [UInt8] = Array(#"{}[]":,\ 0aeu"#.utf8) + [0x01, 0xC3, 0xFF]
        var takenCount = 0, total = 0
        for line in lines {
            let bytes = Array(line.utf8)
            for i in bytes.indices {
                var variants = [bytes, bytes, bytes]
                variants[0].remove(at: i)
                variants[1].insert(bytes[i], at: i)
                variants[2][i] = replacements[i % replacements.count]
                for v in variants {
                    let text = String(decoding: v, as: UTF8.self)
                    // Lines that are not UTF-8 are compared as bytes: `decode` takes a string, so keep them valid.
                    guard Array(text.utf8) == v else { continue }
                    total += 1
                    if taken(text) { takenCount += 1 }
                    XCTAssertEqual(outcome(text), outcome(" " + text, shift: 1), text)
                }
            }
        }
        // Both walks were compared many times each.
        XCTAssertGreaterThan(takenCount, 200)
        XCTAssertGreaterThan(total - takenCount, 200)
    }
}

/// The eight-at-once test of an AT-URI's parts (`TweetDecoder.isVisibleASCII`)
/// agrees with the byte test at every length and position.
final class VisibleASCIITests: XCTestCase {
    func testAgreesWithTheByteTest() {
        let probes: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x41, 0x7E, 0x7F, 0x80, 0xA0, 0xC3, 0xFF]
        for length in 0...19 {
            for position in 0..<max(length, 1) {
                for probe in probes {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = probe }
                    // A byte below it of 0x21 (the smallest visible one) too, where a borrow could cross.
                    if position > 0 { bytes[position - 1] = 0x21 }
                    let expected = bytes.allSatisfy { (0x21...0x7F).contains($0) }
                    let got = bytes.withUnsafeBufferPointer { TweetDecoder.isVisibleASCII($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
                    XCTAssertEqual(got, expected, "\(bytes)")
                }
            }
        }
    }
}

/// The byte test a Bluesky tag is trimmed by (`TweetDecoder.holdsNoWhiteSpace`)
/// never misses a scalar of white space, alone or among others, and takes
/// the tags of other scripts as they are.
final class WhiteSpaceBytesTests: XCTestCase {
    private func holdsNone(_ s: String) -> Bool {
        Array(s.utf8).withUnsafeBufferPointer { TweetDecoder.holdsNoWhiteSpace($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
    }

    func testEveryWhiteSpaceScalarIsSeen() {
        var seen = 0
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v), scalar.properties.isWhitespace else { continue }
            seen += 1
            let alone = String(Character(scalar))
            XCTAssertFalse(holdsNone(alone), "U+\(String(v, radix: 16))")
            XCTAssertFalse(holdsNone("東" + alone + "京"), "U+\(String(v, radix: 16)) inside")
            XCTAssertFalse(holdsNone("tag" + alone), "U+\(String(v, radix: 16)) at the end")
        }
        // Unicode's White_Space has 25 scalars.
        XCTAssertEqual(seen, 25)
    }

    func testTagsOfOtherScriptsHoldNone() {
        for tag in ["東京", "café", "Ελλάδα", "ありがとう", "한국어", "🇯🇵", "e\u{301}", "日本語のタグ"] {
            XCTAssertTrue(holdsNone(tag), tag)
        }
        // U+3000 among kana, and a no-break space.
        XCTAssertFalse(holdsNone("あ\u{3000}い"))
        XCTAssertFalse(holdsNone("a\u{A0}"))
    }
}
