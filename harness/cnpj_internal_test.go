package harness

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"homologa/simulator/server"
)

// A second homologa test against the same long-running sandbox must not
// trip over the companies of the first: when the next CNPJ is taken, the
// scenario moves on to another instead of failing the partner.
func TestPartnerAppSkipsTakenCNPJs(t *testing.T) {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	reg, err := embeddedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	// An earlier run registered the next three CNPJs.
	start := cnpjSeq.Load()
	first := NewWorld(s.URL(), reg, Credentials{})
	defer first.Close()
	first.portal = demoPortal(t, s.URL())
	var taken []string
	for range 3 {
		c := nextCNPJ()
		if err := first.companyAndApp("Rodada anterior", c, "app"); err != nil {
			t.Fatal(err)
		}
		taken = append(taken, c)
	}
	cnpjSeq.Store(start)

	w := NewWorld(s.URL(), reg, Credentials{})
	defer w.Close()
	w.portal = first.portal
	w.Partner = &Partner{Name: "p", URL: "http://127.0.0.1:1"}
	if err := w.partnerApp(); err != nil {
		t.Fatalf("partnerApp with the next CNPJs taken: %v", err)
	}
	for _, c := range taken {
		if w.vars["chave"] == c {
			t.Fatalf("the scenario reused the taken CNPJ %s", c)
		}
	}
}

// demoPortal logs in as the demo account: a portal API token.
func demoPortal(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/portal/tokens", nil)
	req.SetBasicAuth(server.DemoEmail, server.DemoPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || c.Token == "" {
		t.Fatalf("demo login: %d %v", resp.StatusCode, err)
	}
	return c.Token
}
