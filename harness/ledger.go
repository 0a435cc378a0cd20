package harness

import (
	"encoding/json"
	"fmt"
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
