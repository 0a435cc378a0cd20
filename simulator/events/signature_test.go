package events_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"homologa/simulator/events"
)

func TestSignAndVerify(t *testing.T) {
	body := []byte(`{"id":"e1"}`)
	now := time.Unix(1_800_000_000, 0)
	good := events.Sign("whsec_a", now, body)
	tests := []struct {
		name   string
		header string
		secret string
		body   []byte
		want   error
	}{
		{"OK", good, "whsec_a", body, nil},
		{"OKRotated", good + ",v1=deadbeef", "whsec_a", body, nil},
		{"ErrSecret", good, "whsec_b", body, events.ErrBadSignature},
		{"ErrBody", good, "whsec_a", []byte(`{"id":"e2"}`), events.ErrBadSignature},
		{"ErrStale", events.Sign("whsec_a", now.Add(-6*time.Minute), body), "whsec_a", body, events.ErrStale},
		{"ErrFuture", events.Sign("whsec_a", now.Add(6*time.Minute), body), "whsec_a", body, events.ErrStale},
		{"ErrMissing", "", "whsec_a", body, events.ErrNoSignature},
		{"ErrNoV1", "t=1800000000", "whsec_a", body, events.ErrNoSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := events.Verify(tt.header, tt.secret, tt.body, now, 5*time.Minute)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
	// The published scheme, computed independently: a partner following the
	// README gets the same value.
	m := hmac.New(sha256.New, []byte("whsec_a"))
	m.Write([]byte("1800000000." + string(body)))
	if want := "t=1800000000,v1=" + hex.EncodeToString(m.Sum(nil)); good != want {
		t.Fatalf("Sign = %q, want %q", good, want)
	}
}

func TestFilter(t *testing.T) {
	e := events.Envelope{Type: "proposta.status", CNPJ: "11222333000181", CompanyID: "c1",
		Subject: map[string]any{"numeroProposta": float64(123456), "inscricaoIds": []any{float64(987), float64(988)}, "txid": "abc"}}
	tests := []struct {
		name string
		f    events.Filter
		want bool
	}{
		{"Empty", events.Filter{}, false},
		{"Company", events.Filter{CompanyID: "c1"}, true},
		{"OtherCompany", events.Filter{CompanyID: "c2"}, false},
		{"Every", events.Filter{Every: true}, true},
		{"EveryCNPJ", events.Filter{Every: true, CNPJ: "11222333000181"}, true},
		{"EveryOtherCNPJ", events.Filter{Every: true, CNPJ: "11444777000161"}, false},
		{"Type", events.Filter{CompanyID: "c1", Types: []string{"proposta.status"}}, true},
		{"TypePrefix", events.Filter{CompanyID: "c1", Types: []string{"cobranca.*", "proposta.*"}}, true},
		{"OtherType", events.Filter{CompanyID: "c1", Types: []string{"cobranca.*"}}, false},
		{"SubjectKeyed", events.Filter{CompanyID: "c1", Subject: "numeroProposta:123456"}, true},
		{"SubjectInList", events.Filter{CompanyID: "c1", Subject: "inscricaoIds:988"}, true},
		{"SubjectAnyKey", events.Filter{CompanyID: "c1", Subject: "abc"}, true},
		{"SubjectWrongKey", events.Filter{CompanyID: "c1", Subject: "txid:123456"}, false},
		{"SubjectMissing", events.Filter{CompanyID: "c1", Subject: "999"}, false},
	}
	for _, tt := range tests {
		if got := tt.f.Match(e); got != tt.want {
			t.Errorf("%s: Match = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestHubDropsASlowSubscriber(t *testing.T) {
	h := events.NewHub()
	slow := h.Subscribe(events.Filter{Every: true}, 2)
	fast := h.Subscribe(events.Filter{Every: true}, 10)
	for i := 1; i <= 3; i++ {
		h.Publish(events.Envelope{Sequence: int64(i)}) // never blocks
	}
	if h.Len() != 1 {
		t.Fatalf("subscribers = %d, want the slow one dropped", h.Len())
	}
	n := 0
	for range slow.C {
		n++
	}
	if n != 2 {
		t.Fatalf("slow subscriber got %d before its channel closed, want 2", n)
	}
	if len(fast.C) != 3 {
		t.Fatalf("fast subscriber got %d, want 3", len(fast.C))
	}
}
