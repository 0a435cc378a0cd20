package customer

// companyCustomerDeletes empty a company's customer-cycle tables, children
// before the rows they reference.
var companyCustomerDeletes = []string{
	`DELETE FROM comissoes WHERE company_id = ?`,
	`DELETE FROM comissao_lotes WHERE company_id = ?`,
	`DELETE FROM cobrancas WHERE company_id = ?`,
	`DELETE FROM inscricoes WHERE company_id = ?`,
	`DELETE FROM indices WHERE company_id = ?`,
}
