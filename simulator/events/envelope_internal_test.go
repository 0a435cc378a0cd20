package events

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Encoded data is spliced into the envelope unscanned; the envelope must
// be the bytes json.Marshal makes of the same data as a json.RawMessage.
func TestEncodedDataMakesTheSameEnvelope(t *testing.T) {
	at := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, data := range []string{
		`{"txid":"abc","valor":{"original":"123.45"},"infoAdicionais":[{"nome":"a","valor":"\u003cb\u003e"}]}`,
		`[]`,
		`"text"`,
		`null`,
	} {
		env := Envelope{ID: "e1", Type: "pix.cob.criada", Name: "Cobrança Criada", Version: 1, OccurredAt: at,
			Environment: "sandbox", CNPJ: "11222333000181", Sequence: 7, Subject: map[string]any{"txid": "abc"}}
		env.Data = json.RawMessage(data)
		want, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		env.Data = Encoded(data)
		got, err := encodeEnvelope(env)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("data %s:\n got %s\nwant %s", data, got, want)
		}
	}
	// The head too, on random envelopes: strings encoding/json escapes,
	// times in other zones and with nanoseconds, subjects of any shape.
	rnd := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		const alphabet = "aZ09 <>&\"\\\n\u2028é\x01\xff"
		r := []rune(alphabet)
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteRune(r[rnd.IntN(len(r))])
		}
		return b.String()
	}
	for i := range 2000 {
		zone := time.FixedZone("z", (rnd.IntN(48)-24)*1800)
		at := time.Unix(rnd.Int64N(1<<36)-1<<35, rnd.Int64N(1e9)*int64(rnd.IntN(2))).In(zone)
		if i%100 == 0 { // a year encoding/json refuses
			at = at.AddDate(10000, 0, 0)
		}
		env := Envelope{ID: str(), Type: str(), Name: str(), Version: rnd.IntN(5) - 2, OccurredAt: at,
			Environment: str(), CNPJ: str(), Sequence: rnd.Int64() - 1<<62,
			Subject: map[string]any{str(): str(), "n": rnd.Float64(), "l": []any{str(), true, nil}}}
		if i%7 == 0 {
			env.Subject = nil
		}
		data, _ := json.Marshal(map[string]string{"k": str()}) // as Encoded data is made
		env.Data = json.RawMessage(data)
		want, werr := json.Marshal(env)
		env.Data = Encoded(data)
		got, err := encodeEnvelope(env)
		if (werr == nil) != (err == nil) || string(got) != string(want) {
			t.Fatalf("envelope %+v:\n got %s, %v\nwant %s, %v", env, got, err, want, werr)
		}
	}
	env := Envelope{Data: Encoded(nil)}
	if b, err := encodeEnvelope(env); err != nil || !json.Valid(b) {
		t.Errorf("empty Encoded data: %s, %v", b, err)
	}
}
