package pix

// companyPixDeletes empty a company's Pix tables, children before the rows
// they reference (foreign keys are on). Revisions and refunds carry no
// company of their own: they go with their charge's and their Pix's.
var companyPixDeletes = []string{
	`DELETE FROM pix_cob_revisions WHERE cob_id IN (SELECT id FROM pix_cobs WHERE company_id = ?)`,
	`DELETE FROM pix_refunds WHERE e2eid IN (SELECT e2eid FROM pix_received WHERE company_id = ?)`,
	`DELETE FROM pix_received WHERE company_id = ?`,
	`DELETE FROM pix_cobs WHERE company_id = ?`,
	`DELETE FROM pix_locs WHERE company_id = ?`,
	`DELETE FROM pix_lote_items WHERE company_id = ?`,
	`DELETE FROM pix_lotes WHERE company_id = ?`,
	`DELETE FROM pix_webhooks WHERE company_id = ?`,
	`DELETE FROM pix_solicrecs WHERE company_id = ?`,
	`DELETE FROM pix_cobrs WHERE company_id = ?`,
	`DELETE FROM pix_recs WHERE company_id = ?`,
	`DELETE FROM pix_locrecs WHERE company_id = ?`,
	`DELETE FROM pix_rec_webhooks WHERE company_id = ?`,
}
