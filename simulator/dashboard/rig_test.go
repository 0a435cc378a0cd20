package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// The rig is simulator/browsertest's. The clock is frozen so that what
// the page shows can be compared with what the API says to the second.

func startSandbox(t *testing.T) *server.Server { return browsertest.Sandbox(t, "frozen") }

func newBrowser(t *testing.T) context.Context { return browsertest.Browser(t, 90*time.Second) }

func demoToken(t *testing.T, s *server.Server, scopes string) string {
	return browsertest.DemoToken(t, s, scopes)
}

// call sends a request with an optional JSON body and bearer token and
// returns the status and the body.
func call(t *testing.T, method, u, token, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// createCob creates an immediate charge for the demo app, on its CPF key.
func createCob(t *testing.T, s *server.Server, token, txid, valor string) {
	t.Helper()
	code, body := call(t, http.MethodPut, s.URL()+"/pix/v2/cob/"+txid, token,
		`{"calendario": {"expiracao": 3600}, "valor": {"original": "`+valor+`"}, "chave": "52998224725", "solicitacaoPagador": "Dashboard test"}`)
	if code != http.StatusCreated {
		t.Fatalf("PUT /pix/v2/cob/%s: %d %s", txid, code, body)
	}
}

// poll calls ok until it holds or the deadline passes.
func poll(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// propose sends a proposal of offer YZ for the default analysis's CPF,
// priced by the simulation and signed with a code from the outbox, as
// features/contract/venda-ciclo does, and returns its number.
func propose(t *testing.T, s *server.Server) int64 {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"apiseguradora apiunderwriting apicontroleacesso"}}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	must := func(method, path, token, body string, want int, out any) {
		t.Helper()
		code, got := call(t, method, s.URL()+path, token, body)
		if code != want {
			t.Fatalf("%s %s: %d %s", method, path, code, got)
		}
		if err := json.Unmarshal([]byte(got), out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	const cpf = "11144477735"
	var sim struct {
		Valor struct {
			Simulacoes []struct {
				Produtos []struct {
					Coberturas []struct {
						ItemProdutoID int             `json:"itemProdutoId"`
						Premio        json.RawMessage `json:"premio"`
					} `json:"coberturas"`
				} `json:"produtos"`
			} `json:"simulacoes"`
		}
	}
	must(http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta=YZ", tok.AccessToken, `{"simulacoes": [{"proponente": {"cpf": "`+cpf+
		`", "dataNascimento": "1986-03-15", "sexoId": 2, "renda": 8000, "profissaoCbo": "2410-05", "uf": "SP"}, "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}`,
		http.StatusOK, &sim)
	if len(sim.Valor.Simulacoes) == 0 || len(sim.Valor.Simulacoes[0].Produtos) == 0 || len(sim.Valor.Simulacoes[0].Produtos[0].Coberturas) == 0 {
		t.Fatalf("simulation priced nothing: %+v", sim)
	}
	premio := string(sim.Valor.Simulacoes[0].Produtos[0].Coberturas[0].Premio)
	var ignored any
	must(http.MethodPost, "/access/v1/token/user", tok.AccessToken, `{"cpf": "`+cpf+`"}`, http.StatusCreated, &ignored)
	var box struct {
		Messages []struct {
			Codigo string `json:"codigo"`
		} `json:"messages"`
	}
	must(http.MethodGet, "/sandbox/outbox?cpf="+cpf, "", "", http.StatusOK, &box)
	if len(box.Messages) == 0 {
		t.Fatal("no signature code in the outbox")
	}
	var prop struct {
		Valor struct {
			NumeroProposta int64 `json:"numeroProposta"`
		}
	}
	must(http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta=YZ", tok.AccessToken, `{"PROPOSTA": {"NUMERO": "0",
		"DADOS_PROPONENTE": {"NOME": "Maria Souza", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "`+cpf+`",
			"RENDA_MENSAL": 8000, "ENDERECOS": {"ENDERECO": [{"ESTADO": "SP", "CEP": "01310100"}]}, "PROFISSAO": {"CODIGO": "2410-05"}},
		"PLANOS": {"VL_TOTAL": `+premio+`, "PLANO": [{"CODIGO": 511, "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": `+premio+`, "VL_COBERTURA": 200000}]}}]},
		"BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100}]},
		"DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
		"ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "`+box.Messages[0].Codigo+`"}}}`, http.StatusCreated, &prop)
	if prop.Valor.NumeroProposta == 0 {
		t.Fatal("no numeroProposta")
	}
	return prop.Valor.NumeroProposta
}
