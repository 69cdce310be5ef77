import Foundation
import XCTest
@testable import Stages

final class StoreSchemaTests: XCTestCase {
    /// A store as the first smashtag with a store (schema version 1) left it.
    static var versionOne: String {
        get throws { try String(contentsOf: StoreFixtures.root.appendingPathComponent("Tests/Fixtures/store/v1.sql"), encoding: .utf8) }
    }

    /// A store as smashtag with schema version 2 left it (text, a tracked term).
    static var versionTwo: String {
        get throws { try String(contentsOf: StoreFixtures.root.appendingPathComponent("Tests/Fixtures/store/v2.sql"), encoding: .utf8) }
    }

    /// A store of schema version `n`, as its fixture writes it.
    static func version(_ n: Int) throws -> String {
        try String(contentsOf: StoreFixtures.root.appendingPathComponent("Tests/Fixtures/store/v\(n).sql"), encoding: .utf8)
    }

    private func raw(_ path: String, _ sql: String) throws {
        let db = try Database(path: path, create: true, busyTimeout: 0)
        try db.execute(sql)
        db.close()
    }

    func testAVersionOneStoreIsMigratedWithItsTweetsAndHistory() throws {
        let folder = try StoreFolder()
        let path = folder.path("old.db")
        try raw(path, try Self.versionOne)
        let store = try Store.writable(path)
        XCTAssertEqual(try store.db.integer("PRAGMA user_version"), Schema.current)
        let terms = ["#old", "@someone", "from:writer", "*"].map { try! Term(parsing: $0) }
        let reports = try store.reports(terms, minCount: 1, top: nil)
        XCTAssertEqual(reports.map(\.tweets), [2, 2, 2, 3])
        XCTAssertEqual(reports[0].hashtags, [MentionCount(mention: "#old", count: 2), MentionCount(mention: "#other", count: 1)])
        XCTAssertEqual(reports[1].users, [MentionCount(mention: "@someone", count: 2)])
        // Uses of what version 2 added: the history's message, tracked terms, text setting.
        XCTAssertEqual(try store.history().map(\.inputs), [["old.jsonl"]])
        XCTAssertFalse(try store.keepsText)
        XCTAssertEqual(try store.track([terms[0]]), [terms[0]])
        XCTAssertEqual(try store.terms().map(\.tweets), [2])
        try store.ingest([StoreFixtures.samplePaths[4]])
        XCTAssertEqual(try store.history().count, 2)
    }

    func testAVersionTwoStoreIsMigratedWithItsTextTermsAndLinks() throws {
        let folder = try StoreFolder()
        let path = folder.path("old.db")
        try raw(path, try Self.versionTwo)
        let store = try Store.writable(path)
        XCTAssertEqual(try store.db.integer("PRAGMA user_version"), Schema.current)
        XCTAssertEqual(try store.db.integer("PRAGMA foreign_keys"), 1)
        XCTAssertTrue(try store.keepsText)
        let terms = ["#old", "@someone", "from:writer", "*", "hello"].map { try! Term(parsing: $0) }
        let reports = try store.reports(terms, minCount: 1, top: nil)
        XCTAssertEqual(reports.map(\.tweets), [2, 2, 2, 3, 2])
        XCTAssertEqual(reports[0].hashtags, [MentionCount(mention: "#old", count: 2), MentionCount(mention: "#other", count: 1)])
        XCTAssertEqual(reports[0].users, [MentionCount(mention: "@someone", count: 1)])
        XCTAssertEqual(try store.terms().map(\.tweets), [2])
        XCTAssertEqual(try store.history().map(\.inputs), [["old.jsonl"]])
        // The rebuilt tweet table keeps its links (in its rows: they go with their tweet) and its reference.
        XCTAssertEqual(try store.links().count, 5)
        try store.db.run("DELETE FROM tweet WHERE id = 11")
        XCTAssertEqual(try store.links().count, 3)
        XCTAssertEqual(try store.danglingLinks(), 0)
        XCTAssertThrowsError(try store.db.run("INSERT INTO tweet(id, author) VALUES (12, 99)"))
        try store.ingest([StoreFixtures.samplePaths[4]])
        XCTAssertEqual(try store.history().count, 2)
    }

    func testAMigratedStoreHasTheTablesOfANewOne() throws {
        let folder = try StoreFolder()
        try raw(folder.path("v1.db"), try Self.versionOne)
        try raw(folder.path("v2.db"), try Self.versionTwo)
        try raw(folder.path("v3.db"), try Self.version(3))
        try raw(folder.path("v4.db"), try Self.version(4))
        // Columns, primary keys, references (with their ON DELETE) and which tables are WITHOUT ROWID.
        let shapes = [
            "SELECT group_concat(m.name || '.' || p.name || ':' || p.type || ':' || p.pk || ':' || p.\"notnull\", ' ') FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'",
            "SELECT group_concat(m.name || '.' || f.\"from\" || '>' || f.\"table\" || '.' || f.\"to\" || ':' || f.on_delete, ' ') FROM sqlite_schema m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'",
            "SELECT group_concat(name || ':' || wr, ' ') FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
            "SELECT group_concat(m.name || '.' || i.\"unique\" || ':' || i.origin, ' ') FROM sqlite_schema m, pragma_index_list(m.name) i WHERE m.type = 'table'",
        ]
        func shape(_ path: String) throws -> [Set<Substring>] {
            let store = try Store.writable(path)
            return try shapes.map { sql in
                let text = try store.db.statement(sql).first { $0.text(0) } ?? nil
                return Set((text ?? "").split(separator: " "))
            }
        }
        let fresh = try shape(folder.path("new.db"))
        XCTAssertTrue(fresh[2].contains("tweet:0"), "tweets are a rowid table (v5): \(fresh[2])")
        XCTAssertTrue(fresh[0].contains("tweet.links:BLOB:0:0"), "links in the tweet's row: \(fresh[0])")
        XCTAssertFalse(fresh[0].contains { $0.hasPrefix("tweet_mention.") || $0.hasPrefix("extra_spelling.") }, "\(fresh[0])")
        XCTAssertTrue(fresh[1].contains("tweet.author>mention.id:NO"), "\(fresh[1])")
        for old in ["v1.db", "v2.db", "v3.db", "v4.db"] { XCTAssertEqual(try shape(folder.path(old)), fresh, old) }
        // v8: `trend --store` reads a span by the partial index of the posts whose time is not their id's.
        for name in ["new.db", "v1.db", "v4.db"] {
            let store = try Store.writable(folder.path(name))
            let sql = try store.db.statement("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = '\(Schema.offSnowflakeIndex)'")
                .first { $0.text(0) } ?? nil
            XCTAssertEqual(sql, "CREATE INDEX \(Schema.offSnowflakeIndex) ON tweet(created_at) WHERE \(Schema.offSnowflake)", name)
        }
    }

    func testANewerStoreIsRefusedWithAMessage() throws {
        let folder = try StoreFolder()
        let path = folder.path("new.db")
        try Store.writable(path).close()
        try raw(path, "PRAGMA user_version = \(Schema.current + 1)")
        XCTAssertThrowsError(try Store(path: path, access: .read)) { error in
            let e = error as! StoreError
            XCTAssertEqual(e.code, .newerSchema)
            XCTAssertTrue(e.description.contains("newer smashtag"), e.description)
            XCTAssertTrue(e.description.contains(path), e.description)
        }
    }

    func testOtherFilesAreNotStores() throws {
        let folder = try StoreFolder()
        let other = folder.path("other.db")
        try raw(other, "CREATE TABLE t(x)")
        XCTAssertThrowsError(try Store(path: other, access: .read)) { XCTAssertEqual(($0 as! StoreError).code, .notAStore) }
        let text = try folder.write("text.db", String(repeating: "not a database\n", count: 500))
        XCTAssertThrowsError(try Store(path: text, access: .read)) { XCTAssertEqual(($0 as! StoreError).code, .corrupt) }
        XCTAssertThrowsError(try Store(path: folder.path("missing.db"), access: .read)) { error in
            XCTAssertEqual((error as! StoreError).code, .cannotOpen)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("missing.db")), "reading creates nothing")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("missing.db-lock")))
        }
    }

    func testForeignKeysAreOnAndLinksGoWithTheirTweet() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        XCTAssertEqual(try store.db.integer("PRAGMA foreign_keys"), 1)
        try store.ingest([StoreFixtures.samplePaths[4]])
        let links = try store.links().count
        let id = try store.db.integer("SELECT id FROM tweet WHERE links IS NOT NULL LIMIT 1")!
        let own = try store.links(of: id).count
        XCTAssertGreaterThan(own, 0)
        try store.db.run("DELETE FROM tweet WHERE id = ?1", [id])
        XCTAssertEqual(try store.links().count, links - own)
        XCTAssertEqual(try store.danglingLinks(), 0)
        // An author that is not there is refused by the database itself.
        XCTAssertThrowsError(try store.db.run("INSERT INTO tweet(id, author) VALUES (?1, 999999)", [id]))
    }

    /// The upgrade is one transaction: a version 4 store it cannot upgrade
    /// (a tweet whose author is not there) is left exactly as it was.
    func testAFailedUpgradeLeavesTheVersion4StoreAsItWas() throws {
        let folder = try StoreFolder()
        let path = folder.path("v4.db")
        try raw(path, try Self.version(4) + "\nINSERT INTO tweet(id, author) VALUES (14, 99);")
        XCTAssertThrowsError(try Store.writable(path)) { XCTAssertEqual(($0 as! StoreError).code, .corrupt) }
        let db = try Database(path: path, create: false, busyTimeout: 0)
        defer { db.close() }
        XCTAssertEqual(try db.integer("PRAGMA user_version"), 4)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM tweet_mention"), 8)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM extra_spelling"), 1)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM pragma_table_info('tweet') WHERE name = 'links'"), 0)
    }

    /// Links round-trip through their blob: mentions ascending, spellings
    /// by key, capitals or row, a second spelling of one mention kept.
    func testLinksBlobRoundTripsAndCapitalsOnlyWhenExact() {
        let links: [(mention: Int64, spelling: Links.Spelling)] = [
            (1, .key), (130, .cased(1)), (130, .stored(7)), (20_000, .stored(300)), (1 << 40, .cased(1 << 63)),
        ]
        var bytes: [UInt8] = []
        Links.encode(links[...], into: &bytes)
        XCTAssertEqual(bytes.count, 1 + 3 + 2 + 5 + 16)
        var entries: [(Int64, Links.Spelling, Bool)] = []
        var mentions: [Int64] = []
        bytes.withUnsafeBytes { b in
            Links.entries(b) { entries.append(($0, $1, $2)) }
            Links.mentions(b) { mentions.append($0) }
        }
        XCTAssertEqual(entries.map(\.0), links.map(\.mention))
        XCTAssertEqual(entries.map(\.1), links.map(\.spelling))
        XCTAssertEqual(entries.map(\.2), [false, false, true, false, false])
        XCTAssertEqual(mentions, [1, 130, 20_000, 1 << 40])
        XCTAssertEqual(Links.caseMask(key: "#stanford", spelling: "#Stanford"), 1)
        XCTAssertEqual(Links.caseMask(key: "@annasmith", spelling: "@AnnaSmith"), 0b10001)
        XCTAssertEqual(Links.caseMask(key: "#москва", spelling: "#МОСКВА"), 0b111111)
        XCTAssertEqual(Links.caseMask(key: "#café", spelling: "#CAFÉ"), 0b1111)
        XCTAssertEqual(Links.cased("#café", 0b1111), "#CAFÉ")
        for (key, spelling) in [("#stanford", "#stanford"), ("#stanford", "@Stanford"), ("#strasse", "#STRAßE"), ("#ß", "#SS"),
                                ("#k", "#\u{212A}"), ("#ab", "#Abc"), ("#σς", "#ΣΣ"), ("#x1", "#X!")] {
            XCTAssertNil(Links.caseMask(key: key, spelling: spelling), "\(key) \(spelling)")
        }
    }
}
