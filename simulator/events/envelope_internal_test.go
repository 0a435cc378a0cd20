package events

import (
	"encoding/json"
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
	env := Envelope{Data: Encoded(nil)}
	if b, err := encodeEnvelope(env); err != nil || !json.Valid(b) {
		t.Errorf("empty Encoded data: %s, %v", b, err)
	}
}
