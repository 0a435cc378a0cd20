package duedate

import (
	"sort"
	"time"
)

// Holiday is one national bank holiday.
type Holiday struct {
	Date Date
	Name string
}

// novemberTwentiethFrom is the first year in which 20 November (Dia
// Nacional de Zumbi e da Consciência Negra) is a national holiday: law
// 14.759 of 21 December 2023. Before that it was only a state or municipal
// holiday, which this calendar does not model.
const novemberTwentiethFrom = 2024

// fixedHolidays are the national holidays with a fixed day. Carnival and
// Corpus Christi are formally "ponto facultativo", but the financial system
// does not settle on them, so for due dates they count like holidays.
var fixedHolidays = []struct {
	m    int
	d    int
	name string
}{
	{1, 1, "Confraternização Universal"},
	{4, 21, "Tiradentes"},
	{5, 1, "Dia do Trabalho"},
	{9, 7, "Independência do Brasil"},
	{10, 12, "Nossa Senhora Aparecida"},
	{11, 2, "Finados"},
	{11, 15, "Proclamação da República"},
	{11, 20, "Dia Nacional de Zumbi e da Consciência Negra"},
	{12, 25, "Natal"},
}

// movableHolidays are offsets in days from Easter Sunday.
var movableHolidays = []struct {
	offset int
	name   string
}{
	{-48, "Carnaval (segunda-feira)"},
	{-47, "Carnaval (terça-feira)"},
	{-2, "Sexta-feira Santa"},
	{60, "Corpus Christi"},
}

// Easter returns Easter Sunday of a Gregorian year, by the anonymous
// Gregorian algorithm (Meeus/Jones/Butcher).
func Easter(year int) Date {
	a := year % 19
	b, c := year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	n := h + l - 7*m + 114
	return Date{Y: year, M: time.Month(n / 31), D: n%31 + 1}
}

// Holidays returns the national bank holidays of year, in date order. Only
// national holidays are modelled: the spec speaks of holidays "for the
// payer", which depend on the payer's municipality (codMun), and a sandbox
// cannot know every municipal calendar.
func Holidays(year int) []Holiday {
	var out []Holiday
	for _, h := range fixedHolidays {
		if h.m == 11 && h.d == 20 && year < novemberTwentiethFrom {
			continue
		}
		out = append(out, Holiday{Date{Y: year, M: time.Month(h.m), D: h.d}, h.name})
	}
	easter := Easter(year)
	for _, h := range movableHolidays {
		out = append(out, Holiday{easter.AddDays(h.offset), h.name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date.Before(out[j].Date) })
	return out
}

// IsHoliday reports whether d is a national bank holiday. It does not
// allocate, because business-day counts call it once per day.
func IsHoliday(d Date) bool {
	d = d.norm()
	for _, h := range fixedHolidays {
		if int(d.M) == h.m && d.D == h.d {
			return !(h.m == 11 && h.d == 20 && d.Y < novemberTwentiethFrom)
		}
	}
	off := Easter(d.Y).DaysUntil(d)
	for _, h := range movableHolidays {
		if off == h.offset {
			return true
		}
	}
	return false
}

// IsBusinessDay reports whether d is neither a weekend day nor a holiday.
func IsBusinessDay(d Date) bool {
	switch d.Weekday() {
	case time.Saturday, time.Sunday:
		return false
	}
	return !IsHoliday(d)
}

// NextBusinessDay returns d itself when it is a business day, otherwise the
// first business day after it: the rule the spec applies to a due date that
// falls on a weekend or holiday.
func NextBusinessDay(d Date) Date {
	d = d.norm()
	for !IsBusinessDay(d) {
		d = d.AddDays(1)
	}
	return d
}

// BusinessDaysBetween counts the business days in the half-open interval
// (from, to], or 0 when to is not after from. Excluding from and including
// to makes "paid the business day after the due date" one day late, and
// "paid on the Saturday before a Monday due date" one business day early.
func BusinessDaysBetween(from, to Date) int {
	n := 0
	for d := from.AddDays(1); !d.After(to); d = d.AddDays(1) {
		if IsBusinessDay(d) {
			n++
		}
	}
	return n
}
