package jsondoc

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// gen makes random documents of the kinds the sandbox decodes and builds,
// with values of other types (handed to encoding/json) inside them.
type gen struct{ r *rand.Rand }

func (g gen) str() string {
	pieces := []string{"a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f",
		"ç", "ã", "é", "日本", "😀", "\u2028", "\u2029", "\ufffd", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\u00a0"}
	var b []byte
	for range g.r.IntN(12) {
		b = append(b, pieces[g.r.IntN(len(pieces))]...)
	}
	return string(b)
}

func (g gen) float() float64 {
	switch g.r.IntN(6) {
	case 0:
		return float64(g.r.IntN(2000000) - 1000000)
	case 1:
		return float64(g.r.IntN(100000)) / 100
	case 2:
		return math.Float64frombits(g.r.Uint64()) // any finite or not
	case 3:
		return math.Ldexp(g.r.Float64(), g.r.IntN(160)-80)
	case 4:
		return []float64{0, math.Copysign(0, -1), 1e21, 1e20, 1e-6, 1e-7, 9.999999e-7, 123456789012345678901.0}[g.r.IntN(8)]
	}
	return -g.r.Float64() * 1e-3
}

func (g gen) value(depth int) any {
	n := 9
	if depth > 3 {
		n = 5
	}
	switch g.r.IntN(n) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return g.str()
	case 3:
		return g.float()
	case 4:
		return []any{int(g.r.Int64()), int64(-g.r.Int64()), json.Number("12.50"), struct{ A string }{g.str()}, map[string]int{"b": 1, "a": 2}}[g.r.IntN(5)]
	case 5:
		m := map[string]any{}
		for range g.r.IntN(6) {
			m[g.str()] = g.value(depth + 1)
		}
		return [](any){m, map[string]any(nil)}[g.r.IntN(4)/3]
	case 6:
		l := []any{}
		for range g.r.IntN(5) {
			l = append(l, g.value(depth+1))
		}
		return [](any){l, []any(nil)}[g.r.IntN(4)/3]
	case 7:
		m := map[string]string{}
		for range g.r.IntN(4) {
			m[g.str()] = g.str()
		}
		l := []map[string]any{}
		for range g.r.IntN(3) {
			l = append(l, map[string]any{g.str(): g.value(depth + 1)})
		}
		return []any{m, l, []string{g.str(), g.str()}, []string(nil), map[string]string(nil), []map[string]any(nil)}[g.r.IntN(6)]
	}
	return json.RawMessage(`{ "b" : [1, 2], "a":"<x>" }`)
}

// TestAppendIsMarshal compares Append with json.Marshal, bytes and
// errors, on 30,000 random documents.
func TestAppendIsMarshal(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(7, 11))}
	for i := range 30000 {
		v := g.value(0)
		want, wantErr := json.Marshal(v)
		got, err := Marshal(v)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("#%d %#v: error %v, want %v", i, v, err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("#%d %#v:\n got %s\nwant %s", i, v, got, want)
		}
	}
}

func TestAppendAppends(t *testing.T) {
	got, err := Append([]byte("x="), map[string]any{"b": []any{1.5, "é<"}, "a": nil})
	if want := `x={"a":null,"b":[1.5,"é\u003c"]}`; err != nil || string(got) != want {
		t.Errorf("got %s, %v; want %s", got, err, want)
	}
}

func BenchmarkMarshalDocument(b *testing.B) {
	var d map[string]any
	json.Unmarshal([]byte(`{"calendario":{"criacao":"2026-03-01T10:00:00.000Z","expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45","modalidadeAlteracao":0},"chave":"52998224725","solicitacaoPagador":"Serviço realizado: mensalidade de março, pedido 4521.","infoAdicionais":[{"nome":"Pedido","valor":"4521-2026-03"},{"nome":"Cliente","valor":"Francisco da Silva, contrato 998877"}],"txid":"bench000000000000000000000000001","revisao":0,"status":"ATIVA","location":"pix.example.com/qr/v2/0194f1c2a3b4c5d6e7f8a9b0c1d2e3f4","pixCopiaECola":"00020101021226880014br.gov.bcb.pix2566pix.example.com/qr/v2/0194f1c2a3b4c5d6e7f8a9b0c1d2e3f45204000053039865406123.455802BR5917EMPRESA DEMO LTDA6009SAO PAULO6108013101006207050***63041D3A"}`), &d)
	b.Run("jsondoc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Marshal(d)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(d)
		}
	})
}
