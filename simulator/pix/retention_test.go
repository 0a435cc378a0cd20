package pix_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"homologa/simulator/retention"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// retentionSandbox is a sandbox with a frozen clock and a caller of its
// APIs as the demo app, which may name a scenario.
type retentionSandbox struct {
	t   testing.TB
	s   *server.Server
	tok string
}

func newRetentionSandbox(t testing.TB) *retentionSandbox {
	t.Helper()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	return &retentionSandbox{t: t, s: s, tok: tok.AccessToken}
}

func (rs *retentionSandbox) do(method, path, body, scenario string) (int, map[string]any) {
	rs.t.Helper()
	req, _ := http.NewRequest(method, rs.s.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+rs.tok)
	req.Header.Set("Content-Type", "application/json")
	if scenario != "" {
		req.Header.Set("X-Sandbox-Scenario", scenario)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rs.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func (rs *retentionSandbox) must(want int, method, path, body, scenario string) map[string]any {
	rs.t.Helper()
	code, out := rs.do(method, path, body, scenario)
	if code != want {
		rs.t.Fatalf("%s %s: %d %v, want %d", method, path, code, out, want)
	}
	return out
}

// cob creates an immediate charge that expires after expiracao seconds.
func (rs *retentionSandbox) cob(txid string, expiracao int, scenario string) {
	rs.t.Helper()
	body := `{"calendario":{"expiracao":` + itoa(expiracao) + `},"valor":{"original":"10.00"},"chave":"52998224725"}`
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/cob/"+txid, body, scenario)
}

// pay pays a charge (or, with txid "", credits a Pix to the demo key)
// and returns the Pix's endToEndId.
func (rs *retentionSandbox) pay(txid string) string {
	rs.t.Helper()
	body := `{"txid":"` + txid + `"}`
	if txid == "" {
		body = `{"chave":"52998224725","valor":"5.00"}`
	}
	return rs.must(http.StatusCreated, http.MethodPost, "/sandbox/pix/payments", body, "")["endToEndId"].(string)
}

func (rs *retentionSandbox) advance(by string) {
	rs.t.Helper()
	rs.must(http.StatusOK, http.MethodPost, "/sandbox/clock/advance", `{"by":"`+by+`"}`, "")
}

// prune runs the Pix retention of the demo company with cut, its Before
// counted back from the company's clock by age.
func (rs *retentionSandbox) prune(age time.Duration, keep, limit int) int {
	rs.t.Helper()
	ctx := context.Background()
	cut := retention.Cut{Company: rs.s.Demo.CompanyID, Keep: keep, Limit: limit}
	if age > 0 {
		cut.Before = rs.s.Clocks.NowOf(rs.s.Demo.CompanyID).Add(-age)
	}
	var n int
	err := rs.s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		n, err = rs.s.Pix.Prune(ctx, tx, cut)
		return err
	})
	if err != nil {
		rs.t.Fatal(err)
	}
	return n
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func txid(name string) string { return (name + strings.Repeat("x", 30))[:30] }

// With a retention of seven days, the charges nothing can happen to go
// with their Pix, but a Pix, and the charge it paid, stays for its 90 days
// of refunds: ten days on, only the charges without a Pix go; 98 days on
// (its window closed more than seven days ago), the paid ones go too,
// while an active charge, and one a scenario still drives, stay.
func TestPruneFinishedCharges(t *testing.T) {
	rs := newRetentionSandbox(t)
	rs.cob(txid("paid"), 3600, "")
	paidPix := rs.pay(txid("paid"))
	rs.cob(txid("removed"), 3600, "")
	rs.must(http.StatusOK, http.MethodPatch, "/pix/v2/cob/"+txid("removed"), `{"status":"REMOVIDA_PELO_USUARIO_RECEBEDOR"}`, "")
	rs.cob(txid("expired"), 3600, "")
	rs.cob(txid("active"), 120*24*3600, "")
	rs.cob(txid("refunded"), 3600, "")
	refunded := rs.pay(txid("refunded"))
	rs.cob(txid("driven"), 3600, "cob-paga-e-devolvida") // paid after 30 s, then waits for a refund request
	freePix := rs.pay("")
	rs.advance("10d")
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/pix/"+refunded+"/devolucao/d1", `{"valor":"1.00"}`, "")

	if n := rs.prune(7*24*time.Hour, 0, 100); n != 2 {
		t.Errorf("day 10: deleted %d, want 2 (the removed and the expired charge)", n)
	}
	rs.wantCharges(map[string]int{"paid": 200, "removed": 404, "expired": 404, "active": 200, "refunded": 200, "driven": 200})
	rs.wantPix(map[string]int{paidPix: 200, freePix: 200, refunded: 200})
	// Refundable on day 89, refused for its date (not unknown) on day 91.
	rs.advance("79d")
	rs.prune(7*24*time.Hour, 0, 100)
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/pix/"+paidPix+"/devolucao/d89", `{"valor":"1.00"}`, "")
	rs.advance("2d")
	rs.prune(7*24*time.Hour, 0, 100)
	if code, out := rs.do(http.MethodPut, "/pix/v2/pix/"+freePix+"/devolucao/d91", `{"valor":"1.00"}`, ""); code != http.StatusBadRequest {
		t.Errorf("a refund on day 91: %d %v, want 400 (the window closed)", code, out)
	}

	rs.advance("7d")
	if n := rs.prune(7*24*time.Hour, 0, 100); n != 3 {
		t.Errorf("day 98: deleted %d, want 3 (the paid and refunded charges, the Pix without one)", n)
	}
	rs.wantCharges(map[string]int{"paid": 404, "active": 200, "refunded": 404, "driven": 200})
	rs.wantPix(map[string]int{paidPix: 404, freePix: 404, refunded: 404})
	// Nothing left over: the paid charges' locations and Pix went with them.
	var locs, received int
	rs.s.DB.Read(context.Background(), func(tx *store.Tx) error {
		return tx.QueryRowContext(context.Background(), `SELECT (SELECT COUNT(*) FROM pix_locs), (SELECT COUNT(*) FROM pix_received)`).Scan(&locs, &received)
	})
	if locs != 2 || received != 1 {
		t.Errorf("left %d locations and %d Pix, want 2 (the kept charges') and 1 (driven)", locs, received)
	}
}

// wantCharges checks the status GET /cob/{txid} answers for each charge.
func (rs *retentionSandbox) wantCharges(want map[string]int) {
	rs.t.Helper()
	for name, code := range want {
		if got, out := rs.do(http.MethodGet, "/pix/v2/cob/"+txid(name), "", ""); got != code {
			rs.t.Errorf("GET the %s charge: %d %v, want %d", name, got, out["status"], code)
		}
	}
}

// wantPix checks the status GET /pix/{e2eid} answers for each Pix.
func (rs *retentionSandbox) wantPix(want map[string]int) {
	rs.t.Helper()
	for e2eid, code := range want {
		if got, _ := rs.do(http.MethodGet, "/pix/v2/pix/"+e2eid, "", ""); got != code {
			rs.t.Errorf("GET the Pix %s: %d, want %d", e2eid, got, code)
		}
	}
}

// Beyond the newest keep charges, the finished ones go, oldest first and
// a batch at a time; an active one stays wherever it stands.
func TestPruneChargesBeyondTheCap(t *testing.T) {
	rs := newRetentionSandbox(t)
	names := []string{"c1", "c2active", "c3", "c4", "c5", "c6"}
	for _, name := range names {
		exp := 60
		if name == "c2active" {
			exp = 30 * 24 * 3600
		}
		rs.cob(txid(name), exp, "")
		rs.advance("1m") // each charge a minute younger, and the last ones expired too
	}
	rs.advance("1h")
	if n := rs.prune(0, 2, 1); n != 1 {
		t.Fatalf("a batch of 1 deleted %d", n)
	}
	if n := rs.prune(0, 2, 100); n != 2 {
		t.Fatalf("deleted %d, want 2 more (c3, c4)", n)
	}
	for name, want := range map[string]int{"c1": 404, "c2active": 200, "c3": 404, "c4": 404, "c5": 200, "c6": 200} {
		if code, _ := rs.do(http.MethodGet, "/pix/v2/cob/"+txid(name), "", ""); code != want {
			t.Errorf("GET %s: %d, want %d", name, code, want)
		}
	}
}

// A due-date charge is done with from the start (UTC) of the eleventh day
// after its due date plus validadeAposVencimento, not before; an
// immediate charge whose revision lengthened its expiracao is not done
// with at its first expiracao.
func TestPruneChargesByWhenTheyStopBeingPayable(t *testing.T) {
	rs := newRetentionSandbox(t) // 2026-01-05 12:00 UTC
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/cobv/"+txid("due"), `{"calendario":{"dataDeVencimento":"2026-01-10","validadeAposVencimento":2},
		"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"10.00"},"chave":"52998224725"}`, "")
	rs.cob(txid("lengthened"), 60, "")
	rs.must(http.StatusOK, http.MethodPatch, "/pix/v2/cob/"+txid("lengthened"), `{"calendario":{"expiracao":2592000}}`, "")
	rs.advance("17d") // 2026-01-22 12:00: the cobv's last day plus ten
	if n := rs.prune(time.Hour, 0, 100); n != 0 {
		t.Errorf("on 2026-01-22 deleted %d, want none", n)
	}
	rs.advance("12h") // 2026-01-23 00:00
	if n := rs.prune(time.Hour, 0, 100); n != 1 {
		t.Errorf("on 2026-01-23 deleted %d, want the cobv", n)
	}
	if code, _ := rs.do(http.MethodGet, "/pix/v2/cob/"+txid("lengthened"), "", ""); code != http.StatusOK {
		t.Errorf("GET the lengthened cob: %d, want 200", code)
	}
}

// The migration that added done_at fills it for existing charges as
// doneAt writes it for new ones, defaults included.
func TestDoneAtMigrationMatchesDoneAt(t *testing.T) {
	rs := newRetentionSandbox(t)
	rs.cob(txid("exp"), 600, "")
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/cob/"+txid("default"), `{"valor":{"original":"10.00"},"chave":"52998224725"}`, "")
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/cobv/"+txid("due"), `{"calendario":{"dataDeVencimento":"2026-02-27","validadeAposVencimento":5},
		"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"10.00"},"chave":"52998224725"}`, "")
	rs.must(http.StatusCreated, http.MethodPut, "/pix/v2/cobv/"+txid("duedefault"), `{"calendario":{"dataDeVencimento":"2026-12-31"},
		"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"10.00"},"chave":"52998224725"}`, "")
	migration, err := os.ReadFile("../store/migrations/0029_charge_done_at.sql")
	if err != nil {
		t.Fatal(err)
	}
	update := string(migration[strings.Index(string(migration), "UPDATE pix_cobs"):])
	ctx := context.Background()
	read := func() map[string]int64 {
		got := map[string]int64{}
		rs.s.DB.Read(ctx, func(tx *store.Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT txid, COALESCE(done_at, -1) FROM pix_cobs`)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id string
				var at int64
				rows.Scan(&id, &at)
				got[id] = at
			}
			return rows.Err()
		})
		return got
	}
	written := read()
	err = rs.s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE pix_cobs SET done_at = NULL`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, update)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	migrated := read()
	if len(written) != 4 {
		t.Fatalf("charges %v", written)
	}
	for id, at := range written {
		if at <= 0 || migrated[id] != at {
			t.Errorf("%s: done_at %d written, %d migrated", id, at, migrated[id])
		}
	}
	for id, want := range map[string]time.Time{txid("due"): time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC), txid("duedefault"): time.Date(2027, 2, 10, 0, 0, 0, 0, time.UTC)} {
		if written[id] != want.UnixNano() {
			t.Errorf("%s: done_at %s, want %s", id, time.Unix(0, written[id]).UTC(), want)
		}
	}
}
