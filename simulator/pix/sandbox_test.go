package pix_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
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

// A PUT of a txid the company has revises its charge of the same kind,
// and is refused, naming the txid, for a charge of the other kind.
func TestPutOfATxidTaken(t *testing.T) {
	do := mustOpenSandbox(t)
	const txid = "takentakentakentakentaken01"
	cob := func(valor string) string {
		return `{"calendario":{"expiracao":3600},"valor":{"original":"` + valor + `"},"chave":"52998224725"}`
	}
	if code, out := do(http.MethodPut, "/pix/v2/cob/"+txid, cob("1.00")); code != http.StatusCreated || out["revisao"] != float64(0) {
		t.Fatalf("PUT /cob: %d %v", code, out)
	}
	tests := []struct {
		name, method, path, body string
		code                     int
		field, want              string
	}{
		{"OK revision", http.MethodPut, "/pix/v2/cob/" + txid, cob("2.00"), http.StatusCreated, "revisao", "1"},
		{"ErrOtherKind", http.MethodPut, "/pix/v2/cobv/" + txid,
			`{"calendario":{"dataDeVencimento":"2026-02-10"},"devedor":{"cpf":"12345678909","nome":"F"},"valor":{"original":"1.00"},"chave":"52998224725"}`,
			http.StatusBadRequest, "violacoes.0.propriedade", "cobv.txid"},
		{"OK unchanged by the refusal", http.MethodGet, "/pix/v2/cob/" + txid, "", http.StatusOK, "valor.original", "2.00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := do(tt.method, tt.path, tt.body)
			if code != tt.code {
				t.Fatalf("%s %s: %d %v, want %d", tt.method, tt.path, code, out, tt.code)
			}
			if got := field(out, tt.field); got != tt.want {
				t.Errorf("%s = %q, want %q (%v)", tt.field, got, tt.want, out)
			}
		})
	}
}

// field is the value at a dotted path of a decoded answer, as text.
func field(d map[string]any, path string) string {
	var v any = d
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(x) {
				return ""
			}
			v = x[i]
		default:
			return ""
		}
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
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

// Identical PUTs of one txid at once: one creates the charge, every other
// finds it and is answered as a revision of the stored charge, from the
// request as the partner sent it (a draft must not leave its location in
// it: the revision would name a location that was never stored).
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
