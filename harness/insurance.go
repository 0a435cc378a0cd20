package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// implantEnrollment sells offer to cpf through the public APIs, as
// features/contract/venda-ciclo.feature does step by step: simulate,
// request a signature code and read it from the outbox, propose, advance
// the clock through the default analysis (1h07m), take a new token (the
// old one expired on the way). It remembers ${inscricao} and ${numero}.
// The payment method is BOLETO on day 10, or the one named.
func (w *World) implantEnrollment(offer, cpf, method string) error {
	if w.token == "" {
		if err := w.obtainToken(""); err != nil {
			return err
		}
	}
	billing, err := billingFor(method)
	if err != nil {
		return err
	}
	produto, covs, err := w.quoteMandatory(offer, cpf)
	if err != nil {
		return err
	}
	code, err := w.signatureCode(offer, cpf)
	if err != nil {
		return err
	}
	prop, err := w.saleCall(offer, cpf, http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta="+offer, map[string]any{"PROPOSTA": map[string]any{
		"DADOS_PROPONENTE": map[string]any{"NOME": "Cliente " + cpf, "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": cpf,
			"RENDA_MENSAL": 20000, "ENDERECOS": map[string]any{"ENDERECO": map[string]any{"ESTADO": "SP", "CEP": "01310100"}},
			"PROFISSAO": map[string]any{"CODIGO": "2410-05"}},
		"PLANOS":         map[string]any{"PLANO": map[string]any{"CODIGO": produto, "COBERTURAS": map[string]any{"COBERTURA": covs}}},
		"BENEFICIARIOS":  map[string]any{"BENEFICIARIO": []any{map[string]any{"NOME": "Beneficiária A", "PARENTESCO": "FILHA", "PARTICIPACAO": 60}, map[string]any{"NOME": "Beneficiário B", "PARENTESCO": "FILHO", "PARTICIPACAO": 40}}},
		"DADOS_COBRANCA": billing,
		"ASSINATURA":     map[string]any{"TIPO": "TOKEN", "TOKEN": code},
	}}, http.StatusCreated)
	if err != nil {
		return err
	}
	numero := text(prop["Valor"].(map[string]any)["numeroProposta"])
	return w.awaitImplantation(offer, cpf, numero)
}

// saleCall makes one call of a sale and decodes its 2xx answer.
func (w *World) saleCall(offer, cpf, method, path string, body any, want int) (map[string]any, error) {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	if err := w.do(method, path, raw, "application/json"); err != nil {
		return nil, err
	}
	if w.resp.StatusCode != want {
		return nil, fmt.Errorf("selling %s to %s: %s", offer, cpf, w.describe())
	}
	var out map[string]any
	json.Unmarshal(w.body, &out)
	return out, nil
}

// quoteMandatory simulates the offer for a test profile and returns its
// first product with its mandatory coverages as proposal COBERTURA items:
// the enrollment's capital is then the main coverage's, which keeps the
// features' arithmetic plain.
func (w *World) quoteMandatory(offer, cpf string) (int, []any, error) {
	sim, err := w.saleCall(offer, cpf, http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta="+offer, map[string]any{"simulacoes": []any{map[string]any{
		"proponente":              map[string]any{"cpf": cpf, "dataNascimento": "1980-01-01", "sexoId": 2, "renda": 20000, "profissaoCbo": "2410-05", "uf": "SP"},
		"periodicidadeCobrancaId": 30, "capitalSegurado": 200000}}}, http.StatusOK)
	if err != nil {
		return 0, nil, err
	}
	var q struct {
		Valor struct {
			Simulacoes []struct {
				Produtos []struct {
					IDProduto  int `json:"idProduto"`
					Coberturas []struct {
						ItemProdutoID int             `json:"itemProdutoId"`
						Capital       json.RawMessage `json:"capital"`
						Premio        json.RawMessage `json:"premio"`
						Obrigatoria   bool            `json:"obrigatoria"`
					} `json:"coberturas"`
				} `json:"produtos"`
			} `json:"simulacoes"`
		} `json:"Valor"`
	}
	raw, _ := json.Marshal(sim)
	json.Unmarshal(raw, &q)
	if len(q.Valor.Simulacoes) == 0 || len(q.Valor.Simulacoes[0].Produtos) == 0 {
		return 0, nil, fmt.Errorf("offer %s priced nothing for the test profile: %s", offer, raw)
	}
	prod := q.Valor.Simulacoes[0].Produtos[0]
	var covs []any
	for _, c := range prod.Coberturas {
		if c.Obrigatoria {
			covs = append(covs, map[string]any{"CODIGO": c.ItemProdutoID, "VL_CONTRIB": c.Premio, "VL_COBERTURA": c.Capital})
		}
	}
	return prod.IDProduto, covs, nil
}

// signatureCode asks for a one-time signature code for cpf and reads it
// from the sandbox's outbox, as the customer would from the e-mail.
func (w *World) signatureCode(offer, cpf string) (any, error) {
	if _, err := w.saleCall(offer, cpf, http.MethodPost, "/access/v1/token/user", map[string]any{"cpf": cpf}, http.StatusCreated); err != nil {
		return nil, err
	}
	box, err := w.saleCall(offer, cpf, http.MethodGet, "/sandbox/outbox?cpf="+cpf, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	return box["messages"].([]any)[0].(map[string]any)["codigo"], nil
}

// billingFor is the DADOS_COBRANCA of a payment method: monthly, day 10.
func billingFor(method string) (map[string]any, error) {
	billing := map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10}
	switch method {
	case "", "BOLETO":
	case "DEBITO":
		billing["TIPO_COBRANCA"] = "DEBITO"
		billing["CONTA_CORRENTE"] = map[string]any{"BANCO": "341", "AGENCIA": "0001", "CONTA": "12345", "DIGITO_CONTA": "6"}
	default:
		return nil, fmt.Errorf("payment method %q: use BOLETO or DEBITO", method)
	}
	return billing, nil
}

// awaitImplantation advances the clock through the default analysis and
// remembers the proposal's number and its first enrollment.
func (w *World) awaitImplantation(offer, cpf, numero string) error {
	if err := w.control(http.MethodPost, "/sandbox/clock/advance", `{"by":"1h7m"}`); err != nil {
		return err
	}
	if err := w.obtainToken(""); err != nil {
		return err
	}
	insc, err := w.saleCall(offer, cpf, http.MethodGet, "/customer/v1/inscricao?numeroProposta="+numero, nil, http.StatusOK)
	if err != nil {
		return err
	}
	list, _ := insc["Valor"].([]any)
	if len(list) == 0 {
		return fmt.Errorf("proposal %s was not implanted after the default analysis: %s", numero, w.describe())
	}
	w.vars["numero"] = numero
	w.vars["inscricao"] = text(list[0].(map[string]any)["inscricaoId"])
	return nil
}
