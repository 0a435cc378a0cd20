package sale

// companySaleDeletes empty a company's sale tables, children before the
// rows they reference. Timelines and pendings carry no company of their
// own: they go with their proposal's.
var companySaleDeletes = []string{
	`DELETE FROM proposta_timeline WHERE numero IN (SELECT numero FROM propostas WHERE company_id = ?)`,
	`DELETE FROM pendencias WHERE numero IN (SELECT numero FROM propostas WHERE company_id = ?)`,
	`DELETE FROM propostas WHERE company_id = ?`,
	`DELETE FROM proposal_numbers WHERE company_id = ?`,
	`DELETE FROM questionario_respostas WHERE company_id = ?`,
	`DELETE FROM signatures WHERE company_id = ?`,
	`DELETE FROM signature_tokens WHERE company_id = ?`,
	`DELETE FROM access_users WHERE company_id = ?`,
	`DELETE FROM documentos WHERE company_id = ?`,
	`DELETE FROM outbox_messages WHERE company_id = ?`,
	`DELETE FROM card_preauths WHERE company_id = ?`,
	`DELETE FROM card_retries WHERE company_id = ?`,
}
