package harness

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Partner files of both versions are read, and each mistake is named by
// its field.
func TestParsePartner(t *testing.T) {
	t.Setenv("EXEMPLO_CLIENT_ID", "cli-1")
	t.Setenv("EXEMPLO_SECRET", "segredo-muito-longo")
	tests := []struct {
		name, src, want string
	}{
		{"v1", "name: P\nurl: http://127.0.0.1:9\nactions:\n  state: {method: GET, path: /state}\n", ""},
		{"v2 per scenario with start", "version: 2\nname: P\nproducts: [pix]\nurl: http://127.0.0.1:{{port}}\nstart: {command: [python3, p.py], env: {ID: \"{{app.clientId}}\"}, ready: /health, timeout: 5s}\n", ""},
		{"v2 fixed from the environment", "version: 2\nname: P\nurl: http://127.0.0.1:9\napp: {mode: fixed, clientId: \"${env.EXEMPLO_CLIENT_ID}\", clientSecret: \"${env.EXEMPLO_SECRET}\", chave: \"11222333000181\"}\n", ""},
		{"v2 fixed, a variable unset", "version: 2\nname: P\nurl: http://127.0.0.1:9\napp: {mode: fixed, clientId: \"${env.NADA_DISSO}\", clientSecret: x, chave: y}\n", "app.clientId: the environment variable NADA_DISSO is not set"},
		{"v2 fixed without its secret", "version: 2\nname: P\nurl: http://127.0.0.1:9\napp: {mode: fixed, clientId: a, chave: y}\n", "app.clientSecret is required"},
		{"a version 2 field in a version 1 file", "name: P\nurl: http://127.0.0.1:9\nstart: {command: [x]}\n", "add \"version: 2\""},
		{"an unknown product", "version: 2\nname: P\nurl: http://x\nproducts: [boleto]\n", "products: \"boleto\" is not one of pix, pix-automatico, seguros"},
		{"an unknown mode", "version: 2\nname: P\nurl: http://x\napp: {mode: shared}\n", "app.mode: \"shared\""},
		{"a start without a command", "version: 2\nname: P\nurl: http://x\nstart: {ready: /h}\n", "start.command"},
		{"a bad returns path", "version: 2\nname: P\nurl: http://x\nactions:\n  create-cob: {path: /c, returns: {txid: id}}\n", "actions.create-cob.returns.txid"},
		{"no url", "version: 2\nname: P\n", "url: the base URL"},
		{"a filter", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {paid: \"$.charges[?(@.status == 'PAID')].txid\"}}\n", ""},
		{"a filter not closed", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {paid: \"$.charges[?(@.status == 'PAID').txid\"}}\n", "actions.state.returns.paid"},
		{"a record", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {proposals: {each: \"$.p[*]\", numero: $.n, status: $.s, values: {status: {ok: IMPLANTADA}}}}}\n", ""},
		{"a record without its id", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {proposals: {each: \"$.p[*]\", status: $.s}}}\n", "map the field numero"},
		{"a record without each", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {proposals: {numero: $.n}}}\n", "needs each:"},
		{"a name the state contract lacks", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {bookd: $.b}}\n", "the state contract has no bookd"},
		{"a record outside the state", "version: 2\nname: P\nurl: http://x\nactions:\n  sell: {path: /s, returns: {x: {each: \"$.p[*]\", id: $.n}}}\n", "read only from the state action"},
		{"values of a field not mapped", "version: 2\nname: P\nurl: http://x\nactions:\n  state: {path: /s, returns: {benefits: {each: \"$.b[*]\", id: $.i, values: {status: {a: PAGO}}}}}\n", "values.status"},
		{"a body-judged readiness", "version: 2\nname: P\nproducts: [pix]\nurl: http://127.0.0.1:{{port}}\nstart: {command: [x], ready: {path: /healthz, when: \"$.ready == true\"}}\n", ""},
		{"a readiness condition that does not parse", "version: 2\nname: P\nurl: http://127.0.0.1:{{port}}\nstart: {command: [x], ready: {path: /healthz, when: \"$.ready ==\"}}\n", "start.ready.when"},
		{"flows and widgets", "version: 2\nname: P\nurl: http://x\nproducts: [pix, seguros]\nflows: [cob, cobv, venda, beneficio]\nwidgets: [cartao, pendencia-beneficio]\n", ""},
		{"an unknown flow", "version: 2\nname: P\nurl: http://x\nflows: [boleto]\n", "flows: \"boleto\" is not a flow"},
		{"a flow of a product not named", "version: 2\nname: P\nurl: http://x\nproducts: [pix]\nflows: [venda]\n", "a flow of seguros"},
		{"a flow left to a widget too", "version: 2\nname: P\nurl: http://x\nproducts: [seguros]\nflows: [venda, pendencia-beneficio]\nwidgets: [pendencia-beneficio]\n", "not both"},
		{"an unknown widget", "version: 2\nname: P\nurl: http://x\nproducts: [seguros]\nflows: [venda]\nwidgets: [cheque]\n", "widgets: \"cheque\""},
		{"an unknown field", "version: 2\nname: P\nurl: http://x\nspeed: 3\n", "field speed not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePartner("p.yaml", []byte(tt.src))
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Products) == 0 || p.App.Mode == "" {
					t.Fatalf("defaults not applied: %+v", p)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to say %q", err, tt.want)
			}
		})
	}
}

// A run the sandbox makes reads no environment variable and runs no
// command; a fixed app must be the one homologated.
func TestHostedPartnerFiles(t *testing.T) {
	t.Setenv("HOMOLOGA_OPERATOR_TOKEN", "op_secret")
	if _, err := ParseHostedPartner("f", []byte("version: 2\nname: P\nurl: http://x\napp: {mode: fixed, clientId: a, clientSecret: \"${env.HOMOLOGA_OPERATOR_TOKEN}\", chave: c}\n")); err == nil {
		t.Fatal("a hosted run read the sandbox's environment")
	}
	p, err := ParseHostedPartner("f", []byte("version: 2\nname: P\nurl: http://x\nstart: {command: [sh]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.hostable("a"); err == nil || !strings.Contains(err.Error(), "start") {
		t.Fatalf("a start command in a hosted run: %v", err)
	}
	p, _ = ParseHostedPartner("f", []byte("version: 2\nname: P\nurl: http://x\napp: {mode: fixed, clientId: b, clientSecret: s, chave: c}\n"))
	if err := p.hostable("a"); err == nil || !strings.Contains(err.Error(), "app.clientId") {
		t.Fatalf("another app than the one homologated: %v", err)
	}
}

// A body template keeps the types of the parameters, leaves out a field
// whose parameter is not given, and writes parameters into longer text.
func TestFillTemplates(t *testing.T) {
	var tmpl any
	json.Unmarshal([]byte(`{"amount": "{{valor}}", "key": "${chave}", "payer": "{{devedor}}", "note": "charge {{valor}} of {{nada}}", "list": ["{{valor}}", "{{nada}}"], "fixed": 3}`), &tmpl)
	got, _ := fill(tmpl, map[string]any{"valor": "10.00", "chave": "11222333000181"})
	want := map[string]any{"amount": "10.00", "key": "11222333000181", "note": "charge 10.00 of ", "list": []any{"10.00"}, "fixed": float64(3)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	got, _ = fill(tmpl, map[string]any{"devedor": map[string]any{"cpf": "12345678909"}})
	if m := got.(map[string]any); !reflect.DeepEqual(m["payer"], map[string]any{"cpf": "12345678909"}) {
		t.Fatalf("an object parameter: %v", m["payer"])
	}
	var nested any
	json.Unmarshal([]byte(`{"customer": {"document": "{{devedor.cpf}}", "name": "{{devedor.nome}}"}}`), &nested)
	got, _ = fill(nested, map[string]any{"devedor": map[string]any{"cpf": "12345678909"}})
	if !reflect.DeepEqual(got, map[string]any{"customer": map[string]any{"document": "12345678909"}}) {
		t.Fatalf("a field of an object parameter: %v", got)
	}
}

// Returns paths read one value, an element, or a list.
func TestReturnsPaths(t *testing.T) {
	var doc any
	json.Unmarshal([]byte(`{"charge": {"id": "tx1"}, "items": [{"txid": "a"}, {"txid": "b"}, {"other": 1}], "n": 2}`), &doc)
	for path, want := range map[string]any{
		"$.charge.id":        "tx1",
		"$.items[1].txid":    "b",
		"$.items[*].txid":    []any{"a", "b"},
		"$.n":                float64(2),
		"$":                  doc,
		"$.missing":          nil,
		"$.items[9].txid":    nil,
		"$.charge.id.deeper": nil,
	} {
		got, ok := pick(doc, path)
		if want == nil {
			if ok {
				t.Errorf("%s: got %v, want nothing", path, got)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v (%v), want %v", path, got, ok, want)
		}
	}
	a := Action{Returns: map[string]ReturnSpec{"txid": {Path: "$.charge.id"}, "booked": {Path: "$.items[*].txid"}}}
	for k, r := range a.Returns {
		if err := r.compile(); err != nil {
			t.Fatal(err)
		}
		a.Returns[k] = r
	}
	if f := a.answerFields([]byte(`{"charge": {"id": "tx1"}, "items": [{"txid": "a"}]}`)); f["txid"] != "tx1" || !reflect.DeepEqual(f["booked"], []any{"a"}) {
		t.Fatalf("answer fields: %v", f)
	}
}

// Filters read a ledger as it is: by value, combined, negated, against
// numbers, strings and booleans, with missing fields never equal.
func TestReturnsFilters(t *testing.T) {
	var doc any
	json.Unmarshal([]byte(`{"charges": [
		{"txid": "a", "status": "PAID", "amount": 10, "paidAt": "2026-01-05"},
		{"txid": "b", "status": "UNDERPAID", "amount": 9.99},
		{"txid": "c", "status": "PAID", "amount": 12.5, "flags": {"refunded": true}},
		{"txid": "d", "status": "OPEN"}],
		"refunds": [{"id": "r1", "status": "PENDING"}, {"id": "r2", "status": "DONE"}],
		"ready": false, "mode": "live"}`), &doc)
	for path, want := range map[string]any{
		"$.charges[?(@.status == 'PAID')].txid":                                     []any{"a", "c"},
		`$.charges[?(@.status == "PAID" && @.amount > 10)].txid`:                    []any{"c"},
		"$.charges[?(@.status != 'PAID')].txid":                                     []any{"b", "d"},
		"$.charges[?(@.amount < 10 || @.status == 'OPEN')].txid":                    []any{"b", "d"},
		"$.charges[?(@.amount >= 10)].txid":                                         []any{"a", "c"},
		"$.charges[?(@.amount <= 10)].txid":                                         []any{"a", "b"},
		"$.charges[?(@.paidAt)].txid":                                               []any{"a"},
		"$.charges[?(!@.paidAt)].txid":                                              []any{"b", "c", "d"},
		"$.charges[?(@.flags.refunded == true)].txid":                               []any{"c"},
		"$.charges[?((@.status == 'PAID' || @.status == 'OPEN') && !@.flags)].txid": []any{"a", "d"},
		"$.charges[?(@.status == $.mode)].txid":                                     []any{},
		"$.refunds[?(@.status == 'DONE')].id":                                       []any{"r2"},
		"$.refunds[?(@.nothing != 'x')].id":                                         []any{"r1", "r2"},
		"$.refunds[?(@.nothing == 'x')].id":                                         []any{},
	} {
		got, ok := pick(doc, path)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v (%v), want %v", path, got, ok, want)
		}
	}
	for _, bad := range []string{"$.charges[?(@.status == )]", "$.charges[?(@.status = 'a')]", "$.charges[?(@.status == 'a)]", "$.c[?(@.a == 1]"} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}

// A readiness condition judges the probe's answer.
func TestReadyProbe(t *testing.T) {
	tests := []struct {
		when   string
		status int
		body   string
		ready  bool
	}{
		{"", 200, `{"ready": false}`, true},
		{"", 503, `{}`, false},
		{"$.ready == true", 200, `{"ready": false}`, false},
		{"$.ready == true", 200, `{"ready": true}`, true},
		{"$.ready", 200, `{"ready": true}`, true},
		{"$.ready", 200, `{}`, false},
		{"$.status == 'UP' && $.checks.sandbox == 'UP'", 200, `{"status": "UP", "checks": {"sandbox": "UP"}}`, true},
		{"$.ready == true", 200, `not json`, false},
		{"$.ready == true", 500, `{"ready": true}`, false},
	}
	for _, tt := range tests {
		r := ReadyProbe{Path: "/h", When: tt.when}
		if err := r.check(); err != nil {
			t.Fatal(err)
		}
		if got := r.accepts(tt.status, []byte(tt.body)); got != tt.ready {
			t.Errorf("when %q, %d %s: ready %v, want %v", tt.when, tt.status, tt.body, got, tt.ready)
		}
	}
}

// A ledger of records is read in the suite's terms: statuses in the
// service's words, payments per charge, events applied and how often.
func TestStateRecords(t *testing.T) {
	src := `version: 2
name: Ledger
url: http://x
products: [pix, seguros]
actions:
  state:
    path: /ledger
    returns:
      payments: {each: "$.entries[?(@.kind == 'pix')]", txid: $.charge, e2eid: $.ref, valor: $.amount}
      proposals: {each: "$.proposals[*]", numero: $.number, status: $.state, values: {status: {implanted: IMPLANTADA, review: EM_ANALISE}}}
      events: {each: "$.processed[*]", id: $.eventId, times: $.count}
      applied: "$.log[*].event"
      unknown: "$.entries[?(@.kind == 'unmatched')].ref"
`
	p, err := ParsePartner("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	json.Unmarshal([]byte(`{"entries": [{"kind": "pix", "charge": "t1", "ref": "E1", "amount": "10.00"}, {"kind": "pix", "charge": "t1", "ref": "E2", "amount": "5.00"},
		{"kind": "unmatched", "ref": "E3"}],
		"proposals": [{"number": 100001, "state": "implanted"}, {"number": 100002, "state": "review"}, {"number": 100003, "state": "CANCELADA"}],
		"processed": [{"eventId": "ev1", "count": 2}, {"eventId": "ev2"}], "log": [{"event": "ev2"}]}`), &doc)
	l := newLedger()
	for name, r := range p.Actions["state"].Returns {
		if r.Each != "" {
			recs, _ := r.records(doc)
			l.addRecords(name, recs)
			continue
		}
		v, _ := r.path.pick(doc)
		l.known[name] = true
		for _, e := range v.([]any) {
			l.add(name, text(e))
		}
	}
	if l.booked["t1"] != 2 || len(l.bookedE2E["t1"]) != 2 || !l.paid["t1"] {
		t.Errorf("payments: booked %v, by e2e %v", l.booked, l.bookedE2E)
	}
	if got := l.status["proposals"]; got["100001"] != "IMPLANTADA" || got["100002"] != "EM_ANALISE" || got["100003"] != "CANCELADA" {
		t.Errorf("proposals' statuses: %v", got)
	}
	if l.applied["ev1"] != 2 || l.applied["ev2"] != 2 || !l.known["applied"] {
		t.Errorf("events applied: %v", l.applied)
	}
	if !l.unknown["E3"] || len(l.unknown) != 1 {
		t.Errorf("unknown: %v", l.unknown)
	}
}

// A scenario applies to a partner by its declared flows and widgets;
// defaults keep older files homologated as before.
func TestFlowsApply(t *testing.T) {
	parse := func(src string) *Partner {
		t.Helper()
		p, err := ParsePartner("p.yaml", []byte("version: 2\nname: P\nurl: http://x\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	all := parse("")
	widget := parse("products: [seguros]\nflows: [venda, pendencia-proposta, beneficio]\nwidgets: [cartao, pendencia-beneficio]\n")
	boleto := parse("products: [seguros]\nflows: [venda]\n")
	cobv := parse("products: [pix]\nflows: [cobv]\n")
	tests := []struct {
		p    *Partner
		tags []string
		want string
	}{
		{all, []string{"@flow:cob"}, ""},
		{all, []string{"@flow:pendencia-beneficio"}, ""},
		{all, []string{"@flow:venda", "@widget:cartao"}, ""},
		{all, []string{"@flow:cobv"}, "does not declare the flow cobv"},
		{widget, []string{"@flow:pendencia-beneficio"}, "leaves pendencia-beneficio to its customer"},
		{widget, []string{"@widget:pendencia-beneficio"}, ""},
		{boleto, []string{"@flow:venda", "@widget:cartao"}, "does not leave cartao to the widget"},
		{cobv, []string{"@flow:cobv", "@regra:x"}, ""},
		{cobv, []string{"@flow:cob"}, "does not declare the flow cob"},
	}
	for _, tt := range tests {
		if got := tt.p.applies(tt.tags); (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%v on %v/%v: %q, want %q", tt.tags, tt.p.Flows, tt.p.Widgets, got, tt.want)
		}
	}
	// Least privilege follows the flows: cobv may ask cobv.read, not
	// cob.write nor the insurer's scopes.
	sc := cobv.scopesAllowed()
	if !sc["cobv.read"] || !sc["cobv.write"] || !sc["webhook.write"] || sc["cob.write"] || sc["apiseguradora"] {
		t.Errorf("scopes of cobv: %v", sc)
	}
	if sc := boleto.scopesAllowed(); !sc["apiseguradora"] || !sc["apicontroleacesso"] || sc["apibeneficio"] || sc["cob.read"] {
		t.Errorf("scopes of venda: %v", sc)
	}
}
