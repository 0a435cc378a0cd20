package customer

import (
	"context"
	"path/filepath"
	"testing"

	"homologa/simulator/money"
	"homologa/simulator/store"
)

// The months set before index tables were per company become the
// sandbox's, which every company reads; a company's own value then
// overrides them for that company only.
func TestIndexValuesSetBeforeBecomeTheSandboxs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	old, err := store.OpenUpTo(ctx, path, "0017_namespaces.sql")
	if err != nil {
		t.Fatal(err)
	}
	err = old.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO indices (indice, mes, valor) VALUES ('IPCA-IBGE', '2026-01', 0.9)`)
		return err
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
	err = db.Tx(ctx, func(tx *store.Tx) error {
		if err := putIndexMonth(ctx, tx, "c1", indiceReajuste, "2026-01", money.MustParseRate("1.5")); err != nil {
			return err
		}
		for company, want := range map[string]money.Rate{"": money.MustParseRate("0.9"), "c1": money.MustParseRate("1.5"), "c2": money.MustParseRate("0.9")} {
			table, err := effectiveIndex(ctx, tx, company, indiceReajuste)
			if err != nil {
				return err
			}
			if table["2026-01"] != want || table["2025-02"] != defaultIPCA["2025-02"] {
				t.Errorf("company %q reads 2026-01 %v, 2025-02 %v; want %v and the shipped %v", company, table["2026-01"], table["2025-02"], want, defaultIPCA["2025-02"])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
