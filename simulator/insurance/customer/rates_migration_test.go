package customer

import (
	"context"
	"path/filepath"
	"testing"

	"homologa/simulator/money"
	"homologa/simulator/store"
)

// lastBeforeRates is the last migration of the version that kept a
// commission's percentual and an index's months as REAL percentages.
const lastBeforeRates = "0034_widget_origins.sql"

// A database that version made, with REAL rates (0.1 + 0.2 written as
// the float it is), reads back after the migrations as exact rates: the
// decimals that were written, and the columns INTEGER.
func TestRatesStoredAsRealBecomeExact(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	old, err := store.OpenUpTo(ctx, path, lastBeforeRates)
	if err != nil {
		t.Fatal(err)
	}
	const at = 1767614400000000000
	err = old.Tx(ctx, func(tx *store.Tx) error {
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO indices (company_id, indice, mes, valor) VALUES ('', 'IPCA-IBGE', '2026-01', 0.52), ('c1', 'IPCA-IBGE', '2026-01', ?),
				('c1', 'IPCA-IBGE', '2026-02', -0.11), ('c1', 'IPCA-IBGE', '2026-03', 0.12345678)`, []any{0.1 + 0.2}},
			{`INSERT INTO propostas (numero, company_id, app_id, offer_id, cpf, status, request, created_at, updated_at, valor_total)
				VALUES (100001, 'c1', 'a1', 'YZ', '52998224725', 'IMPLANTADA', '{}', ?, ?, 4634)`, []any{at, at}},
			{`INSERT INTO inscricoes (id, numero, company_id, app_id, cpf, produto_id, status, body, created_at, updated_at)
				VALUES (1, 100001, 'c1', 'a1', '52998224725', 511, 'ATIVA', '{}', ?, ?)`, []any{at, at}},
			{`INSERT INTO cobrancas (id, inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, created_at, updated_at)
				VALUES (1, 1, 'c1', 'a1', '01/2026', 1, 4634, '2026-01-10', 'BOLETO', 'PAGA', ?, ?)`, []any{at, at}},
			{`INSERT INTO comissoes (id, cobranca_id, inscricao_id, company_id, app_id, valor, percentual, competencia, status, created_at)
				VALUES (1, 1, 1, 'c1', 'a1', 1159, 25, '01/2026', 'EMITIDA', ?), (2, 1, 1, 'c1', 'a1', 14, 0.3, '01/2026', 'EMITIDA', ?)`, []any{at, at}},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
				return err
			}
		}
		return nil
	})
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := money.MustParseRate
	err = db.Read(ctx, func(tx *store.Tx) error {
		months, err := loadIndex(ctx, tx, "c1", "IPCA-IBGE")
		if err != nil {
			return err
		}
		for mes, want := range map[string]money.Rate{"2026-01": r("0.3"), "2026-02": r("-0.11"), "2026-03": r("0.12345678")} {
			if months[mes] != want {
				t.Errorf("c1's %s: %s, want %s", mes, months[mes], want)
			}
		}
		if months, err = loadIndex(ctx, tx, "c2", "IPCA-IBGE"); err != nil || months["2026-01"] != r("0.52") {
			t.Errorf("the sandbox's 2026-01: %s, %v; want 0.52", months["2026-01"], err)
		}
		list, err := listComissoes(ctx, tx, "c1", comissaoFilter{})
		if err != nil {
			return err
		}
		if len(list) != 2 || list[0].Percentual != r("0.3") || list[1].Percentual != r("25") || list[1].Valor != 1159 {
			t.Errorf("commissions %+v %+v; want percentual 0.3 and 25", list[0], list[1])
		}
		for _, col := range []string{"SELECT DISTINCT typeof(valor) FROM indices", "SELECT DISTINCT typeof(percentual) FROM comissoes"} {
			var typ string
			if err := tx.QueryRowContext(ctx, col).Scan(&typ); err != nil || typ != "integer" {
				t.Errorf("%s: %q, %v; want integer", col, typ, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
