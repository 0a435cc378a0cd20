-- Indexes in the order the queries read, so SQLite needs no sort.
DROP INDEX pix_received_cob;
CREATE INDEX pix_received_cob ON pix_received(cob_id, horario, e2eid);
CREATE INDEX pix_refunds_order ON pix_refunds(e2eid, created_at, id);
