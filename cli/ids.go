package cli

import (
	"encoding/json"
	"net/url"
	"strings"
)

// The ids a session ties together. Most tell themselves apart by their
// value alone: a txid, an endToEndId, a signature code, a proposal's
// number. But the sandbox numbers enrollments, charges, benefits,
// pendings and locations from 1, sandbox-wide, so inscricaoId 1,
// cobrancaId 1 and beneficioId 1 are three things, and a replay gets
// other numbers. A number is an id only where its place names one (a
// field named for an id, or a route's segment after its resource's),
// and it is followed by its kind and value.

// ref is an id as one place shows it.
type ref struct {
	value string
	// kind is the resource the id names (inscricao, cobranca, beneficio,
	// pendencia, loc), from its field or its route.
	kind string
	// numbered: a number the sandbox counts, told apart by kind and
	// value; otherwise the value alone tells it apart.
	numbered bool
	// named: the field's name says the kind (cobrancaId,
	// numeroProposta); a route's segment or a plain "id" only suggests
	// it (/agendamentomedico/{id} is a proposal's number).
	named bool
}

// distinctive says whether a value is unlikely to be another id's by
// chance: anything but a number under four digits.
func distinctive(v string) bool { return !integer.MatchString(v) || len(v) >= 4 }

// idSpace gives each id of a session one key, the same wherever it
// appears. Kinds keep small numbers apart; a distinctive number also
// joins the id of another kind with its value unless both places name
// their kind (the proposal 100001 at /agendamentomedico/100001 is the
// numeroProposta 100001; cobrancaId 1234 is not inscricaoId 1234).
type idSpace struct {
	byKind  map[string]string
	byValue map[string]ref
}

func newIDSpace() *idSpace {
	return &idSpace{byKind: map[string]string{}, byValue: map[string]ref{}}
}

// key is the id's key; the first place an id appears registers it, so a
// session read in order keys the same id the same way every time.
func (s *idSpace) key(r ref) string {
	if !r.numbered {
		return r.value
	}
	k := r.kind + "\x00" + r.value
	if c, ok := s.byKind[k]; ok {
		return c
	}
	if first, ok := s.byValue[r.value]; ok && distinctive(r.value) && !(r.named && first.named) {
		c := s.byKind[first.kind+"\x00"+r.value]
		s.byKind[k] = c
		return c
	}
	s.byKind[k] = k
	if _, ok := s.byValue[r.value]; !ok {
		s.byValue[r.value] = r
	}
	return k
}

// fieldID is the id a value at a field of a document is, if any: resource
// is what the document is about (the request's route, the event's
// type), the kind of a plain "id" at its top.
func fieldID(path, resource string, v any) (ref, bool) {
	s := scalar(v)
	name, parent := fieldName(path)
	kind, named, isID := idName(name)
	if isID && integer.MatchString(s) {
		if kind == "" {
			kind = contextKind(parent, resource)
		}
		return ref{value: s, kind: kind, numbered: true, named: named}, true
	}
	if !idLike(path, v) {
		return ref{}, false
	}
	_, isNum := v.(json.Number)
	return ref{value: s, kind: singular(name), numbered: isNum}, true
}

// fieldName is the name of the field at a dotted path (its last member
// that is not a list's index) and its parent's.
func fieldName(path string) (name, parent string) {
	var names []string
	for _, p := range strings.Split(path, ".") {
		if p != "" && !integer.MatchString(p) {
			names = append(names, p)
		}
	}
	switch len(names) {
	case 0:
		return "", ""
	case 1:
		return names[0], ""
	}
	return names[len(names)-1], names[len(names)-2]
}

// envelopes hold a document's own fields: the insurer's Valor, an
// event's subject and data.
var envelopes = map[string]bool{"": true, "Valor": true, "subject": true, "data": true}

// contextKind is the kind of a plain "id": its object's (loc.id,
// pendencias.0.id), or the document's resource at its top.
func contextKind(parent, resource string) string {
	if envelopes[parent] {
		return resource
	}
	return singular(parent)
}

// idName says whether a field is named for an id, and which kind: id,
// cobrancaId, inscricaoIds, idRec, ID_PROPOSTA, numeroProposta. A plain
// id has its kind from where it is.
func idName(name string) (kind string, named, isID bool) {
	l := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	switch {
	case l == "id" || l == "ids":
		return "", false, true
	case hasAnySuffix(name, "Id", "ID", "_id", "Ids", "IDs", "_ids"):
		return singular(strings.TrimSuffix(strings.TrimSuffix(l, "s"), "id")), true, true
	case len(name) > 2 && strings.HasPrefix(l, "id") && (name[2] == '_' || name[2] >= 'A' && name[2] <= 'Z'):
		return singular(l[2:]), true, true
	case len(l) > len("numero") && strings.HasPrefix(l, "numero"):
		return singular(l[len("numero"):]), true, true
	}
	return "", false, false
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// singular is a resource's name as its id's field says it: lower case,
// one of it (pendencias, inscricoes, cobrancas).
func singular(name string) string {
	l := strings.ToLower(name)
	switch {
	case strings.HasSuffix(l, "oes"):
		return strings.TrimSuffix(l, "oes") + "ao"
	case len(l) > 3 && strings.HasSuffix(l, "s") && !strings.HasSuffix(l, "ss"):
		return strings.TrimSuffix(l, "s")
	}
	return l
}

// segID is an id in a route: its segment's index and the id.
type segID struct {
	seg int
	ref ref
}

// pathIDs are the ids of a route (a number's kind is the segment before
// it: /beneficio/1, /inscricao/1/cobrancas, /pendencias/3) and the
// resource it is about (its last segment that is no id).
func pathIDs(p string) (ids []segID, resource string) {
	for k, seg := range strings.Split(p, "/") {
		raw, _ := url.PathUnescape(seg)
		switch {
		case integer.MatchString(raw) && resource != "":
			ids = append(ids, segID{k, ref{value: raw, kind: resource, numbered: true}})
		case idLike("", raw):
			ids = append(ids, segID{k, ref{value: raw, kind: resource}})
		case raw != "":
			resource = singular(raw)
		}
	}
	return ids, resource
}

// eventResource is what an event is about, for a plain id in it: its
// type's first word (cobranca.emitida).
func eventResource(e *event) string {
	kind, _, _ := strings.Cut(e.Type, ".")
	return kind
}

// located is an id and where a document shows it.
type located struct {
	path string
	ref  ref
}

// sentIDs are the ids an item's request names (its route, query and
// body; a move's too), less the company's own values.
func sentIDs(it item, consts constants) []ref {
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
	var out []ref
	segs, resource := pathIDs(p)
	for _, s := range segs {
		if _, own := consts[s.ref.value]; !own {
			out = append(out, s.ref)
		}
	}
	add := func(path string, v any) {
		if r, ok := fieldID(path, resource, v); ok {
			if _, own := consts[r.value]; !own {
				out = append(out, r)
			}
		}
	}
	vals, _ := url.ParseQuery(q)
	for _, k := range sortedKeys(vals) {
		for _, v := range vals[k] {
			add(k, v)
		}
	}
	walk(body, "", add)
	return out
}

// shownIDs are the ids an item shows, in order, with their place: a
// request's answer, an event's subject and data.
func shownIDs(it item, consts constants) []located {
	var out []located
	resource := ""
	add := func(path string, v any) {
		if r, ok := fieldID(path, resource, v); ok {
			if _, own := consts[r.value]; !own {
				out = append(out, located{path, r})
			}
		}
	}
	switch {
	case it.call != nil:
		_, resource = pathIDs(it.call.Path)
		walk(it.call.resp, "", add)
	case it.event != nil:
		resource = eventResource(it.event)
		walk(it.event.Subject, "subject", add)
		walk(it.event.Data, "data", add)
	}
	return out
}

// variable is an id the sandbox made that the partner used later: its
// name in the feature and where it first appeared.
type variable struct {
	name string
	src  source
}

// follow is what a scenario's items say of their ids: those the sandbox
// made (shown before any request named them) that a request named
// later, and where each id a request named first was named.
type follow struct {
	space    *idSpace
	vars     map[string]variable
	firstUse map[string]int
}

// followIDs reads items in order. may says whether item i may be
// where an id is remembered (the Background's items only for the ids
// the Background itself remembers).
func followIDs(items []item, consts constants, may func(i int, key string) bool) follow {
	f := follow{space: newIDSpace(), vars: map[string]variable{}, firstUse: map[string]int{}}
	produced := map[string]source{}
	taken := map[string]bool{}
	for i, it := range items {
		for _, r := range sentIDs(it, consts) {
			k := f.space.key(r)
			src, made := produced[k]
			if _, seen := f.firstUse[k]; !made && !seen {
				f.firstUse[k] = i
			}
			if _, named := f.vars[k]; made && !named {
				f.vars[k] = variable{name: uniqueName(varName(src.path, src.kind), taken), src: src}
			}
		}
		for _, l := range shownIDs(it, consts) {
			k := f.space.key(l.ref)
			_, used := f.firstUse[k]
			_, made := produced[k]
			if !used && !made && may(i, k) {
				produced[k] = source{item: i, path: l.path, kind: l.ref.kind, event: it.event != nil}
			}
		}
	}
	return f
}

// varName names an id's variable after the field it was remembered
// from: its name, one of a list (inscricaoIds), or its kind for a plain
// id (locId).
func varName(path, kind string) string {
	name, _ := fieldName(path)
	switch {
	case strings.EqualFold(name, "id") && kind != "":
		return kind + "Id"
	case strings.HasSuffix(name, "Ids"):
		return strings.TrimSuffix(name, "s")
	}
	return name
}

// rewriteJSON replaces scalars of a JSON text in place, its layout kept:
// f gets each scalar's dotted path (as walk writes it) and value, and
// answers the text to write instead, or "" to keep it.
func rewriteJSON(text string, f func(path string, v any) string) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	type frame struct {
		object, wantKey bool
		key             string
		n               int
	}
	var stack []frame
	path := func() string {
		p := ""
		for _, fr := range stack {
			if fr.object {
				p = join(p, fr.key)
			} else {
				p = join(p, itoa(fr.n))
			}
		}
		return p
	}
	// done ends a value in its container: an object waits for its next
	// key, a list counts it.
	done := func() {
		if n := len(stack); n > 0 {
			stack[n-1].wantKey = stack[n-1].object
			stack[n-1].n++
		}
	}
	var out strings.Builder
	last := 0
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				stack = append(stack, frame{object: t == '{', wantKey: t == '{'})
			} else {
				stack = stack[:len(stack)-1]
				done()
			}
			continue
		case string:
			if top := len(stack) - 1; top >= 0 && stack[top].wantKey {
				stack[top].key, stack[top].wantKey = t, false
				continue
			}
		}
		if repl := f(path(), tok); repl != "" {
			// The token starts after the separators between it and the
			// one before (spaces, a colon, a comma), none of them a quote.
			start := before + len(text[before:]) - len(strings.TrimLeft(text[before:], " \t\r\n:,"))
			out.WriteString(text[last:start])
			out.WriteString(repl)
			last = int(dec.InputOffset())
		}
		done()
	}
	out.WriteString(text[last:])
	return out.String()
}
