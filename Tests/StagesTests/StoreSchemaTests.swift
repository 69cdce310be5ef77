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
        // The rebuilt tweet table keeps its references, both ways.
        try store.db.run("DELETE FROM tweet WHERE id = 11")
        XCTAssertEqual(try store.count("tweet_mention"), 3)
        XCTAssertThrowsError(try store.db.run("INSERT INTO tweet_mention(tweet, mention) VALUES (11, 1)"))
        XCTAssertThrowsError(try store.db.run("INSERT INTO tweet(id, author) VALUES (12, 99)"))
        try store.ingest([StoreFixtures.samplePaths[4]])
        XCTAssertEqual(try store.history().count, 2)
    }

    func testAMigratedStoreHasTheTablesOfANewOne() throws {
        let folder = try StoreFolder()
        try raw(folder.path("v1.db"), try Self.versionOne)
        try raw(folder.path("v2.db"), try Self.versionTwo)
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
        XCTAssertTrue(fresh[2].contains("tweet:1"), "tweets are WITHOUT ROWID: \(fresh[2])")
        XCTAssertTrue(fresh[1].contains("tweet_mention.tweet>tweet.id:CASCADE"), "\(fresh[1])")
        XCTAssertEqual(try shape(folder.path("v1.db")), fresh)
        XCTAssertEqual(try shape(folder.path("v2.db")), fresh)
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

    func testForeignKeysAreOnAndCascade() throws {
        let folder = try StoreFolder()
        let store = try Store.writable(folder.path("s.db"))
        XCTAssertEqual(try store.db.integer("PRAGMA foreign_keys"), 1)
        try store.ingest([StoreFixtures.samplePaths[4]])
        let links = try store.count("tweet_mention")
        let id = try store.db.integer("SELECT tweet FROM tweet_mention LIMIT 1")!
        let own = Int(try store.db.integer("SELECT count(*) FROM tweet_mention WHERE tweet = ?1", [id])!)
        try store.db.run("DELETE FROM tweet WHERE id = ?1", [id])
        XCTAssertEqual(try store.count("tweet_mention"), links - own)
        // A link to a tweet that is not there is refused by the database itself.
        XCTAssertThrowsError(try store.db.run("INSERT INTO tweet_mention(tweet, mention) VALUES (?1, 1)", [id]))
    }
}
