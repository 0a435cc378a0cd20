package benefit

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

const beneficioColumns = `id, protocolo, company_id, app_id, inscricao_id, numero, cpf, causa, status, data_ocorrencia, aviso, coberturas,
	valor, pago_em, beneficiarios, motivo_recusa, descricao_recusa, created_at, updated_at`

func scanBeneficio(row store.Scanner) (*beneficio, error) {
	var b beneficio
	var aviso, covs, benefs string
	var created, updated int64
	var paid sql.NullInt64
	if err := row.Scan(&b.ID, &b.Protocolo, &b.CompanyID, &b.AppID, &b.InscricaoID, &b.Numero, &b.CPF, &b.Causa, &b.Status, &b.DataOcorrencia,
		&aviso, &covs, &b.Valor, &paid, &benefs, &b.MotivoRecusa, &b.DescricaoRecusa, &created, &updated); err != nil {
		return nil, err
	}
	if paid.Valid {
		b.DataPagamento = time.Unix(0, paid.Int64).In(wire.Brasilia).Format(time.DateOnly)
	}
	for _, doc := range []struct {
		name string
		raw  string
		v    any
	}{{"aviso", aviso, &b.Aviso}, {"coberturas", covs, &b.Coberturas}, {"beneficiarios", benefs, &b.Beneficiarios}} {
		if err := json.Unmarshal([]byte(doc.raw), doc.v); err != nil {
			return nil, fmt.Errorf("beneficio %d %s: %w", b.ID, doc.name, err)
		}
	}
	b.CreatedAt, b.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &b, nil
}

// loadBeneficio reads the company's benefit id; nil when it has none.
func loadBeneficio(ctx context.Context, tx *store.Tx, companyID string, id int64) (*beneficio, error) {
	return store.Maybe(scanBeneficio(tx.QueryRowContext(ctx, `SELECT `+beneficioColumns+` FROM beneficios WHERE id = ? AND company_id = ?`, id, companyID)))
}

// loadBeneficioAnyCompany reads benefit id of whichever company: the
// insurer's regulation (scenarios), never a partner's request.
func loadBeneficioAnyCompany(ctx context.Context, tx *store.Tx, id int64) (*beneficio, error) {
	return store.Maybe(scanBeneficio(tx.QueryRowContext(ctx, `SELECT `+beneficioColumns+` FROM beneficios WHERE id = ?`, id)))
}

// listBeneficios reads the company's benefits, oldest first.
func listBeneficios(ctx context.Context, tx *store.Tx, companyID string, f beneficioFilter) ([]*beneficio, error) {
	q, args := `SELECT `+beneficioColumns+` FROM beneficios WHERE company_id = ?`, []any{companyID}
	for _, c := range []struct{ column, value string }{{"inscricao_id", f.InscricaoID}, {"numero", f.Numero}, {"cpf", f.CPF}, {"status", f.Status}} {
		if c.value != "" {
			q, args = q+` AND `+c.column+` = ?`, append(args, c.value)
		}
	}
	bs, err := store.All(ctx, tx, scanBeneficio, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("list beneficios: %w", err)
	}
	return bs, nil
}

// openBeneficio is the benefit still in progress for the enrollment's
// cause; 0 when there is none.
func openBeneficio(ctx context.Context, tx *store.Tx, inscricaoID int64, causa string) (int64, error) {
	var open int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM beneficios WHERE inscricao_id = ? AND causa = ? AND status IN (?, ?, ?, ?, ?)`,
		inscricaoID, causa, BenAvisado, BenEmRegulacao, BenPendente, BenAprovado, BenReaberto).Scan(&open)
	if err != nil {
		return 0, fmt.Errorf("open benefits of inscricao %d: %w", inscricaoID, err)
	}
	return open, nil
}

// insertBeneficio stores a new notice; its protocol is made of its id.
func insertBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, protocolo func(id int64) string) error {
	aviso, err := json.Marshal(b.Aviso)
	if err != nil {
		return err
	}
	covs, err := json.Marshal(b.Coberturas)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO beneficios (protocolo, company_id, app_id, inscricao_id, numero, cpf, causa, status, data_ocorrencia, aviso, coberturas, created_at, updated_at)
		VALUES ('', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, b.CompanyID, b.AppID, b.InscricaoID, b.Numero, b.CPF, b.Causa, b.Status,
		b.DataOcorrencia, string(aviso), string(covs), b.CreatedAt.UnixNano(), b.UpdatedAt.UnixNano())
	if err != nil {
		return fmt.Errorf("insert beneficio: %w", err)
	}
	if b.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	b.Protocolo = protocolo(b.ID)
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET protocolo = ? WHERE id = ?`, b.Protocolo, b.ID); err != nil {
		return fmt.Errorf("protocolo of beneficio %d: %w", b.ID, err)
	}
	return nil
}

// storeBeneficioStatus writes a benefit's status; only a move of the
// benefit machine calls it.
func storeBeneficioStatus(ctx context.Context, tx *store.Tx, id int64, status string, at time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE beneficios SET status = ?, updated_at = ? WHERE id = ?`, status, at.UnixNano(), id)
	return err
}

// storeRecusa writes a refusal's reason, or clears it ("", "") when the
// benefit is reopened.
func storeRecusa(ctx context.Context, tx *store.Tx, id int64, motivo, descricao string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET motivo_recusa = ?, descricao_recusa = ? WHERE id = ?`, motivo, descricao, id); err != nil {
		return fmt.Errorf("refusal of beneficio %d: %w", id, err)
	}
	return nil
}

// storePagamento writes what a payment paid and to whom.
func storePagamento(ctx context.Context, tx *store.Tx, id int64, valor money.Cents, at time.Time, recipients []beneficiario) error {
	rj, err := json.Marshal(recipients)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET valor = ?, pago_em = ?, beneficiarios = ? WHERE id = ?`, valor, at.UnixNano(), string(rj), id); err != nil {
		return fmt.Errorf("pay beneficio %d: %w", id, err)
	}
	return nil
}
