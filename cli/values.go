package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
)

// A scenario's ids: those the partner made (a txid) are written as they
// are; those the sandbox made (an endToEndId, a proposal's number) are
// remembered where they first appear and written ${name} where the
// partner used them; the company's own values are the scenario's
// company's.

// begin reads a scenario's items before it is written: which ids the
// sandbox made, where each first appeared, and which the partner used
// later.
func (w *writer) begin(items []item) {
	w.vars, w.sources = map[string]string{}, map[string]source{}
	w.firstUse = map[string]int{}
	produced := map[string]source{}
	taken := map[string]bool{}
	for i, it := range items {
		for _, v := range w.uses(it) {
			if src, ok := produced[v]; ok && w.vars[v] == "" {
				w.vars[v], w.sources[v] = uniqueName(lastField(src.path), taken), src
			}
			if _, ok := produced[v]; !ok {
				if _, seen := w.firstUse[v]; !seen {
					w.firstUse[v] = i
				}
			}
		}
		for path, v := range w.produces(it) {
			if _, used := w.firstUse[v]; !used {
				if _, ok := produced[v]; !ok {
					produced[v] = source{item: i, path: path, event: it.event != nil}
				}
			}
		}
	}
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

// uses are the ids an item's request names (its path, query and body).
func (w *writer) uses(it item) []string {
	var out []string
	add := func(field string, v any) {
		if idLike(field, v) {
			if _, own := w.consts[scalar(v)]; !own {
				out = append(out, scalar(v))
			}
		}
	}
	var p, q string
	var body any
	switch {
	case it.call != nil:
		p, q, body = it.call.Path, it.call.Query, it.call.req
	case it.control != nil:
		p, body = it.control.path, it.control.body
	default:
		return nil
	}
	for _, seg := range strings.Split(p, "/") {
		seg, _ = url.PathUnescape(seg)
		add("", seg)
	}
	vals, _ := url.ParseQuery(q)
	for k, vs := range vals {
		for _, v := range vs {
			add(k, v)
		}
	}
	walk(body, "", add)
	return out
}

// produces are the ids an item shows, by path: a request's answer, an
// event's subject and data.
func (w *writer) produces(it item) map[string]string {
	out := map[string]string{}
	add := func(path string, v any) {
		if idLike(path, v) {
			if _, own := w.consts[scalar(v)]; !own {
				if _, dup := out[path]; !dup {
					out[path] = scalar(v)
				}
			}
		}
	}
	switch {
	case it.call != nil:
		walk(it.call.resp, "", add)
	case it.event != nil:
		walk(it.event.Subject, "subject", add)
		walk(it.event.Data, "data", add)
	}
	return out
}

// expr is how item i writes a value: the company's own as the
// scenario's, an id the sandbox made earlier by its variable.
func (w *writer) expr(v string, i int) (string, bool) {
	if e, ok := w.consts[v]; ok {
		return e, true
	}
	if name, ok := w.vars[v]; ok && w.sources[v].item < i {
		return "${" + name + "}", true
	}
	return "", false
}

// unstable says whether item i cannot assert a value as recorded: an id
// the sandbox made, not remembered before i.
func (w *writer) unstable(path string, v any, i int) bool {
	s := scalar(v)
	if !idLike(path, v) {
		return false
	}
	if _, ok := w.expr(s, i); ok {
		return false
	}
	first, used := w.firstUse[s]
	return !used || first >= i
}

// item writes one item of scenario position i.
func (w *writer) item(i int, it item) {
	w.asserted = map[string]bool{}
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
		w.docString(w.body(string(raw), decodeJSON(string(raw)), i))
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
		w.docString(w.body(orText(c.RequestBody, "{}"), c.req, i))
		return
	case strings.TrimSpace(c.RequestBody) == "":
		w.step("When", fmt.Sprintf("I send %q to %q", c.Method, p))
	case c.req != nil:
		w.step("When", fmt.Sprintf("I send %q to %q with JSON:", c.Method, p))
		w.docString(w.body(c.RequestBody, c.req, i))
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
	wait := 5
	if !w.prevAt.IsZero() && w.r.speed() > 0 {
		gap := e.OccurredAt.Sub(w.prevAt).Seconds() / w.r.speed()
		wait = max(5, int(math.Ceil(gap))+5)
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
	if idLike(path, v) {
		if w.asserted[s] {
			return false
		}
		w.asserted[s] = true
	}
	if e, ok := w.expr(s, i); ok {
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
	for _, v := range sortedKeys(w.vars) {
		if src := w.sources[v]; src.item == i {
			w.step("Then", fmt.Sprintf("I remember the %s field %q as %q", what, src.path, w.vars[v]))
		}
	}
}

// path writes a request's path and query with the scenario's values.
func (w *writer) path(p, query string, i int) string {
	segs := strings.Split(p, "/")
	for k, seg := range segs {
		raw, _ := url.PathUnescape(seg)
		if e, ok := w.expr(raw, i); ok {
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
		if e, ok := w.expr(raw, i); ok {
			parts[k] = key + "=" + e
		}
	}
	return out + "?" + strings.Join(parts, "&")
}

// body writes a JSON body as recorded (its members' order kept),
// indented, with the scenario's values and webhook URLs at its
// receiver.
func (w *writer) body(raw string, doc any, i int) string {
	var out bytes.Buffer
	if json.Indent(&out, []byte(raw), "", "  ") != nil {
		return raw
	}
	text := out.String()
	walk(doc, "", func(path string, v any) {
		s := scalar(v)
		e, ok := w.expr(s, i)
		if isWebhookField(path, v) {
			e, ok = receiverURL(s), true
		}
		if !ok || s == "" {
			return
		}
		if _, isNum := v.(json.Number); isNum {
			text = numberToken(s).ReplaceAllString(text, "${1}"+strings.ReplaceAll(e, "$", "$$")+"${2}")
			return
		}
		quoted, _ := json.Marshal(s)
		text = strings.ReplaceAll(text, string(quoted), `"`+e+`"`)
	})
	return text
}

// numberToken matches a number as a JSON value (after a colon, a
// bracket or a comma).
func numberToken(n string) *regexp.Regexp {
	return regexp.MustCompile(`([:\[,]\s*)` + regexp.QuoteMeta(n) + `(\s*[,\]}\n]|$)`)
}
