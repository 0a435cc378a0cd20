package insurance

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// readjustIndex is the index enrollments readjust by (OPIN
// coverageUpdateIndex; SUMMARY §3.9 proposes IPCA-IBGE).
const readjustIndex = "IPCA-IBGE"

// defaultIPCA is the monthly IPCA (IBGE), in percent, the sandbox ships
// with; the control API replaces or adds months. Months not in the table
// use defaultMonthly: about 4.3 % a year, the central bank's target band.
var defaultIPCA = map[string]float64{
	"2024-01": 0.42, "2024-02": 0.83, "2024-03": 0.16, "2024-04": 0.38, "2024-05": 0.46, "2024-06": 0.21,
	"2024-07": 0.38, "2024-08": -0.02, "2024-09": 0.44, "2024-10": 0.56, "2024-11": 0.39, "2024-12": 0.52,
	"2025-01": 0.16, "2025-02": 1.31, "2025-03": 0.56, "2025-04": 0.43, "2025-05": 0.26, "2025-06": 0.24,
	"2025-07": 0.26, "2025-08": -0.11, "2025-09": 0.48, "2025-10": 0.09,
}

const defaultMonthly = 0.35

// monthlyIndex is the index's value for a month: the table's, else the
// shipped default, else defaultMonthly.
func monthlyIndex(ctx context.Context, tx *store.Tx, indice, mes string) (float64, error) {
	var v float64
	err := tx.QueryRowContext(ctx, `SELECT valor FROM indices WHERE indice = ? AND mes = ?`, indice, mes).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if v, ok := defaultIPCA[mes]; ok && indice == readjustIndex {
		return v, nil
	}
	return defaultMonthly, nil
}

// accumulated is the index over the twelve months before the anniversary
// month: Π(1 + m/100) − 1, in percent.
func accumulated(ctx context.Context, tx *store.Tx, indice string, anniversary time.Time) (float64, error) {
	f := 1.0
	for i := 12; i >= 1; i-- {
		mes := anniversary.AddDate(0, -i, 0).Format("2006-01")
		v, err := monthlyIndex(ctx, tx, indice, mes)
		if err != nil {
			return 0, err
		}
		f *= 1 + v/100
	}
	return math.Round((f-1)*1e6) / 1e4, nil
}

// readjustJob readjusts premium and capitals on the enrollment's
// anniversary (Valor Pago Alterado, motivo REAJUSTE_ANUAL) and schedules
// the next year's.
func (s *Service) readjustJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := loadInscricao(ctx, tx, "", ref.ID)
	if err != nil || in == nil || (in.Status != InscAtiva && in.Status != InscSuspensa) {
		return err
	}
	now := s.Clock.Now()
	pct, err := accumulated(ctx, tx, readjustIndex, now)
	if err != nil {
		return err
	}
	f := 1 + pct/100
	antes, capAntes := premio(in), totalCapital(in)
	total := 0.0
	covs := coverages(in)
	for _, c := range covs {
		capital, _ := c["capitalSegurado"].(float64)
		pr, _ := c["premio"].(float64)
		c["capitalSegurado"], c["premio"] = round2(capital*f), round2(pr*f)
		total += round2(pr * f)
	}
	in.Body["coberturas"] = covs
	in.Body["valorContribuicao"] = round2(total)
	in.Body["competenciaReajuste"] = now.AddDate(1, 0, 0).Format("01/2006")
	if err := s.saveInscricao(ctx, tx, in); err != nil {
		return err
	}
	if err := s.valorPagoAlterado(ctx, tx, in, "REAJUSTE_ANUAL", antes, total, capAntes, totalCapital(in),
		map[string]any{"indice": readjustIndex, "percentual": pct}); err != nil {
		return err
	}
	_, err = s.Jobs.Schedule(ctx, tx, jobReadjust, now.AddDate(1, 0, 0), jobRef{ID: in.ID})
	return err
}

// getIndex is GET /sandbox/indices/{indice}: the months the table holds
// (shipped defaults and control-API values).
func (s *Service) getIndex(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	indice := mux.Vars(r)["indice"]
	months := map[string]float64{}
	if indice == readjustIndex {
		for k, v := range defaultIPCA {
			months[k] = v
		}
	}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT mes, valor FROM indices WHERE indice = ?`, indice)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var mes string
			var v float64
			if err := rows.Scan(&mes, &v); err != nil {
				return err
			}
			months[mes] = v
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(months))
	for k := range months {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := []map[string]any{}
	for _, k := range keys {
		list = append(list, map[string]any{"mes": k, "valor": months[k]})
	}
	return httpx.OK(map[string]any{"indice": indice, "padraoMensal": defaultMonthly, "meses": list}), nil
}

// putIndex is PUT /sandbox/indices/{indice} {"2026-01": 0.52, …}: sets
// monthly values (percent) used by the readjustments that follow.
func (s *Service) putIndex(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in map[string]float64
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/indices.request", &in); err != nil {
		return nil, err
	}
	for mes, v := range in {
		if _, err := time.Parse("2006-01", mes); err != nil {
			return nil, errs.Invalidf(mes, "mês deve ser YYYY-MM")
		}
		if v < -10 || v > 50 {
			return nil, errs.Invalidf(mes, "valor mensal %.2f%% fora de -10..50", v)
		}
	}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		for mes, v := range in {
			if _, err := tx.ExecContext(ctx, `INSERT INTO indices (indice, mes, valor) VALUES (?, ?, ?) ON CONFLICT (indice, mes) DO UPDATE SET valor = excluded.valor`,
				mux.Vars(r)["indice"], mes, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.getIndex(r)
}
