-- Issue 19, bounded storage: the indexes the retention pruner's statements
-- read (the retention.go file of events, recorder, pix and scenario), so
-- that no pass walks a whole table.

-- A delivery by its event: the pruner asks whether an event still has a
-- delivery on its way, and deletes an event's deliveries with it. Deleting
-- an event also makes SQLite check the foreign key from deliveries, which
-- without this index reads every delivery of every company.
CREATE INDEX deliveries_event ON deliveries(event_seq, status);

-- A company's events and requests by their age on its sandbox clock.
CREATE INDEX events_company_age ON events(company_id, occurred_at);
CREATE INDEX interactions_company_age ON interactions(company_id, at);

-- A company's charges by their last change (a due-date charge paid today
-- is recent, however long ago it was created), and a charge's location.
CREATE INDEX pix_cobs_company_updated ON pix_cobs(company_id, updated_at);
CREATE INDEX pix_locs_cob ON pix_locs(cob_id);

-- An app's scenario bindings by their last change.
CREATE INDEX scenario_bindings_app ON scenario_bindings(app_id, updated_at);
