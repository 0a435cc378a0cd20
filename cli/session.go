package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// How an event came about, which decides how the feature reproduces it.
const (
	// causeCall: the partner's request emitted it; replaying the request
	// emits it again.
	causeCall = "call"
	// causeTime: a scenario's step or a scheduled job emitted it; the
	// same requests and clock moves emit it again.
	causeTime = "time"
	// causeOther: the other side (the payer, the insurer, the bank)
	// through the control API: the feature makes the same move.
	causeOther = "other"
)

// item is one line of a session's timeline: a request of the partner, a
// move of the other side, an event to see on the stream, or a clock move.
type item struct {
	call    *call
	control *control
	event   *event
	// advance moves the company's clock forward; setAt sets it.
	advance time.Duration
	setAt   time.Time
	// activate turns on a scenario's faults for the app (one the session
	// met without naming it in a header).
	activate string
	at       time.Time
}

// control is a move of the other side, replayed through the control API.
type control struct {
	method, path string
	body         map[string]any
	status       int
}

// speed is how fast the company's clock ran during the session.
func (r *recording) speed() float64 {
	switch r.mode {
	case "frozen":
		return 0
	case "accelerated":
		return r.factor
	}
	return 1
}

// classify decides each event's cause.
func (r *recording) classify() {
	for _, e := range r.events {
		switch {
		case r.attachToCall(e):
			e.cause = causeCall
		case controlFor(e) == nil || r.byScenario(e) || r.consequence(e):
			e.cause = causeTime
		default:
			e.cause = causeOther
		}
	}
}

// callStatuses are the moves the partner's own requests make among those
// the other side makes too: a proposal registered or cancelled, a benefit
// reopened, a recurrence, request or recurring charge cancelled.
var callStatuses = map[string]bool{"RECEBIDA": true, "CANCELADA": true, "REABERTO": true, "REMOVIDA_PELO_USUARIO_RECEBEDOR": true}

// attachToCall finds the write request that emitted e: at its instant,
// naming e's subject. Events the other side alone makes are never a
// request's. On a frozen clock several requests share the instant: the
// events of one request follow those of the requests before it, and a
// request that already emitted an event about the same resource gives
// way to the next one (a revision after a creation).
func (r *recording) attachToCall(e *event) bool {
	if controlFor(e) != nil && !callStatuses[statusOf(e)] {
		return false
	}
	best, bestScore := -1, 0
	for i := max(r.cursor, 0); i < len(r.calls); i++ {
		c := r.calls[i]
		if c.Method == "GET" || c.Status/100 != 2 || e.OccurredAt.Before(c.At.Add(-time.Millisecond)) ||
			e.OccurredAt.After(c.At.Add(time.Duration(c.DurationMS*float64(time.Millisecond)*max(r.speed(), 1))+100*time.Microsecond)) || !mentions(c, subjectValues(e)) {
			continue
		}
		// A request whose answer shows an id of e it did not send made
		// e's resource (the code's tokenId; the proposal's number).
		score := 2
		if slices.ContainsFunc(subjectValues(e), func(v string) bool {
			return len(v) >= 4 && strings.Contains(c.ResponseBody, v) && !strings.Contains(c.Path+c.Query+c.RequestBody, v)
		}) {
			score = 3
		}
		if slices.ContainsFunc(c.events, func(o *event) bool { return slices.Equal(subjectValues(o), subjectValues(e)) }) {
			score = 1
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return false
	}
	r.calls[best].events = append(r.calls[best].events, e)
	r.cursor = best
	return true
}

// byScenario says whether a scenario's step on e's resource ran at e's
// instant.
func (r *recording) byScenario(e *event) bool {
	vals := subjectValues(e)
	for _, b := range r.bindings {
		refs := strings.Split(b.Ref, "/")
		if !slices.ContainsFunc(refs, func(ref string) bool { return slices.Contains(vals, ref) }) {
			continue
		}
		for _, l := range b.Log {
			if d := e.OccurredAt.Sub(l.At); d > -2*time.Second && d < 2*time.Second {
				return true
			}
		}
	}
	return false
}

// consequence says whether e follows from another move of the same
// instant: a recurrence approved or rejected by its confirmation
// request's answer.
func (r *recording) consequence(e *event) bool {
	if e.Type != "pix.rec.status" {
		return false
	}
	for _, o := range r.events {
		if o.Type == "pix.solicrec.status" && o.Sequence < e.Sequence && sameInstant(o.OccurredAt, e.OccurredAt) && slices.Contains(subjectValues(o), scalar(e.Subject["idRec"])) {
			return true
		}
	}
	return false
}

func sameInstant(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -2*time.Millisecond && d < 2*time.Millisecond
}

// subjectValues are the ids an event is about.
func subjectValues(e *event) []string {
	var out []string
	for _, v := range e.Subject {
		if s := scalar(v); s != "" {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// scalar is a JSON scalar as text ("" for objects and lists).
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return fmt.Sprint(x)
	case float64:
		return json.Number(fmt.Sprint(x)).String()
	}
	return ""
}

// mentions says whether a request or its answer names one of the values.
func mentions(c *call, vals []string) bool {
	for _, v := range vals {
		if len(v) < 4 {
			continue
		}
		if strings.Contains(c.Path, v) || strings.Contains(c.Query, v) || strings.Contains(c.RequestBody, v) || strings.Contains(c.ResponseBody, v) {
			return true
		}
	}
	return false
}

// statusOf is the status an event moves its resource to.
func statusOf(e *event) string {
	d, _ := e.Data.(map[string]any)
	for _, k := range []string{"statusAtual", "status"} {
		if s := scalar(d[k]); s != "" {
			return s
		}
	}
	if dv, ok := d["devolucao"].(map[string]any); ok {
		return scalar(dv["status"])
	}
	return ""
}

// timeline orders the session: each request with the events it emitted,
// the other events where they happened, and the clock's moves between.
func (r *recording) timeline() []item {
	var loose []*event
	for _, e := range r.events {
		if e.cause != causeCall {
			loose = append(loose, e)
		}
	}
	after := make([][]*event, len(r.calls)+1)
	pos := make([]int, len(loose))
	for i, e := range loose {
		pos[i] = r.position(e)
	}
	// Events keep their order: none goes after one that followed it.
	for i := len(loose) - 2; i >= 0; i-- {
		pos[i] = min(pos[i], pos[i+1])
	}
	for i, e := range loose {
		after[pos[i]] = append(after[pos[i]], e)
	}
	out := withMoves(nil, after[0])
	for i, c := range r.calls {
		out = append(out, item{call: c, at: c.At})
		for _, e := range c.events {
			out = append(out, item{event: e, at: e.OccurredAt})
		}
		out = withMoves(out, after[i+1])
	}
	return r.withClockMoves(r.withActivations(out))
}

// withMoves appends events, each the other side made after the move
// that made it: before the events of the same instant and resource that
// came just before it (a payment changes the charge's status, then the
// Pix is received: one move).
func withMoves(out []item, evs []*event) []item {
	for _, e := range evs {
		if e.cause == causeOther {
			at := len(out)
			for at > 0 && out[at-1].event != nil && out[at-1].event.cause != causeCall && sameInstant(out[at-1].at, e.OccurredAt) &&
				slices.ContainsFunc(subjectValues(out[at-1].event), func(v string) bool { return slices.Contains(subjectValues(e), v) }) {
				at--
			}
			out = slices.Insert(out, at, item{control: controlFor(e), at: e.OccurredAt})
		}
		out = append(out, item{event: e, at: e.OccurredAt})
	}
	return out
}

// position is how many requests came before e: those at an earlier
// instant, and those at its instant that do not already show it (on a
// frozen clock many requests share one instant): a request showing an id
// e made (the endToEndId of a Pix received), or reading e's resource in
// the status e moved it to, came after it.
func (r *recording) position(e *event) int {
	p := sort.Search(len(r.calls), func(i int) bool { return r.calls[i].At.After(e.OccurredAt) })
	block := p
	for block > 0 && r.calls[block-1].At.Equal(e.OccurredAt) {
		block--
	}
	made := createdIDs(e)
	st := statusOf(e)
	shows := func(c *call) bool {
		return mentions(c, made) || c.Method == "GET" && st != "" && mentions(c, subjectValues(e)) && strings.Contains(c.ResponseBody, `"`+st+`"`)
	}
	for p > block && shows(r.calls[p-1]) {
		p--
	}
	return p
}

// createdFields are the subject fields of the ids an event's move made.
var createdFields = map[string][]string{"pix.recebido": {"endToEndId"}, "proposta.pendencia": {"pendenciaId"}, "beneficio.pendencia": {"pendenciaId"},
	"proposta.implantada": {"inscricaoIds", "inscricaoId"}, "cobranca.emitida": {"cobrancaId"}, "comissao.emitida": {"comissaoId"}}

func createdIDs(e *event) []string {
	var out []string
	for _, f := range createdFields[e.Type] {
		walk(e.Subject[f], "", func(_ string, v any) {
			if s := scalar(v); s != "" {
				out = append(out, s)
			}
		})
	}
	return out
}

// withActivations turns on, before the first request that met it, the
// faults of a scenario the request did not name in X-Sandbox-Scenario
// (the session activated them through the control API).
func (r *recording) withActivations(items []item) []item {
	seen := map[string]bool{}
	var out []item
	for _, it := range items {
		if c := it.call; c != nil && c.Injected != "" {
			id, _, _ := strings.Cut(c.Injected, " ")
			if !seen[id] && c.RequestHeaders["X-Sandbox-Scenario"] != id {
				out = append(out, item{activate: id, at: it.at})
			}
			seen[id] = true
		}
		out = append(out, it)
	}
	return out
}

// withClockMoves puts the company's clock moves where they happened: on
// a frozen clock every step forward is one; on a running clock, the time
// between two requests beyond what the clock ran by the wall clock, and
// after the last request, what the clock is ahead now.
func (r *recording) withClockMoves(items []item) []item {
	jumps := r.jumps()
	var out []item
	for _, it := range items {
		for len(jumps) > 0 && it.at.After(jumps[0].from) {
			out = append(out, item{advance: jumps[0].by, at: jumps[0].from})
			jumps = jumps[1:]
		}
		out = append(out, it)
	}
	return out
}

// jump is a move of the clock: by, after the instant from.
type jump struct {
	from time.Time
	by   time.Duration
}

// jumps are the session's clock moves, in order.
func (r *recording) jumps() []jump {
	if r.speed() == 0 {
		return r.frozenJumps()
	}
	var out []jump
	for i := 1; i < len(r.calls); i++ {
		a, b := r.calls[i-1], r.calls[i]
		ran := time.Duration(float64(b.WallAt.Sub(a.WallAt)) * r.speed())
		if by := b.At.Sub(a.At) - ran; by > 2*time.Second {
			out = append(out, jump{from: a.At.Add(time.Second), by: by.Truncate(time.Second)})
		}
	}
	last := r.calls[len(r.calls)-1]
	ran := time.Duration(float64(r.until.Sub(last.WallAt)) * r.speed())
	if by := r.clockNow.Sub(last.At) - ran; by > 2*time.Second {
		out = append(out, jump{from: last.At.Add(time.Second), by: by.Truncate(time.Second)})
	}
	return out
}

// frozenJumps: on a frozen clock, each later instant a request or an
// event happened at was reached by a move.
func (r *recording) frozenJumps() []jump {
	var ats []time.Time
	for _, c := range r.calls {
		ats = append(ats, c.At)
	}
	for _, e := range r.events {
		ats = append(ats, e.OccurredAt)
	}
	slices.SortFunc(ats, func(a, b time.Time) int { return a.Compare(b) })
	var out []jump
	for i := 1; i < len(ats); i++ {
		if by := ats[i].Sub(ats[i-1]); by >= time.Millisecond {
			out = append(out, jump{from: ats[i-1], by: by})
		}
	}
	return out
}
