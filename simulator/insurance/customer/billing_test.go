package customer

import (
	"maps"
	"testing"
	"time"
)

func TestDueDate(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	tests := []struct {
		name   string
		issued time.Time
		dia    int
		want   string
	}{
		{"DayBeforeNextWeekGoesToNextMonth", time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), 10, "2026-02-10"},
		{"DayAfterNextWeek", time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), 15, "2026-01-15"},
		{"PayrollLastDayOfTheMonth", time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), 0, "2026-01-31"},
		{"BrasiliasMonthAtMidnightUTC", time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC), 0, "2025-12-31"},
		{"NextWeekAcrossTheYear", time.Date(2025, 12, 28, 12, 0, 0, 0, time.UTC), 5, "2026-01-05"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dueDate(tt.issued, tt.dia); !got.Equal(day(tt.want)) {
				t.Errorf("dueDate = %s, want %s", got.Format(time.DateOnly), tt.want)
			}
		})
	}
}

func TestPeriodMonths(t *testing.T) {
	for p, want := range map[string]int{"MENSAL": 1, "": 1, "TRIMESTRAL": 3, "SEMESTRAL": 6, "ANUAL": 12} {
		if got := periodMonths(p); got != want {
			t.Errorf("periodMonths(%q) = %d, want %d", p, got, want)
		}
	}
}

func TestMachinesAreWellFormed(t *testing.T) {
	for _, m := range Machines() {
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
	}
	for _, tt := range []struct {
		from, to string
		ok       bool
	}{
		{ComEmitida, ComPaga, true}, {ComEmitida, ComEstornada, true}, {ComPaga, ComEstornada, true},
		{ComPaga, ComEmitida, false}, {ComEstornada, ComPaga, false},
	} {
		if _, err := comissaoMachine.Check(tt.from, tt.to); (err == nil) != tt.ok {
			t.Errorf("comissao %s → %s allowed %v, want %v", tt.from, tt.to, err == nil, tt.ok)
		}
	}
}

// A refusal answers its code as motivoRecusa and its words apart, as the
// benefit's refusal does.
func TestRecusaFields(t *testing.T) {
	tests := []struct {
		motivo string
		want   map[string]any
	}{
		{"SALDO_INSUFICIENTE: Conta sem saldo na data do débito", map[string]any{"motivoRecusa": "SALDO_INSUFICIENTE", "descricaoRecusa": "Conta sem saldo na data do débito"}},
		{"RECUSADA_PELO_EMISSOR", map[string]any{"motivoRecusa": "RECUSADA_PELO_EMISSOR"}},
		{"", map[string]any{}},
	}
	for _, tt := range tests {
		got := map[string]any{}
		recusaFields(got, tt.motivo)
		if !maps.Equal(got, tt.want) {
			t.Errorf("recusaFields(%q) = %v, want %v", tt.motivo, got, tt.want)
		}
	}
}
