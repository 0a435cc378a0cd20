package server_test

import (
	"testing"
)

// A move that names a trigger reaches the resource's scenario through the
// state machine's observer: cob-paga-duas-vezes pays a charge of 1.04
// after 30 s and, when the charge is paid, sends a second Pix 2 minutes
// later. Without the engine observing moves the second Pix never comes.
func TestAMoveTellsItsScenario(t *testing.T) {
	t.Parallel()
	w := newPixTenants(t)
	const txid = "duasvezesduasvezesduasvezes01"
	w.must(201, w.a, "PUT", "/pix/v2/cob/"+txid, `{"calendario":{"expiracao":3600},"valor":{"original":"1.04"},"chave":"52998224725"}`)
	received := func() int {
		out := w.must(200, w.a, "GET", "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z", "")
		pix, _ := out["pix"].([]any)
		return len(pix)
	}

	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"30s"}`)
	if st := field(w.must(200, w.a, "GET", "/pix/v2/cob/"+txid, ""), "status"); st != "CONCLUIDA" || received() != 1 {
		t.Fatalf("30 s on: status %s and %d Pix, want CONCLUIDA and 1", st, received())
	}
	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"1m59s"}`)
	if n := received(); n != 1 {
		t.Fatalf("1m59s after the payment: %d Pix, want still 1", n)
	}
	w.must(200, w.a, "POST", "/sandbox/clock/advance", `{"by":"1s"}`)
	if n := received(); n != 2 {
		t.Fatalf("2 min after the payment: %d Pix, want the second one", n)
	}
}
