package customer

import (
	"context"
	"errors"
	"maps"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/store"
)

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

// errNoMonth is a month the index table does not hold.
var errNoMonth = errors.New("no such month")

// monthlyIndex is the index's value for a month: the table's, else the
// shipped default, else defaultMonthly.
func monthlyIndex(ctx context.Context, tx *store.Tx, indice, mes string) (float64, error) {
	v, err := loadIndexMonth(ctx, tx, indice, mes)
	if !errors.Is(err, errNoMonth) {
		return v, err
	}
	if v, ok := defaultIPCA[mes]; ok && indice == indiceReajuste {
		return v, nil
	}
	return defaultMonthly, nil
}

// indexTable is an index's months (percent) as the readjustments read
// them: the shipped defaults and what the control API set.
func (s *Service) indexTable(ctx context.Context, indice string) (map[string]float64, error) {
	months := map[string]float64{}
	if indice == indiceReajuste {
		maps.Copy(months, defaultIPCA)
	}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		stored, err := loadIndex(ctx, tx, indice)
		maps.Copy(months, stored)
		return err
	})
	return months, err
}

// setIndex sets monthly values (percent, each month YYYY-MM within -10..50)
// that the readjustments which follow use.
func (s *Service) setIndex(ctx context.Context, indice string, months map[string]float64) error {
	for mes, v := range months {
		if _, err := time.Parse("2006-01", mes); err != nil {
			return errs.Invalidf(mes, "mês deve ser YYYY-MM")
		}
		if v < -10 || v > 50 {
			return errs.Invalidf(mes, "valor mensal %.2f%% fora de -10..50", v)
		}
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		for mes, v := range months {
			if err := putIndexMonth(ctx, tx, indice, mes, v); err != nil {
				return err
			}
		}
		return nil
	})
}
