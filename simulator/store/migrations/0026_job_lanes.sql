-- Issue 19: webhook deliveries run in lanes, one per company, beside the
-- one-at-a-time line of every other job. laned marks a job of a kind that
-- runs in its company's lane (the scheduler sets it from the kind when it
-- stores the job, and again at every start); the partial index lets the
-- lane dispatcher find the due ones without walking the line's jobs, and
-- the other lets the line skip a backlog of deliveries.
ALTER TABLE jobs ADD COLUMN laned INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_lanes ON jobs(clock, due_at, id) WHERE laned = 1;
CREATE INDEX jobs_line ON jobs(clock, due_at, id) WHERE laned = 0;
