package sale

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// firstNumero is where proposal numbers start: six digits, as the
// reservation answer seen (proposalReservedNumber: 123456).
const firstNumero = 100001

// nextNumero hands out the next proposal number, reserved or not. The
// store runs one writing transaction at a time, so two proposals never
// get the same one.
func nextNumero(ctx context.Context, tx *store.Tx) (int64, error) {
	var n sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT MAX(n) FROM (SELECT MAX(numero) AS n FROM propostas UNION ALL SELECT MAX(numero) FROM proposal_numbers)`).Scan(&n)
	if err != nil {
		return 0, err
	}
	if !n.Valid || n.Int64 < firstNumero {
		return firstNumero, nil
	}
	return n.Int64 + 1, nil
}

func insertReservation(ctx context.Context, tx *store.Tx, numero int64, companyID, offerID string, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO proposal_numbers (numero, company_id, offer_id, created_at) VALUES (?, ?, ?, ?)`,
		numero, companyID, offerID, at.UnixNano())
	return err
}

// loadReservation reads the company's reservation of number numero; nil
// when it did not reserve it.
func loadReservation(ctx context.Context, tx *store.Tx, companyID string, numero int64) (*reservation, error) {
	r := reservation{CompanyID: companyID}
	err := tx.QueryRowContext(ctx, `SELECT offer_id FROM proposal_numbers WHERE numero = ? AND company_id = ?`, numero, companyID).Scan(&r.OfferID)
	return store.Maybe(&r, err)
}

const propostaColumns = `numero, company_id, app_id, offer_id, cpf, status, motivo, valor_total, request, created_at, updated_at`

func scanProposta(row store.Scanner) (*Proposta, error) {
	var p Proposta
	var req string
	var created, updated int64
	if err := row.Scan(&p.Numero, &p.CompanyID, &p.AppID, &p.OfferID, &p.CPF, &p.Status, &p.Motivo, &p.Total, &req, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(req), &p.Request); err != nil {
		return nil, fmt.Errorf("proposta %d: %w", p.Numero, err)
	}
	p.CreatedAt, p.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &p, nil
}

// propostas are the stored proposals, by number.
var propostas = wire.Table[Proposta]{Name: "propostas", Key: "numero", Columns: propostaColumns, Scan: scanProposta}

func insertProposta(ctx context.Context, tx *store.Tx, p *Proposta) error {
	req, err := json.Marshal(p.Request)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO propostas (numero, company_id, app_id, offer_id, cpf, status, valor_total, request, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.Numero, p.CompanyID, p.AppID, p.OfferID, p.CPF, p.Status, p.Total, string(req),
		p.CreatedAt.UnixNano(), p.UpdatedAt.UnixNano())
	return err
}

func updatePropostaStatus(ctx context.Context, tx *store.Tx, numero int64, status, motivo string, at time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE propostas SET status = ?, motivo = ?, updated_at = ? WHERE numero = ?`, status, motivo, at.UnixNano(), numero)
	return err
}
