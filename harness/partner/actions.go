package partner

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// webhookURL is where the partner wants an app's Pix notifications (the
// PSP appends /pix).
func (p *Partner) webhookURL(a *app) string {
	return p.url + "/webhooks/" + url.PathEscape(a.id)
}

// onboard obtains a token and configures the key's webhook and the Pix
// Automático webhooks (webhooks from the start: usage rule 4).
func (p *Partner) onboard(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		Chave string `json:"chave"`
	}
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	if in.Chave == "" {
		return nil, badRequest("chave is required")
	}
	a.mu.Lock()
	a.chave = in.Chave
	a.mu.Unlock()
	if _, err := p.token(ctx, a, ""); err != nil {
		return nil, err
	}
	hook := p.webhookURL(a)
	if p.defect == LateWebhook {
		return map[string]any{"webhookUrl": hook, "configured": false}, nil
	}
	if err := p.configureWebhook(ctx, a, in.Chave); err != nil {
		return nil, err
	}
	if err := p.configureRecWebhooks(ctx, a); err != nil {
		return nil, err
	}
	return map[string]any{"webhookUrl": hook, "configured": true}, nil
}

// put is a PUT the PSP treats as idempotent, so retried as is, that
// must answer 2xx.
func (p *Partner) put(ctx context.Context, a *app, path string, body []byte) error {
	ans, _, err := p.retry(ctx, a.id, "PUT "+path, func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPut, path, body, nil)
	})
	if err != nil {
		return err
	}
	if ans.status/100 != 2 {
		return fmt.Errorf("PUT %s answered %d: %s", path, ans.status, excerpt(ans.body))
	}
	return nil
}

// configureWebhook is PUT /pix/v2/webhook/{chave} (idempotent: retried as is).
func (p *Partner) configureWebhook(ctx context.Context, a *app, chave string) error {
	body, _ := json.Marshal(map[string]string{"webhookUrl": p.webhookURL(a)})
	if err := p.put(ctx, a, "/pix/v2/webhook/"+url.PathEscape(chave), body); err != nil {
		return err
	}
	a.mu.Lock()
	a.webhookSet[chave] = true
	a.mu.Unlock()
	return nil
}

// chaveOf is the action's key or the one the app was onboarded with.
func chaveOf(a *app, chave string) (string, error) {
	if chave != "" {
		return chave, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.chave == "" {
		return "", badRequest("chave is required (or onboard first)")
	}
	return a.chave, nil
}

func (a *app) useTxid(txid string) {
	a.mu.Lock()
	a.txids = append(a.txids, txid)
	a.mu.Unlock()
}

// cobInput is what the driver asks of a charge: its amount, the key it
// is paid to (the app's own when empty), its payer, and a due-date
// charge's due date.
type cobInput struct {
	Valor      string          `json:"valor"`
	Chave      string          `json:"chave"`
	Devedor    json.RawMessage `json:"devedor"`
	Vencimento string          `json:"vencimento"`
}

// cobRequest reads the driver's charge and writes the body of the Pix
// request that creates it, to the key it resolved: an immediate charge,
// or with dueDate a due-date charge (cobv).
func (p *Partner) cobRequest(a *app, body []byte, dueDate bool) (in cobInput, chave string, req []byte, err error) {
	if err := decodeInput(body, &in); err != nil {
		return in, "", nil, err
	}
	chave, cob, err := p.cobDoc(a, in, dueDate)
	if err != nil {
		return in, "", nil, err
	}
	req, err = json.Marshal(cob)
	return in, chave, req, err
}

// cobDoc is the Pix document of a charge the driver asked for, to the key
// it resolved; a due-date charge names its due date and its payer, as the
// API Pix asks of a cobv.
func (p *Partner) cobDoc(a *app, in cobInput, dueDate bool) (chave string, cob map[string]any, err error) {
	if in.Valor == "" {
		return "", nil, badRequest("valor is required")
	}
	if chave, err = chaveOf(a, in.Chave); err != nil {
		return "", nil, err
	}
	cob = map[string]any{"valor": map[string]string{"original": in.Valor}, "chave": chave}
	devedor := bytes.TrimSpace(in.Devedor)
	if len(devedor) > 0 && string(devedor) != "null" {
		cob["devedor"] = p.payer(in.Devedor)
	}
	if dueDate {
		if in.Vencimento == "" || cob["devedor"] == nil {
			return "", nil, badRequest("a due-date charge needs vencimento and devedor")
		}
		cob["calendario"] = map[string]any{"dataDeVencimento": in.Vencimento}
	}
	return chave, cob, nil
}

// createCob is PUT /pix/v2/cob/{txid} with a txid of the partner's, retried
// with the same txid: a PUT of one txid is idempotent.
func (p *Partner) createCob(ctx context.Context, a *app, body []byte) (any, error) {
	if p.byPOST || p.defect == NoIdempotencyKey {
		return p.createCobAuto(ctx, a, body)
	}
	return p.putCharge(ctx, a, "cob", body)
}

// createCobv is PUT /pix/v2/cobv/{txid}: a due-date charge, made and
// retried as createCob makes an immediate one (the API Pix has no POST
// for it, so a txid of the partner's is the only way).
func (p *Partner) createCobv(ctx context.Context, a *app, body []byte) (any, error) {
	return p.putCharge(ctx, a, "cobv", body)
}

// createLoteCobv is PUT /pix/v2/lotecobv/{id}: a batch of due-date
// charges, its id and each charge's txid chosen once and sent again as
// they were on a retry (the PSP takes the same batch twice as one; a new
// id would be every charge of it twice).
func (p *Partner) createLoteCobv(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		Chave      string     `json:"chave"`
		Vencimento string     `json:"vencimento"`
		Cobrancas  []cobInput `json:"cobrancas"`
	}
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	if len(in.Cobrancas) == 0 {
		return nil, badRequest("cobrancas: a batch needs at least one charge")
	}
	docs := make([]map[string]any, len(in.Cobrancas))
	for i, c := range in.Cobrancas {
		c.Chave, c.Vencimento = cmp.Or(c.Chave, in.Chave), cmp.Or(c.Vencimento, in.Vencimento)
		_, doc, err := p.cobDoc(a, c, true)
		if err != nil {
			return nil, err
		}
		docs[i] = doc
	}
	batch := func() (string, []string, []byte) {
		txids := make([]string, len(docs))
		for i, doc := range docs {
			txids[i] = p.newTxid()
			doc["txid"] = txids[i]
			a.useTxid(txids[i])
		}
		req, _ := json.Marshal(map[string]any{"descricao": "Cobranças do parceiro de referência", "cobsv": docs})
		return strconv.FormatInt(p.newLoteID(), 10), txids, req
	}
	id, txids, req := batch()
	ans, attempts, err := p.retry(ctx, a.id, "PUT /pix/v2/lotecobv", func(n int) (answer, error) {
		if n > 1 && p.defect == NewTxidOnRetry {
			id, txids, req = batch()
		}
		return p.send(ctx, a, http.MethodPut, "/pix/v2/lotecobv/"+id, req, nil)
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusAccepted {
		return nil, fmt.Errorf("PUT /pix/v2/lotecobv/%s answered %d: %s", id, ans.status, excerpt(ans.body))
	}
	for i, txid := range txids {
		p.charged(ctx, a, "/pix/v2/cobv/"+txid, txid, in.Cobrancas[i].Valor)
	}
	return map[string]any{"id": id, "txids": txids, "status": ans.status, "attempts": attempts}, nil
}

// putCharge is PUT /pix/v2/{kind}/{txid} (cob or cobv) with a txid of the
// partner's, retried with the same txid.
func (p *Partner) putCharge(ctx context.Context, a *app, kind string, body []byte) (any, error) {
	in, chave, req, err := p.cobRequest(a, body, kind == "cobv")
	if err != nil {
		return nil, err
	}
	var txid string
	if p.defect == ReuseTxid {
		a.mu.Lock()
		if a.fixedTxid == "" {
			a.fixedTxid = p.newTxid()
		}
		txid = a.fixedTxid
		a.mu.Unlock()
	} else {
		txid = p.newTxid()
	}
	a.useTxid(txid)

	base := "/pix/v2/" + kind + "/"
	ans, attempts, err := p.retry(ctx, a.id, "PUT "+strings.TrimSuffix(base, "/"), func(n int) (answer, error) {
		if n > 1 && p.defect == NewTxidOnRetry {
			txid = p.newTxid()
			a.useTxid(txid)
		}
		return p.send(ctx, a, http.MethodPut, base+txid, req, nil)
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated && ans.status != http.StatusOK {
		return nil, fmt.Errorf("PUT %s%s answered %d: %s", base, txid, ans.status, excerpt(ans.body))
	}
	var out struct {
		TxID          string `json:"txid"`
		Location      string `json:"location"`
		PixCopiaECola string `json:"pixCopiaECola"`
	}
	json.Unmarshal(ans.body, &out)
	if out.TxID == "" {
		out.TxID = txid
	}
	p.charged(ctx, a, base+out.TxID, out.TxID, in.Valor)
	if err := p.lateWebhook(ctx, a, chave); err != nil {
		return nil, err
	}
	return map[string]any{"txid": out.TxID, "location": out.Location, "pixCopiaECola": out.PixCopiaECola,
		"status": ans.status, "attempts": attempts}, nil
}

// lateWebhook is the late-webhook defect's configuration of the key's
// webhook after its first charge, not at onboarding.
func (p *Partner) lateWebhook(ctx context.Context, a *app, chave string) error {
	if p.defect != LateWebhook {
		return nil
	}
	a.mu.Lock()
	set := a.webhookSet[chave]
	a.mu.Unlock()
	if set {
		return nil
	}
	return p.configureWebhook(ctx, a, chave)
}

// createCobAuto is POST /pix/v2/cob (the PSP chooses the txid) with an
// Idempotency-Key, retried with the same key.
func (p *Partner) createCobAuto(ctx context.Context, a *app, body []byte) (any, error) {
	in, _, req, err := p.cobRequest(a, body, false)
	if err != nil {
		return nil, err
	}
	key := newUUID()
	var extra http.Header
	if p.defect != NoIdempotencyKey {
		extra = http.Header{"Idempotency-Key": {key}}
	} else {
		key = ""
	}
	ans, attempts, err := p.retry(ctx, a.id, "POST /pix/v2/cob", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/pix/v2/cob", req, extra)
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated && ans.status != http.StatusOK {
		return nil, fmt.Errorf("POST /pix/v2/cob answered %d: %s", ans.status, excerpt(ans.body))
	}
	var out struct {
		TxID          string `json:"txid"`
		Location      string `json:"location"`
		PixCopiaECola string `json:"pixCopiaECola"`
	}
	json.Unmarshal(ans.body, &out)
	if out.TxID == "" {
		return nil, fmt.Errorf("POST /pix/v2/cob answered %d without a txid", ans.status)
	}
	a.useTxid(out.TxID)
	p.charged(ctx, a, "/pix/v2/cob/"+out.TxID, out.TxID, in.Valor)
	return map[string]any{"txid": out.TxID, "location": out.Location, "pixCopiaECola": out.PixCopiaECola,
		"idempotencyKey": key, "attempts": attempts}, nil
}

// charged remembers what a charge asks, to book only a payment of that
// amount; with the polls defect it then reads the charge again and
// again, as an integration that does not trust its webhook does.
func (p *Partner) charged(ctx context.Context, a *app, path, txid, valor string) {
	a.mu.Lock()
	a.charged[txid] = valor
	a.mu.Unlock()
	if p.defect == Polls {
		p.poll(a, path, `"CONCLUIDA"`)
	}
}

// poll reads path again and again until its answer holds done, as an
// integration that does not trust its webhook does (the polls defect).
func (p *Partner) poll(a *app, path, done string) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for range 40 {
			select {
			case <-p.ctx.Done():
				return
			case <-time.After(250 * time.Millisecond):
			}
			ans, err := p.send(p.ctx, a, http.MethodGet, path, nil, nil)
			if err == nil && strings.Contains(string(ans.body), done) {
				return
			}
		}
	}()
}

// payer is the charge's devedor as the partner sends it: its CPF or CNPJ
// in digits, as the API takes them (a form may have typed them
// punctuated), unless the punctuated-documents defect sends them as
// given.
func (p *Partner) payer(raw json.RawMessage) any {
	var d map[string]any
	if json.Unmarshal(raw, &d) != nil || p.defect == PunctuatedDocuments {
		return raw
	}
	for _, k := range []string{"cpf", "cnpj"} {
		if v, ok := d[k].(string); ok {
			// Digits, and the letters of an alphanumeric CNPJ.
			digits := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' || k == "cnpj" && r >= 'A' && r <= 'Z' {
					return r
				}
				return -1
			}, strings.ToUpper(v))
			if n, err := strconv.ParseInt(digits, 10, 64); err == nil && k == "cpf" && p.defect == CPFAsNumber {
				digits = strconv.FormatInt(n, 10) // as a database column of numbers keeps it
			}
			d[k] = digits
		}
	}
	return d
}

// refund is PUT /pix/v2/pix/{e2eid}/devolucao/{id} with a fresh id, retried
// with the same id. The sandbox refuses a second PUT of an id with a 400; on
// a retry that means the first attempt did the work, which a GET confirms.
func (p *Partner) refund(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		E2EID string `json:"e2eid"`
		Valor string `json:"valor"`
	}
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	if in.E2EID == "" || in.Valor == "" {
		return nil, badRequest("e2eid and valor are required")
	}
	id := p.fresh(32)
	path := "/pix/v2/pix/" + url.PathEscape(in.E2EID) + "/devolucao/" + id
	req, _ := json.Marshal(map[string]string{"valor": in.Valor})
	var confirmed bool
	ans, attempts, err := p.retry(ctx, a.id, "PUT /pix/v2/pix/{e2eid}/devolucao", func(n int) (answer, error) {
		if n > 1 && p.defect == NewRefundIDOnRetry {
			id = p.fresh(32)
			path = "/pix/v2/pix/" + url.PathEscape(in.E2EID) + "/devolucao/" + id
		}
		ans, err := p.send(ctx, a, http.MethodPut, path, req, nil)
		if err == nil && n > 1 && ans.status == http.StatusBadRequest && duplicateID(ans.body) {
			got, gerr := p.send(ctx, a, http.MethodGet, path, nil, nil)
			if gerr == nil && got.status == http.StatusOK {
				confirmed = true
				return got, nil
			}
		}
		return ans, err
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated && !(confirmed && ans.status == http.StatusOK) {
		return nil, fmt.Errorf("PUT %s answered %d: %s", path, ans.status, excerpt(ans.body))
	}
	var out struct {
		Status string `json:"status"`
		RtrID  string `json:"rtrId"`
	}
	json.Unmarshal(ans.body, &out)
	a.mu.Lock()
	a.refunds[id] = out.Status
	a.mu.Unlock()
	return map[string]any{"id": id, "status": out.Status, "rtrId": out.RtrID, "attempts": attempts}, nil
}

// duplicateID tells whether a Problema names the refund id as already used.
func duplicateID(body []byte) bool {
	var prob struct {
		Violacoes []struct {
			Propriedade string `json:"propriedade"`
		} `json:"violacoes"`
	}
	if json.Unmarshal(body, &prob) != nil {
		return false
	}
	for _, v := range prob.Violacoes {
		if v.Propriedade == "id" || v.Propriedade == "devolucao.id" {
			return true
		}
	}
	return false
}
