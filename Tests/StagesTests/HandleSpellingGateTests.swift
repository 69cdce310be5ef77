import Foundation
import XCTest
@testable import Stages

/// A post's text tells the handle book how it spells the DIDs it mentions
/// only where the run can show an account: a report of hashtags alone
/// leaves the book as it was; one with users (or extract lines, whatever
/// their kinds) fills it, and the user row shows the handle spelled.
final class HandleSpellingGateTests: XCTestCase {
    private func post(author: String, mentioned: String, handle: String) -> String {
        let before = "hi ", mention = "@" + handle, after = " #gate"
        let start = before.utf8.count, end = start + mention.utf8.count
        let text = before + mention + after
        let tagStart = end + 1, tagEnd = text.utf8.count
        return #"{"did":"\#(author)","time_us":1733400000000000,"kind":"commit","commit":{"rev":"r","operation":"create","#
            + #""collection":"app.bsky.feed.post","rkey":"3k\#(UInt32.random(in: 0...UInt32.max))","record":{"$type":"app.bsky.feed.post","#
            + #""text":"\#(text)","createdAt":"2024-12-05T12:00:00Z","facets":[{"index":{"byteStart":\#(start),"byteEnd":\#(end)},"#
            + #""features":[{"$type":"app.bsky.richtext.facet#mention","did":"\#(mentioned)"}]},"#
            + #"{"index":{"byteStart":\#(tagStart),"byteEnd":\#(tagEnd)},"features":[{"$type":"app.bsky.richtext.facet#tag","tag":"gate"}]}]},"#
            + #""cid":"c"}}"#
    }

    private func file(_ line: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString).jsonl").path
        try (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func report(_ path: String, kinds: MentionKinds) -> TermReport {
        let terms = [try! Term(parsing: "*")]
        var facts = PostFields()
        facts.mentionKinds = kinds
        let aggregator = Aggregator(terms: terms, facts: facts)
        var run = ParallelRun(terms: terms, jobs: 2)
        run.facts = facts
        run.run(InputPlan(paths: [path]).units, control: RunControl(strict: false), into: aggregator)
        return aggregator.reports(minCount: 1, top: nil)[0]
    }

    func testHashtagsAloneSpellNoHandleUsersDo() throws {
        let tag = UInt64.random(in: 0...UInt64.max)
        let mentioned = "did:plc:gate\(tag)", handle = "gate\(tag).bsky.social"
        let path = try file(post(author: "did:plc:author\(tag)", mentioned: mentioned, handle: handle))

        let hashtags = report(path, kinds: MentionKinds([.hashtag]))
        XCTAssertEqual(hashtags.sections.flatMap { $0.rows.map { "\($0.mention) \($0.count)" } }, ["#gate 1"])
        XCTAssertNil(HandleBook.shared.handle(of: mentioned), "a hashtag report spells no handle")

        let users = report(path, kinds: MentionKinds([.hashtag, .user])).showingHandles()
        XCTAssertEqual(users.sections.flatMap { $0.rows.map { "\($0.mention) \($0.count)" } }, ["#gate 1", "@\(handle) 1"])
        XCTAssertEqual(HandleBook.shared.handle(of: mentioned), handle)
    }

    func testExtractLinesOfHashtagsCarryTheHandles() throws {
        let tag = UInt64.random(in: 0...UInt64.max)
        let mentioned = "did:plc:gatex\(tag)", handle = "gatex\(tag).bsky.social"
        let path = try file(post(author: "did:plc:authorx\(tag)", mentioned: mentioned, handle: handle))
        let terms = [try! Term(parsing: "*")]
        var out = ""
        let writer = ExtractWriter(terms: terms) { out += $0; return true }
        var run = ParallelRun(terms: terms, jobs: 1)
        run.facts.mentionKinds = MentionKinds([.hashtag])
        run.run(InputPlan(paths: [path]).units, control: RunControl(strict: false), into: writer)
        writer.writeHandles()
        writer.flush()
        // By post (SPEC §6: a post read by two runs spells once): the post's AT-URI last.
        XCTAssertTrue(out.contains("S\t\(mentioned)\t\(handle)\t1\tat://did:plc:authorx\(tag)/app.bsky.feed.post/3k"), out)
    }
}

/// A run that joins Bluesky reposts hands its join to `keepUntilExit`
/// (a command about to end does not free it), after the joined reposts
/// were counted; a run without the hook frees it as before.
final class ParallelRunKeepTests: XCTestCase {
    func testTheJoinIsHandedOverAfterTheRepostsAreCounted() throws {
        let post = #"{"did":"did:plc:keep","time_us":1733400000000000,"kind":"commit","commit":{"rev":"r","operation":"create","#
            + ##""collection":"app.bsky.feed.post","rkey":"p1","record":{"$type":"app.bsky.feed.post","text":"#kept","##
            + #""createdAt":"2024-12-05T12:00:00Z","facets":[{"index":{"byteStart":0,"byteEnd":5},"#
            + #""features":[{"$type":"app.bsky.richtext.facet#tag","tag":"kept"}]}]},"cid":"c"}}"#
        let repost = #"{"did":"did:plc:other","time_us":1733400000000001,"kind":"commit","commit":{"rev":"r","operation":"create","#
            + #""collection":"app.bsky.feed.repost","rkey":"r1","record":{"$type":"app.bsky.feed.repost","#
            + #""createdAt":"2024-12-05T12:00:01Z","subject":{"cid":"c","uri":"at://did:plc:keep/app.bsky.feed.post/p1"}},"cid":"c"}}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keep-\(UUID().uuidString).jsonl").path
        try (repost + "\n" + post + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let terms = [try Term(parsing: "#kept")]
        var kept: [AnyObject] = []
        for hook in [true, false] {
            let aggregator = Aggregator(terms: terms)
            var run = ParallelRun(terms: terms, jobs: 2)
            if hook { run.keepUntilExit = { kept.append($0) } }
            run.run(InputPlan(paths: [path]).units, control: RunControl(strict: false), into: aggregator)
            // The post and its repost (read before it) both count.
            XCTAssertEqual(aggregator.reports(minCount: 1, top: nil)[0].sections.flatMap { $0.rows.map { "\($0.mention) \($0.count)" } },
                           ["#kept 2"])
        }
        XCTAssertEqual(kept.count, 1)
        XCTAssertTrue(kept.first is RepostJoin)
    }
}

/// The reposts resolved in pieces on several threads count as the one part
/// does: the same reports (counts, columns, `--by` buckets) from a join of
/// 5,000 reposts of 3,000 posts (some read twice, some of posts never read).
final class RepostJoinPiecesTests: XCTestCase {
    private func join() -> RepostJoin {
        let join = RepostJoin()
        for p in 0..<3_000 {
            let keys = ["#t\(p % 37)", "#s\(p % 11)"] + (p % 5 == 0 ? ["@did:plc:u\(p % 13)"] : [])
            join.add(subject: RepostJoins.Subject(id: UInt64(1_000_000 + p), keys: keys,
                                                  spellings: keys.map { ($0, $0.uppercased()) }, text: "post \(p) text"))
        }
        for r in 0..<5_000 {
            // Every 7th repost read twice (the same id): the first copy counts; every 9th of a post never read.
            let id = UInt64(2_000_000 + (r % 7 == 0 && r > 0 ? r - 1 : r))
            let subject = UInt64(r % 9 == 0 ? 9_000_000 + r : 1_000_000 + (r * 7) % 3_000)
            join.add(repost: RepostJoins.Repost(id: id, subject: subject, author: "@did:plc:a\(r % 50)",
                                                authorSpelling: nil, time: 1_733_000_000 + Int64(r) * 600))
        }
        return join
    }

    private func rows(_ parts: [PostPart], terms: [Term], facts: PostFields, buckets: TimeBuckets? = nil) -> [String] {
        let aggregator = Aggregator(terms: terms, facts: facts, buckets: buckets)
        for p in parts { aggregator.add(p) }
        return aggregator.reports(minCount: 1, top: nil).flatMap { r in
            r.sections.flatMap { s in s.rows.map { "\(r.term) \(r.bucket ?? "-") \($0.mention) \($0.count)" } }
                + ["\(r.term) \(r.bucket ?? "-") tweets \(r.tweets) originals \(r.originals) retweets \(r.retweets) authors \(r.authors)"]
        }
    }

    func testPiecesCountAsTheOnePart() throws {
        let terms = try ["*", "#t3", "from:did:plc:a7", "text"].map { try Term(parsing: $0) }
        var facts = PostFields.all
        facts.mentionKinds = MentionKinds([.hashtag, .user, .poster])
        var timed = facts
        timed.times = true
        let j = join()
        for (f, buckets) in [(facts, nil), (timed, TimeBuckets(unit: .day, zone: try ZoneOffsets("UTC")))] as [(PostFields, TimeBuckets?)] {
            let one = j.resolved(terms: terms, fields: f, counted: f.mentionKinds)
            let pieces = j.resolved(pieces: 3, terms: terms, fields: f, counted: f.mentionKinds)
            XCTAssertEqual(pieces.count, 3)
            XCTAssertEqual(pieces.flatMap(\.tweetIDs), one.tweetIDs)
            let expected = rows([one], terms: terms, facts: f, buckets: buckets)
            XCTAssertGreaterThan(expected.count, 40)
            XCTAssertEqual(rows(pieces, terms: terms, facts: f, buckets: buckets), expected)
        }
        // Too few reposts to be worth a thread: one part.
        let small = RepostJoin()
        small.add(repost: RepostJoins.Repost(id: 1, subject: 2, author: nil, authorSpelling: nil, time: 0))
        XCTAssertEqual(small.resolved(pieces: 2, terms: terms, fields: facts, counted: facts.mentionKinds).count, 1)
    }
}
