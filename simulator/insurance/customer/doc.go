// Package customer is the customer cycle of the insurer's partner API:
// the enrollments (inscricao) implantation opens, their charges
// (cobranca) and the partner's commissions (comissao), the annual
// readjustment by an index table, and what a partner changes on an
// enrollment (cancellation, reduction, billing method, registration
// data). Its scheduled work runs as jobs.
package customer
