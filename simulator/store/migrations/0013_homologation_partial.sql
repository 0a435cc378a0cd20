-- A run filtered by --tags or on a QA team's own features is recorded but
-- is not a homologation: the publish gate reads the last complete run.
ALTER TABLE homologation_reports ADD COLUMN complete INTEGER NOT NULL DEFAULT 1;
