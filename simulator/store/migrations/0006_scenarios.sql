-- Scenarios: which scenario drives which resource, where it is, and the
-- scenarios uploaded through the control API.

CREATE TABLE scenario_bindings (
	id          INTEGER PRIMARY KEY,
	scenario_id TEXT NOT NULL,
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL,
	ref         TEXT NOT NULL,           -- what the partner calls it (txid): seeds the jitter
	app_id      TEXT NOT NULL,
	how         TEXT NOT NULL,           -- header | select | control | default
	seed        INTEGER NOT NULL,
	next_step   INTEGER NOT NULL,
	waiting     TEXT NOT NULL DEFAULT '', -- the trigger the next step waits for
	next_at     INTEGER,                 -- when the next step is due, once scheduled
	fired       TEXT NOT NULL DEFAULT '', -- triggers fired since the last step
	status      TEXT NOT NULL,           -- running | done | stopped
	log         TEXT NOT NULL,           -- JSON: the steps that ran
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX scenario_bindings_resource ON scenario_bindings(kind, key, status);

CREATE TABLE scenario_uploads (
	id          TEXT PRIMARY KEY,
	source      TEXT NOT NULL,
	uploaded_at INTEGER NOT NULL
);
