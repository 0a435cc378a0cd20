-- Issue 19: when an active charge can no longer be paid, for retention
-- (pix.doneAt, written with every body). The pruner read it from each
-- body with json_extract, for every active charge below a company's cap
-- in one statement: behind 20,000 active charges a pass held the
-- database 280-340 ms. Existing rows get what doneAt would write.
ALTER TABLE pix_cobs ADD COLUMN done_at INTEGER;
UPDATE pix_cobs SET done_at = CASE kind
	WHEN 'cob' THEN created_at + COALESCE(json_extract(body, '$.calendario.expiracao'), 86400) * 1000000000 + 1
	WHEN 'cobv' THEN unixepoch(json_extract(body, '$.calendario.dataDeVencimento'),
		'+' || (COALESCE(json_extract(body, '$.calendario.validadeAposVencimento'), 30) + 11) || ' days') * 1000000000
END;
