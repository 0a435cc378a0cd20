package pix_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/server"
)

// call is a request to a sandbox's Pix API with the demo app's token.
type call func(method, path, body string) (int, map[string]any)

// mustOpenSandbox starts a sandbox with a frozen clock on 127.0.0.1:0.
func mustOpenSandbox(tb testing.TB) call {
	tb.Helper()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), Log: io.Discard})
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close(ctx) })
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		tb.Fatal(err)
	}
	return func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out map[string]any
		json.Unmarshal(b, &out)
		return resp.StatusCode, out
	}
}

// A charge drafted in the write transaction (the caches are cold on the
// first one) and one drafted before it (the second) are the same charge
// but for what identifies it.
func TestChargeCreationIsOnePath(t *testing.T) {
	do := mustOpenSandbox(t)
	body := `{"calendario":{"expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45"},"chave":"52998224725"}`
	var got []map[string]any
	for _, txid := range []string{"onepathonepathonepathonepath01", "onepathonepathonepathonepath02"} {
		code, out := do(http.MethodPut, "/pix/v2/cob/"+txid, body)
		if code != http.StatusCreated {
			t.Fatalf("PUT %s: %d %v", txid, code, out)
		}
		for _, k := range []string{"txid", "loc", "location", "pixCopiaECola"} {
			if out[k] == nil {
				t.Errorf("PUT %s: no %s in %v", txid, k, out)
			}
			delete(out, k)
		}
		got = append(got, out)
	}
	a, _ := json.Marshal(got[0])
	b, _ := json.Marshal(got[1])
	if string(a) != string(b) {
		t.Errorf("the two paths differ:\n%s\n%s", a, b)
	}
}

// Cancelling a recurrence cancels its confirmation request still
// travelling, through the request's state machine.
func TestCancelRecCancelsItsSolicRec(t *testing.T) {
	do := mustOpenSandbox(t)
	code, rec := do(http.MethodPost, "/pix/v2/rec", `{"vinculo":{"contrato":"C1","objeto":"x","devedor":{"cpf":"52998224725","nome":"A"}},
		"calendario":{"dataInicial":"2026-02-01","periodicidade":"MENSAL"},"valor":{"valorRec":"10.00"},"politicaRetentativa":"NAO_PERMITE"}`)
	if code != http.StatusCreated {
		t.Fatalf("POST /rec: %d %v", code, rec)
	}
	code, sol := do(http.MethodPost, "/pix/v2/solicrec", `{"idRec":"`+rec["idRec"].(string)+`","calendario":{"dataExpiracaoSolicitacao":"2026-01-10T00:00:00Z"},
		"destinatario":{"cpf":"52998224725","conta":"1","agencia":"1","ispbParticipante":"99999009"}}`)
	if code != http.StatusCreated {
		t.Fatalf("POST /solicrec: %d %v", code, sol)
	}
	if code, out := do(http.MethodPatch, "/pix/v2/rec/"+rec["idRec"].(string), `{"status":"CANCELADA"}`); code != http.StatusOK || out["status"] != "CANCELADA" {
		t.Fatalf("PATCH /rec: %d %v", code, out)
	}
	if code, out := do(http.MethodGet, "/pix/v2/solicrec/"+sol["idSolicRec"].(string), ""); code != http.StatusOK || out["status"] != "CANCELADA" {
		t.Errorf("GET /solicrec: %d %v, want CANCELADA", code, out["status"])
	}
}

// Identical PUTs of one txid at once: each is drafted in memory, all but
// one find the txid taken at insert and are answered as a revision of the
// stored charge, from the request as the partner sent it (a draft must
// not leave its location in it: the revision would name a location that
// was never stored).
func TestConcurrentPutsOfOneTxid(t *testing.T) {
	do := mustOpenSandbox(t)
	body := `{"calendario":{"expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"10.00"},"chave":"52998224725"}`
	const n = 8
	codes := make(chan int, n)
	var start sync.WaitGroup
	start.Add(1)
	for range n {
		go func() {
			start.Wait()
			code, _ := do(http.MethodPut, "/pix/v2/cob/concurrentputsconcurrentputs01", body)
			codes <- code
		}()
	}
	start.Done()
	created := 0
	for range n {
		switch code := <-codes; code {
		case http.StatusCreated:
			created++
		case http.StatusOK:
		default:
			t.Errorf("a PUT of the same charge answered %d", code)
		}
	}
	if created == 0 {
		t.Error("no PUT created the charge")
	}
	if code, out := do(http.MethodGet, "/pix/v2/cob/concurrentputsconcurrentputs01", ""); code != http.StatusOK || out["revisao"] != float64(0) {
		t.Errorf("GET: %d, revisao %v", code, out["revisao"])
	}
}
