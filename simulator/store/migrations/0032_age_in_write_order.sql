-- Issue 19, the request path: events and recorded requests age out in
-- the order they were written (events.Prune, recorder.Prune walk them by
-- seq and id and stop at the first younger than the cut), so no
-- statement reads their indexes by time, which every event and every
-- request wrote: a page more in each commit that emits, a B-tree entry
-- more in each request the log records and deletes.
DROP INDEX IF EXISTS events_company_age;
DROP INDEX IF EXISTS interactions_company_age;
