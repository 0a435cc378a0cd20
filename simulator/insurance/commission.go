package insurance

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/store"
)

// The commission states (SUMMARY §5.5).
const (
	ComEmitida   = "EMITIDA"
	ComPaga      = "PAGA"
	ComEstornada = "ESTORNADA"
)

// commissionRule is an offer's commission (v2 RegraComissao, reduced to
// what the sandbox computes with): a percentage of each paid charge, and
// the months after the start of cover during which a cancellation reverses
// what was paid.
type commissionRule struct {
	Percentual    float64 `json:"percentual"`
	JanelaMeses   int     `json:"janelaEstornoMeses"`
	Periodicidade string  `json:"periodicidade"`
}

// commissionRules are the sandbox's rules per offer; an offer not listed
// gets defaultCommission. Pension plans pay less, as in the market.
var commissionRules = map[string]commissionRule{
	"YZ":  {Percentual: 25, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"YX":  {Percentual: 20, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"EIS": {Percentual: 30, JanelaMeses: 6, Periodicidade: "MENSAL"},
	"A7Z": {Percentual: 25, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"A75": {Percentual: 20, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"105": {Percentual: 3, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"106": {Percentual: 3, JanelaMeses: 12, Periodicidade: "MENSAL"},
}

var defaultCommission = commissionRule{Percentual: 15, JanelaMeses: 12, Periodicidade: "MENSAL"}

func ruleFor(offer string) commissionRule {
	if r, ok := commissionRules[offer]; ok {
		return r
	}
	return defaultCommission
}

// issueCommission accrues the partner's commission on a paid charge
// (Comissão Emitida) and makes sure the month's payout is scheduled.
func (s *Service) issueCommission(ctx context.Context, tx *store.Tx, c *cobranca) error {
	in, err := loadInscricao(ctx, tx, "", c.InscricaoID)
	if err != nil || in == nil {
		return err
	}
	offer, _ := in.Body["codigoModeloProposta"].(string)
	rule := ruleFor(offer)
	valor := round2(c.Valor * rule.Percentual / 100)
	now := s.Clock.Now()
	res, err := tx.ExecContext(ctx, `INSERT INTO comissoes (cobranca_id, inscricao_id, company_id, app_id, valor, percentual, competencia, status, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.InscricaoID, c.CompanyID, c.AppID, valor, rule.Percentual, c.Competencia, ComEmitida, now.UnixNano())
	if err != nil {
		return err
	}
	id, _ := res.LastInsertId()
	own, err := s.ownerOf(ctx, tx, c.AppID)
	if err != nil {
		return err
	}
	if err := s.emit(ctx, tx, own, "comissao.emitida", "Comissão Emitida",
		map[string]any{"inscricaoId": c.InscricaoID, "cobrancaId": c.ID, "comissaoId": id}, fmt.Sprintf("comissao:%d", id),
		map[string]any{"valor": valor, "percentual": rule.Percentual, "competencia": c.Competencia, "valorCobranca": c.Valor}); err != nil {
		return err
	}
	// The payout of the month after: the first day, 10:00 in Brasília.
	local := now.In(brasilia)
	payday := time.Date(local.Year(), local.Month()+1, 1, 10, 0, 0, 0, brasilia)
	mes := payday.Format("2006-01")
	res, err = tx.ExecContext(ctx, `INSERT INTO comissao_lotes (company_id, mes) VALUES (?, ?) ON CONFLICT DO NOTHING`, c.CompanyID, mes)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		_, err = s.Jobs.Schedule(ctx, tx, jobPayout, payday, jobRef{Company: c.CompanyID, Mes: mes})
	}
	return err
}

// payoutJob pays the company's accrued commissions: each becomes PAGA
// (Comissão Paga) in the month's batch.
func (s *Service) payoutJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	now := s.Clock.Now()
	rows, err := tx.QueryContext(ctx, `SELECT id, inscricao_id, cobranca_id, app_id, valor, competencia FROM comissoes WHERE company_id = ? AND status = ? AND created_at <= ? ORDER BY id`,
		ref.Company, ComEmitida, now.UnixNano())
	if err != nil {
		return err
	}
	type due struct {
		id, insc, cob int64
		app, comp     string
		valor         float64
	}
	var all []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.insc, &d.cob, &d.app, &d.valor, &d.comp); err != nil {
			rows.Close()
			return err
		}
		all = append(all, d)
	}
	rows.Close()
	for _, d := range all {
		if _, err := tx.ExecContext(ctx, `UPDATE comissoes SET status = ?, pago_em = ? WHERE id = ?`, ComPaga, now.UnixNano(), d.id); err != nil {
			return err
		}
		own, err := s.ownerOf(ctx, tx, d.app)
		if err != nil {
			return err
		}
		if err := s.emit(ctx, tx, own, "comissao.paga", "Comissão Paga",
			map[string]any{"inscricaoId": d.insc, "cobrancaId": d.cob, "comissaoId": d.id}, fmt.Sprintf("comissao:%d", d.id),
			map[string]any{"valor": d.valor, "dataPagamento": now.Format(time.RFC3339), "competencia": d.comp, "lote": ref.Mes}); err != nil {
			return err
		}
	}
	return nil
}

// reverseCommissions reverses an enrollment's commissions when it is
// cancelled inside its offer's chargeback window (Comissão Estornada; a
// paid one is a negative entry).
func (s *Service) reverseCommissions(ctx context.Context, tx *store.Tx, in *inscricao, motivo string) error {
	offer, _ := in.Body["codigoModeloProposta"].(string)
	rule := ruleFor(offer)
	now := s.Clock.Now()
	if now.After(in.CreatedAt.AddDate(0, rule.JanelaMeses, 0)) {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, cobranca_id, valor, status FROM comissoes WHERE inscricao_id = ? AND status IN (?, ?) ORDER BY id`, in.ID, ComEmitida, ComPaga)
	if err != nil {
		return err
	}
	type rev struct {
		id, cob int64
		valor   float64
		status  string
	}
	var all []rev
	for rows.Next() {
		var r rev
		if err := rows.Scan(&r.id, &r.cob, &r.valor, &r.status); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	own, err := s.ownerOf(ctx, tx, in.AppID)
	if err != nil {
		return err
	}
	for _, r := range all {
		if _, err := tx.ExecContext(ctx, `UPDATE comissoes SET status = ?, estornado_em = ? WHERE id = ?`, ComEstornada, now.UnixNano(), r.id); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, own, "comissao.estornada", "Comissão Estornada",
			map[string]any{"inscricaoId": in.ID, "cobrancaId": r.cob, "comissaoId": r.id}, fmt.Sprintf("comissao:%d", r.id),
			map[string]any{"valor": -r.valor, "motivo": motivo, "statusAnterior": r.status, "janelaEstornoMeses": rule.JanelaMeses}); err != nil {
			return err
		}
	}
	return nil
}
