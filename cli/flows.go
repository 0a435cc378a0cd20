package cli

import (
	"encoding/json"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A session becomes a Background (what set the integration up: requests
// about no resource of their own, before the first that is) and one
// scenario per flow: the requests, moves and events about the same
// resources (a charge, its payment, its refund; a customer's sale), each
// replayed in a fresh company.

// constants are the company's own values, which the feature names by
// what they are in the company it runs in.
type constants map[string]string

// constants maps the recorded company's CNPJ, client id and Pix keys to
// the expressions of the scenario's company: a Pix key of the recorded
// company becomes the scenario's company CNPJ (a key of the demo
// company, which the feature runs as), unless it is the demo company's
// own.
func (r *recording) constants() constants {
	c := constants{r.app.CNPJ: "${app.cnpj}", r.app.ClientID: "${app.clientId}", r.app.ID: "${app.id}"}
	for _, cl := range r.calls {
		for _, k := range pixKeys(cl) {
			if _, ok := c[k]; !ok {
				c[k] = "${app.cnpj}"
				if r.app.ClientID == DemoClientID {
					c[k] = k
				}
			}
		}
	}
	return c
}

// pixKeys are the Pix keys a request names: PUT /pix/v2/webhook/{chave}
// and every "chave" field.
func pixKeys(c *call) []string {
	var out []string
	if rest, ok := strings.CutPrefix(c.Path, "/pix/v2/webhook/"); ok && rest != "" {
		k, _ := url.PathUnescape(rest)
		out = append(out, k)
	}
	walk(c.req, "", func(path string, v any) {
		if lastField(path) == "chave" && scalar(v) != "" {
			out = append(out, scalar(v))
		}
	})
	return out
}

// walk visits every scalar leaf of a JSON value with its dotted path.
func walk(v any, path string, f func(path string, v any)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(x[k], join(path, k), f)
		}
	case []any:
		for i, e := range x {
			walk(e, join(path, itoa(i)), f)
		}
	default:
		f(path, v)
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func itoa(i int) string { return strconv.Itoa(i) }

func lastField(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

var (
	amount    = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)
	statusish = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	integer   = regexp.MustCompile(`^[0-9]+$`)
)

// idLike says whether a value at a field is an identifier that ties
// requests, moves and events together: not an amount, a date, a status,
// a URL or words; numbers only in fields named for an id or a number.
func idLike(field string, v any) bool {
	s := scalar(v)
	if _, isNum := v.(json.Number); isNum {
		f := strings.ToLower(lastField(field))
		return integer.MatchString(s) && len(s) >= 4 && (strings.Contains(f, "id") || strings.Contains(f, "numero"))
	}
	// An id has a digit: the words of a route (devolucao, webhookrec) and
	// of a body have none.
	if len(s) < 6 || !strings.ContainsAny(s, "0123456789") || strings.ContainsAny(s, " \"{}") || strings.Contains(s, "://") || amount.MatchString(s) || statusish.MatchString(s) {
		return false
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if _, err := time.Parse(layout, s); err == nil {
			return false
		}
	}
	return true
}

// keys are the identifiers an item is about, less the company's own:
// each distinctive one, and a small number a request named after the
// sandbox showed it (an enrollment's, a benefit's). A catalogue's small
// ids, which every answer repeats and no request names, tie nothing.
func (it item) keys(f follow, consts constants) []string {
	var refs []ref
	switch {
	case it.call != nil:
		refs = sentIDs(it, consts)
		for _, l := range shownIDs(it, consts) {
			refs = append(refs, l.ref)
		}
	case it.event != nil:
		for _, l := range shownIDs(it, consts) {
			if strings.HasPrefix(l.path, "subject.") {
				refs = append(refs, l.ref)
			}
		}
	}
	var out []string
	for _, r := range refs {
		k := f.space.key(r)
		if _, followed := f.vars[k]; followed || distinctive(r.value) {
			out = append(out, k)
		}
	}
	return out
}

// flow is one scenario's items, in the session's order.
type flow struct{ items []item }

// splitFlows parts the timeline (clock moves aside) into the Background
// and the flows: items sharing an identifier are in one flow. A request
// about none joins the flow before it, or before every flow the
// Background; a move, an event or a fault's activation about none joins
// the next item's flow (a payer's move the event it makes).
func splitFlows(items []item, consts constants) ([]item, []*flow) {
	owner := map[string]*flow{}
	var flows []*flow
	var bg, pending []item
	var current *flow
	ids := followIDs(items, consts, func(int, string) bool { return true })
	for _, it := range items {
		if it.advance != 0 || !it.setAt.IsZero() {
			continue
		}
		ks := it.keys(ids, consts)
		var f *flow
		for _, k := range ks {
			if owner[k] != nil {
				f = merge(f, owner[k], owner, &flows)
			}
		}
		switch {
		case f == nil && len(ks) > 0:
			f = &flow{}
			flows = append(flows, f)
		case f == nil && it.call == nil:
			pending = append(pending, it)
			continue
		case f == nil && current == nil && len(pending) == 0:
			bg = append(bg, it)
			continue
		case f == nil && current == nil:
			f = &flow{}
			flows = append(flows, f)
		case f == nil:
			f = current
		}
		for _, k := range ks {
			owner[k] = f
		}
		f.items = append(f.items, append(pending, it)...)
		pending, current = nil, f
	}
	if len(pending) > 0 {
		if current == nil {
			current = &flow{}
			flows = append(flows, current)
		}
		current.items = append(current.items, pending...)
	}
	for _, f := range flows {
		sortByOrder(f, items)
	}
	// Reads before anything happened (the offers, a webhook's
	// configuration read back) set up every flow: the Background's.
	for len(flows) > 1 && readsOnly(flows[0]) {
		bg, flows = append(bg, flows[0].items...), flows[1:]
	}
	return bg, flows
}

// readsOnly says whether a flow only read: GET requests, nothing else.
func readsOnly(f *flow) bool {
	for _, it := range f.items {
		if it.call == nil || it.call.Method != "GET" {
			return false
		}
	}
	return true
}

// merge joins flow b into a (both may be the same), updating owners.
func merge(a, b *flow, owner map[string]*flow, flows *[]*flow) *flow {
	if a == nil || a == b {
		return b
	}
	a.items = append(a.items, b.items...)
	for k, f := range owner {
		if f == b {
			owner[k] = a
		}
	}
	for i, f := range *flows {
		if f == b {
			*flows = append((*flows)[:i], (*flows)[i+1:]...)
			break
		}
	}
	return a
}

// sortByOrder puts a merged flow's items back in the session's order.
func sortByOrder(f *flow, all []item) {
	index := map[any]int{}
	for i, it := range all {
		index[it.identity()] = i
	}
	sort.SliceStable(f.items, func(i, j int) bool { return index[f.items[i].identity()] < index[f.items[j].identity()] })
}

// identity tells items apart.
func (it item) identity() any {
	switch {
	case it.call != nil:
		return it.call
	case it.event != nil:
		return it.event
	case it.control != nil:
		return it.control
	}
	return [3]any{it.advance, it.setAt, it.activate + it.at.String()}
}

// withClock gives a flow the clock moves of the session that fell
// between its items, and its start instant when the clock had moved
// before it.
func withClock(f *flow, all []item) []item {
	index := map[any]int{}
	for i, it := range all {
		index[it.identity()] = i
	}
	var out []item
	prev := -1
	for _, it := range f.items {
		i := index[it.identity()]
		moved := time.Duration(0)
		for j := prev + 1; j < i; j++ {
			moved += all[j].advance
		}
		switch {
		case prev < 0 && moved > 0:
			out = append(out, item{setAt: it.at, at: it.at})
		case moved > 0:
			out = append(out, item{advance: moved, at: it.at})
		}
		out = append(out, it)
		prev = i
	}
	return out
}
