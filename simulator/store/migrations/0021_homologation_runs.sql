-- Homologation runs the sandbox itself makes (issue 15): publishing reads
-- only these. The reports clients used to post are dropped: a client could
-- post "ready" for anything, so none of them can open the gate.
DROP TABLE homologation_reports;

CREATE TABLE homologation_runs (
	id          TEXT PRIMARY KEY,
	app_id      TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
	status      TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed')),
	partner     TEXT NOT NULL,
	report      TEXT NOT NULL DEFAULT '',
	ready       INTEGER NOT NULL DEFAULT 0,
	error       TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL,
	finished_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX homologation_runs_app ON homologation_runs(app_id, created_at);
