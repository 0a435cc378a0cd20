package partner

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Insurance defects.
const (
	// CardNumber sends the card number in the proposal instead of the
	// credit-card widget's pre-authorisation code.
	CardNumber = "card-number"
	// IgnorePendings never answers a pending of a proposal or a benefit.
	IgnorePendings = "ignore-pendings"
)

// requestSignature is POST /actions/request-signature {"cpf"}: the partner
// asks the insurer to send the customer a one-time signature code (the
// customer types it into the partner's page, which the suite plays).
func (p *Partner) requestSignature(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		CPF string `json:"cpf"`
	}
	if err := decodeInput(body, &in); err != nil || in.CPF == "" {
		return nil, badRequest("send {\"cpf\"}")
	}
	req, _ := json.Marshal(map[string]any{"cpf": in.CPF, "output": "Email", "timeoutInMinutes": "10"})
	ans, _, err := p.retry(ctx, a.id, "POST /access/v1/token/user", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/access/v1/token/user", req, nil)
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated {
		return nil, fmt.Errorf("token/user answered %d: %s", ans.status, excerpt(ans.body))
	}
	var out struct {
		Valor map[string]any `json:"Valor"`
	}
	json.Unmarshal(ans.body, &out)
	return out.Valor, nil
}

// sell is POST /actions/sell {"cpf", "codigo", "offer"}: simulate the
// funeral offer (EIS) for the customer, capture the card through the
// credit-card widget (the sandbox's pre-authorisation), and send the signed
// proposal with the premium the simulation gave and an Idempotency-Key.
func (p *Partner) sell(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		CPF    string `json:"cpf"`
		Codigo string `json:"codigo"`
		Offer  string `json:"offer"`
	}
	if err := decodeInput(body, &in); err != nil || in.CPF == "" || in.Codigo == "" {
		return nil, badRequest("send {\"cpf\", \"codigo\"}")
	}
	if in.Offer == "" {
		in.Offer = "EIS"
	}
	q, err := p.quote(ctx, a, in.CPF, in.Offer)
	if err != nil {
		return nil, err
	}
	cartao, err := p.card(ctx, a, in.CPF, q.total)
	if err != nil {
		return nil, err
	}
	prop, _ := json.Marshal(map[string]any{"PROPOSTA": map[string]any{
		"DADOS_PROPONENTE": map[string]any{"NOME": "Cliente " + in.CPF, "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": in.CPF},
		"PLANOS":           map[string]any{"PLANO": map[string]any{"CODIGO": q.produto, "COBERTURAS": map[string]any{"COBERTURA": q.coberturas}}},
		"DADOS_COBRANCA":   map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10, "CARTAO": cartao},
		"ASSINATURA":       map[string]any{"TIPO": "TOKEN", "TOKEN": in.Codigo},
	}})
	key := newUUID()
	if p.defect == ReuseIdempotencyKey {
		a.mu.Lock()
		if a.idemKey == "" {
			a.idemKey = key
		}
		key = a.idemKey
		a.mu.Unlock()
	}
	ans, _, err := p.retry(ctx, a.id, "POST /insurer/v1/proposta", func(attempt int) (answer, error) {
		hdr := http.Header{"Idempotency-Key": {key}}
		switch {
		case p.defect == NoIdempotencyKey:
			hdr = nil
		case p.defect == NewKeyOnRetry && attempt > 1:
			hdr.Set("Idempotency-Key", newUUID())
		}
		return p.send(ctx, a, http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta="+in.Offer, prop, hdr)
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated && ans.status != http.StatusOK {
		return nil, fmt.Errorf("proposal answered %d: %s", ans.status, excerpt(ans.body))
	}
	var out struct {
		Valor struct {
			Numero int64  `json:"numeroProposta"`
			Status string `json:"status"`
		} `json:"Valor"`
	}
	json.Unmarshal(ans.body, &out)
	a.mu.Lock()
	a.insurer.sold(out.Valor.Numero, cmp.Or(out.Valor.Status, "RECEBIDA"))
	a.mu.Unlock()
	if p.defect == Polls {
		p.poll(a, "/insurer/v1/proposta/"+strconv.FormatInt(out.Valor.Numero, 10), `"IMPLANTADA"`)
	}
	var valor map[string]any
	json.Unmarshal(ans.body, &struct {
		Valor *map[string]any `json:"Valor"`
	}{&valor})
	return valor, nil
}

// quotation is what the partner proposes from a simulation: the first
// product with its mandatory coverages at their premiums, and the total.
type quotation struct {
	produto    int
	coberturas []any
	total      float64
}

// quote simulates the offer for the customer.
func (p *Partner) quote(ctx context.Context, a *app, cpf, offer string) (quotation, error) {
	sim, _ := json.Marshal(map[string]any{"simulacoes": []any{map[string]any{
		"proponente": map[string]any{"cpf": cpf, "dataNascimento": "1980-01-01", "sexoId": 2}, "periodicidadeCobrancaId": 30}}})
	ans, _, err := p.retry(ctx, a.id, "POST /insurer/v1/simulacao", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta="+offer, sim, nil)
	})
	if err != nil {
		return quotation{}, err
	}
	var q struct {
		Valor struct {
			Simulacoes []struct {
				Produtos []struct {
					IDProduto  int `json:"idProduto"`
					Coberturas []struct {
						ItemProdutoID int     `json:"itemProdutoId"`
						Capital       float64 `json:"capital"`
						Premio        float64 `json:"premio"`
						Obrigatoria   bool    `json:"obrigatoria"`
					} `json:"coberturas"`
				} `json:"produtos"`
			} `json:"simulacoes"`
		} `json:"Valor"`
	}
	if ans.status != http.StatusOK || json.Unmarshal(ans.body, &q) != nil || len(q.Valor.Simulacoes) == 0 || len(q.Valor.Simulacoes[0].Produtos) == 0 {
		return quotation{}, fmt.Errorf("simulation answered %d: %s", ans.status, excerpt(ans.body))
	}
	prod := q.Valor.Simulacoes[0].Produtos[0]
	out := quotation{produto: prod.IDProduto}
	for _, c := range prod.Coberturas {
		if c.Obrigatoria {
			out.coberturas = append(out.coberturas, map[string]any{"CODIGO": c.ItemProdutoID, "VL_CONTRIB": c.Premio, "VL_COBERTURA": c.Capital})
			out.total += c.Premio
		}
	}
	return out, nil
}

// card is the proposal's CARTAO block: the pre-authorisation code the
// credit-card widget got (the card-number defect sends the number).
func (p *Partner) card(ctx context.Context, a *app, cpf string, total float64) (map[string]any, error) {
	cartao := map[string]any{"BANDEIRA": "VISA"}
	if p.defect == CardNumber {
		cartao["NUMERO"] = "4111111111111111"
		cartao["VALIDADE"] = "2030-12-31"
		return cartao, nil
	}
	// What the credit-card widget does on the partner's page: the number
	// goes to the insurer, the partner keeps only the code.
	pre, _ := json.Marshal(map[string]any{"cpf": cpf, "valor": total, "numero": "4111111111111111"})
	ans, err := p.send(ctx, a, http.MethodPost, "/sandbox/cartao/preautorizacao", pre, nil)
	if err != nil || ans.status != http.StatusCreated {
		return nil, fmt.Errorf("card widget answered %d: %s", ans.status, excerpt(ans.body))
	}
	var pa struct {
		Valor struct {
			Codigo string `json:"CodigoPreAutorizacao"`
		} `json:"Valor"`
	}
	json.Unmarshal(ans.body, &pa)
	cartao["NUM_PRE_AUTORIZACAO"] = pa.Valor.Codigo
	return cartao, nil
}

// onEvent handles the insurer's events the app's webhook receives: a
// pending of a proposal is answered with the document it asks for.
func (p *Partner) onEvent(ctx context.Context, a *app, body []byte) {
	var ev struct {
		Type    string         `json:"type"`
		Subject map[string]any `json:"subject"`
		Data    map[string]any `json:"data"`
	}
	if json.Unmarshal(body, &ev) != nil {
		return
	}
	// Each event once, a status only from a newer event: unless a defect
	// says otherwise.
	if parsed, ok := parseInsurerEvent(body); ok {
		a.mu.Lock()
		fresh := a.insurer.apply(parsed, p.defect == ProcessDuplicates, p.defect == StatusRegression)
		a.mu.Unlock()
		if !fresh {
			p.logf("client=%s event %s already applied: ignored", a.id, parsed.ID)
			return
		}
	}
	if p.defect == IgnorePendings {
		return
	}
	id, _ := ev.Subject["pendenciaId"].(float64)
	if id == 0 {
		return
	}
	var reply []byte
	var path string
	switch ev.Type {
	case "proposta.pendencia":
		reply, _ = json.Marshal(map[string]any{
			"resposta":  "Segue o documento pedido (" + fmt.Sprint(ev.Data["codigo"]) + ").",
			"documento": map[string]any{"nomeArquivo": "documento.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"},
		})
		path = "/insurer/v1/pendencia/" + strconv.FormatInt(int64(id), 10)
	case "beneficio.pendencia":
		ben, _ := ev.Subject["beneficioId"].(float64)
		var docs []any
		exigidos, _ := ev.Data["documentosExigidos"].([]any)
		for _, t := range exigidos {
			docs = append(docs, map[string]any{"tipo": t, "nomeArquivo": fmt.Sprint(t) + ".pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"})
		}
		reply, _ = json.Marshal(map[string]any{"resposta": "Seguem os documentos pedidos.", "documentos": docs})
		path = fmt.Sprintf("/benefits/v1/beneficio/%d/pendencias/%d", int64(ben), int64(id))
	default:
		return
	}
	ans, _, err := p.retry(ctx, a.id, "PUT "+path, func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPut, path, reply, nil)
	})
	if err != nil || ans.status != http.StatusOK {
		p.logf("client=%s answering pending %v: %d %v", a.id, id, ans.status, err)
		return
	}
	a.mu.Lock()
	a.pendingsAnswered++
	a.mu.Unlock()
	// The answer moves the proposal on: read where it stands now, rather
	// than assume.
	if numero, _ := ev.Subject["numeroProposta"].(float64); ev.Type == "proposta.pendencia" && numero > 0 && p.defect != NoRereadAfterPending {
		path := "/insurer/v1/proposta/" + strconv.FormatInt(int64(numero), 10)
		p.retry(ctx, a.id, "GET "+path, func(int) (answer, error) { return p.send(ctx, a, http.MethodGet, path, nil, nil) })
	}
}

// notifyBenefit is POST /actions/notify-benefit {"numeroProposta", "cpf"}:
// the customer's family asks for the funeral assistance of the proposal's
// enrollment; the partner gives the benefit notice with an
// Idempotency-Key and answers the benefit's pendings from its events.
func (p *Partner) notifyBenefit(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		Numero json.Number `json:"numeroProposta"`
		CPF    string      `json:"cpf"`
	}
	if err := decodeInput(body, &in); err != nil || in.Numero == "" || in.CPF == "" {
		return nil, badRequest(`send {"numeroProposta", "cpf"}`)
	}
	n, err := in.Numero.Int64()
	if err != nil {
		return nil, badRequest("numeroProposta must be a number")
	}
	aviso, _ := json.Marshal(map[string]any{
		"numeroProposta": n, "cpfSegurado": in.CPF, "causa": "FUNERAL",
		"dataOcorrencia": p.now(ctx, a).In(brasilia).Format(time.DateOnly),
		"comunicante":    map[string]any{"nome": "Familiar do segurado", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"},
	})
	key := newUUID()
	ans, _, err := p.retry(ctx, a.id, "POST /benefits/v1/beneficio", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/benefits/v1/beneficio", aviso, http.Header{"Idempotency-Key": {key}})
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated {
		return nil, fmt.Errorf("benefit notice answered %d: %s", ans.status, excerpt(ans.body))
	}
	var out struct {
		Valor map[string]any `json:"Valor"`
	}
	json.Unmarshal(ans.body, &out)
	if id, ok := out.Valor["beneficioId"].(float64); ok {
		a.mu.Lock()
		a.insurer.notified(int64(id), "AVISADO")
		a.mu.Unlock()
	}
	return out.Valor, nil
}
