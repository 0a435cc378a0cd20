package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// What a trigger needs, made through the partner APIs as a partner makes
// it (or the resource --resource names). Values come from --field, else
// a documented test profile.

// chave is the Pix key charges go to: --field chave, else the company's
// CNPJ (a key every app the portal registers for homologation has; the
// demo app has it too).
func (f *firing) chave() string { return f.field("chave", f.app.CNPJ) }

// cob is an immediate charge: the named txid, or a new one.
func (f *firing) cob() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	txid := newID("hmlgtrigger", 24)
	body := map[string]any{"calendario": map[string]any{"expiracao": 3600}, "valor": map[string]any{"original": f.field("valor", "10.00")}, "chave": f.chave()}
	return txid, f.call(http.MethodPut, "/pix/v2/cob/"+txid, body, nil)
}

// cobv is a due-date charge: the named txid, or a new one due in ten
// days.
func (f *firing) cobv() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	txid := newID("hmlgtrigger", 24)
	body := map[string]any{"calendario": map[string]any{"dataDeVencimento": f.date(10), "validadeAposVencimento": 30},
		"devedor": map[string]any{"cpf": f.field("cpf", "12345678909"), "nome": "Francisco da Silva"},
		"valor":   map[string]any{"original": f.field("valor", "100.00")}, "chave": f.chave()}
	return txid, f.call(http.MethodPut, "/pix/v2/cobv/"+txid, body, nil)
}

// pay has the simulated payer pay a charge; it answers the Pix.
func (f *firing) pay(txid string) (string, error) {
	body := map[string]any{"txid": txid}
	if v := f.field("valor", ""); v != "" {
		body["valor"] = v
	}
	var pix struct {
		EndToEndID string `json:"endToEndId"`
	}
	err := f.call(http.MethodPost, "/sandbox/pix/payments", body, &pix)
	return pix.EndToEndID, err
}

// paidPix is a received Pix: the named endToEndId, or a new charge paid.
func (f *firing) paidPix() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	txid, err := f.cob()
	if err != nil {
		return "", err
	}
	return f.pay(txid)
}

// rec is a recurrence: the named idRec, or a new monthly one starting in
// a month.
func (f *firing) rec() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	body := map[string]any{"vinculo": map[string]any{"contrato": newID("CTR-", 8), "devedor": map[string]any{"cpf": f.field("cpf", "11144477735"), "nome": "Maria Souza"}},
		"calendario": map[string]any{"dataInicial": f.date(30), "periodicidade": "MENSAL"}, "valor": map[string]any{"valorRec": f.field("valor", "35.00")},
		"politicaRetentativa": "PERMITE_3R_7D"}
	var rec struct {
		IDRec string `json:"idRec"`
	}
	err := f.call(http.MethodPost, "/pix/v2/rec", body, &rec, "Idempotency-Key", newID("trigger-", 16))
	return rec.IDRec, err
}

// cobr is a recurring charge of a new approved recurrence, due ten
// days into it: the named txid, or a new one. scenario names the
// scenario that drives it (X-Sandbox-Scenario).
func (f *firing) cobr(scenario string) (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	idRec, err := f.rec()
	if err != nil {
		return "", err
	}
	if err := f.call(http.MethodPost, "/sandbox/pix/rec/"+url.PathEscape(idRec)+"/aprovar", nil, nil); err != nil {
		return "", err
	}
	txid := newID("hmlgtrigger", 24)
	body := map[string]any{"idRec": idRec, "calendario": map[string]any{"dataDeVencimento": f.date(40)}, "valor": map[string]any{"original": f.field("valor", "35.00")},
		"recebedor": map[string]any{"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
	var h []string
	if scenario != "" {
		h = []string{"X-Sandbox-Scenario", scenario}
	}
	return txid, f.call(http.MethodPut, "/pix/v2/cobr/"+txid, body, nil, h...)
}

// offer is the offer sold: --field offer, else YZ; granted to the
// company when it may not sell it yet (its own sandbox plays the
// insurer's commercial area: PUT /sandbox/offers/{offer}).
func (f *firing) offer() (string, error) {
	offer := f.field("offer", "YZ")
	a, err := f.c.Do(f.ctx, Request{Method: http.MethodGet, Path: "/insurer/v1/modeloproposta/" + url.PathEscape(offer) + "?completo=false"})
	if err != nil {
		return "", err
	}
	if a.Status == http.StatusOK {
		return offer, nil
	}
	return offer, f.call(http.MethodPut, "/sandbox/offers/"+url.PathEscape(offer), nil, nil)
}

// proposal sells the offer to the customer (simulation, signature code
// read from the sandbox's outbox, proposal) and answers its number: the
// named numeroProposta, or a new one RECEBIDA.
func (f *firing) proposal() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	offer, err := f.offer()
	if err != nil {
		return "", err
	}
	cpf := f.field("cpf", "11144477735")
	produto, covs, err := f.quote(offer, cpf)
	if err != nil {
		return "", err
	}
	if err := f.call(http.MethodPost, "/access/v1/token/user", map[string]any{"cpf": cpf}, nil); err != nil {
		return "", err
	}
	var box struct {
		Messages []struct {
			Codigo any `json:"codigo"`
		} `json:"messages"`
	}
	if err := f.call(http.MethodGet, "/sandbox/outbox?cpf="+cpf, nil, &box); err != nil || len(box.Messages) == 0 {
		return "", fmt.Errorf("the signature code sent to %s is not in the outbox: %v", cpf, err)
	}
	body := map[string]any{"PROPOSTA": map[string]any{
		"DADOS_PROPONENTE": map[string]any{"NOME": "Cliente " + cpf, "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": cpf,
			"RENDA_MENSAL": 20000, "ENDERECOS": map[string]any{"ENDERECO": map[string]any{"ESTADO": "SP", "CEP": "01310100"}},
			"PROFISSAO": map[string]any{"CODIGO": "2410-05"}},
		"PLANOS":         map[string]any{"PLANO": map[string]any{"CODIGO": produto, "COBERTURAS": map[string]any{"COBERTURA": covs}}},
		"BENEFICIARIOS":  map[string]any{"BENEFICIARIO": []any{map[string]any{"NOME": "Beneficiária A", "PARENTESCO": "FILHA", "PARTICIPACAO": 100}}},
		"DADOS_COBRANCA": map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
		"ASSINATURA":     map[string]any{"TIPO": "TOKEN", "TOKEN": box.Messages[0].Codigo},
	}}
	var out struct {
		Valor struct {
			NumeroProposta json.Number `json:"numeroProposta"`
		} `json:"Valor"`
	}
	err = f.call(http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta="+url.QueryEscape(offer), body, &out, "Idempotency-Key", newID("trigger-", 16))
	return out.Valor.NumeroProposta.String(), err
}

// quote simulates the offer for the test profile and answers its first
// product with its mandatory coverages, as proposal COBERTURA items.
func (f *firing) quote(offer, cpf string) (int, []any, error) {
	body := map[string]any{"simulacoes": []any{map[string]any{
		"proponente":              map[string]any{"cpf": cpf, "dataNascimento": "1980-01-01", "sexoId": 2, "renda": 20000, "profissaoCbo": "2410-05", "uf": "SP"},
		"periodicidadeCobrancaId": 30, "capitalSegurado": 200000}}}
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
	if err := f.call(http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta="+url.QueryEscape(offer), body, &q); err != nil {
		return 0, nil, err
	}
	if len(q.Valor.Simulacoes) == 0 || len(q.Valor.Simulacoes[0].Produtos) == 0 {
		return 0, nil, fmt.Errorf("the offer %s priced nothing for the test profile (born 1980, SP, income 20000)", offer)
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

// status reads a resource's status at path (the insurer's envelope:
// Valor.status).
func (f *firing) status(p string) (string, error) {
	var out struct {
		Valor struct {
			Status string `json:"status"`
		} `json:"Valor"`
	}
	err := f.call(http.MethodGet, p, nil, &out)
	return out.Valor.Status, err
}

// walk moves a resource along its happy path (chain) from where it is to
// to, one control action per status.
func (f *firing) walk(kind string, ref map[string]any, chain []string, from, to string) error {
	i, j := slices.Index(chain, from), slices.Index(chain, to)
	if i < 0 || j < 0 {
		return fmt.Errorf("%s %v is %s: it cannot go on to %s", kind, ref, from, to)
	}
	for _, st := range chain[i+1 : j+1] {
		step := map[string]any{"status": st}
		if (kind == "beneficio" && st == "PAGO") || (kind == "cobranca" && st == "PAGA") {
			step = map[string]any{"pay": true}
		}
		if err := f.act(kind, ref, step); err != nil {
			return err
		}
	}
	return nil
}

// proposalAt is a proposal in status (one of the analysis' chain):
// moved there from where it is.
func (f *firing) proposalAt(status string) (string, error) {
	numero, err := f.proposal()
	if err != nil {
		return "", err
	}
	now, err := f.status("/insurer/v1/proposta/" + url.PathEscape(numero))
	if err != nil {
		return "", err
	}
	chain := []string{"RECEBIDA", "EM_ANALISE", "APROVADA", "IMPLANTADA"}
	if now == status || slices.Index(chain, now) > slices.Index(chain, status) && slices.Contains(chain, now) {
		return numero, nil
	}
	return numero, f.walk("proposta", map[string]any{"numeroProposta": numero}, chain, now, status)
}

// enrollment is an enrollment in force: the named inscricaoId, or a new
// proposal implanted (whose first charge is then issued).
func (f *firing) enrollment() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	numero, err := f.proposalAt("IMPLANTADA")
	if err != nil {
		return "", err
	}
	var list struct {
		Valor []struct {
			InscricaoID json.Number `json:"inscricaoId"`
		} `json:"Valor"`
	}
	if err := f.call(http.MethodGet, "/customer/v1/inscricao?numeroProposta="+url.QueryEscape(numero), nil, &list); err != nil {
		return "", err
	}
	if len(list.Valor) == 0 {
		return "", fmt.Errorf("the proposal %s was implanted with no enrollment", numero)
	}
	insc := list.Valor[0].InscricaoID.String()
	// Its first charge, which the billing job issues just after, comes
	// before whatever is fired on the enrollment: a session recorded
	// from the trigger then has one order of events, not the job's.
	if _, err := f.firstCharge(insc); err != nil {
		return "", err
	}
	return insc, nil
}

// cobranca is an enrollment's charge: the named cobrancaId, or the first
// charge of a new enrollment.
func (f *firing) cobranca() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	insc, err := f.enrollment()
	if err != nil {
		return "", err
	}
	return f.firstCharge(insc)
}

// firstCharge is the first charge of enrollment insc. The insurer's
// billing job issues it just after the implantation, not inside it (as
// in production): wait for it a bounded while, as a partner waits for
// Cobrança Emitida.
func (f *firing) firstCharge(insc string) (string, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		var list struct {
			Valor []struct {
				CobrancaID json.Number `json:"cobrancaId"`
			} `json:"Valor"`
		}
		if err := f.call(http.MethodGet, "/customer/v1/inscricao/"+insc+"/cobrancas", nil, &list); err != nil {
			return "", err
		}
		if len(list.Valor) > 0 {
			return list.Valor[0].CobrancaID.String(), nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("the enrollment %s has no charge 10s after its implantation", insc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// paidCobranca is a new enrollment's first charge, paid (its
// commission is then issued); it answers the enrollment.
func (f *firing) paidCobranca() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	insc, err := f.enrollment()
	if err != nil {
		return "", err
	}
	cob, err := f.firstCharge(insc)
	if err != nil {
		return "", err
	}
	return insc, f.act("cobranca", map[string]any{"cobrancaId": cob}, map[string]any{"pay": true})
}

// benefit is a benefit notice: the named beneficioId, or a notice of a
// death on a new enrollment.
func (f *firing) benefit() (string, error) {
	if f.resource != "" {
		return f.resource, nil
	}
	insc, err := f.enrollment()
	if err != nil {
		return "", err
	}
	n, _ := strconv.ParseInt(insc, 10, 64)
	body := map[string]any{"inscricaoId": n, "cpfSegurado": f.field("cpf", "11144477735"), "causa": f.field("causa", "MORTE"), "dataOcorrencia": f.date(0),
		"comunicante": map[string]any{"nome": "Ana Souza", "tipoDocumento": "CPF", "documento": f.field("comunicante", "52998224725"), "relacao": "FILHO"}}
	var out struct {
		Valor struct {
			ID json.Number `json:"beneficioId"`
		} `json:"Valor"`
	}
	err = f.call(http.MethodPost, "/benefits/v1/beneficio", body, &out, "Idempotency-Key", newID("trigger-", 16))
	return out.Valor.ID.String(), err
}

// benefitAt is a benefit in status (of the regulation's chain).
func (f *firing) benefitAt(status string) (string, error) {
	id, err := f.benefit()
	if err != nil {
		return "", err
	}
	now, err := f.status("/benefits/v1/beneficio/" + url.PathEscape(id))
	if err != nil {
		return "", err
	}
	if now == status {
		return id, nil
	}
	return id, f.walk("beneficio", map[string]any{"beneficioId": id}, []string{"AVISADO", "EM_REGULACAO", "APROVADO", "PAGO"}, now, status)
}
