package cli

import (
	"encoding/json"
	"testing"
	"time"
)

func TestIDLike(t *testing.T) {
	for _, c := range []struct {
		field string
		v     any
		want  bool
	}{
		{"txid", "7f3a9c2b1d4e5f60718293a4b5c6d7e8", true},
		{"endToEndId", "E99999009202603021200abcdEFGH123", true},
		{"", "devolucao", false},       // a route's word
		{"", "webhookrec", false},      // idem
		{"status", "CONCLUIDA", false}, // a status
		{"valor", "10.00", false},      // an amount
		{"horario", "2026-03-02T12:00:00Z", false},
		{"dataDeVencimento", "2026-03-12", false},
		{"webhookUrl", "http://127.0.0.1:9000/hook1", false},
		{"nome", "Maria Souza 2", false}, // words
		{"numeroProposta", json.Number("100002"), true},
		{"capitalSegurado", json.Number("200000"), false}, // a number not named for an id
		{"cobrancaId", json.Number("12"), false},          // too short to tie anything
		{"cpf", "11144477735", true},
	} {
		if got := idLike(c.field, c.v); got != c.want {
			t.Errorf("idLike(%q, %v) = %v, want %v", c.field, c.v, got, c.want)
		}
	}
}

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Hour: "1h", 90 * time.Minute: "1h30m", 36 * time.Hour: "1d12h", 5*time.Second + 250*time.Millisecond: "5s250ms", 0: "1ms",
	} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestStatusMatches(t *testing.T) {
	for _, c := range []struct {
		filter []string
		status int
		want   bool
	}{
		{nil, 500, true}, {[]string{"4xx"}, 404, true}, {[]string{"4xx"}, 201, false}, {[]string{"201", "5xx"}, 503, true}, {[]string{"201"}, 200, false},
	} {
		if got := statusMatches(c.filter, c.status); got != c.want {
			t.Errorf("statusMatches(%v, %d) = %v, want %v", c.filter, c.status, got, c.want)
		}
	}
}

func TestWindowStart(t *testing.T) {
	now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	if got, _ := windowStart("", "30m", now); !got.Equal(now.Add(-30 * time.Minute)) {
		t.Errorf("--last 30m: %s", got)
	}
	if got, _ := windowStart("2026-03-02T14:00:00-03:00", "30m", now); !got.Equal(time.Date(2026, 3, 2, 17, 0, 0, 0, time.UTC)) {
		t.Errorf("--since wins over --last: %s", got)
	}
	for _, bad := range [][2]string{{"ontem", ""}, {"", "muito"}, {"", "-5m"}} {
		if _, err := windowStart(bad[0], bad[1], now); err == nil {
			t.Errorf("windowStart(%q, %q) took it", bad[0], bad[1])
		}
	}
}
