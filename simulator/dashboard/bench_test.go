package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// BenchmarkResources reads GET /sandbox/resources over 100,000 charges:
// the cost the dashboard puts on the store's one connection at each
// refresh.
func BenchmarkResources(b *testing.B) {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard, OperatorToken: browsertest.OperatorToken})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		for i := range 100_000 {
			// Charges written behind the API's back: only the columns the
			// listing reads matter here.
			if _, err := tx.ExecContext(ctx, `INSERT INTO pix_cobs (company_id, app_id, kind, txid, status, revisao, created_at, updated_at, body)
				VALUES (?, ?, 'cob', ?, 'ATIVA', 0, ?, ?, '{}')`, s.Demo.CompanyID, s.Demo.ID, fmt.Sprintf("bench%027d", i), i, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/sandbox/resources?limit=50", nil)
		req.Header.Set("Authorization", "Bearer "+browsertest.OperatorToken) // the control API is the operator's (issue 15)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}
