package harness

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// A partner file reads its integration's answers with a small JSONPath:
// "$.charge.id", "$.items[0].txid", "$.payments[*].txid" (every element),
// and filters by value, as a ledger holds its rows:
//
//	$.charges[?(@.status == 'PAID')].txid
//	$.refunds[?(@.status != 'PENDING' && @.amount >= 10)].id
//	$.proposals[?(@.events)].number           (the field exists)
//
// A filter compares with == != < <= > >=, joins with && and ||, negates
// with !, groups with parentheses; @ is the element, $ the whole answer;
// literals are 'text' or "text", numbers, true, false and null. A
// readiness condition is one such expression over the answer:
// "$.ready == true". It is the subset of RFC 9535 partner files need,
// written here because no JSONPath module is among our dependencies and
// these fifty lines of grammar are all a partner file uses.

// pathStep is one step of a path: a field, an index, every element, or
// the elements a filter keeps.
type pathStep struct {
	field  string
	index  int
	all    bool
	filter *condition
}

// jsonPath is a parsed path; it answers a list where it has a [*] or a
// filter, one value otherwise.
type jsonPath []pathStep

// parsePath reads a path that starts with $.
func parsePath(p string) (jsonPath, error) {
	s := strings.TrimSpace(p)
	if !strings.HasPrefix(s, "$") {
		return nil, fmt.Errorf("%q: a path starts with $, e.g. $.charge.txid", p)
	}
	steps, rest, err := parseSteps(s[1:])
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p, err)
	}
	if rest != "" {
		return nil, fmt.Errorf("%q: cannot read %q (write .field, [0], [*] or [?(@.field == 'value')])", p, rest)
	}
	return steps, nil
}

// parseSteps reads steps from the start of s, up to the first thing that
// is not a step; it answers what it did not read.
func parseSteps(s string) (jsonPath, string, error) {
	var out jsonPath
	for s != "" {
		switch {
		case s[0] == '.':
			n := identLen(s[1:])
			if n == 0 {
				return nil, s, fmt.Errorf("a field name after the dot at %q", s)
			}
			out, s = append(out, pathStep{field: s[1 : 1+n], index: -1}), s[1+n:]
		case strings.HasPrefix(s, "[*]"):
			out, s = append(out, pathStep{all: true, index: -1}), s[3:]
		case strings.HasPrefix(s, "[?"):
			end, err := closingBracket(s)
			if err != nil {
				return nil, s, err
			}
			inner := strings.TrimSpace(s[2:end])
			if strings.HasPrefix(inner, "(") && strings.HasSuffix(inner, ")") {
				inner = inner[1 : len(inner)-1]
			}
			c, err := parseCondition(inner)
			if err != nil {
				return nil, s, err
			}
			out, s = append(out, pathStep{filter: c, index: -1}), s[end+1:]
		case s[0] == '[':
			end := strings.IndexByte(s, ']')
			n, err := strconv.Atoi(s[1:max(end, 1)])
			if end < 0 || err != nil || n < 0 {
				return nil, s, fmt.Errorf("an index such as [0], [*] or a filter [?(…)] at %q", s)
			}
			out, s = append(out, pathStep{index: n}), s[end+1:]
		default:
			return out, s, nil
		}
	}
	return out, "", nil
}

func identLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			n++
			continue
		}
		break
	}
	return n
}

// closingBracket finds the ] that closes the [ at s[0], past quoted text
// and nested brackets.
func closingBracket(s string) (int, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return 0, fmt.Errorf("an unclosed quote in %q", s)
			}
			i += j + 1
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("a filter without its closing ] in %q", s)
}

// pick reads the path from a decoded JSON answer: one value, or a list
// where the path has [*] or a filter. ok is false when it leads nowhere.
func (p jsonPath) pick(doc any) (any, bool) { return p.walk(doc, doc) }

func (p jsonPath) walk(v, root any) (any, bool) {
	if len(p) == 0 {
		return v, true
	}
	s, rest := p[0], p[1:]
	switch {
	case s.field != "":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		e, ok := m[s.field]
		if !ok {
			return nil, false
		}
		return rest.walk(e, root)
	case s.all, s.filter != nil:
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out := []any{}
		for _, e := range list {
			if s.filter != nil && !s.filter.holds(e, root) {
				continue
			}
			if got, ok := rest.walk(e, root); ok {
				// A list under a list is one list: $.a[*].b[*] reads
				// every b of every a.
				if inner, isList := got.([]any); isList && rest.many() {
					out = append(out, inner...)
				} else {
					out = append(out, got)
				}
			}
		}
		return out, true
	default:
		list, ok := v.([]any)
		if !ok || s.index >= len(list) {
			return nil, false
		}
		return rest.walk(list[s.index], root)
	}
}

// many reports a path that answers a list.
func (p jsonPath) many() bool {
	for _, s := range p {
		if s.all || s.filter != nil {
			return true
		}
	}
	return false
}

// pick reads a path from a decoded JSON answer (see jsonPath.pick).
func pick(doc any, path string) (any, bool) {
	p, err := parsePath(path)
	if err != nil {
		return nil, false
	}
	return p.pick(doc)
}

// condition is a parsed filter or readiness expression.
type condition struct {
	op          string // "&&", "||", "!", a comparison, or "" for a bare operand
	left, right *condition
	operand     *operand
	rhs         *operand
}

// operand is a path from @ or $, or a literal.
type operand struct {
	fromRoot bool
	path     jsonPath
	literal  any
	isPath   bool
}

func (o *operand) value(at, root any) (any, bool) {
	if !o.isPath {
		return o.literal, true
	}
	if o.fromRoot {
		return o.path.walk(root, root)
	}
	return o.path.walk(at, root)
}

// holds evaluates the condition with @ at at and $ at root.
func (c *condition) holds(at, root any) bool {
	switch c.op {
	case "&&":
		return c.left.holds(at, root) && c.right.holds(at, root)
	case "||":
		return c.left.holds(at, root) || c.right.holds(at, root)
	case "!":
		return !c.left.holds(at, root)
	case "":
		v, ok := c.operand.value(at, root)
		if !ok {
			return false
		}
		b, isBool := v.(bool)
		return !isBool || b
	}
	l, lok := c.operand.value(at, root)
	r, rok := c.rhs.value(at, root)
	if !lok || !rok {
		// Something missing equals nothing present.
		return c.op == "!=" && lok != rok
	}
	return compare(c.op, l, r)
}

// compare applies a comparison to two JSON values: numbers by value,
// strings in order, anything else by equality only.
func compare(op string, l, r any) bool {
	if op == "==" || op == "!=" {
		eq := reflect.DeepEqual(l, r)
		if ln, ok := l.(float64); ok {
			if rn, ok := r.(float64); ok {
				eq = ln == rn
			}
		}
		return eq == (op == "==")
	}
	var cmp int
	switch lv := l.(type) {
	case float64:
		rv, ok := r.(float64)
		if !ok {
			return false
		}
		switch {
		case lv < rv:
			cmp = -1
		case lv > rv:
			cmp = 1
		}
	case string:
		rv, ok := r.(string)
		if !ok {
			return false
		}
		cmp = strings.Compare(lv, rv)
	default:
		return false
	}
	switch op {
	case "<":
		return cmp < 0
	case "<=":
		return cmp <= 0
	case ">":
		return cmp > 0
	case ">=":
		return cmp >= 0
	}
	return false
}

// parseCondition reads a filter or readiness expression.
func parseCondition(s string) (*condition, error) {
	p := &exprParser{s: s}
	c, err := p.or()
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", s, err)
	}
	if p.skip(); p.i < len(p.s) {
		return nil, fmt.Errorf("filter %q: cannot read %q", s, p.s[p.i:])
	}
	return c, nil
}

type exprParser struct {
	s string
	i int
}

func (p *exprParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *exprParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *exprParser) or() (*condition, error) {
	left, err := p.and()
	for err == nil && p.eat("||") {
		var right *condition
		if right, err = p.and(); err == nil {
			left = &condition{op: "||", left: left, right: right}
		}
	}
	return left, err
}

func (p *exprParser) and() (*condition, error) {
	left, err := p.unary()
	for err == nil && p.eat("&&") {
		var right *condition
		if right, err = p.unary(); err == nil {
			left = &condition{op: "&&", left: left, right: right}
		}
	}
	return left, err
}

func (p *exprParser) unary() (*condition, error) {
	if p.skip(); strings.HasPrefix(p.s[p.i:], "!") && !strings.HasPrefix(p.s[p.i:], "!=") {
		p.i++
		inner, err := p.unary()
		return &condition{op: "!", left: inner}, err
	}
	if p.eat("(") {
		inner, err := p.or()
		if err == nil && !p.eat(")") {
			err = fmt.Errorf("a ( without its )")
		}
		return inner, err
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if p.eat(op) {
			right, err := p.operand()
			return &condition{op: op, operand: left, rhs: right}, err
		}
	}
	return &condition{operand: left}, nil
}

func (p *exprParser) operand() (*operand, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("a value is missing at the end")
	}
	rest := p.s[p.i:]
	switch c := rest[0]; {
	case c == '@' || c == '$':
		steps, left, err := parseSteps(rest[1:])
		if err != nil {
			return nil, err
		}
		p.i += len(rest) - len(left)
		return &operand{fromRoot: c == '$', path: steps, isPath: true}, nil
	case c == '\'' || c == '"':
		end := strings.IndexByte(rest[1:], c)
		if end < 0 {
			return nil, fmt.Errorf("an unclosed quote in %q", rest)
		}
		p.i += end + 2
		return &operand{literal: rest[1 : end+1]}, nil
	}
	for word, v := range map[string]any{"true": true, "false": false, "null": nil} {
		if strings.HasPrefix(rest, word) && identLen(rest) == len(word) {
			p.i += len(word)
			return &operand{literal: v}, nil
		}
	}
	n := 0
	for n < len(rest) && strings.IndexByte("+-.0123456789eE", rest[n]) >= 0 {
		n++
	}
	f, err := strconv.ParseFloat(rest[:n], 64)
	if n == 0 || err != nil {
		return nil, fmt.Errorf("%q is not @.path, $.path, 'text', a number, true, false or null", rest)
	}
	p.i += n
	return &operand{literal: f}, nil
}
