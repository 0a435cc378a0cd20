package pix

import (
	"testing"
	"time"

	"homologa/simulator/pix/duedate"
)

// approved is an APROVADA monthly recurrence from 2026-02-01 to 2026-12-31.
func approved(valor doc) *rec {
	return &rec{ID: "RR1", Status: RecAprovada, Body: doc{
		"calendario": doc{"dataInicial": "2026-02-01", "dataFinal": "2026-12-31", "periodicidade": "MENSAL"}, "valor": valor}}
}

func TestValidateCobR(t *testing.T) {
	today := duedate.MustParse("2026-01-05")
	req := func(venc, original string) doc {
		return doc{"calendario": doc{"dataDeVencimento": venc}, "valor": doc{"original": original}}
	}
	tests := []struct {
		name string
		rc   *rec
		req  doc
		want string // the violated field
	}{
		{"OK", approved(nil), req("2026-02-10", "10.00"), ""},
		{"ErrNotApproved", &rec{Status: RecCriada, Body: approved(nil).Body}, req("2026-02-10", "10.00"), "idRec"},
		{"ErrNotADate", approved(nil), req("10/02/2026", "10.00"), "calendario.dataDeVencimento"},
		{"ErrToday", approved(nil), req("2026-01-05", "10.00"), "calendario.dataDeVencimento"},
		{"ErrBeforeInitial", approved(nil), req("2026-01-31", "10.00"), "calendario.dataDeVencimento"},
		{"ErrAfterFinal", approved(nil), req("2027-01-01", "10.00"), "calendario.dataDeVencimento"},
		{"ErrZero", approved(nil), req("2026-02-10", "0.00"), "valor.original"},
		{"OK fixed", approved(doc{"valorRec": "10.00"}), req("2026-02-10", "10.00"), ""},
		{"ErrFixed", approved(doc{"valorRec": "10.00"}), req("2026-02-10", "10.01"), "valor.original"},
		{"ErrBelowMinimum", approved(doc{"valorMinimoRecebedor": "10.00"}), req("2026-02-10", "9.99"), "valor.original"},
		{"OK above minimum", approved(doc{"valorMinimoRecebedor": "10.00"}), req("2026-02-10", "10.01"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, v := validateCobR(tt.rc, tt.req, today)
			got := ""
			if v != nil {
				got = v.field
			}
			if got != tt.want {
				t.Errorf("got %v, want field %q", v, tt.want)
			}
		})
	}
}

func TestCycleRule(t *testing.T) {
	day := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	monthly := approved(nil)
	weekly := &rec{Body: doc{"calendario": doc{"dataInicial": "2026-02-02", "periodicidade": "SEMANAL"}}}
	quarterly := &rec{Body: doc{"calendario": doc{"dataInicial": "2026-02-01", "periodicidade": "TRIMESTRAL"}}}
	tests := []struct {
		name  string
		rc    *rec
		venc  string
		taken []string
		ok    bool
	}{
		{"OK first", monthly, "2026-02-10", nil, true},
		{"OK next month", monthly, "2026-03-01", []string{"2026-02-10"}, true},
		{"ErrSameMonthlyCycle", monthly, "2026-02-28", []string{"2026-02-10"}, false},
		{"OK next cycle from its first day", monthly, "2026-03-01", []string{"2026-02-01"}, true},
		{"OK next week", weekly, "2026-02-09", []string{"2026-02-02"}, true},
		{"ErrSameWeek", weekly, "2026-02-08", []string{"2026-02-02"}, false},
		{"ErrSameQuarter", quarterly, "2026-04-30", []string{"2026-02-01"}, false},
		{"OK next quarter", quarterly, "2026-05-01", []string{"2026-02-01"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := cycleRule(tt.rc, day(tt.venc), tt.taken); (v == nil) != tt.ok {
				t.Errorf("got %v, want ok %v", v, tt.ok)
			}
		})
	}
}

func TestSettlementDate(t *testing.T) {
	// 2026-02-14 is a Saturday; 16 and 17 are Carnival.
	tests := []struct {
		body doc
		want string
	}{
		{doc{"calendario": doc{"dataDeVencimento": "2026-02-14"}}, "2026-02-18"},
		{doc{"calendario": doc{"dataDeVencimento": "2026-02-14"}, "ajusteDiaUtil": true}, "2026-02-18"},
		{doc{"calendario": doc{"dataDeVencimento": "2026-02-14"}, "ajusteDiaUtil": false}, "2026-02-14"},
		{doc{"calendario": doc{"dataDeVencimento": "2026-02-10"}}, "2026-02-10"},
	}
	for _, tt := range tests {
		got, err := settlementDate(tt.body)
		if err != nil || got.String() != tt.want {
			t.Errorf("settlementDate(%v) = %s, %v; want %s", tt.body, got, err, tt.want)
		}
	}
}

func TestCobRExpiry(t *testing.T) {
	body := doc{"calendario": doc{"dataDeVencimento": "2026-02-10"}, "politicaRetentativa": "NAO_PERMITE"}
	if got, want := cobrExpiry(body), atBRT(duedate.MustParse("2026-02-10"), 23, 59, 59); !got.Equal(want) {
		t.Errorf("NAO_PERMITE: got %v, want %v", got, want)
	}
	body["politicaRetentativa"] = "PERMITE_3R_7D"
	if got, want := cobrExpiry(body), atBRT(duedate.MustParse("2026-02-17"), 23, 59, 59); !got.Equal(want) {
		t.Errorf("PERMITE_3R_7D: got %v, want %v", got, want)
	}
}

func TestRetryRule(t *testing.T) {
	attempt := func(day, tipo, status string) any {
		return map[string]any{"dataLiquidacao": day, "tipo": tipo, "status": status}
	}
	charge := func(status string, tentativas ...any) *cobr {
		return &cobr{Status: status, Body: doc{"politicaRetentativa": "PERMITE_3R_7D", "calendario": doc{"dataDeVencimento": "2026-02-10"},
			"tentativas": tentativas}}
	}
	rejected := attempt("2026-02-10", "AGND", TentRejeitada)
	today := duedate.MustParse("2026-02-10")
	tests := []struct {
		name string
		c    *cobr
		day  string
		want string // the violated field, "" for none
	}{
		{"OK", charge(CobRAtiva, rejected), "2026-02-11", ""},
		{"OK last day of the window", charge(CobRAtiva, rejected), "2026-02-17", ""},
		{"ErrNoRetries", &cobr{Status: CobRAtiva, Body: doc{"politicaRetentativa": "NAO_PERMITE"}}, "2026-02-11", "politicaRetentativa"},
		{"ErrNotAtiva", charge(CobRConcluida, rejected), "2026-02-11", "status"},
		{"ErrOpenAttempt", charge(CobRAtiva, attempt("2026-02-10", "AGND", TentAgendada)), "2026-02-11", "data"},
		{"ErrNotFuture", charge(CobRAtiva, rejected), "2026-02-10", "data"},
		{"ErrOutOfWindow", charge(CobRAtiva, rejected), "2026-02-18", "data"},
		{"ErrSameDay", charge(CobRAtiva, rejected, attempt("2026-02-12", "NTAG", TentRejeitada)), "2026-02-12", "data"},
		{"ErrThreeUsed", charge(CobRAtiva, rejected, attempt("2026-02-11", "NTAG", TentRejeitada), attempt("2026-02-12", "NTAG", TentRejeitada),
			attempt("2026-02-13", "NTAG", TentRejeitada)), "2026-02-14", "data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := retryRule(tt.c, duedate.MustParse(tt.day), today)
			got := ""
			if v != nil {
				got = v.field
			}
			if got != tt.want {
				t.Errorf("got %v, want field %q", v, tt.want)
			}
		})
	}
}

func TestCloseAttempts(t *testing.T) {
	d := doc{"tentativas": []any{
		map[string]any{"status": TentRejeitada}, map[string]any{"status": TentAgendada}, map[string]any{"status": TentSolicitada}}}
	closeAttempts(d, TentCancelada)
	var got []any
	for _, t := range attempts(d) {
		got = append(got, t.(map[string]any)["status"])
	}
	if got[0] != TentRejeitada || got[1] != TentCancelada || got[2] != TentCancelada || openAttempt(d) != nil {
		t.Errorf("got %v", got)
	}
}
