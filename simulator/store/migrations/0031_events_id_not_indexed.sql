-- homologa: rebuilds tables
-- Issue 19, the request path: events.id was UNIQUE, an index of random
-- UUIDs that no statement reads (an event is found by its seq; its id
-- travels in the envelope). Each event wrote a leaf of that index
-- chosen at random: a page more in every commit that emits one, rarely
-- one already in the cache. The id is still unique, by construction
-- (122 random bits). SQLite cannot drop an inline UNIQUE, so the table
-- is rebuilt; its AUTOINCREMENT high-water mark is carried over, so a
-- seq is never handed out twice after the newest events were pruned.
CREATE TABLE events_new (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	id          TEXT NOT NULL,
	app_id      TEXT NOT NULL,
	cnpj        TEXT NOT NULL,
	type        TEXT NOT NULL,
	subject_key TEXT NOT NULL,
	occurred_at INTEGER NOT NULL,
	envelope    TEXT NOT NULL,
	company_id  TEXT NOT NULL DEFAULT ''
);
INSERT INTO events_new (seq, id, app_id, cnpj, type, subject_key, occurred_at, envelope, company_id)
	SELECT seq, id, app_id, cnpj, type, subject_key, occurred_at, envelope, company_id FROM events;
DELETE FROM sqlite_sequence WHERE name = 'events_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'events_new', seq FROM sqlite_sequence WHERE name = 'events';
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;
CREATE INDEX events_company ON events(company_id, seq);
CREATE INDEX events_company_age ON events(company_id, occurred_at);
