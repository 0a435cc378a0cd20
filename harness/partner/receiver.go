package partner

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/events"
)

// receive is the webhook receiver: POST /webhooks/{clientId}/pix, /rec and
// /cobr (kind names the official callback) and POST /webhooks/{clientId}
// (kind "": the insurer's event envelope). It verifies the signature with
// the app's webhook secret, answers at once and processes afterwards.
func (p *Partner) receive(w http.ResponseWriter, r *http.Request, kind string) {
	a := p.app(r.PathValue("clientId"))
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	if p.defect != IgnoreSignature {
		a.mu.Lock()
		secret := a.whSecret
		a.mu.Unlock()
		verr := errors.New("no webhook secret known for this client id")
		if secret != "" {
			tolerance := SignatureTolerance
			if p.defect == AcceptStale {
				tolerance = 100 * 365 * 24 * time.Hour
			}
			verr = events.Verify(r.Header.Get(events.SignatureHeader), secret, body, time.Now(), tolerance)
		}
		if verr != nil {
			a.mu.Lock()
			a.rejected++
			a.mu.Unlock()
			p.logf("client=%s webhook %s rejected: %v", a.id, r.URL.Path, verr)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": verr.Error()})
			return
		}
	}
	if p.defect == RejectUnknown && kind == "pix" && a.unknownTxid(body) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown charge"})
		return
	}
	a.mu.Lock()
	a.notified++
	a.mu.Unlock()
	p.logf("client=%s webhook %s accepted event=%s attempt=%s", a.id, r.URL.Path,
		r.Header.Get("Homologa-Event-Id"), r.Header.Get("Homologa-Attempt"))
	if p.defect == SlowAck {
		t := time.NewTimer(SlowAckDelay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}
	p.mu.Lock()
	if !p.closed {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			switch kind {
			case "pix":
				p.process(p.ctx, a, body)
			case "rec":
				p.processRec(p.ctx, a, body)
			case "cobr":
				p.processCobR(p.ctx, a, body)
			default:
				p.onEvent(p.ctx, a, body)
			}
		}()
	}
	p.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// process books each Pix of a callback once per endToEndId and reconciles
// it with the charge.
func (p *Partner) process(ctx context.Context, a *app, body []byte) {
	var cb struct {
		Pix []struct {
			EndToEndID string `json:"endToEndId"`
			TxID       string `json:"txid"`
			Valor      string `json:"valor"`
			Devolucoes []struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"devolucoes"`
		} `json:"pix"`
	}
	if err := json.Unmarshal(body, &cb); err != nil {
		p.logf("client=%s callback not understood: %v", a.id, err)
		return
	}
	for _, px := range cb.Pix {
		for _, d := range px.Devolucoes {
			a.refundStatus(d.ID, d.Status)
		}
		if px.TxID == "" || px.EndToEndID == "" {
			continue
		}
		want := a.chargedAmount(px.TxID)
		if want < 0 {
			// A charge it never made (someone else's on its key): set
			// aside for a person, never booked as one of its own.
			a.setAside(px.EndToEndID)
			p.logf("client=%s pix %s pays txid %s, which it never charged: set aside", a.id, px.EndToEndID, px.TxID)
			continue
		}
		if paid := cents(px.Valor); want >= 0 && paid != want && p.defect != BookAnyAmount {
			a.mu.Lock()
			a.divergent = append(a.divergent, px.TxID)
			a.mu.Unlock()
			p.logf("client=%s pix %s pays %s, not what txid %s asked: not booked as paid", a.id, px.EndToEndID, px.Valor, px.TxID)
			continue
		}
		if !a.book(px.TxID, px.EndToEndID, px.Valor, p.defect == ProcessDuplicates) {
			p.logf("client=%s pix %s already booked: ignored", a.id, px.EndToEndID)
			continue
		}
		p.logf("client=%s pix %s booked for txid %s", a.id, px.EndToEndID, px.TxID)
		if p.defect != NeverReconcile {
			p.reconcile(ctx, a, px.TxID, px.EndToEndID)
		}
	}
}

// book records a payment; it reports false for an endToEndId already
// booked, unless again is set (the process-duplicates defect).
func (a *app) book(txid, e2eid, valor string, again bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if pm := a.byE2E[e2eid]; pm != nil {
		if !again {
			return false
		}
		pm.Times++
		return true
	}
	pm := &Payment{TxID: txid, EndToEndID: e2eid, Valor: valor, Times: 1}
	a.byE2E[e2eid] = pm
	a.payments = append(a.payments, pm)
	return true
}

// reconcile reads the charge back: CONCLUIDA with the Pix in pix[] makes
// the txid reconciled.
func (p *Partner) reconcile(ctx context.Context, a *app, txid, e2eid string) {
	p.reconcileAt(ctx, a, "/pix/v2/cob/"+txid, txid, e2eid)
}

// reconcileAt reads the charge at path (a cob or a cobr) back.
func (p *Partner) reconcileAt(ctx context.Context, a *app, path, txid, e2eid string) {
	ans, _, err := p.retry(ctx, a.id, "GET "+path, func(int) (answer, error) {
		return p.send(ctx, a, http.MethodGet, path, nil, nil)
	})
	if err != nil || ans.status != http.StatusOK {
		p.logf("client=%s reconcile %s failed: status=%d err=%v", a.id, txid, ans.status, err)
		return
	}
	var cob struct {
		Status string `json:"status"`
		Pix    []struct {
			EndToEndID string `json:"endToEndId"`
		} `json:"pix"`
	}
	json.Unmarshal(ans.body, &cob)
	found := false
	for _, px := range cob.Pix {
		found = found || px.EndToEndID == e2eid
	}
	if cob.Status != "CONCLUIDA" || !found {
		p.logf("client=%s reconcile %s: status %s, pix %s listed=%v", a.id, txid, cob.Status, e2eid, found)
		return
	}
	a.mu.Lock()
	if !a.isReconcile[txid] {
		a.isReconcile[txid] = true
		a.reconciled = append(a.reconciled, txid)
	}
	a.mu.Unlock()
	p.logf("client=%s txid %s reconciled", a.id, txid)
}

// chargedAmount is what the partner asked for txid, in cents; -1 when it
// does not know the charge (one the suite made, or a composite QR's).
func (a *app) chargedAmount(txid string) int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	v, ok := a.charged[txid]
	if !ok {
		return -1
	}
	return cents(v)
}

// cents reads "10.00" as 1000; an unreadable amount is -2, never equal
// to a real one.
func cents(v string) int64 {
	whole, frac, _ := strings.Cut(strings.TrimSpace(v), ".")
	frac = (frac + "00")[:2]
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return -2
	}
	return n
}

// refundStatus records the last status of a refund the partner asked.
func (a *app) refundStatus(id, status string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.refunds[id]; ok && status != "" {
		a.refunds[id] = status
	}
}

// unknownTxid reports a Pix callback naming a txid the partner never
// charged.
func (a *app) unknownTxid(body []byte) bool {
	var cb struct {
		Pix []struct {
			TxID string `json:"txid"`
		} `json:"pix"`
	}
	json.Unmarshal(body, &cb)
	for _, px := range cb.Pix {
		if px.TxID != "" && a.chargedAmount(px.TxID) < 0 {
			return true
		}
	}
	return false
}
