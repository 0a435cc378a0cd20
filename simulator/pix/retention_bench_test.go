package pix_test

import (
	"context"
	"testing"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// BenchmarkPruneBatchBehindActiveCharges is one batch of the charges'
// pruning beyond the cap (the pruner's first of a pass) for a company
// with 30,000 active charges of 1.5 KB and a cap of 10,000: nothing is
// done with, and the batch looks for something that is. Looking at all
// 20,000 below the cap in one statement held the database for the whole
// scan (280–340 ms in pixbench's creations); a batch looks at a window.
func BenchmarkPruneBatchBehindActiveCharges(b *testing.B) {
	rs := newRetentionSandbox(b)
	ctx := context.Background()
	company := rs.s.Demo.CompanyID
	err := rs.s.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
			INSERT INTO pix_cobs (company_id, app_id, kind, txid, status, revisao, created_at, updated_at, body)
			SELECT ?, 'app', 'cob', printf('bench%025d', i), 'ATIVA', 0, 1700000000000000000 + i, 1700000000000000000 + i,
				json_object('calendario', json_object('criacao', '2026-01-05T12:00:00Z', 'expiracao', 315360000),
					'txid', printf('bench%025d', i), 'status', 'ATIVA', 'valor', json_object('original', '123.45'),
					'chave', '52998224725', 'solicitacaoPagador', printf('%.1200c', 'x'))
			FROM n`, company)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	// Written with each charge where the column is (pix.doneAt).
	rs.s.DB.Tx(ctx, func(tx *store.Tx) error {
		tx.ExecContext(ctx, `UPDATE pix_cobs SET done_at = created_at + 315360000000000000 + 1`)
		return nil
	})
	cut := retention.Cut{Company: company, Keep: 10000, Limit: 25}
	for b.Loop() {
		err := rs.s.DB.Tx(ctx, func(tx *store.Tx) error {
			n, err := rs.s.Pix.Prune(ctx, tx, cut)
			if n != 0 {
				b.Fatalf("deleted %d active charges", n)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
