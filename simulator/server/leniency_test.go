package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// TestProductionLeniencyIsRecorded: what production accepts beyond the
// API Pix's specification and real clients rely on — members the
// schema does not declare (data7-pix's tx_id, status, revisao on PUT
// /cob), a revision repeating status ATIVA (its PATCH /cob), a trailing slash on a collection (Efí's GET /v2/cobv/), the
// token's parameters in the query string (data7-pix's Sicredi client) —
// is accepted, the unknown members ignored and never echoed back, and
// each is a finding of its request in the interaction log. Under
// --strict each is refused as the specification reads.
func TestProductionLeniencyIsRecorded(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	window := "?inicio=" + url.QueryEscape(now.Add(-time.Hour).Format(time.RFC3339)) + "&fim=" + url.QueryEscape(now.Add(time.Hour).Format(time.RFC3339))
	const txid = "leniencyleniencyleniency0001"
	withExtras := `{"chave": "52998224725", "tx_id": "` + txid + `", "valor": {"original": "10.00", "modalidadeAlteracao": 0},
		"calendario": {"expiracao": 3600}, "status": "ATIVA", "revisao": 0}`
	tokenQuery := "/oauth/token?grant_type=client_credentials&client_id=" + server.DemoClientID + "&client_secret=" + server.DemoClientSecret + "&scope=cob.read+cob.write"

	for _, strict := range []bool{false, true} {
		name := map[bool]string{false: "OKLenient", true: "ErrStrict"}[strict]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, server.Config{Strict: strict})
			defer s.Close(context.Background())
			call := pixClient(t, s)

			code, cob := call(http.MethodPut, "/cob/"+txid, withExtras)
			if strict {
				if code != 400 || cob["type"] != "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida" || !strings.Contains(jsonOf(cob), "cob.tx_id") {
					t.Fatalf("strict PUT /cob with unknown members: %d %v", code, cob)
				}
			} else {
				_, read := call(http.MethodGet, "/cob/"+txid, "")
				if code != 201 || cob["tx_id"] != nil || read["tx_id"] != nil || cob["status"] != "ATIVA" || cob["revisao"] != 0.0 {
					t.Fatalf("lenient PUT /cob with unknown members: %d %v, read back %v", code, cob, read)
				}
			}
			code, rev := call(http.MethodPatch, "/cob/"+txid, `{"status": "ATIVA", "valor": {"original": "11.00"}}`)
			if (strict && code != 400) || (!strict && (code != 200 || rev["revisao"] != 1.0 || rev["status"] != "ATIVA")) {
				t.Fatalf("PATCH /cob with status ATIVA: %d %v", code, rev)
			}
			if code, list := call(http.MethodGet, "/cobv/"+window, ""); code != map[bool]int{false: 200, true: 404}[strict] {
				t.Fatalf("GET /cobv/ with a trailing slash: %d %v", code, list)
			}
			req, _ := http.NewRequest(http.MethodPost, s.URL()+tokenQuery, nil)
			req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
			req.Header.Set("Content-Type", "application/json")
			code, tok := send(t, req)
			if (code == 200) == strict || (strict && tok["error"] != "invalid_request") || (!strict && tok["scope"] != "cob.read cob.write") {
				t.Fatalf("token in the query string: %d %v", code, tok)
			}

			findings, log := loggedFindings(t, s)
			want := map[string]bool{httpx.FindingUnknownMember + " PUT tx_id": true, httpx.FindingUnknownMember + " PUT status": true,
				httpx.FindingUnknownMember + " PUT revisao": true, httpx.FindingTrailingSlash + " GET /pix/v2/cobv/": true,
				httpx.FindingTokenInQuery + " POST grant_type,client_id,client_secret,scope": true, httpx.FindingTwoClientAuth + " POST client_secret": true,
				httpx.FindingSameStatus + " PATCH status": true}
			if strict {
				want = map[string]bool{}
			}
			if len(findings) != len(want) {
				t.Fatalf("the log's findings %v, want %v", findings, want)
			}
			for _, f := range findings {
				if !want[f] {
					t.Errorf("finding %q not expected; want %v", f, want)
				}
			}
			if strings.Contains(log, server.DemoClientSecret) {
				t.Fatal("the client secret of the query string is in the interaction log")
			}
		})
	}
}

// loggedFindings lists the findings of the demo app's requests in the
// interaction log, as "kind METHOD field", and the log itself.
func loggedFindings(t *testing.T, s *server.Server) ([]string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/sandbox/interactions?limit=1000", nil)
	req.Header.Set("Authorization", "Bearer "+testOperator)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Interactions []struct {
			Method   string
			Findings []httpx.Finding
		}
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var list []string
	for _, it := range out.Interactions {
		for _, f := range it.Findings {
			if f.Detail == "" {
				t.Errorf("a finding without its detail: %+v", f)
			}
			list = append(list, f.Kind+" "+it.Method+" "+f.Field)
		}
	}
	return list, string(b)
}

// send runs a request and answers its status and JSON body.
func send(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestUnsignedV2SaleIsAFinding: a v2 venda with no signature of any kind
// is taken, as no v2 client has a way to sign, with the finding
// unsigned-sale; under --strict it is the 422 ASSINATURA_AUSENTE the
// specification's rule 6 asks for.
func TestUnsignedV2SaleIsAFinding(t *testing.T) {
	t.Parallel()
	const venda = `{"CNPJ": "11222333000181", "ModeloProposta": "YZ",
		"DadosProponente": {"Nome": "SEM ASSINATURA", "DtNascimento": "1980-05-10T00:00:00.000Z", "Sexo": "MASCULINO", "CPF": "11144477735",
			"RendaMensal": 12000, "Enderecos": [{"ESTADO": "RJ"}], "Profissao": {"Codigo": "2521-05"}},
		"Planos": {"Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
		"DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15}}`
	for _, strict := range []bool{false, true} {
		t.Run(map[bool]string{false: "OKLenient", true: "ErrStrict"}[strict], func(t *testing.T) {
			t.Parallel()
			s := startServer(t, server.Config{Strict: strict, Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)})
			defer s.Close(context.Background())
			tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "apiseguradora")
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v2/venda", strings.NewReader(venda))
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			req.Header.Set("Content-Type", "application/json")
			code, out := send(t, req)
			findings, _ := loggedFindings(t, s)
			switch {
			case strict && (code != 422 || !strings.Contains(jsonOf(out), "ASSINATURA_AUSENTE") || len(findings) != 0):
				t.Fatalf("strict: %d %v, findings %v", code, out, findings)
			case !strict && (code != 201 || strings.Join(findings, ",") != httpx.FindingUnsignedSale+" POST PROPOSTA.ASSINATURA"):
				t.Fatalf("lenient: %d %v, findings %v", code, out, findings)
			}
		})
	}
}

// TestInsurerValuesOfAnotherType: the hackathon app's simulation, its
// sexoId a string and its renda the masked text of its field, is priced
// with the findings type-mismatch and masked-value, and a collection of
// the insurer's asked with a trailing slash is served with the finding
// trailing-slash; under --strict the first is refused naming sexoId, the
// second is a 404.
func TestInsurerValuesOfAnotherType(t *testing.T) {
	t.Parallel()
	const sim = `{"simulacoes": [{"proponente": {"nome": "Teste", "cpf": "86288366757", "dataNascimento": "1990-07-01", "profissaoCbo": "2124-05",
		"renda": "8.000,00", "sexoId": "2", "uf": "SP"}}]}`
	for _, strict := range []bool{false, true} {
		t.Run(map[bool]string{false: "OKLenient", true: "ErrStrict"}[strict], func(t *testing.T) {
			t.Parallel()
			s := startServer(t, server.Config{Strict: strict})
			defer s.Close(context.Background())
			tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "apiseguradora")
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, s.URL()+"/apiseguradora/v2/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ", strings.NewReader(sim))
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			req.Header.Set("Content-Type", "application/json")
			code, out := send(t, req)
			// A collection with a trailing slash, under an alias.
			req, _ = http.NewRequest(http.MethodGet, s.URL()+"/apiseguradora/v3/produto/?codigoModeloProposta=YZ", nil)
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			slash, _ := send(t, req)
			findings, _ := loggedFindings(t, s)
			got := strings.Join(findings, ",")
			switch {
			case strict && (code != 400 || !strings.Contains(jsonOf(out), "simulacoes.0.proponente.sexoId") || slash != 404 || got != ""):
				t.Fatalf("strict: %d %v, %d, findings %v", code, out, slash, findings)
			case !strict && (code != 200 || slash != 200 || got != "type-mismatch POST simulacoes.0.proponente.sexoId,masked-value POST simulacoes.0.proponente.renda,"+
				"trailing-slash GET /apiseguradora/v3/produto/"):
				t.Fatalf("lenient: %d %v, %d, findings %v", code, out, slash, findings)
			}
		})
	}
}
