import Foundation
import XCTest
@testable import Stages

final class StoreTermsTests: XCTestCase {
    func testTrackedTermsKeepCountsEqualToAScanThroughIngestsAndPrune() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let paths = StoreFixtures.samplePaths
        try store.ingest(Array(paths.prefix(2)))
        let tracked = try store.track(StoreFixtures.terms)
        XCTAssertEqual(tracked, StoreFixtures.terms)
        XCTAssertEqual(try store.track([StoreFixtures.terms[1]]), [], "tracking twice adds nothing")
        try store.ingest(Array(paths.dropFirst(2)))
        // The kept counts answer now; they must be what the tweets say.
        assertSameReports(try store.reports(StoreFixtures.terms, minCount: 1, top: nil),
                          statelessReports(paths, StoreFixtures.terms), "after ingest")
        XCTAssertEqual(try store.terms().map(\.tweets), statelessReports(paths, StoreFixtures.terms).map(\.tweets))

        let pruned = try store.prune(.keepNewest(300))
        XCTAssertEqual(pruned.kept, 300)
        let kept = try store.counts(of: StoreFixtures.terms, parallel: false)
        let reports = try store.reports(StoreFixtures.terms, minCount: 1, top: nil)
        for r in reports {
            XCTAssertEqual(r.tweets, kept[r.term]!.tweets, "\(r.term) after prune")
            // The store counts every kind (SPEC §13); the report shows hashtags and users.
            let mentions = kept[r.term]!.mentions
            let keys = try store.mentionKeys(for: Array(mentions.keys))
            let standard = mentions.filter { m in keys[m.key].map { $0.signedKind == .hashtag || $0.signedKind == .user } ?? false }
            XCTAssertEqual(r.hashtags.map(\.count).reduce(0, +) + r.users.map(\.count).reduce(0, +),
                           standard.values.reduce(0, +), "\(r.term) after prune")
        }
    }

    func testUntrackingATermRemovesItsKeptCounts() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        try store.ingest(StoreFixtures.samplePaths)
        let terms = ["#stanford", "@nasa"].map { try! Term(parsing: $0) }
        try store.track(terms)
        XCTAssertGreaterThan(try store.count("term_count"), 10)
        let nasaRows = Int(try store.db.integer("SELECT count(*) FROM term_count c JOIN term t ON t.id = c.term WHERE t.term = '@nasa'")!)
        XCTAssertEqual(try store.untrack([terms[0], try Term(parsing: "#never")]), [terms[0]])
        XCTAssertEqual(try store.count("term_count"), nasaRows, "the cascade took #stanford's counts")
        XCTAssertEqual(try store.terms().map(\.term), [terms[1]])
    }

    func testTrackingBeforeTheFirstIngestCountsFromThen() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        let terms = ["#stanford", "from:stanford", "*"].map { try! Term(parsing: $0) }
        try store.track(terms)
        XCTAssertEqual(try store.terms().map(\.tweets), [0, 0, 0])
        try store.ingest(StoreFixtures.samplePaths)
        assertSameReports(try store.reports(terms, minCount: 1, top: nil), statelessReports(StoreFixtures.samplePaths, terms))
    }

    func testWordTermsNeedText() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        XCTAssertThrowsError(try store.track([try Term(parsing: "stanford")]))
        XCTAssertTrue(try store.enableText())
        let word = try Term(parsing: "stanford")
        XCTAssertEqual(try store.track([word]), [word])
        try store.ingest(StoreFixtures.samplePaths)
        assertSameReports(try store.reports([word], minCount: 1, top: nil), statelessReports(StoreFixtures.samplePaths, [word]))
    }

    func testTermsListing() throws {
        var l = Store.listing([(try Term(parsing: "#A"), 3), (try Term(parsing: "from:x"), 0)])
        XCTAssertEqual(l.render(as: .csv), "term,tweets\n#a,3\nfrom:x,0\n")
        XCTAssertEqual(l.render(as: .json), ##"[{"term":"#a","tweets":3},{"term":"from:x","tweets":0}]"## + "\n")
        l.rows.removeLast()
        XCTAssertEqual(l.render(as: .table), "term  tweets\n#a         3\n")
    }
}
