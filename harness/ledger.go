package harness

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ledger is what the partner says it recorded, in the suite's terms. The
// partner's "state" action answers it in its own format: a version 1
// partner as {"payments": [{"txid", "times"}], "reconciled": [txid]}; a
// version 2 one maps its answer with returns, each name to a list:
//
//	booked:     every booking's txid, once per booking ($.payments[*].txid)
//	paid:       the txids of the charges it considers paid
//	reconciled: the txids it reconciled
//	refunded:   the refunds it considers done (their ids)
//
// A name the file does not map is unknown, and a check that needs it says
// so.
type ledger struct {
	booked     map[string]int
	paid       map[string]bool
	reconciled map[string]bool
	refunded   map[string]bool
	known      map[string]bool
}

// partnerLedger asks the partner for its state.
func (w *World) partnerLedger() (ledger, error) {
	if err := w.askPartner("state", ""); err != nil {
		return ledger{}, err
	}
	if w.partnerStatus/100 != 2 {
		return ledger{}, fmt.Errorf("the partner's state action answered %d: %.200s", w.partnerStatus, w.partnerAnswer)
	}
	var doc any
	if err := json.Unmarshal(w.partnerAnswer, &doc); err != nil {
		return ledger{}, fmt.Errorf("the partner's state is not JSON: %.200s", w.partnerAnswer)
	}
	a := w.Partner.Actions["state"]
	if len(a.Returns) == 0 {
		return legacyLedger(doc), nil
	}
	l := newLedger()
	for name, path := range a.Returns {
		v, ok := pick(doc, path)
		if !ok {
			continue
		}
		l.known[name] = true
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		for _, e := range list {
			l.add(name, text(e))
		}
	}
	return l, nil
}

func newLedger() ledger {
	return ledger{booked: map[string]int{}, paid: map[string]bool{}, reconciled: map[string]bool{}, refunded: map[string]bool{}, known: map[string]bool{}}
}

func (l ledger) add(name, id string) {
	switch name {
	case "booked":
		l.booked[id]++
		l.paid[id] = true
	case "paid":
		l.paid[id] = true
	case "reconciled":
		l.reconciled[id] = true
	case "refunded":
		l.refunded[id] = true
	}
}

// legacyLedger reads the version 1 state: payments with their times,
// reconciled txids, and refunds.
func legacyLedger(doc any) ledger {
	l := newLedger()
	m, _ := doc.(map[string]any)
	pays, _ := m["payments"].([]any)
	for _, p := range pays {
		pm, _ := p.(map[string]any)
		txid := text(pm["txid"])
		times := 1
		if n, ok := pm["times"].(float64); ok {
			times = int(n)
		}
		l.booked[txid] += times
		l.paid[txid] = true
	}
	for _, name := range []string{"reconciled", "refunded"} {
		list, _ := m[name].([]any)
		for _, e := range list {
			l.add(name, text(e))
		}
	}
	for _, name := range []string{"booked", "paid", "reconciled", "refunded"} {
		l.known[name] = true
	}
	return l
}

// notConsideredPaid holds over the window: the partner never counts txid
// paid, though the payment's notification reached it.
func (w *World) notConsideredPaid(txid string, secs int) error {
	txid, err := w.expand(txid)
	if err != nil {
		return err
	}
	return holds(secs, func(last bool) error {
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known["paid"] && !l.known["booked"] {
			return fmt.Errorf("the partner's state says nothing of what it considers paid: map paid (or booked) in the state action's returns")
		}
		if l.paid[txid] || l.booked[txid] > 0 {
			return fmt.Errorf("the partner counts %s paid, but its Pix paid another amount than the charge asked (valorDivergente): book a payment as paid only when it pays what the charge asks", txid)
		}
		if last {
			return w.notificationReached("/pix")
		}
		return nil
	})
}

// refundNotDone holds over the window: the partner never counts the
// refund done (the sandbox ended it NAO_REALIZADO).
func (w *World) refundNotDone(id string, secs int) error {
	id, err := w.expand(id)
	if err != nil {
		return err
	}
	return holds(secs, func(bool) error {
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known["refunded"] {
			return fmt.Errorf("the partner's state says nothing of its refunds: map refunded (the refunds it knows done) in the state action's returns")
		}
		if l.refunded[id] {
			return fmt.Errorf("the partner counts refund %s done, but it was EM_PROCESSAMENTO and ended NAO_REALIZADO: a refund is done only when its status is DEVOLVIDO (its /pix notification or GET /pix/{e2eid}/devolucao/{id} says so)", id)
		}
		return nil
	})
}

// notificationReached checks a notification to the partner's webhook
// path suffix was delivered (2xx): a check that the partner ignored
// something needs it to have heard it.
func (w *World) notificationReached(suffix string) error {
	ds, err := w.deliveries()
	if err != nil {
		return err
	}
	for _, d := range ds {
		if strings.HasSuffix(d.URL, suffix) && d.Status == "delivered" {
			return nil
		}
	}
	return fmt.Errorf("no notification reached the partner's %s webhook: acknowledge with 2xx what verifies", suffix)
}

// holds runs check until the window of secs ends, failing at its first
// error: a check that something never happens must watch the whole
// window, never pass at its start. last is true on the final run.
func holds(secs int, check func(last bool) error) error {
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		last := !time.Now().Before(deadline)
		if err := check(last); err != nil {
			return err
		}
		if last {
			return nil
		}
		time.Sleep(250 * time.Millisecond)
	}
}
