package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// lastBeforeTenants is the last migration of the version with one clock
// and one namespace for everybody.
const lastBeforeTenants = "0015_insurance_cents.sql"

// oldTenantsDB makes a database as that version left it: two companies
// with an app each, a token, Pix keys, a pending job, an event, an uploaded
// scenario, and the one clock, frozen at 2026-03-01.
func oldTenantsDB(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.OpenUpTo(ctx, path, lastBeforeTenants)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hash := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	scopes := strings.Join(auth.Scopes, " ")
	clock, _ := json.Marshal(map[string]time.Time{"sandbox": time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), "wall": time.Now().UTC()})
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('ca', '11444777000161', 'A', 1), ('cb', '11222333000181', 'B', 1)`, nil},
		{`INSERT INTO apps (id, company_id, name, client_id, secret_hash, webhook_url, webhook_secret, scopes, environment, created_at, updated_at) VALUES
			('aa', 'ca', 'a', 'app-a', ?, '', 'whsec_a', ?, 'sandbox', 1, 1), ('ab', 'cb', 'b', 'app-b', ?, '', 'whsec_b', ?, 'sandbox', 1, 1)`,
			[]any{hash("secret-of-a-1234"), scopes, hash("secret-of-b-1234"), scopes}},
		{`INSERT INTO tokens (hash, app_id, scopes, expires_at) VALUES (?, 'aa', 'cob.read', 9000000000000000000)`, []any{hash("old-token")}},
		{`INSERT INTO pix_keys (chave, tipo, app_id, company_id, created_at) VALUES ('11444777000161', 'CNPJ', 'aa', 'ca', 1), ('11222333000181', 'CNPJ', 'ab', 'cb', 1)`, nil},
		{`INSERT INTO jobs (kind, due_at, payload) VALUES ('events.deliver', 1, '{}')`, nil},
		{`INSERT INTO events (seq, id, app_id, cnpj, type, subject_key, occurred_at, envelope) VALUES (1, 'e1', 'ab', '11222333000181', 'sandbox.ping', 'k', 1, '{}')`, nil},
		{`INSERT INTO scenario_uploads (id, source, uploaded_at) VALUES ('meu', ?, 1)`, []any{"id: meu\ntitle: Meu\napplies_to: pix\nfaults:\n  - match: {path: /pix/v2/cob}\n    times: 1\n    reset: true\n"}},
		{`INSERT OR REPLACE INTO settings (key, value) VALUES ('clock', ?)`, []any{string(clock)}},
	}
	err = db.Tx(ctx, func(tx *store.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A database of the version with one clock keeps everything: every
// company lands in the sandbox's own namespace, following the default
// clock (today's global clock), its references intact; events belong to
// their app's company; jobs fall due on the default clock.
func TestTenantsMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "homologa.db")
	oldTenantsDB(t, path)
	db := MustOpen(t, path)
	for _, tt := range []struct {
		q    string
		want int
	}{
		{`SELECT COUNT(*) FROM companies WHERE namespace = ''`, 2},
		{`SELECT COUNT(*) FROM apps WHERE namespace = '' AND client_id IN ('app-a', 'app-b')`, 2},
		{`SELECT COUNT(*) FROM pix_keys WHERE namespace = ''`, 2},
		{`SELECT COUNT(*) FROM tokens WHERE app_id = 'aa'`, 1},
		{`SELECT COUNT(*) FROM events WHERE company_id = 'cb'`, 1},
		{`SELECT COUNT(*) FROM jobs WHERE company_id = '' AND clock = ''`, 1},
		{`SELECT COUNT(*) FROM company_clocks`, 0},
		{`SELECT COUNT(*) FROM scenario_uploads WHERE company_id = '' AND id = 'meu'`, 1},
		{`SELECT COUNT(*) FROM pragma_foreign_key_check`, 0},
	} {
		if got := count(t, db, tt.q); got != tt.want {
			t.Errorf("%s = %d, want %d", tt.q, got, tt.want)
		}
	}
}

// The sandbox starts on that database: each company reads the clock the
// old version kept, and its credentials still work.
func TestTenantsMigrationServes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "homologa.db")
	oldTenantsDB(t, path)
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", DBPath: path, Clock: "frozen", Log: io.Discard, NoDemo: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	for _, app := range []struct{ id, secret string }{{"app-a", "secret-of-a-1234"}, {"app-b", "secret-of-b-1234"}} {
		tok, err := s.Auth.IssueToken(ctx, app.id, app.secret, "")
		if err != nil {
			t.Fatalf("%s: %v", app.id, err)
		}
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/sandbox/clock", nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), `"now":"2026-03-01T12:00:00Z"`) || !strings.Contains(string(body), `"own":false`) {
			t.Errorf("%s's clock after the migration: %s", app.id, body)
		}
	}
}
