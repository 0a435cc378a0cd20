package duedate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

var d = MustParse

func TestDate(t *testing.T) {
	if _, err := Parse("2021-02-29"); err == nil {
		t.Error("Parse(2021-02-29) succeeded, want an error")
	}
	for _, bad := range []string{"", "2021-2-01", "01/02/2021", "2021-01-01T00:00:00Z", " 2021-01-01"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", bad)
		}
	}
	leap := d("2020-02-29")
	if leap.String() != "2020-02-29" {
		t.Errorf("String() = %q", leap)
	}
	if got := d("2020-12-31").AddDays(1); got != d("2021-01-01") {
		t.Errorf("AddDays(1) = %s", got)
	}
	if got := d("2021-03-01").AddDays(-1); got != d("2021-02-28") {
		t.Errorf("AddDays(-1) = %s", got)
	}
	if got := d("2020-12-25").Weekday(); got != time.Friday {
		t.Errorf("Weekday() = %s", got)
	}
	if got := d("2020-12-28").DaysUntil(d("2021-01-27")); got != 30 {
		t.Errorf("DaysUntil = %d, want 30", got)
	}
	if got := d("2021-01-27").DaysUntil(d("2020-12-28")); got != -30 {
		t.Errorf("DaysUntil = %d, want -30", got)
	}
	if !d("2021-01-01").Before(d("2021-01-02")) || !d("2021-01-02").After(d("2021-01-01")) || !d("2021-01-01").Equal(Date{2020, 12, 32}) {
		t.Error("Before/After/Equal wrong")
	}
	if got := Of(time.Date(2021, 1, 1, 1, 0, 0, 0, time.UTC).In(time.FixedZone("BRT", -3*3600))); got != d("2020-12-31") {
		t.Errorf("Of = %s, want the local date 2020-12-31", got)
	}
	var v struct{ D Date }
	if err := json.Unmarshal([]byte(`{"D":"2021-08-27"}`), &v); err != nil || v.D != d("2021-08-27") {
		t.Errorf("UnmarshalText: %v %v", v.D, err)
	}
	if b, _ := json.Marshal(v); string(b) != `{"D":"2021-08-27"}` {
		t.Errorf("MarshalText: %s", b)
	}
}

func TestEaster(t *testing.T) {
	for _, s := range []string{"1818-03-22", "2000-04-23", "2019-04-21", "2020-04-12", "2021-04-04", "2023-04-09", "2024-03-31", "2025-04-20", "2026-04-05", "2038-04-25"} {
		want := d(s)
		if got := Easter(want.Y); got != want {
			t.Errorf("Easter(%d) = %s, want %s", want.Y, got, want)
		}
	}
}

func TestHolidays(t *testing.T) {
	dates := func(hs []Holiday) string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Date.String())
		}
		return strings.Join(out, " ")
	}
	want2026 := "2026-01-01 2026-02-16 2026-02-17 2026-04-03 2026-04-21 2026-05-01 2026-06-04 2026-09-07 2026-10-12 2026-11-02 2026-11-15 2026-11-20 2026-12-25"
	if got := dates(Holidays(2026)); got != want2026 {
		t.Errorf("Holidays(2026) =\n%s\nwant\n%s", got, want2026)
	}
	// Before law 14.759/2023, 20 November was not a national holiday.
	want2023 := "2023-01-01 2023-02-20 2023-02-21 2023-04-07 2023-04-21 2023-05-01 2023-06-08 2023-09-07 2023-10-12 2023-11-02 2023-11-15 2023-12-25"
	if got := dates(Holidays(2023)); got != want2023 {
		t.Errorf("Holidays(2023) =\n%s\nwant\n%s", got, want2023)
	}
	for _, y := range []int{2020, 2023, 2024, 2025, 2026, 2030} {
		for _, h := range Holidays(y) {
			if !IsHoliday(h.Date) {
				t.Errorf("IsHoliday(%s) = false for %s", h.Date, h.Name)
			}
		}
		n := 0
		for day := (Date{Y: y, M: time.January, D: 1}); day.Y == y; day = day.AddDays(1) {
			if IsHoliday(day) {
				n++
			}
		}
		if n != len(Holidays(y)) {
			t.Errorf("%d: IsHoliday true on %d days, Holidays lists %d", y, n, len(Holidays(y)))
		}
	}
}

func TestBusinessDays(t *testing.T) {
	business := []struct {
		day  string
		want bool
	}{
		{"2020-12-25", false}, // Christmas, Friday
		{"2020-12-26", false}, // Saturday
		{"2020-12-27", false}, // Sunday
		{"2020-12-28", true},
		{"2021-01-01", false},
		{"2021-09-07", false}, // Independence Day, Tuesday
		{"2026-02-16", false}, // Carnival Monday
		{"2026-02-17", false}, // Carnival Tuesday
		{"2026-02-18", true},  // Ash Wednesday: banks open
		{"2026-04-03", false}, // Good Friday
		{"2026-06-04", false}, // Corpus Christi
		{"2023-11-20", true},  // Monday; not yet national
		{"2024-11-20", false}, // Wednesday; national since 2024
		{"2025-11-20", false}, // Thursday
		{"2025-11-21", true},
	}
	for _, tt := range business {
		if got := IsBusinessDay(d(tt.day)); got != tt.want {
			t.Errorf("IsBusinessDay(%s) = %v, want %v", tt.day, got, tt.want)
		}
	}
	next := []struct{ in, want string }{
		{"2020-10-20", "2020-10-20"},
		{"2020-12-25", "2020-12-28"},
		{"2021-08-28", "2021-08-30"},
		{"2021-09-04", "2021-09-06"},
		{"2021-09-07", "2021-09-08"},
		{"2026-02-14", "2026-02-18"},
		{"2025-11-20", "2025-11-21"},
		{"2023-11-20", "2023-11-20"},
	}
	for _, tt := range next {
		if got := NextBusinessDay(d(tt.in)); got != d(tt.want) {
			t.Errorf("NextBusinessDay(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	between := []struct {
		from, to string
		want     int
	}{
		{"2020-12-28", "2020-12-29", 1},
		{"2020-12-24", "2020-12-28", 1},
		{"2020-12-31", "2021-01-04", 1},
		{"2021-08-27", "2021-08-28", 0},
		{"2021-08-27", "2021-08-30", 1},
		{"2026-02-13", "2026-02-18", 1},
		{"2020-12-29", "2020-12-28", 0},
		{"2020-12-28", "2020-12-28", 0},
	}
	for _, tt := range between {
		if got := BusinessDaysBetween(d(tt.from), d(tt.to)); got != tt.want {
			t.Errorf("BusinessDaysBetween(%s, %s) = %d, want %d", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestValidityExamples encodes examples A–G of CobDataDeVencimento in
// openapi.yaml 2.9.0 day by day. Example G stops at its last accepted day;
// the refusal on 2021-09-07 is derived, not from the spec.
func TestValidityExamples(t *testing.T) {
	const ok, no = true, false
	type day struct {
		date     string
		accepted bool
	}
	examples := []struct {
		name     string
		due      string
		validity int
		days     []day
	}{
		{"A", "2020-10-20", 4, []day{
			{"2020-10-20", ok}, {"2020-10-21", ok}, {"2020-10-22", ok}, {"2020-10-23", ok},
			{"2020-10-24", ok}, {"2020-10-25", ok}, {"2020-10-26", ok}, {"2020-10-27", no},
		}},
		{"B", "2020-12-25", 0, []day{
			{"2020-12-25", ok}, {"2020-12-26", ok}, {"2020-12-27", ok}, {"2020-12-28", ok}, {"2020-12-29", no},
		}},
		{"C", "2020-12-25", 1, []day{
			{"2020-12-25", ok}, {"2020-12-26", ok}, {"2020-12-27", ok}, {"2020-12-28", ok}, {"2020-12-29", ok},
			{"2020-12-30", no},
		}},
		{"D", "2020-12-25", 3, []day{
			{"2020-12-25", ok}, {"2020-12-26", ok}, {"2020-12-27", ok}, {"2020-12-28", ok}, {"2020-12-29", ok},
			{"2020-12-30", ok}, {"2020-12-31", ok}, {"2021-01-01", no},
		}},
		{"E", "2020-12-25", 4, []day{
			{"2020-12-25", ok}, {"2020-12-26", ok}, {"2020-12-27", ok}, {"2020-12-28", ok}, {"2020-12-29", ok},
			{"2020-12-30", ok}, {"2020-12-31", ok}, {"2021-01-01", ok}, {"2021-01-02", ok}, {"2021-01-03", ok},
			{"2021-01-04", ok}, {"2021-01-05", no},
		}},
		{"F", "2021-08-27", 5, []day{
			{"2021-08-27", ok}, {"2021-08-28", ok}, {"2021-08-29", ok}, {"2021-08-30", ok}, {"2021-08-31", ok},
			{"2021-09-01", ok}, {"2021-09-02", no},
		}},
		{"G", "2021-08-28", 5, []day{
			{"2021-08-28", ok}, {"2021-08-29", ok}, {"2021-08-30", ok}, {"2021-08-31", ok}, {"2021-09-01", ok},
			{"2021-09-02", ok}, {"2021-09-03", ok}, {"2021-09-04", ok}, {"2021-09-05", ok}, {"2021-09-06", ok},
			{"2021-09-07", no},
		}},
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			c := Charge{Original: 100_00, DueDate: d(ex.due), Validity: ex.validity}
			var last string
			for _, dd := range ex.days {
				_, err := c.Owed(d(dd.date))
				switch {
				case dd.accepted && err != nil:
					t.Errorf("%s: refused (%v), want accepted", dd.date, err)
				case !dd.accepted && !errors.Is(err, ErrExpired):
					t.Errorf("%s: error %v, want ErrExpired", dd.date, err)
				}
				if dd.accepted {
					last = dd.date
				}
			}
			if got := c.PayableUntil(); got != d(last) {
				t.Errorf("PayableUntil() = %s, want %s", got, last)
			}
		})
	}
}

func TestOwed(t *testing.T) {
	const original = 1000_00
	rule := func(m int, vp int64) *Rule { return &Rule{Modalidade: m, ValorPerc: vp} }
	fixed := func(m int, pairs ...any) *Discount {
		ds := &Discount{Modalidade: m}
		for i := 0; i < len(pairs); i += 2 {
			ds.Fixed = append(ds.Fixed, FixedDiscount{d(pairs[i].(string)), int64(pairs[i+1].(int))})
		}
		return ds
	}
	perDay := func(m int, vp int64) *Discount { return &Discount{Modalidade: m, ValorPerc: vp} }
	late := func(multa, juros int64) Owed {
		return Owed{Original: original, Multa: multa, Juros: juros, Final: original + multa + juros}
	}
	early := func(desconto int64) Owed {
		return Owed{Original: original, Desconto: desconto, Final: original - desconto}
	}

	tests := []struct {
		name string
		c    Charge
		pay  string
		want Owed
	}{
		// 2021-08-24 is a Tuesday, so one day late is one calendar and one
		// business day.
		{"on time, no rules", Charge{Original: original, DueDate: d("2021-08-24")}, "2021-08-24", late(0, 0)},
		{"on time with multa and juros", Charge{Original: original, DueDate: d("2021-08-24"), Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2021-08-24", late(0, 0)},
		{"multa 1 fixed value", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Multa: rule(1, 15_00)}, "2021-08-25", late(15_00, 0)},
		{"multa 2 percent", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Multa: rule(2, 2_00)}, "2021-08-25", late(20_00, 0)},
		{"juros 1 value per calendar day", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(1, 33)}, "2021-08-25", late(0, 33)},
		{"juros 2 percent per calendar day", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(2, 1_00)}, "2021-08-25", late(0, 10_00)},
		{"juros 3 percent per month", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(3, 1_00)}, "2021-08-25", late(0, 33)}, // 33.33 cents
		{"juros 4 percent per year", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(4, 12_00)}, "2021-08-25", late(0, 33)}, // 12 %/360
		{"juros 5 value per business day", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(5, 33)}, "2021-08-25", late(0, 33)},
		{"juros 6 percent per business day", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(6, 1_00)}, "2021-08-25", late(0, 10_00)},
		{"juros 7 percent per month, business", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(7, 1_00)}, "2021-08-25", late(0, 48)}, // 47.62 cents: 1 %/21
		{"juros 8 percent per year, business", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(8, 12_00)}, "2021-08-25", late(0, 48)}, // 12 %/252

		// Over a weekend calendar and business modalidades diverge.
		{"juros 2 over a weekend", Charge{Original: original, DueDate: d("2021-08-27"), Validity: 30, Juros: rule(2, 1_00)}, "2021-08-30", late(0, 30_00)},
		{"juros 6 over a weekend", Charge{Original: original, DueDate: d("2021-08-27"), Validity: 30, Juros: rule(6, 1_00)}, "2021-08-30", late(0, 10_00)},
		{"juros 6 paid on Saturday: late, no business day", Charge{Original: original, DueDate: d("2021-08-27"), Validity: 30, Multa: rule(2, 2_00), Juros: rule(6, 1_00)}, "2021-08-28", late(20_00, 0)},

		{"a month late at 1 %/month", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 60, Multa: rule(2, 2_00), Juros: rule(3, 1_00)}, "2021-09-23", late(20_00, 10_00)},
		// 30 days at 12 %/year is 10.00 with a 360-day year (9.86 with 365).
		{"a month late at 12 %/year", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 60, Juros: rule(4, 12_00)}, "2021-09-23", late(0, 10_00)},
		{"half a cent rounds up", Charge{Original: 75_00, DueDate: d("2021-08-24"), Validity: 30, Juros: rule(3, 1_00)}, "2021-08-25", Owed{Original: 75_00, Juros: 3, Final: 75_03}}, // 2.5 cents
		// The componentesValor example of the spec: R$ 100.00, 2 days late,
		// multa 3 % and juros 1 % a day give R$ 105.00 (simple interest).
		{"spec componentesValor example", Charge{Original: 100_00, DueDate: d("2021-08-24"), Validity: 30, Multa: rule(2, 3_00), Juros: rule(2, 1_00)}, "2021-08-26", Owed{Original: 100_00, Multa: 3_00, Juros: 2_00, Final: 105_00}},

		// Desconto with fixed dates: the entry with the earliest date on or
		// after the payment date applies.
		{"desconto 1, before the first date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(1, "2021-08-24", 10_00, "2021-08-10", 50_00, "2021-08-17", 30_00)}, "2021-08-05", early(50_00)},
		{"desconto 1, on the first date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(1, "2021-08-24", 10_00, "2021-08-10", 50_00, "2021-08-17", 30_00)}, "2021-08-10", early(50_00)},
		{"desconto 1, second tier", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(1, "2021-08-24", 10_00, "2021-08-10", 50_00, "2021-08-17", 30_00)}, "2021-08-11", early(30_00)},
		{"desconto 1, on the due date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(1, "2021-08-24", 10_00, "2021-08-10", 50_00, "2021-08-17", 30_00)}, "2021-08-24", early(10_00)},
		{"desconto 1, late", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Desconto: fixed(1, "2021-08-24", 10_00)}, "2021-08-25", early(0)},
		{"desconto 1, after the only date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(1, "2021-08-10", 10_00)}, "2021-08-11", early(0)},
		{"desconto 2 percent until a date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(2, "2021-08-20", 5_00, "2021-08-24", 2_00)}, "2021-08-20", early(50_00)},
		{"desconto 2, second tier", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: fixed(2, "2021-08-20", 5_00, "2021-08-24", 2_00)}, "2021-08-23", early(20_00)},
		// Paid on Friday 2021-08-20 for a Tuesday due date: 4 calendar days,
		// 2 business days (Monday and Tuesday) of anticipation.
		{"desconto 3 value per calendar day", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(3, 1_00)}, "2021-08-20", early(4_00)},
		{"desconto 4 value per business day", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(4, 1_00)}, "2021-08-20", early(2_00)},
		{"desconto 5 percent per calendar day", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(5, 10)}, "2021-08-20", early(4_00)},
		{"desconto 6 percent per business day", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(6, 10)}, "2021-08-20", early(2_00)},
		{"desconto 3 on the due date", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(3, 1_00)}, "2021-08-24", early(0)},
		{"desconto capped at the value", Charge{Original: original, DueDate: d("2021-08-24"), Desconto: perDay(3, 300_00)}, "2021-08-14", early(original)},

		// Abatimento applies always and reduces the base of every percentage.
		{"abatimento 1, late", Charge{Original: original, DueDate: d("2021-08-24"), Validity: 30, Abatimento: rule(1, 100_00), Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2021-08-25",
			Owed{Original: original, Abatimento: 100_00, Multa: 18_00, Juros: 9_00, Final: 927_00}},
		{"abatimento 2, on time", Charge{Original: original, DueDate: d("2021-08-24"), Abatimento: rule(2, 10_00)}, "2021-08-24",
			Owed{Original: original, Abatimento: 100_00, Final: 900_00}},
		{"abatimento and desconto 5", Charge{Original: original, DueDate: d("2021-08-24"), Abatimento: rule(1, 100_00), Desconto: perDay(5, 10)}, "2021-08-20",
			Owed{Original: original, Abatimento: 100_00, Desconto: 3_60, Final: 896_40}},
		{"abatimento and desconto capped", Charge{Original: original, DueDate: d("2021-08-24"), Abatimento: rule(1, 900_00), Desconto: perDay(3, 50_00)}, "2021-08-14",
			Owed{Original: original, Abatimento: 900_00, Desconto: 100_00, Final: 0}},

		// A due date on a holiday moves to the next business day, and so do
		// multa, juros and desconto.
		{"holiday due date, paid on it", Charge{Original: original, DueDate: d("2020-12-25"), Validity: 30, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2020-12-25", late(0, 0)},
		{"holiday due date, paid on the adjusted date", Charge{Original: original, DueDate: d("2020-12-25"), Validity: 30, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2020-12-28", late(0, 0)},
		{"holiday due date, one day late", Charge{Original: original, DueDate: d("2020-12-25"), Validity: 30, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2020-12-29", late(20_00, 10_00)},
		// README's example: interest counts from the moved day (3 days, not 5).
		{"Saturday due date, juros 3 from the Monday", Charge{Original: 100_00, DueDate: d("2026-03-07"), Validity: 30, Multa: rule(2, 2_00), Juros: rule(3, 3_00)}, "2026-03-12",
			Owed{Original: 100_00, Multa: 2_00, Juros: 30, Final: 102_30}},
		{"holiday due date, juros 6 one business day late", Charge{Original: original, DueDate: d("2020-12-25"), Validity: 30, Juros: rule(6, 1_00)}, "2020-12-29", late(0, 10_00)},
		{"holiday due date, desconto per day up to the adjusted date", Charge{Original: original, DueDate: d("2020-12-25"), Desconto: perDay(3, 1_00)}, "2020-12-25", early(3_00)},
		{"holiday due date, fixed desconto on the due date follows it", Charge{Original: original, DueDate: d("2020-12-25"), Desconto: fixed(1, "2020-12-25", 10_00)}, "2020-12-28", early(10_00)},
		{"holiday due date, fixed desconto, late", Charge{Original: original, DueDate: d("2020-12-25"), Validity: 1, Desconto: fixed(1, "2020-12-25", 10_00)}, "2020-12-29", early(0)},

		// Carnival 2026: Monday 16 and Tuesday 17 February are not business
		// days, so a due date on the Monday moves to Ash Wednesday.
		{"carnival due date, paid on Ash Wednesday", Charge{Original: original, DueDate: d("2026-02-16"), Validity: 5, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2026-02-18", late(0, 0)},
		{"carnival due date, one day late", Charge{Original: original, DueDate: d("2026-02-16"), Validity: 5, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2026-02-19", late(20_00, 10_00)},
		{"Friday before carnival, paid Ash Wednesday, juros 6", Charge{Original: original, DueDate: d("2026-02-13"), Validity: 5, Juros: rule(6, 1_00)}, "2026-02-18", late(0, 10_00)},
		{"Friday before carnival, paid Ash Wednesday, juros 2", Charge{Original: original, DueDate: d("2026-02-13"), Validity: 5, Juros: rule(2, 1_00)}, "2026-02-18", late(0, 50_00)},

		// 20 November is a national holiday from 2024 on.
		{"20 Nov 2025 due date, paid the 21st", Charge{Original: original, DueDate: d("2025-11-20"), Validity: 5, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2025-11-21", late(0, 0)},
		{"20 Nov 2023 due date, paid the 21st", Charge{Original: original, DueDate: d("2023-11-20"), Validity: 5, Multa: rule(2, 2_00), Juros: rule(2, 1_00)}, "2023-11-21", late(20_00, 10_00)},

		// The cobv example of the spec (cobv PUT body): 123.45, multa 15 %,
		// juros 2 % a day, R$ 30.00 off until 2020-11-30, due 2020-12-31.
		{"spec cobv example, with discount", specCobV(), "2020-11-30", Owed{Original: 123_45, Desconto: 30_00, Final: 93_45}},
		{"spec cobv example, on time", specCobV(), "2020-12-01", Owed{Original: 123_45, Final: 123_45}},
		// 2021-01-04 is 4 calendar days after 2020-12-31: multa 18.5175 and
		// juros 9.876 round to 18.52 and 9.88.
		{"spec cobv example, late", specCobV(), "2021-01-04", Owed{Original: 123_45, Multa: 18_52, Juros: 9_88, Final: 151_85}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.c.Owed(d(tt.pay))
			if err != nil {
				t.Fatalf("Owed(%s): %v", tt.pay, err)
			}
			if got != tt.want {
				t.Errorf("Owed(%s) =\n%+v\nwant\n%+v", tt.pay, got, tt.want)
			}
			if got.Final != got.Original+got.Multa+got.Juros-got.Abatimento-got.Desconto {
				t.Errorf("Final %d is not the sum of the components", got.Final)
			}
		})
	}
}

func specCobV() Charge {
	return Charge{
		Original: 123_45, DueDate: d("2020-12-31"), Validity: 30,
		Multa:    &Rule{Modalidade: 2, ValorPerc: 15_00},
		Juros:    &Rule{Modalidade: 2, ValorPerc: 2_00},
		Desconto: &Discount{Modalidade: 1, Fixed: []FixedDiscount{{d("2020-11-30"), 30_00}}},
	}
}

func TestOwedExpired(t *testing.T) {
	tests := []struct {
		c     Charge
		pay   string
		until string
	}{
		{Charge{Original: 100_00, DueDate: d("2021-08-24")}, "2021-08-25", "2021-08-24"},
		{Charge{Original: 100_00, DueDate: d("2026-02-16")}, "2026-02-19", "2026-02-18"},
		// 2020-12-31 + 30 = Saturday 2021-01-30, so the last day is Monday.
		{specCobV(), "2021-02-02", "2021-02-01"},
	}
	for _, tt := range tests {
		if got := tt.c.PayableUntil(); got != d(tt.until) {
			t.Errorf("PayableUntil() = %s, want %s", got, tt.until)
		}
		if _, err := tt.c.Owed(d(tt.until)); err != nil {
			t.Errorf("Owed(%s) on the last day: %v", tt.until, err)
		}
		_, err := tt.c.Owed(d(tt.pay))
		if !errors.Is(err, ErrExpired) {
			t.Errorf("Owed(%s) error = %v, want ErrExpired", tt.pay, err)
		}
	}
}

func TestValidate(t *testing.T) {
	base := func() Charge { return Charge{Original: 100_00, DueDate: d("2021-08-24"), Validity: 30} }
	tests := []struct {
		name  string
		edit  func(*Charge)
		field string
	}{
		{"zero original", func(c *Charge) { c.Original = 0 }, "valor.original"},
		{"no due date", func(c *Charge) { c.DueDate = Date{} }, "calendario.dataDeVencimento"},
		{"impossible due date", func(c *Charge) { c.DueDate = Date{2021, 2, 29} }, "calendario.dataDeVencimento"},
		{"negative validity", func(c *Charge) { c.Validity = -1 }, "calendario.validadeAposVencimento"},
		{"multa modalidade 3", func(c *Charge) { c.Multa = &Rule{3, 1_00} }, "valor.multa.modalidade"},
		{"juros modalidade 9", func(c *Charge) { c.Juros = &Rule{9, 1_00} }, "valor.juros.modalidade"},
		{"juros modalidade 0", func(c *Charge) { c.Juros = &Rule{0, 1_00} }, "valor.juros.modalidade"},
		{"negative multa", func(c *Charge) { c.Multa = &Rule{1, -1} }, "valor.multa.valorPerc"},
		{"abatimento equal to the value", func(c *Charge) { c.Abatimento = &Rule{1, 100_00} }, "valor.abatimento.valorPerc"},
		{"abatimento 100 %", func(c *Charge) { c.Abatimento = &Rule{2, 100_00} }, "valor.abatimento.valorPerc"},
		{"desconto modalidade 7", func(c *Charge) { c.Desconto = &Discount{Modalidade: 7, ValorPerc: 1} }, "valor.desconto.modalidade"},
		{"desconto 1 with valorPerc", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 1, ValorPerc: 1_00, Fixed: []FixedDiscount{{d("2021-08-20"), 1_00}}}
		}, "valor.desconto.valorPerc"},
		{"desconto 1 without dates", func(c *Charge) { c.Desconto = &Discount{Modalidade: 1} }, "valor.desconto.descontoDataFixa"},
		{"desconto 2 with 4 dates", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 2, Fixed: []FixedDiscount{{d("2021-08-01"), 1}, {d("2021-08-02"), 1}, {d("2021-08-03"), 1}, {d("2021-08-04"), 1}}}
		}, "valor.desconto.descontoDataFixa"},
		{"desconto date after the due date", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 1, Fixed: []FixedDiscount{{d("2021-08-25"), 1_00}}}
		}, "descontoDataFixa[0].data"},
		{"desconto date twice", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 1, Fixed: []FixedDiscount{{d("2021-08-20"), 2_00}, {d("2021-08-20"), 1_00}}}
		}, "descontoDataFixa[1].data"},
		{"desconto equal to the value", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 1, Fixed: []FixedDiscount{{d("2021-08-20"), 100_00}}}
		}, "descontoDataFixa[0].valorPerc"},
		{"desconto 100 %", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 2, Fixed: []FixedDiscount{{d("2021-08-20"), 100_00}}}
		}, "descontoDataFixa[0].valorPerc"},
		{"desconto 3 with dates", func(c *Charge) {
			c.Desconto = &Discount{Modalidade: 3, ValorPerc: 1, Fixed: []FixedDiscount{{d("2021-08-20"), 1_00}}}
		}, "valor.desconto.descontoDataFixa"},
		{"desconto 4 without valorPerc", func(c *Charge) { c.Desconto = &Discount{Modalidade: 4} }, "valor.desconto.valorPerc"},
		{"desconto 6 of 100 % a day", func(c *Charge) { c.Desconto = &Discount{Modalidade: 6, ValorPerc: 100_00} }, "valor.desconto.valorPerc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.edit(&c)
			err := c.Validate()
			if !errors.Is(err, ErrInvalidCharge) {
				t.Fatalf("Validate() = %v, want ErrInvalidCharge", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
			if _, err := c.Owed(d("2021-08-24")); !errors.Is(err, ErrInvalidCharge) {
				t.Errorf("Owed error = %v, want ErrInvalidCharge", err)
			}
		})
	}
	if err := base().Validate(); err != nil {
		t.Errorf("Validate() on a valid charge: %v", err)
	}
}

func TestOwedOverflow(t *testing.T) {
	c := Charge{
		Original: 999999999999, DueDate: d("2021-08-24"), Validity: 10000,
		Juros: &Rule{Modalidade: 2, ValorPerc: 999999999999},
	}
	if _, err := c.Owed(d("2040-01-01")); err == nil {
		t.Fatal("Owed succeeded, want an overflow error")
	}
}
