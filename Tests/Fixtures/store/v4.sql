-- A store as smashtag with schema version 4 left it, written by hand, not by
-- the migration code under test: links as rows of tweet_mention with their
-- spelling ids, a second spelling of one mention in extra_spelling, kind and
-- language per tweet, one tweet from before version 4 (kind NULL), one
-- without links, a tracked term. Tests open it with a newer smashtag and
-- expect it migrated in place, every answer intact:
--   10  2019-03-01T11:50:00Z  @writer  en  original  #Old and #OLD (#old), @someone
--   11  11:51:00Z             @writer  es  retweet   #old, #other, #CAFÉ (#café)
--   12  11:52:00Z             @someone en  original  #Old (#old), @SomeOne (@someone)
--   -5  unknown               unknown  (ingested before version 4)  @someone
--   13  11:53:00Z             @writer  en  original  no mention
--   '#old' tracked: 3 tweets; #old 3, @someone 2, #other 1, #café 1.
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
    mention INTEGER NOT NULL REFERENCES mention(id), spelling INTEGER REFERENCES spelling(id),
    PRIMARY KEY (tweet, mention)) WITHOUT ROWID;
CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, tweets INTEGER NOT NULL DEFAULT 0,
    tracked_at INTEGER NOT NULL);
CREATE TABLE term_count (term INTEGER NOT NULL REFERENCES term(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), count INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (term, mention)) WITHOUT ROWID;
CREATE TABLE tweet (id INTEGER PRIMARY KEY, created_at INTEGER, author INTEGER REFERENCES mention(id), text TEXT,
    lang TEXT, retweet INTEGER) WITHOUT ROWID;
CREATE TABLE spelling (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE extra_spelling (tweet INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
    mention INTEGER NOT NULL REFERENCES mention(id), spelling INTEGER NOT NULL REFERENCES spelling(id),
    PRIMARY KEY (tweet, mention, spelling)) WITHOUT ROWID;
INSERT INTO run(id, command, started_at, finished_at, inputs, files, tweets_read, tweets_new, outcome)
    VALUES (1, 'ingest', 1700000000000, 1700000001000, '["old.jsonl"]', 1, 5, 5, 'ok');
INSERT INTO setting(key, value) VALUES ('generation', '1');
INSERT INTO mention(id, key) VALUES (1, '#old'), (2, '@someone'), (3, '@writer'), (4, '#other'), (5, '#café');
INSERT INTO spelling(id, text) VALUES (1, '#Old'), (2, '@SomeOne'), (3, '#OLD'), (4, '#CAFÉ');
INSERT INTO tweet(id, created_at, author, text, lang, retweet) VALUES
    (10, 1551441000, 3, NULL, 'en', 0), (11, 1551441060, 3, NULL, 'es', 1), (12, 1551441120, 2, NULL, 'en', 0),
    (-5, NULL, NULL, NULL, NULL, NULL), (13, 1551441180, 3, NULL, 'en', 0);
INSERT INTO tweet_mention(tweet, mention, spelling) VALUES
    (10, 1, 1), (10, 2, NULL), (11, 1, NULL), (11, 4, NULL), (11, 5, 4), (12, 1, 1), (12, 2, 2), (-5, 2, NULL);
INSERT INTO extra_spelling(tweet, mention, spelling) VALUES (10, 1, 3);
INSERT INTO term(id, term, tweets, tracked_at) VALUES (1, '#old', 3, 1700000000500);
INSERT INTO term_count(term, mention, count) VALUES (1, 1, 3), (1, 2, 2), (1, 4, 1), (1, 5, 1);
PRAGMA application_id = 1936553063;
PRAGMA user_version = 4;
