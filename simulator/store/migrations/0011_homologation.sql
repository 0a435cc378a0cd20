-- Homologation reports posted by `homologa test`, per app; the portal's
-- publish reads the last one.
CREATE TABLE homologation_reports (
	id         INTEGER PRIMARY KEY,
	app_id     TEXT NOT NULL REFERENCES apps(id),
	ready      INTEGER NOT NULL,
	body       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX homologation_reports_app ON homologation_reports(app_id, id);
