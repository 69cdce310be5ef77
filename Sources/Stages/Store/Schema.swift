/// The store's tables, by schema version, and the steps from each version to
/// the next.
///
/// A new store runs every step from version 0, so the steps an old store
/// takes on upgrade are the ones every test runs. A store's version is
/// SQLite's `user_version`; `application_id` marks the file as a smashtag
/// store. A smashtag meeting a store newer than `current` refuses it (it
/// cannot know what the newer tables mean) with a message saying so.
///
///     run ◀──────── source                 one row per ingest, import or prune;
///                                          files read whole, by (size, mtime, fingerprint)
///
///     tweet ──────────────────────────────▶ mention ◀── term_count ──▶ term
///     (id, created_at, author ▶ mention,    (id, key)    (term, mention,   (id, term,
///      text, lang, retweet,                               count)            tweets)
///      links: blob of mention ids ▶ mention,              ON DELETE CASCADE
///             spellings ▶ spelling (v5),
///      retweet_of, quote_of, reply_to (v7))     post_copy (post, author ▶ mention, created_at, text) (v7)
///
/// A tweet's mention links are one blob in its row (v5, `Links`): its
/// mentions in ascending id order, each with its spelling; a row per link
/// (v1–v4, `tweet_mention`, clustered by tweet) repeated the tweet's 8-byte
/// id and a record and cell of its own, and had SQLite check two foreign keys
/// per link. An ingest appends the blobs with their tweets, a prune's delete
/// takes them along, and a report reads them in one ordered pass over the
/// tweets. There is no index by mention: it would cost a random B-tree insert
/// per link; a tracked term answers a mention at once instead. The writer is
/// the one place that makes links, from mention ids it has just read or
/// written; a prune deletes a mention only once no blob holds it.
///
/// A tweet's creation time is stored as its difference from the time in its
/// snowflake id (`created_delta`, v5: 0 and no byte for nearly every tweet);
/// `created_at` is a virtual column, so queries read the time itself.
///
/// Posts are keyed by their identity, so the primary key is the dedup of
/// SPEC §6: a tweet id below 2^63 as itself; since v7 any other identity (a
/// Bluesky AT-URI, a Mastodon status URI, a tweet id of 2^63 or more) as
/// minus its row id in `identity(id, text UNIQUE)` (`StoredIdentities`).
/// Until v6 a tweet id of 2^63 or more was the signed integer of the same bits.
/// Mention keys are signed and normalised (`#swift`, `@nasa`; from v6 every
/// kind of `MentionKind`: `$aapl`, `+example.com/a`, `^example.com`,
/// `=example.com`, `!nasa`); an author is the mention key of its screen name.
enum Schema {
    /// The version this smashtag writes.
    static let current: Int64 = 8

    /// `smtg`: the `application_id` of a smashtag store.
    static let applicationID: Int64 = 0x736D_7467

    /// `steps[v]` takes a store from version `v` to `v + 1`.
    static let steps: [String] = [
        // 0 → 1: tweets, their mentions, the runs and the files they read.
        """
        CREATE TABLE run (
            id INTEGER PRIMARY KEY,
            command TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            finished_at INTEGER,
            inputs TEXT NOT NULL,
            files INTEGER NOT NULL DEFAULT 0,
            unchanged INTEGER NOT NULL DEFAULT 0,
            bytes INTEGER NOT NULL DEFAULT 0,
            tweets_read INTEGER NOT NULL DEFAULT 0,
            tweets_new INTEGER NOT NULL DEFAULT 0,
            tweets_known INTEGER NOT NULL DEFAULT 0,
            skipped INTEGER NOT NULL DEFAULT 0,
            outcome TEXT NOT NULL DEFAULT 'running'
        );
        CREATE TABLE source (
            id INTEGER PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            fingerprint INTEGER NOT NULL,
            path TEXT NOT NULL,
            run INTEGER NOT NULL REFERENCES run(id),
            UNIQUE (size, mtime_ns, fingerprint)
        );
        CREATE TABLE mention (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE
        );
        CREATE TABLE tweet (
            id INTEGER PRIMARY KEY,
            created_at INTEGER,
            author INTEGER REFERENCES mention(id)
        );
        CREATE TABLE tweet_mention (
            tweet INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
            mention INTEGER NOT NULL REFERENCES mention(id),
            PRIMARY KEY (tweet, mention)
        ) WITHOUT ROWID;
        """,
        // 1 → 2: full text (--keep-text), tracked terms with their kept
        // counts, store-wide settings, and why a run ended.
        """
        ALTER TABLE tweet ADD COLUMN text TEXT;
        ALTER TABLE run ADD COLUMN message TEXT;
        CREATE TABLE setting (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE term (
            id INTEGER PRIMARY KEY,
            term TEXT NOT NULL UNIQUE,
            tweets INTEGER NOT NULL DEFAULT 0,
            tracked_at INTEGER NOT NULL
        );
        CREATE TABLE term_count (
            term INTEGER NOT NULL REFERENCES term(id) ON DELETE CASCADE,
            mention INTEGER NOT NULL REFERENCES mention(id),
            count INTEGER NOT NULL CHECK (count > 0),
            PRIMARY KEY (term, mention)
        ) WITHOUT ROWID;
        """,
        // 2 → 3: tweets in a WITHOUT ROWID table keyed by their id. Every link
        // an ingest writes has SQLite look its tweet up (the foreign key); in
        // a table keyed by rowid each step of that search decodes a 9-byte
        // varint, in this one it compares the key's fixed 8 bytes: about a
        // tenth of the writer's time. The same columns, constraints and
        // references; SQLite's way to change a table is to rebuild it (foreign
        // keys are off while `migrate` runs, and checked before it commits).
        """
        CREATE TABLE tweet_v3 (
            id INTEGER PRIMARY KEY,
            created_at INTEGER,
            author INTEGER REFERENCES mention(id),
            text TEXT
        ) WITHOUT ROWID;
        INSERT INTO tweet_v3(id, created_at, author, text) SELECT id, created_at, author, text FROM tweet ORDER BY id;
        DROP TABLE tweet;
        ALTER TABLE tweet_v3 RENAME TO tweet;
        """,
        // 3 → 4: what SPEC §12's options need. A tweet's language and kind
        // (`retweet` 0 or 1; NULL for a tweet ingested before version 4,
        // whose kind, language and spellings were not kept); a link's
        // spelling (NULL: written as its key, the common case, which costs no
        // byte), spellings stored once each; the rare second spelling of a
        // mention in one tweet in `extra_spelling`. Columns are added, not
        // rebuilt: the upgrade writes no row.
        """
        ALTER TABLE tweet ADD COLUMN lang TEXT;
        ALTER TABLE tweet ADD COLUMN retweet INTEGER;
        CREATE TABLE spelling (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL UNIQUE
        );
        ALTER TABLE tweet_mention ADD COLUMN spelling INTEGER REFERENCES spelling(id);
        CREATE TABLE extra_spelling (
            tweet INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
            mention INTEGER NOT NULL REFERENCES mention(id),
            spelling INTEGER NOT NULL REFERENCES spelling(id),
            PRIMARY KEY (tweet, mention, spelling)
        ) WITHOUT ROWID;
        """,
        // 4 → 5: a tweet's links in its own row, one blob (`Links`), instead
        // of a row each in `tweet_mention` and `extra_spelling`: a row per
        // link repeated its tweet's 8-byte id and paid a record and a cell,
        // 20 bytes a link; an entry of the blob is 2 to 3 (the store of 100 MB
        // of generated stream: 137.6 → under 90 bytes a tweet). Spellings that
        // differ from their key only by capitals are a mask in the blob, not a
        // `spelling` row; this upgrade keeps the rows it has. With no link row
        // referring to a tweet, tweets are a rowid table again (appended in id
        // order, its pages are filled whole; v3's reason for WITHOUT ROWID was
        // the links' foreign key). A tweet's creation time is kept as its
        // difference from the time in its snowflake id (`created_delta`: 0, no
        // byte, for every tweet whose `created_at` is its id's second, 4 bytes
        // otherwise); `created_at` is a virtual column that adds them up again.
        // The same tweets, times, links and spellings.
        """
        CREATE TABLE tweet_v5 (
            id INTEGER PRIMARY KEY,
            created_delta INTEGER,
            author INTEGER REFERENCES mention(id),
            text TEXT,
            lang TEXT,
            retweet INTEGER,
            links BLOB,
            created_at INTEGER GENERATED ALWAYS AS (\(createdAt)) VIRTUAL
        );
        INSERT INTO tweet_v5(id, created_delta, author, text, lang, retweet, links)
            SELECT t.id, t.created_at - \(snowflakeSeconds("t.id")), t.author, t.text, t.lang, t.retweet,
                (SELECT link_blob(l.mention, l.spelling, l.extra) FROM (
                    SELECT mention, spelling, 0 AS extra FROM tweet_mention WHERE tweet = t.id
                    UNION ALL SELECT mention, spelling, 1 FROM extra_spelling WHERE tweet = t.id) l)
            FROM tweet t ORDER BY t.id;
        DROP TABLE extra_spelling;
        DROP TABLE tweet_mention;
        DROP TABLE tweet;
        ALTER TABLE tweet_v5 RENAME TO tweet;
        """,
        // 5 → 6: every kind of mention of SPEC §13 in a tweet's links: its
        // symbols (`$aapl`), links (`+example.com/a`), their hosts (`^…`) and
        // domains (`=…`) and its poster (`!name`) are mentions as hashtags
        // are, so every scan, count and pair of the store reads them as it
        // reads hashtags, and a report picks its kinds by the key's sign. The
        // tables do not change. Tweets stored before kept none of them: a
        // store that held tweets says so in `tweets_without_kinds` (their
        // number at the upgrade), and a report that needs a new kind from it
        // is refused with what to do, never answered with an empty table.
        """
        INSERT INTO setting(key, value)
            SELECT '\(withoutKindsSetting)', CAST(count(*) AS TEXT) FROM tweet HAVING count(*) > 0;
        """,
        // 6 → 7: posts of Bluesky and Mastodon (SPEC §16), whose identity is a
        // URI, not a 64-bit number. A post's row id is its tweet id when that
        // is below 2^63 (every id Twitter gave: tweets cost what they did);
        // any other identity — an AT-URI, a status URI, a tweet id of 2^63 or
        // more — is a row of `identity` and the post's id is minus its row
        // id, so the primary key stays the dedup of SPEC §6, exact on the
        // strings. Tweets of 2^63 and more, stored until now as the negative
        // number of the same bits, move there (`moveLargeTweetIDs`, in this
        // step's transaction). Bluesky handles (`HandleBook`) are kept too,
        // so a store shows accounts as a report of its dumps does.
        // Also: what `posts` needs (SPEC §15). Each tweet's retweeted,
        // quoted and replied-to post (`retweet_of`, `quote_of`, `reply_to`:
        // the ids' 64 bits, NULL for none, which costs a tweet no byte); and
        // in `post_copy`, a row per post some tweet embeds a copy of (a
        // retweet's `retweeted_status`, a quote's `quoted_status`, v2
        // `includes.tweets`, a reply's `in_reply_to_screen_name`): its
        // author, time and (with --keep-text) text, each as the first copy
        // ingested said it (a later copy fills only what is still NULL). A
        // post stored as a tweet says these itself. Columns are added, not
        // rebuilt; tweets stored before kept no references: a store that
        // held tweets says so in `tweets_without_references`, and `posts`
        // from it is refused with what to do, never answered short.
        """
        CREATE TABLE identity (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL UNIQUE
        );
        CREATE TABLE handle (
            did TEXT PRIMARY KEY,
            handle TEXT NOT NULL,
            time INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE handle_spelling (
            did TEXT NOT NULL,
            handle TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (did, handle)
        ) WITHOUT ROWID;
        ALTER TABLE tweet ADD COLUMN retweet_of INTEGER;
        ALTER TABLE tweet ADD COLUMN quote_of INTEGER;
        ALTER TABLE tweet ADD COLUMN reply_to INTEGER;
        CREATE TABLE post_copy (
            post INTEGER PRIMARY KEY,
            author INTEGER REFERENCES mention(id),
            created_at INTEGER,
            text TEXT
        );
        INSERT INTO setting(key, value)
            SELECT '\(withoutReferencesSetting)', CAST(count(*) AS TEXT) FROM tweet HAVING count(*) > 0;
        """,
        // 7 → 8: `trend --store` (SPEC §14) reads the posts of its windows, not
        // the whole store. A tweet created in its snowflake id's second
        // (`created_delta` 0: nearly every tweet) is found by its id, the ids
        // of a span of time being a range; every other post — a Bluesky or
        // Mastodon post (a negative id), a tweet whose `created_at` is not
        // its id's, one of unknown time, one of an id before the snowflakes —
        // is in this partial index by its time. An index only: no row changes.
        """
        CREATE INDEX \(offSnowflakeIndex) ON tweet(created_at) WHERE \(offSnowflake);
        """,
    ]

    /// Work of step `v` → `v + 1` that SQL alone cannot do, run right after the step's SQL.
    static func afterStep(_ v: Int, _ db: Database) throws(StoreError) {
        if v == 6 { try moveLargeTweetIDs(db) }
    }

    /// Step 6 → 7: tweets whose id is 2^63 or more (stored as the negative
    /// number of the same bits) become rows of `identity` (their decimal id).
    static func moveLargeTweetIDs(_ db: Database) throws(StoreError) {
        let find = try db.statement("SELECT id FROM tweet WHERE id < 0 ORDER BY id")
        var large: [Int64] = []
        while try find.step() { large.append(find.int64(0)) }
        find.done()
        let add = try db.statement("INSERT INTO identity(text) VALUES (?1)")
        let move = try db.statement("UPDATE tweet SET id = ?1 WHERE id = ?2")
        for old in large {
            add.reset()
            try add.bind(1, String(UInt64(bitPattern: old)))
            try add.run()
            move.reset()
            try move.bind(1, -db.lastInsertRowID)
            try move.bind(2, old)
            try move.run()
        }
    }

    /// The setting that counts the tweets a store held when it was upgraded
    /// to version 7: they carry no retweeted, quoted or replied-to post (SPEC §15).
    static let withoutReferencesSetting = "tweets_without_references"

    /// The setting that counts the tweets a store held when it was upgraded
    /// to version 6: they carry hashtags and users only (SPEC §13).
    static let withoutKindsSetting = "tweets_without_kinds"

    /// SQL for the seconds of the snowflake time of tweet id `id` (as
    /// `CreatedAt.fromSnowflake`, on the id stored as a signed integer), 0
    /// for an id before the first snowflake.
    static func snowflakeSeconds(_ id: String) -> String {
        "(CASE WHEN \(id) >= \(CreatedAt.firstSnowflake) OR \(id) < 0 THEN (((\(id) >> 22) & 4398046511103) + 1288834974657) / 1000 ELSE 0 END)"
    }

    /// `tweet.created_at` of schema v5: `created_delta` plus the snowflake time.
    static var createdAt: String { "created_delta + \(snowflakeSeconds("id"))" }

    /// The partial index of the posts whose time is not their id's (schema v8).
    static let offSnowflakeIndex = "tweet_off_snowflake"

    /// The posts `offSnowflakeIndex` holds; a query names it word for word, so SQLite can use the index.
    static var offSnowflake: String { "(created_delta IS NOT 0 OR id < \(CreatedAt.firstSnowflake))" }

    /// The `created_delta` of a tweet created at `time` (nil: unknown).
    static func createdDelta(id: Int64, time: Int64?) -> Int64? {
        time.map { $0 &- (CreatedAt.fromSnowflake(UInt64(bitPattern: id)) ?? 0) }
    }

    /// Whether the store is older than this smashtag (an empty new file is too).
    static func needsMigration(_ db: Database) throws(StoreError) -> Bool {
        try (db.integer("PRAGMA user_version") ?? 0) < current
    }

    /// Brings the store at `db` to the current version, in one transaction.
    ///
    /// - Returns: the version the store had (0 for a new store).
    /// - Throws: `StoreError` `.notAStore` for another application's
    ///   database, `.newerSchema` for a store this smashtag cannot read.
    @discardableResult
    static func migrate(_ db: Database) throws(StoreError) -> Int64 {
        // Cheap check first, without the write lock: most opens find the store current.
        let seen = try db.integer("PRAGMA user_version") ?? 0
        try checkApplication(db)
        if seen == current { return seen }
        if seen > current { throw newer(seen, db.path) }
        // journal_mode cannot change inside a transaction; WAL is persistent.
        try db.execute("PRAGMA journal_mode = WAL")
        // Nor can foreign_keys: off while a step rebuilds a table (dropping the
        // old one must not cascade to its children), checked before the commit.
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = ON") }
        return try db.transaction { () throws(StoreError) -> Int64 in
            // Another process may have migrated while this one waited for the lock.
            let version = try db.integer("PRAGMA user_version") ?? 0
            if version > current { throw newer(version, db.path) }
            for v in Int(version)..<Int(current) {
                try db.execute(steps[v])
                try afterStep(v, db)
            }
            let broken = try db.statement("PRAGMA foreign_key_check")
            if try broken.first({ $0.text(0) }) != nil {
                throw StoreError(.corrupt, path: db.path,
                                 "cannot upgrade the store: a row refers to one that is not there; export what can be read and import it into a new store")
            }
            try db.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(current)")
            return version
        }
    }

    private static func checkApplication(_ db: Database) throws(StoreError) {
        let app = try db.integer("PRAGMA application_id") ?? 0
        if app == applicationID { return }
        let tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        if app != 0 || tables > 0 {
            throw StoreError(.notAStore, path: db.path,
                             "this SQLite database is not a smashtag store; give another --store")
        }
    }

    private static func newer(_ version: Int64, _ path: String) -> StoreError {
        StoreError(.newerSchema, path: path,
                   "the store has schema version \(version), written by a newer smashtag; this one reads versions up to \(current): use the newer smashtag, or export the store with it and import the snapshot here")
    }
}
