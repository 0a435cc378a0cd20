package customer

import (
	"context"
	"maps"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/money"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// defaultIPCA is the monthly IPCA (IBGE), in percent, the sandbox ships
// with; the control API replaces or adds months. Months not in the table
// use defaultMonthly: about 4.3 % a year, the central bank's target band.
var defaultIPCA = percents(map[string]string{
	"2024-01": "0.42", "2024-02": "0.83", "2024-03": "0.16", "2024-04": "0.38", "2024-05": "0.46", "2024-06": "0.21",
	"2024-07": "0.38", "2024-08": "-0.02", "2024-09": "0.44", "2024-10": "0.56", "2024-11": "0.39", "2024-12": "0.52",
	"2025-01": "0.16", "2025-02": "1.31", "2025-03": "0.56", "2025-04": "0.43", "2025-05": "0.26", "2025-06": "0.24",
	"2025-07": "0.26", "2025-08": "-0.11", "2025-09": "0.48", "2025-10": "0.09",
})

var defaultMonthly = money.MustParseRate("0.35")

// percents reads a table of the sandbox's own percentages, written as
// the index publishes them.
func percents(months map[string]string) map[string]money.Rate {
	out := make(map[string]money.Rate, len(months))
	for mes, v := range months {
		out[mes] = money.MustParseRate(v)
	}
	return out
}

// Bounds of a monthly value the control API takes, in percent.
var (
	minMonthly = -10 * money.RateOne
	maxMonthly = 50 * money.RateOne
)

// indexOwner is the company_id a scope's index values are stored under:
// a company's own (read over the sandbox's), or for the operator the
// sandbox's table (stored under no company: the shipped months and what
// the operator set, which every company without a value of its own reads).
func indexOwner(sc tenant.Scope) (string, error) {
	if !sc.Valid() {
		return "", errs.Errorf(errs.Forbidden, "os índices de uma empresa são definidos com o token de um app dela")
	}
	company, _ := sc.Company()
	return company, nil
}

// effectiveIndex is an index's months (percent) as a company's
// readjustments read them: the shipped defaults, over them the sandbox's
// values, over those the company's own (companyID "" reads the sandbox's
// table alone).
func effectiveIndex(ctx context.Context, tx *store.Tx, companyID, indice string) (map[string]money.Rate, error) {
	months := map[string]money.Rate{}
	if indice == indiceReajuste {
		maps.Copy(months, defaultIPCA)
	}
	stored, err := loadIndex(ctx, tx, companyID, indice)
	maps.Copy(months, stored)
	return months, err
}

// monthOf is a month's value in a table, defaultMonthly for a month the
// table does not hold.
func monthOf(table map[string]money.Rate, mes string) money.Rate {
	if v, ok := table[mes]; ok {
		return v
	}
	return defaultMonthly
}

// indexTable is an index's months as the scope sees them.
func (s *Service) indexTable(ctx context.Context, sc tenant.Scope, indice string) (map[string]money.Rate, error) {
	owner, err := indexOwner(sc)
	if err != nil {
		return nil, err
	}
	var months map[string]money.Rate
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		months, err = effectiveIndex(ctx, tx, owner, indice)
		return err
	})
	return months, err
}

// setIndex sets monthly values (percent, each month YYYY-MM within -10..50)
// of the scope, which the readjustments that follow use: a company's
// values change only its own readjustments.
func (s *Service) setIndex(ctx context.Context, sc tenant.Scope, indice string, months map[string]money.Rate) error {
	for mes, v := range months {
		if _, err := time.Parse("2006-01", mes); err != nil {
			return errs.Invalidf(mes, "mês deve ser YYYY-MM")
		}
		if v < minMonthly || v > maxMonthly {
			return errs.Invalidf(mes, "valor mensal %s%% fora de -10..50", v)
		}
	}
	owner, err := indexOwner(sc)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		for mes, v := range months {
			if err := putIndexMonth(ctx, tx, owner, indice, mes, v); err != nil {
				return err
			}
		}
		return nil
	})
}
