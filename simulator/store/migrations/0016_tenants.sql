-- Each company reads its own clock. A job belongs to the company whose work
-- scheduled it (company_id, '' for sandbox-wide work) and falls due on a
-- clock group: '' for the default clock, which companies follow until they
-- move their own, or the company's id once it has a clock of its own.
-- Existing companies follow the default clock, which is the clock every one
-- of them read before.
ALTER TABLE jobs ADD COLUMN company_id TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN clock TEXT NOT NULL DEFAULT '';
DROP INDEX jobs_due;
CREATE INDEX jobs_clock_due ON jobs(clock, due_at, id);

CREATE TABLE company_clocks (
	company_id TEXT PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
	state      TEXT NOT NULL
);

-- Events belong to a company by id: copies of a company (the demo company
-- each test scenario gets) share a CNPJ, never an id.
ALTER TABLE events ADD COLUMN company_id TEXT NOT NULL DEFAULT '';
UPDATE events SET company_id = COALESCE((SELECT a.company_id FROM apps a WHERE a.id = events.app_id), '');
CREATE INDEX events_company ON events(company_id, seq);

-- The interaction log names the company of each request, so that each
-- company reads (and a reset empties) only its own.
ALTER TABLE interactions ADD COLUMN company_id TEXT NOT NULL DEFAULT '';
CREATE INDEX interactions_company ON interactions(company_id, id);
