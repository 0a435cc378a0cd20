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
	a := Action{Returns: map[string]string{"txid": "$.charge.id", "booked": "$.items[*].txid"}}
	if f := a.answerFields([]byte(`{"charge": {"id": "tx1"}, "items": [{"txid": "a"}]}`)); f["txid"] != "tx1" || !reflect.DeepEqual(f["booked"], []any{"a"}) {
		t.Fatalf("answer fields: %v", f)
	}
}
