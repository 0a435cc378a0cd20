-- Platform tables: onboarding, tokens, scheduled jobs, the event outbox and
-- its deliveries, idempotency keys and the interaction log.
-- Times are INTEGER unix nanoseconds of sandbox time unless named wall_*.

CREATE TABLE companies (
	id         TEXT PRIMARY KEY,
	cnpj       TEXT NOT NULL UNIQUE,
	name       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);

CREATE TABLE apps (
	id             TEXT PRIMARY KEY,
	company_id     TEXT NOT NULL REFERENCES companies(id),
	name           TEXT NOT NULL,
	client_id      TEXT NOT NULL UNIQUE,
	secret_hash    TEXT NOT NULL,
	webhook_url    TEXT NOT NULL DEFAULT '',
	webhook_secret TEXT NOT NULL,
	scopes         TEXT NOT NULL,
	environment    TEXT NOT NULL,
	created_at     INTEGER NOT NULL,
	updated_at     INTEGER NOT NULL
);

CREATE TABLE tokens (
	hash       TEXT PRIMARY KEY,
	app_id     TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	scopes     TEXT NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE INDEX tokens_expiry ON tokens(expires_at);

CREATE TABLE jobs (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	kind       TEXT NOT NULL,
	due_at     INTEGER NOT NULL,
	payload    TEXT NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_due ON jobs(due_at, id);

CREATE TABLE events (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	id          TEXT NOT NULL UNIQUE,
	app_id      TEXT NOT NULL,
	cnpj        TEXT NOT NULL,
	type        TEXT NOT NULL,
	subject_key TEXT NOT NULL,
	occurred_at INTEGER NOT NULL,
	envelope    TEXT NOT NULL
);
CREATE INDEX events_cnpj ON events(cnpj, seq);

CREATE TABLE deliveries (
	id          TEXT PRIMARY KEY,
	event_seq   INTEGER NOT NULL REFERENCES events(seq),
	app_id      TEXT NOT NULL,
	url         TEXT NOT NULL,
	body        TEXT NOT NULL,
	subject_key TEXT NOT NULL,
	-- queued: waits for an earlier delivery of the same subject;
	-- pending: has a job; delivered; dead: every attempt failed.
	status      TEXT NOT NULL,
	attempts    INTEGER NOT NULL DEFAULT 0,
	next_at     INTEGER,
	injected    TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX deliveries_subject ON deliveries(app_id, subject_key, status, event_seq);
CREATE INDEX deliveries_created ON deliveries(created_at);

CREATE TABLE delivery_attempts (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	delivery_id  TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
	n            INTEGER NOT NULL,
	at           INTEGER NOT NULL,
	wall_at      INTEGER NOT NULL,
	status_code  INTEGER NOT NULL,
	latency_us   INTEGER NOT NULL,
	error        TEXT NOT NULL,
	response     TEXT NOT NULL,
	replay       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts(delivery_id, id);

CREATE TABLE idempotency_keys (
	scope      TEXT NOT NULL,
	key        TEXT NOT NULL,
	request    TEXT NOT NULL,
	status     INTEGER NOT NULL,
	headers    TEXT NOT NULL,
	body       BLOB NOT NULL,
	expires_at INTEGER NOT NULL,
	PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_expiry ON idempotency_keys(expires_at);

CREATE TABLE interactions (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	at              INTEGER NOT NULL,
	request_id      TEXT NOT NULL,
	app_id          TEXT NOT NULL,
	api             TEXT NOT NULL,
	method          TEXT NOT NULL,
	path            TEXT NOT NULL,
	query           TEXT NOT NULL,
	req_headers     TEXT NOT NULL,
	req_body        TEXT NOT NULL,
	status          INTEGER NOT NULL,
	resp_headers    TEXT NOT NULL,
	resp_body       TEXT NOT NULL,
	duration_us     INTEGER NOT NULL,
	idempotency_key TEXT NOT NULL,
	injected        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX interactions_app ON interactions(app_id, id);
