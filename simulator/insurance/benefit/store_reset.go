package benefit

// companyBenefitDeletes empty a company's benefit tables, children before
// the rows they reference. Pendings and timelines carry no company of
// their own: they go with their benefit's. A payment is kept on its
// benefit's row.
var companyBenefitDeletes = []string{
	`DELETE FROM beneficio_pendencias WHERE beneficio_id IN (SELECT id FROM beneficios WHERE company_id = ?)`,
	`DELETE FROM beneficio_timeline WHERE beneficio_id IN (SELECT id FROM beneficios WHERE company_id = ?)`,
	`DELETE FROM beneficios WHERE company_id = ?`,
}
