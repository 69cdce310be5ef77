-- A store as smashtag with schema version 2 left it, written by hand, not by
-- the migration code under test: kept text, one tracked term with its kept
-- counts, three tweets, four mentions, one run. Tests open it with a newer
-- smashtag and expect it migrated, its tweets, text, terms and history intact:
--   #old 2 tweets (10, 11), @someone 2 (10, -5), from:writer 2, * 3,
--   the word 'hello' 2 (10, -5); '#old' tracked: 2 tweets, #old 2, #other 1, @someone 1.
CREATE TABLE run (id INTEGER PRIMARY KEY, command TEXT NOT NULL, started_at INTEGER NOT NULL,
    finished_at INTEGER, inputs TEXT NOT NULL, files INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0,
    tweets_read INTEGER NOT NULL DEFAULT 0, tweets_new INTEGER NOT NULL DEFAULT 0,
    tweets_known INTEGER NOT NULL DEFAULT 0, skipped INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL DEFAULT 'running', message TEXT);
CREATE TABLE source (id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    fingerprint INTEGER NOT NULL, path TEXT NOT NULL, run INTEGER NOT NULL REFERENCES run(id),
    UNIQUE (size, mtime_ns, fingerprint));
CREATE TABLE mention (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
CREATE TABLE tweet (id INTEGER PRIMARY KEY, created_at INTEGER, author INTEGER REFERENCES mention(id), text TEXT);
CREATE TABLE tweet_mention (tweet INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), PRIMARY KEY (tweet, mention)) WITHOUT ROWID;
CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, tweets INTEGER NOT NULL DEFAULT 0,
    tracked_at INTEGER NOT NULL);
CREATE TABLE term_count (term INTEGER NOT NULL REFERENCES term(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), count INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (term, mention)) WITHOUT ROWID;
INSERT INTO run(id, command, started_at, finished_at, inputs, files, tweets_read, tweets_new, outcome)
    VALUES (1, 'ingest', 1700000000000, 1700000001000, '["old.jsonl"]', 1, 3, 3, 'ok');
INSERT INTO setting(key, value) VALUES ('keep_text', '1'), ('generation', '2');
INSERT INTO mention(id, key) VALUES (1, '#old'), (2, '@someone'), (3, '@writer'), (4, '#other');
INSERT INTO tweet(id, created_at, author, text) VALUES
    (10, 1551441000, 3, 'hello @someone #old'), (11, 1551441060, 3, '#old #other'), (-5, NULL, NULL, 'Hello @someone');
INSERT INTO tweet_mention(tweet, mention) VALUES (10, 1), (10, 2), (11, 1), (11, 4), (-5, 2);
INSERT INTO term(id, term, tweets, tracked_at) VALUES (1, '#old', 2, 1700000002000);
INSERT INTO term_count(term, mention, count) VALUES (1, 1, 2), (1, 2, 1), (1, 4, 1);
PRAGMA application_id = 1936553063;
PRAGMA user_version = 2;
