package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strings"
	"time"
)

// A scenario's ids: those the partner made (a txid) are written as they
// are; those the sandbox made (an endToEndId, a proposal's number, an
// enrollment's) are remembered where they first appear and written
// ${name} where the partner used them (ids.go: by kind and value); the
// company's own values are the scenario's company's.

// begin reads a scenario's items before it is written (followIDs). The
// first bg of them are the Background's, whose answers are where an id
// is remembered only when the Background remembered it.
func (w *writer) begin(items []item, bg int) {
	w.ids = followIDs(items, w.consts, func(i int, key string) bool {
		_, kept := w.bgVars[key]
		return i >= bg || kept
	})
	w.prevAt = time.Time{}
}

// uniqueName is a variable's name: the field's, numbered when taken.
func uniqueName(field string, taken map[string]bool) string {
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, field)
	if base == "" || base[0] >= '0' && base[0] <= '9' {
		base = "id" + base
	}
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s%d", base, n)
	}
	taken[name] = true
	return name
}

// expr is how item i writes a value (r the id it is, when isID): the
// company's own as the scenario's, an id the sandbox made earlier by its
// variable.
func (w *writer) expr(s string, r ref, isID bool, i int) (string, bool) {
	if e, ok := w.consts[s]; ok {
		return e, true
	}
	if !isID {
		return "", false
	}
	if v, ok := w.ids.vars[w.ids.space.key(r)]; ok && v.src.item < i {
		return "${" + v.name + "}", true
	}
	return "", false
}

// exprAt is expr for a field of the item's document.
func (w *writer) exprAt(path string, v any, i int) (string, bool) {
	r, isID := fieldID(path, w.res, v)
	return w.expr(scalar(v), r, isID, i)
}

// unstable says whether item i cannot assert a value as recorded: an id
// the sandbox made, not remembered before i.
func (w *writer) unstable(path string, v any, i int) bool {
	r, isID := fieldID(path, w.res, v)
	if !isID {
		return false
	}
	if _, ok := w.expr(scalar(v), r, true, i); ok {
		return false
	}
	first, used := w.ids.firstUse[w.ids.space.key(r)]
	return !used || first >= i
}

// itemResource is what an item is about, for the plain ids of its
// documents: its route's resource, or its event's.
func itemResource(it item) string {
	var res string
	switch {
	case it.call != nil:
		_, res = pathIDs(it.call.Path)
	case it.control != nil:
		_, res = pathIDs(it.control.path)
	case it.event != nil:
		res = eventResource(it.event)
	}
	return res
}

// item writes one item of scenario position i.
func (w *writer) item(i int, it item) {
	w.asserted, w.res = map[string]bool{}, itemResource(it)
	switch {
	case it.activate != "":
		w.step("When", fmt.Sprintf("I send \"POST\" to \"/sandbox/scenarios/%s/activate\" with JSON:", it.activate))
		w.docString(`{"clientId": "${app.clientId}"}`)
		w.step("Then", "the response status is 200")
	case it.advance != 0:
		w.step("When", fmt.Sprintf("I advance the clock by %q", durationText(it.advance)))
		w.prevAt = w.prevAt.Add(it.advance)
	case !it.setAt.IsZero():
		w.step("Given", fmt.Sprintf("the sandbox clock is at %q", it.setAt.UTC().Format(time.RFC3339Nano)))
		w.prevAt = it.setAt
	case it.control != nil:
		w.control(i, it.control)
		w.prevAt = it.at
	case it.call != nil:
		w.call(i, it.call)
		w.prevAt = it.at
	case it.event != nil:
		w.event(i, it.event)
		w.prevAt = it.at
	}
}

// durationText writes a duration in the clock steps' units.
func durationText(d time.Duration) string {
	var b strings.Builder
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}} {
		if n := d / u.d; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.name)
			d -= n * u.d
		}
	}
	if b.Len() == 0 {
		return "1ms"
	}
	return b.String()
}

// control writes a move of the other side.
func (w *writer) control(i int, c *control) {
	p := w.path(c.path, "", i)
	if c.body == nil {
		w.step("When", fmt.Sprintf("I send %q to %q", c.method, p))
	} else {
		raw, _ := json.Marshal(c.body)
		w.step("When", fmt.Sprintf("I send %q to %q with JSON:", c.method, p))
		w.docString(w.body(string(raw), i))
	}
	w.step("Then", fmt.Sprintf("the response status is %d", c.status))
}

// call writes a request of the partner, what it got, and what it showed
// that the partner used later.
func (w *writer) call(i int, c *call) {
	for _, h := range replayedHeaders {
		if v := c.RequestHeaders[h]; v != "" {
			w.step("When", fmt.Sprintf("I set the header %q to %q", h, v))
		}
	}
	target := c.Path
	if c.SentPath != "" {
		target = c.SentPath
	}
	p := w.path(target, c.Query, i)
	switch {
	case c.Status == 0:
		w.step("When", fmt.Sprintf("I send %q to %q with JSON and get no answer:", c.Method, p))
		w.docString(w.body(orText(c.RequestBody, "{}"), i))
		return
	case strings.TrimSpace(c.RequestBody) == "":
		w.step("When", fmt.Sprintf("I send %q to %q", c.Method, p))
	case c.req != nil:
		w.step("When", fmt.Sprintf("I send %q to %q with JSON:", c.Method, p))
		w.docString(w.body(c.RequestBody, i))
	default:
		ct := c.RequestHeaders["Content-Type"]
		w.step("When", fmt.Sprintf("I send %q to %q with a body of type %q:", c.Method, p, orText(ct, "text/plain")))
		w.docString(c.RequestBody)
	}
	w.step("Then", fmt.Sprintf("the response status is %d", c.Status))
	w.assertFields("response", c.resp, i, 6)
	w.remember(i, "response")
}

func orText(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// event writes an event the stream must deliver, its key fields and the
// ids it showed that the partner used later.
func (w *writer) event(i int, e *event) {
	// The step passes as soon as the event comes, so the window costs
	// only a failing replay its length: generous, since an event of the
	// sandbox's scheduled work (a charge the billing job issues after an
	// implantation) comes when its jobs' turn does, later on a busy
	// sandbox than when it was recorded.
	wait := 10
	if !w.prevAt.IsZero() && w.r.speed() > 0 {
		gap := e.OccurredAt.Sub(w.prevAt).Seconds() / w.r.speed()
		wait = max(10, int(math.Ceil(gap))+10)
	}
	w.step("Then", fmt.Sprintf("the stream delivers %s %q event within %d seconds", article(e.Type), e.Type, wait))
	for _, k := range sortedKeys(e.Subject) {
		w.assert("event", "subject."+k, e.Subject[k], i)
	}
	w.assertFields("event", map[string]any{"data": e.Data}, i, 3)
	w.remember(i, "event")
}

func article(s string) string {
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

// assertFields asserts up to n key fields of a document, shallow first.
func (w *writer) assertFields(what string, doc any, i, n int) {
	type leaf struct {
		path string
		v    any
	}
	var leaves []leaf
	walk(doc, "", func(path string, v any) {
		if keyFields[lastField(path)] && scalar(v) != "" {
			leaves = append(leaves, leaf{path, v})
		}
	})
	sort.SliceStable(leaves, func(a, b int) bool { return strings.Count(leaves[a].path, ".") < strings.Count(leaves[b].path, ".") })
	for _, l := range leaves {
		if n > 0 && w.assert(what, l.path, l.v, i) {
			n--
		}
	}
}

// assert writes one field's value, when it can be asserted as recorded.
func (w *writer) assert(what, path string, v any, i int) bool {
	s := scalar(v)
	if s == "" || w.unstable(path, v, i) || strings.ContainsAny(s, "\"\n") || strings.Contains(s, "${") || isTime(s) {
		return false
	}
	// An id is asserted once an item: the same txid in three places says
	// nothing more.
	if r, isID := fieldID(path, w.res, v); isID {
		k := w.ids.space.key(r)
		if w.asserted[k] {
			return false
		}
		w.asserted[k] = true
	}
	if e, ok := w.exprAt(path, v, i); ok {
		s = e
	}
	w.step("Then", fmt.Sprintf("the %s field %q is %q", what, path, s))
	return true
}

func isTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// remember writes the variables whose value item i showed first.
func (w *writer) remember(i int, what string) {
	var here []variable
	for _, v := range w.ids.vars {
		if v.src.item == i {
			here = append(here, v)
		}
	}
	sort.Slice(here, func(a, b int) bool { return here[a].name < here[b].name })
	for _, v := range here {
		w.step("Then", fmt.Sprintf("I remember the %s field %q as %q", what, v.src.path, v.name))
	}
}

// path writes a request's path and query with the scenario's values.
func (w *writer) path(p, query string, i int) string {
	segs := strings.Split(p, "/")
	ids, res := pathIDs(p)
	at := map[int]ref{}
	for _, s := range ids {
		at[s.seg] = s.ref
	}
	for k, seg := range segs {
		raw, _ := url.PathUnescape(seg)
		r, isID := at[k]
		if e, ok := w.expr(raw, r, isID, i); ok {
			segs[k] = e
		}
	}
	out := strings.Join(segs, "/")
	if query == "" {
		return out
	}
	parts := strings.Split(query, "&")
	for k, part := range parts {
		key, val, _ := strings.Cut(part, "=")
		raw, _ := url.QueryUnescape(val)
		name, _ := url.QueryUnescape(key)
		r, isID := fieldID(name, res, raw)
		if e, ok := w.expr(raw, r, isID, i); ok {
			parts[k] = key + "=" + e
		}
	}
	return out + "?" + strings.Join(parts, "&")
}

// body writes a JSON body as recorded (its members' order kept),
// indented, with the scenario's values and webhook URLs at its
// receiver: each value replaced where it is, so that the number 1 of an
// inscricaoId is its variable and the 1 of a PARTICIPACAO stays.
func (w *writer) body(raw string, i int) string {
	var out bytes.Buffer
	if json.Indent(&out, []byte(raw), "", "  ") != nil {
		return raw
	}
	return rewriteJSON(out.String(), func(path string, v any) string {
		s := scalar(v)
		e, ok := w.exprAt(path, v, i)
		if isWebhookField(path, v) {
			e, ok = receiverURL(s), true
		}
		if !ok || s == "" {
			return ""
		}
		if _, isNum := v.(json.Number); isNum {
			return e
		}
		return `"` + e + `"`
	})
}
