-- A store as smashtag with schema version 3 left it, written by hand, not by
-- the migration code under test: three tweets (no kind, language or
-- spellings kept, as version 3 kept none), four mentions, one run, no text.
-- Tests open it with a newer smashtag and expect it migrated to version 4
-- in place, its tweets, times and history intact:
--   * 3 tweets; #old on 10 and 11 (2), @someone on 10 and -5 (2), #other on 11;
--   from:writer 2 (10, 11); times 2019-03-01T11:50:00Z (10), 11:51:00Z (11), unknown (-5).
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
CREATE TABLE tweet_mention (tweet INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), PRIMARY KEY (tweet, mention)) WITHOUT ROWID;
CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, tweets INTEGER NOT NULL DEFAULT 0,
    tracked_at INTEGER NOT NULL);
CREATE TABLE term_count (term INTEGER NOT NULL REFERENCES term(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), count INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (term, mention)) WITHOUT ROWID;
CREATE TABLE tweet (id INTEGER PRIMARY KEY, created_at INTEGER, author INTEGER REFERENCES mention(id), text TEXT) WITHOUT ROWID;
INSERT INTO run(id, command, started_at, finished_at, inputs, files, tweets_read, tweets_new, outcome)
    VALUES (1, 'ingest', 1700000000000, 1700000001000, '["old.jsonl"]', 1, 3, 3, 'ok');
INSERT INTO setting(key, value) VALUES ('generation', '1');
INSERT INTO mention(id, key) VALUES (1, '#old'), (2, '@someone'), (3, '@writer'), (4, '#other');
INSERT INTO tweet(id, created_at, author, text) VALUES
    (10, 1551441000, 3, NULL), (11, 1551441060, 3, NULL), (-5, NULL, NULL, NULL);
INSERT INTO tweet_mention(tweet, mention) VALUES (10, 1), (10, 2), (11, 1), (11, 4), (-5, 2);
PRAGMA application_id = 1936553063;
PRAGMA user_version = 3;
