-- A company's uploaded scenarios are its own: ids are unique per company
-- ('' for the operator's, which every company shares).
CREATE TABLE scenario_uploads_new (
	company_id  TEXT NOT NULL DEFAULT '',
	id          TEXT NOT NULL,
	source      TEXT NOT NULL,
	uploaded_at INTEGER NOT NULL,
	PRIMARY KEY (company_id, id)
);
INSERT INTO scenario_uploads_new (id, source, uploaded_at) SELECT id, source, uploaded_at FROM scenario_uploads;
DROP TABLE scenario_uploads;
ALTER TABLE scenario_uploads_new RENAME TO scenario_uploads;
