package harness

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ledger is what the partner says it recorded, in the suite's terms: the
// state contract. The partner's "state" action answers it in its own
// format: a version 1 partner as {"payments": [{"txid", "times"}],
// "reconciled": [txid]}; any other maps its answer with returns. Lists
// (a path to one value or a list; filters read a ledger as it is):
//
//	booked:     every booking's txid, once per booking
//	paid:       the txids of the charges it considers paid
//	reconciled: the txids it reconciled
//	refunded:   the refunds it considers done (their ids)
//	unknown:    payments it set aside, not matched to a charge of its own
//	applied:    the id of every event it applied, once per application
//
// Records (each: and a path per field, see ReturnSpec):
//
//	payments:    txid, e2eid, valor   (several for one charge may be)
//	charges:     txid, status         (the service's status words)
//	proposals:   numero, status
//	enrollments: id, status
//	benefits:    id, status
//	pendings:    id, status
//	events:      id, times            (how many times it applied each)
//
// A name the file does not map is unknown, and a check that needs it says
// so.
type ledger struct {
	booked     map[string]int
	bookedE2E  map[string]map[string]int // txid → endToEndId → times
	paid       map[string]bool
	reconciled map[string]bool
	refunded   map[string]bool
	unknown    map[string]bool
	applied    map[string]int
	status     map[string]map[string]string // record name → id → status
	known      map[string]bool
}

// ledgerLists are the names of the state contract that are lists; the
// keys of ledgerRecords are those that are records, with the field that
// identifies each.
var (
	ledgerLists   = []string{"booked", "paid", "reconciled", "refunded", "unknown", "applied"}
	ledgerRecords = map[string]string{"payments": "e2eid", "charges": "txid", "proposals": "numero", "enrollments": "id", "benefits": "id", "pendings": "id", "events": "id"}
)

// checkReturn checks a name of an action's returns: the state action's
// must be names of the state contract, records where it has records.
func checkReturn(action, name string, r ReturnSpec) error {
	if action != "state" {
		if r.Each != "" {
			return fmt.Errorf("a record (each:) is read only from the state action; map a path here")
		}
		return nil
	}
	if slices.Contains(ledgerLists, name) {
		if r.Each != "" {
			return fmt.Errorf("%s is a list: map a path such as $.items[*].id", name)
		}
		return nil
	}
	id, ok := ledgerRecords[name]
	if !ok {
		records := slices.Sorted(maps.Keys(ledgerRecords))
		return fmt.Errorf("the state contract has no %s: its lists are %s, its records %s (harness/README.md, the state contract)", name, strings.Join(ledgerLists, ", "), strings.Join(records, ", "))
	}
	if r.Each == "" {
		return fmt.Errorf("%s is a record: map each: (its items) and its fields, at least %s", name, id)
	}
	if _, ok := r.Fields[id]; !ok {
		return fmt.Errorf("%s: map the field %s (what identifies each)", name, id)
	}
	return nil
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
	for name, r := range a.Returns {
		if r.Each != "" {
			if recs, ok := r.records(doc); ok {
				l.addRecords(name, recs)
			}
			continue
		}
		v, ok := r.path.pick(doc)
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
	return ledger{booked: map[string]int{}, bookedE2E: map[string]map[string]int{}, paid: map[string]bool{}, reconciled: map[string]bool{},
		refunded: map[string]bool{}, unknown: map[string]bool{}, applied: map[string]int{}, status: map[string]map[string]string{}, known: map[string]bool{}}
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
	case "unknown":
		l.unknown[id] = true
	case "applied":
		l.applied[id]++
	}
}

// addRecords reads a record list into the ledger: statuses by id, and
// what payments and events say of the lists.
func (l ledger) addRecords(name string, recs []map[string]string) {
	l.known[name] = true
	idField := ledgerRecords[name]
	if l.status[name] == nil {
		l.status[name] = map[string]string{}
	}
	for _, r := range recs {
		id := r[idField]
		if id == "" {
			continue
		}
		if st, ok := r["status"]; ok {
			l.status[name][id] = st
		}
		switch name {
		case "payments":
			txid := r["txid"]
			l.booked[txid]++
			l.paid[txid] = true
			if l.bookedE2E[txid] == nil {
				l.bookedE2E[txid] = map[string]int{}
			}
			l.bookedE2E[txid][id]++
			l.known["booked"] = true
		case "charges":
			if r["status"] == "CONCLUIDA" {
				l.paid[id] = true
			}
			l.known["paid"] = true
		case "events":
			n, err := strconv.Atoi(r["times"])
			if err != nil || n < 1 {
				n = 1
			}
			l.applied[id] += n
			l.known["applied"] = true
		}
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
	for _, name := range []string{"reconciled", "refunded", "applied", "unknown"} {
		list, _ := m[name].([]any)
		for _, e := range list {
			l.add(name, text(e))
		}
	}
	for _, name := range []string{"booked", "paid", "reconciled", "refunded", "applied", "unknown"} {
		l.known[name] = true
	}
	// What it holds of the insurer's resources: proposals by numero,
	// benefits by id.
	for name, id := range map[string]string{"proposals": "numero", "benefits": "id"} {
		list, _ := m[name].([]any)
		var recs []map[string]string
		for _, e := range list {
			em, _ := e.(map[string]any)
			recs = append(recs, map[string]string{ledgerRecords[name]: text(em[id]), "status": text(em["status"])})
		}
		l.addRecords(name, recs)
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

// bookedAny says whether the ledger booked the Pix e2eid, for whichever
// charge.
func (l ledger) bookedAny(e2eid string) bool {
	for _, byE2E := range l.bookedE2E {
		if byE2E[e2eid] > 0 {
			return true
		}
	}
	return false
}
