package server_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// companyBKey is the Pix key of the second company's app.
const companyBKey = "3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b"

// pixTenants is a sandbox with two companies: A, the demo company, and B,
// a second one with a Pix key of its own.
type pixTenants struct {
	t    *testing.T
	s    *server.Server
	a, b string // their tokens
}

func newPixTenants(t *testing.T) *pixTenants {
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: start})
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := context.Background()
	if _, err := s.Auth.CreateCompany(ctx, "11444777000161", "Corretora Exemplo"); err != nil {
		t.Fatal(err)
	}
	app, err := s.Auth.CreateApp(ctx, auth.NewApp{Company: "11444777000161", Name: "backend", ClientID: "exemplo", ClientSecret: "exemplo-secret-0123"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pix.AddKey(ctx, app.ID, companyBKey); err != nil {
		t.Fatal(err)
	}
	w := &pixTenants{t: t, s: s}
	w.a, w.b = w.token(server.DemoClientID, server.DemoClientSecret), w.token("exemplo", "exemplo-secret-0123")
	return w
}

func (w *pixTenants) token(client, secret string) string {
	w.t.Helper()
	tok, err := w.s.Auth.IssueToken(context.Background(), client, secret, "")
	if err != nil {
		w.t.Fatal(err)
	}
	return tok.AccessToken
}

// call sends a request with a token and answers the status and the JSON
// body.
func (w *pixTenants) call(token, method, path, body string) (int, map[string]any) {
	w.t.Helper()
	code, text := tenantCall(w.t, w.s, token, method, path, body)
	var out map[string]any
	json.Unmarshal([]byte(text), &out)
	return code, out
}

// must sends a request that must answer want.
func (w *pixTenants) must(want int, token, method, path, body string) map[string]any {
	w.t.Helper()
	code, out := w.call(token, method, path, body)
	if code != want {
		w.t.Fatalf("%s %s: %d %v, want %d", method, path, code, out, want)
	}
	return out
}

// companyOf is the company a token acts for.
func (w *pixTenants) companyOf(token string) string {
	w.t.Helper()
	p, err := w.s.Auth.Authenticate(context.Background(), token)
	if err != nil {
		w.t.Fatal(err)
	}
	return p.CompanyID
}

// payload reads the JSON payload of the JWS a location serves.
func (w *pixTenants) payload(location string) (int, map[string]any) {
	w.t.Helper()
	resp, err := http.Get("http://" + location)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	parts := strings.Split(string(b), ".")
	var out map[string]any
	if len(parts) == 3 {
		raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
		json.Unmarshal(raw, &out)
	} else {
		json.Unmarshal(b, &out)
	}
	return resp.StatusCode, out
}

// field is the text of a dotted field of a JSON answer ("" when absent);
// a list index is a number: "violacoes.0.razao".
func field(m map[string]any, path string) string {
	var v any = m
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
	if t, ok := v.(string); ok || v == nil {
		return t
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func pixCob(chave string) string {
	return `{"calendario":{"expiracao":3600},"valor":{"original":"10.00"},"chave":"` + chave + `"}`
}

func pixCobv(chave string) string {
	return `{"calendario":{"dataDeVencimento":"2026-01-20","validadeAposVencimento":400},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},
		"valor":{"original":"100.00","multa":{"modalidade":2,"valorPerc":"2.00"},"juros":{"modalidade":3,"valorPerc":"1.00"}},"chave":"` + chave + `"}`
}

const pixRec = `{"vinculo":{"contrato":"CTR-1","devedor":{"cpf":"11144477735","nome":"Maria Souza"}},
	"calendario":{"dataInicial":"2026-02-01","periodicidade":"MENSAL"},"valor":{"valorRec":"35.00"},"politicaRetentativa":"NAO_PERMITE"}`

const (
	sharedTxid  = "tenancysharedtxid0000000000001"
	sharedCobv  = "tenancysharedcobv0000000000001"
	bOnlyTxid   = "tenancybonlytxid00000000000001"
	aLaterTxid  = "tenancyalatertxid0000000000001"
	afterReset  = "tenancyafterreset0000000000001"
	paymentPath = "/sandbox/pix/payments"
)

// Each company's Pix lives on its own clock: company A moves a year on,
// company B stays. A's charge made before the move is expired and its due
// charge accrues a year of interest, in its payload and in its payment;
// B's same charges are as they were made. A recurrence starting next
// month is in A's past, not in B's. A refund of A's settles on A's clock.
func TestPixLivesOnItsCompanysClock(t *testing.T) {
	t.Parallel()
	w := newPixTenants(t)
	w.must(201, w.a, "PUT", "/pix/v2/cob/"+sharedTxid, pixCob("52998224725"))
	w.must(201, w.b, "PUT", "/pix/v2/cob/"+sharedTxid, pixCob(companyBKey))
	locA := field(w.must(201, w.a, "PUT", "/pix/v2/cobv/"+sharedCobv, pixCobv("52998224725")), "location")
	locB := field(w.must(201, w.b, "PUT", "/pix/v2/cobv/"+sharedCobv, pixCobv(companyBKey)), "location")
	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"365d"}`)
	w.a = w.token(server.DemoClientID, server.DemoClientSecret) // an hour old on A's clock

	if _, out := w.call(w.a, "POST", paymentPath, `{"txid":"`+sharedTxid+`"}`); !strings.Contains(field(out, "detail"), "expirou") {
		t.Errorf("A pays its cob a year on: %v, want it expired", out)
	}
	w.must(201, w.b, "POST", paymentPath, `{"txid":"`+sharedTxid+`"}`)

	_, pa := w.payload(locA)
	_, pb := w.payload(locB)
	if field(pa, "valor.juros") == "" || field(pa, "valor.multa") == "" || field(pa, "valor.final") == "100.00" || !strings.HasPrefix(field(pa, "calendario.apresentacao"), "2027-01-05") {
		t.Errorf("A's cobv payload a year on: %v", pa)
	}
	if field(pb, "valor.final") != "100.00" || field(pb, "valor.juros") != "" || !strings.HasPrefix(field(pb, "calendario.apresentacao"), "2026-01-05") {
		t.Errorf("B's cobv payload: %v", pb)
	}
	paid := w.must(201, w.a, "POST", paymentPath, `{"txid":"`+sharedCobv+`"}`)
	if field(paid, "valor") != field(pa, "valor.final") || !strings.HasPrefix(field(paid, "horario"), "2027-01-05") {
		t.Errorf("A pays its cobv: %v, want %s on A's date", paid, field(pa, "valor.final"))
	}

	if _, out := w.call(w.a, "POST", "/pix/v2/rec", pixRec); !strings.Contains(field(out, "violacoes.0.razao"), "passado") {
		t.Errorf("A's recurrence from 2026-02-01 a year on: %v", out)
	}
	w.must(201, w.b, "POST", "/pix/v2/rec", pixRec)

	e2e := field(paid, "endToEndId")
	w.must(201, w.a, "PUT", "/pix/v2/pix/"+e2e+"/devolucao/d1", `{"valor":"1.00"}`)
	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"10s"}`)
	if out := w.must(200, w.a, "GET", "/pix/v2/pix/"+e2e+"/devolucao/d1", ""); field(out, "status") != "DEVOLVIDO" {
		t.Errorf("A's refund 10 s on A's clock: %v", out)
	}
}

// The simulated payer acts for the caller's company: A's token cannot pay
// B's charge (by txid or location), settle B's refund or answer B's
// recurrence, each answered as if it did not exist; the operator acts on
// any company's, on that company's clock, and asks for the receiver's
// CNPJ where companies share a txid.
func TestPixPayerActsForTheCallersCompany(t *testing.T) {
	t.Parallel()
	w := newPixTenants(t)
	w.must(201, w.a, "PUT", "/pix/v2/cob/"+sharedTxid, pixCob("52998224725"))
	w.must(201, w.b, "PUT", "/pix/v2/cob/"+sharedTxid, pixCob(companyBKey))
	bOnly := w.must(201, w.b, "PUT", "/pix/v2/cob/"+bOnlyTxid, pixCob(companyBKey))
	idRec := field(w.must(201, w.b, "POST", "/pix/v2/rec", pixRec), "idRec")

	for _, body := range []string{`{"txid":"` + bOnlyTxid + `"}`, `{"location":"` + field(bOnly, "location") + `"}`,
		`{"chave":"` + companyBKey + `","valor":"1.00"}`} {
		if code, out := w.call(w.a, "POST", paymentPath, body); code != 400 {
			t.Errorf("A pays B's charge %s: %d %v, want 400", body, code, out)
		}
	}
	if code, out := w.call(w.a, "POST", "/sandbox/pix/rec/"+idRec+"/aprovar", ""); code != 404 {
		t.Errorf("A answers B's recurrence: %d %v, want 404", code, out)
	}
	pix := w.must(201, w.b, "POST", paymentPath, `{"txid":"`+sharedTxid+`"}`)
	e2e := field(pix, "endToEndId")
	w.must(201, w.b, "PUT", "/pix/v2/pix/"+e2e+"/devolucao/d1", `{"valor":"1.00"}`)
	if code, out := w.call(w.a, "POST", "/sandbox/pix/refunds/"+e2e+"/d1", `{"status":"DEVOLVIDO"}`); code != 404 {
		t.Errorf("A settles B's refund: %d %v, want 404", code, out)
	}

	// A moves a year on; the operator's payment of A's charge is dated on
	// A's clock, of B's on B's.
	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"365d"}`)
	w.a = w.token(server.DemoClientID, server.DemoClientSecret)
	w.must(201, w.a, "PUT", "/pix/v2/cob/"+aLaterTxid, pixCob("52998224725"))
	if out := w.must(201, testOperator, "POST", paymentPath, `{"txid":"`+aLaterTxid+`"}`); !strings.HasPrefix(field(out, "horario"), "2027-01-05") {
		t.Errorf("the operator pays A's charge: %v, want it on A's date", out)
	}
	if out := w.must(201, testOperator, "POST", paymentPath, `{"txid":"`+bOnlyTxid+`"}`); !strings.HasPrefix(field(out, "horario"), "2026-01-05") {
		t.Errorf("the operator pays B's charge: %v, want it on B's date", out)
	}
	if _, out := w.call(testOperator, "POST", paymentPath, `{"txid":"`+sharedTxid+`"}`); !strings.Contains(field(out, "detail"), "informe o CNPJ") {
		t.Errorf("the operator pays a txid two companies use: %v", out)
	}
	w.must(200, testOperator, "POST", "/sandbox/pix/refunds/"+e2e+"/d1", `{"status":"DEVOLVIDO"}`)
	w.must(200, testOperator, "POST", "/sandbox/pix/rec/"+idRec+"/aprovar", "")
}

// A company's reset empties its Pix data, keys aside, and leaves another
// company's intact.
func TestPixResetEmptiesOnlyTheCallersCompany(t *testing.T) {
	t.Parallel()
	w := newPixTenants(t)
	for tok, chave := range map[string]string{w.a: "52998224725", w.b: companyBKey} {
		w.must(201, tok, "PUT", "/pix/v2/cob/"+sharedTxid, pixCob(chave))
		w.must(201, tok, "PUT", "/pix/v2/cobv/"+sharedCobv, pixCobv(chave))
		hook := `{"webhookUrl":"` + w.s.URL() + `/sandbox/inbox/reset"}`
		w.must(200, tok, "PUT", "/pix/v2/webhook/"+chave, hook)
		w.must(200, tok, "PUT", "/pix/v2/webhookrec", hook)
		w.must(201, tok, "POST", "/pix/v2/locrec", "")
		w.must(201, tok, "POST", "/pix/v2/rec", pixRec)
		w.must(202, tok, "PUT", "/pix/v2/lotecobv/7", `{"descricao":"lote","cobsv":[{"txid":"tenancylotetxid000000000000001",
			"calendario":{"dataDeVencimento":"2026-02-10"},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},
			"valor":{"original":"100.00"},"chave":"`+chave+`"}]}`)
		e2e := field(w.must(201, tok, "POST", paymentPath, `{"txid":"`+sharedTxid+`"}`), "endToEndId")
		w.must(201, tok, "PUT", "/pix/v2/pix/"+e2e+"/devolucao/d1", `{"valor":"1.00"}`)
	}
	a, b := w.companyOf(w.a), w.companyOf(w.b)
	w.must(200, w.a, "POST", "/sandbox/reset", "")

	if n := pixRows(t, w.s.DB, a); n != 0 {
		t.Errorf("A keeps %d Pix rows after its reset", n)
	}
	if n := pixRows(t, w.s.DB, b); n < 12 {
		t.Errorf("B has %d Pix rows after A's reset", n)
	}
	w.a = w.token(server.DemoClientID, server.DemoClientSecret)
	w.must(404, w.a, "GET", "/pix/v2/cob/"+sharedTxid, "")
	w.must(200, w.b, "GET", "/pix/v2/cob/"+sharedTxid, "")
	// A's keys stay: it charges on them again.
	w.must(201, w.a, "PUT", "/pix/v2/cob/"+afterReset, pixCob("52998224725"))
}

// pixRows counts a company's rows in the Pix tables, its keys aside.
func pixRows(t *testing.T, db *store.DB, companyID string) int {
	t.Helper()
	total := 0
	err := db.Read(context.Background(), func(tx *store.Tx) error {
		for _, q := range []string{
			`SELECT COUNT(*) FROM pix_cobs WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_cob_revisions WHERE cob_id IN (SELECT id FROM pix_cobs WHERE company_id = ?)`,
			`SELECT COUNT(*) FROM pix_locs WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_received WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_refunds WHERE e2eid IN (SELECT e2eid FROM pix_received WHERE company_id = ?)`,
			`SELECT COUNT(*) FROM pix_webhooks WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_recs WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_locrecs WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_rec_webhooks WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_lotes WHERE company_id = ?`,
			`SELECT COUNT(*) FROM pix_lote_items WHERE company_id = ?`,
		} {
			var n int
			if err := tx.QueryRowContext(context.Background(), q, companyID).Scan(&n); err != nil {
				return err
			}
			total += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}
