package partner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// brasilia is the time zone of Pix dates (dataInicial, dataDeVencimento).
var brasilia = time.FixedZone("BRT", -3*3600)

// now is the sandbox's time: its clock may have been advanced, and the
// dates the partner sends (a recurrence's start, a due date, a benefit's
// occurrence) are checked against it. A partner in production uses its own
// clock; the reference partner asks the sandbox, and falls back to its own.
func (p *Partner) now(ctx context.Context, a *app) time.Time {
	// The clock is the app's company's: the call carries the app's token.
	ans, err := p.send(ctx, a, http.MethodGet, "/sandbox/clock", nil, nil)
	var c struct {
		Now time.Time `json:"now"`
	}
	if err != nil || ans.status != http.StatusOK || json.Unmarshal(ans.body, &c) != nil || c.Now.IsZero() {
		return time.Now()
	}
	return c.Now
}

// configureRecWebhooks is PUT /pix/v2/webhookrec and PUT
// /pix/v2/webhookcobr: where the PSP posts {webhookUrl}/rec and /cobr.
func (p *Partner) configureRecWebhooks(ctx context.Context, a *app) error {
	body, _ := json.Marshal(map[string]string{"webhookUrl": p.webhookURL(a)})
	for _, path := range []string{"/pix/v2/webhookrec", "/pix/v2/webhookcobr"} {
		if err := p.put(ctx, a, path, body); err != nil {
			return err
		}
	}
	a.mu.Lock()
	a.recHooks = true
	a.mu.Unlock()
	return nil
}

// createRec is POST /actions/create-rec {"cpf", "nome", "valor"}: a monthly
// recurrence (journey 1) starting tomorrow, created with an
// Idempotency-Key, then its confirmation request to the payer's PSP.
func (p *Partner) createRec(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		CPF   string `json:"cpf"`
		Nome  string `json:"nome"`
		Valor string `json:"valor"`
	}
	if err := decodeInput(body, &in); err != nil || in.CPF == "" || in.Valor == "" {
		return nil, badRequest(`send {"cpf", "valor"} (and "nome")`)
	}
	if in.Nome == "" {
		in.Nome = "Cliente " + in.CPF
	}
	now := p.now(ctx, a)
	today := now.In(brasilia)
	rec, _ := json.Marshal(map[string]any{
		"vinculo":             map[string]any{"contrato": "CTR-" + p.fresh(10), "devedor": map[string]string{"cpf": in.CPF, "nome": in.Nome}, "objeto": "Seguro"},
		"calendario":          map[string]string{"dataInicial": today.AddDate(0, 0, 1).Format(time.DateOnly), "periodicidade": "MENSAL"},
		"valor":               map[string]string{"valorRec": in.Valor},
		"politicaRetentativa": "NAO_PERMITE",
	})
	key := newUUID()
	ans, _, err := p.retry(ctx, a.id, "POST /pix/v2/rec", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/pix/v2/rec", rec, http.Header{"Idempotency-Key": {key}})
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated {
		return nil, fmt.Errorf("POST /pix/v2/rec answered %d: %s", ans.status, excerpt(ans.body))
	}
	var out struct {
		IDRec string `json:"idRec"`
	}
	json.Unmarshal(ans.body, &out)
	if p.defect == Polls {
		p.poll(a, "/pix/v2/rec/"+out.IDRec, `"APROVADA"`)
	}
	a.mu.Lock()
	a.recValor[out.IDRec] = in.Valor
	hooks := a.recHooks
	a.mu.Unlock()
	if p.defect == LateWebhook && !hooks {
		if err := p.configureRecWebhooks(ctx, a); err != nil {
			return nil, err
		}
	}
	solic, _ := json.Marshal(map[string]any{
		"idRec":        out.IDRec,
		"calendario":   map[string]string{"dataExpiracaoSolicitacao": now.UTC().Add(72 * time.Hour).Format(time.RFC3339)},
		"destinatario": map[string]string{"conta": "123456", "ispbParticipante": "99999009", "agencia": "0001", "cpf": in.CPF},
	})
	skey := newUUID()
	ans, _, err = p.retry(ctx, a.id, "POST /pix/v2/solicrec", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPost, "/pix/v2/solicrec", solic, http.Header{"Idempotency-Key": {skey}})
	})
	if err != nil {
		return nil, err
	}
	if ans.status != http.StatusCreated {
		return nil, fmt.Errorf("POST /pix/v2/solicrec answered %d: %s", ans.status, excerpt(ans.body))
	}
	var s struct {
		ID string `json:"idSolicRec"`
	}
	json.Unmarshal(ans.body, &s)
	return map[string]any{"idRec": out.IDRec, "idSolicRec": s.ID}, nil
}

// processRec handles a /rec callback: an approved recurrence gets its first
// recurring charge, once.
func (p *Partner) processRec(ctx context.Context, a *app, body []byte) {
	var cb struct {
		Recs []struct {
			IDRec  string `json:"idRec"`
			Status string `json:"status"`
		} `json:"recs"`
	}
	if err := json.Unmarshal(body, &cb); err != nil {
		p.logf("client=%s /rec callback not understood: %v", a.id, err)
		return
	}
	for _, r := range cb.Recs {
		if r.Status != "APROVADA" {
			continue
		}
		a.mu.Lock()
		valor, known := a.recValor[r.IDRec]
		// Each approval is charged once, however often its callback
		// comes: unless the process-duplicates defect charges it again.
		charged := a.recCharged[r.IDRec] != "" && p.defect != ProcessDuplicates
		txid := p.newTxid()
		if known && !charged {
			a.recCharged[r.IDRec] = txid
		}
		a.mu.Unlock()
		if !known || charged {
			continue
		}
		if err := p.createCobR(ctx, a, r.IDRec, txid, valor); err != nil {
			p.logf("client=%s first charge of %s: %v", a.id, r.IDRec, err)
		}
	}
}

// createCobR is PUT /pix/v2/cobr/{txid}: the first cycle's charge, due in
// three days (the PSP needs it before the settlement date), retried with the
// same txid.
func (p *Partner) createCobR(ctx context.Context, a *app, idRec, txid, valor string) error {
	a.useTxid(txid)
	req, _ := json.Marshal(map[string]any{
		"idRec":         idRec,
		"calendario":    map[string]string{"dataDeVencimento": p.now(ctx, a).In(brasilia).AddDate(0, 0, 3).Format(time.DateOnly)},
		"valor":         map[string]string{"original": valor},
		"recebedor":     map[string]string{"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"},
		"ajusteDiaUtil": true,
	})
	path := "/pix/v2/cobr/" + txid
	ans, _, err := p.retry(ctx, a.id, "PUT /pix/v2/cobr", func(int) (answer, error) {
		return p.send(ctx, a, http.MethodPut, path, req, nil)
	})
	if err != nil {
		return err
	}
	if ans.status != http.StatusCreated && ans.status != http.StatusOK {
		return fmt.Errorf("PUT %s answered %d: %s", path, ans.status, excerpt(ans.body))
	}
	return nil
}

// processCobR handles a /cobr callback: a settled recurring charge is
// booked once per endToEndId and reconciled with GET /cobr/{txid}.
func (p *Partner) processCobR(ctx context.Context, a *app, body []byte) {
	var cb struct {
		Cobsr []struct {
			TxID   string `json:"txid"`
			Status string `json:"status"`
			Pix    []struct {
				EndToEndID string `json:"endToEndId"`
				Valor      string `json:"valor"`
			} `json:"pix"`
		} `json:"cobsr"`
	}
	if err := json.Unmarshal(body, &cb); err != nil {
		p.logf("client=%s /cobr callback not understood: %v", a.id, err)
		return
	}
	for _, c := range cb.Cobsr {
		if c.Status != "CONCLUIDA" {
			continue
		}
		for _, px := range c.Pix {
			if px.EndToEndID == "" || !a.book(c.TxID, px.EndToEndID, px.Valor, p.defect == ProcessDuplicates) {
				continue
			}
			if p.defect != NeverReconcile {
				p.reconcileAt(ctx, a, "/pix/v2/cobr/"+c.TxID, c.TxID, px.EndToEndID)
			}
		}
	}
}
