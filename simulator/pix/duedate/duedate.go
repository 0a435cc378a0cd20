package duedate

import (
	"errors"
	"fmt"
	"homologa/simulator/money"
	"math/big"
	"slices"
	"time"
)

// Date is a civil date in the proleptic Gregorian calendar, the value of a
// spec "format: date" field. The zero Date means "unset". Methods accept
// out-of-range fields (such as D = 32) and normalise them as time.Date does,
// but Parse only ever returns valid dates.
type Date struct {
	Y int
	M time.Month
	D int
}

// Parse reads a YYYY-MM-DD date, rejecting impossible days such as
// 2021-02-29.
func Parse(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("duedate: date %q: want YYYY-MM-DD: %w", s, err)
	}
	return Of(t), nil
}

// MustParse is Parse for constants and test tables; it panics on error.
func MustParse(s string) Date {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Of returns the calendar date of t in t's own location, so the caller
// chooses whose calendar day a payment instant belongs to.
func Of(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Y: y, M: m, D: d}
}

// Time returns d at midnight UTC.
func (d Date) Time() time.Time { return time.Date(d.Y, d.M, d.D, 0, 0, 0, 0, time.UTC) }

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return d.Time().Format(time.DateOnly) }

// IsZero reports whether d is the unset zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// AddDays returns d moved by n calendar days (n may be negative).
func (d Date) AddDays(n int) Date { return Of(d.Time().AddDate(0, 0, n)) }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return d.Time().Weekday() }

// Before reports whether d is strictly earlier than o.
func (d Date) Before(o Date) bool { return d.Time().Before(o.Time()) }

// After reports whether d is strictly later than o.
func (d Date) After(o Date) bool { return d.Time().After(o.Time()) }

// Equal reports whether d and o are the same day after normalisation.
func (d Date) Equal(o Date) bool { return d.Time().Equal(o.Time()) }

// DaysUntil returns the number of calendar days from d to o, negative when
// o is earlier. It uses Unix seconds rather than Time.Sub, which saturates
// after about 292 years.
func (d Date) DaysUntil(o Date) int {
	return int((o.Time().Unix() - d.Time().Unix()) / 86400)
}

// MarshalText formats d as YYYY-MM-DD, so a Date can sit in a JSON struct.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses YYYY-MM-DD.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

func (d Date) norm() Date  { return Of(d.Time()) }
func (d Date) valid() bool { return !d.IsZero() && d.norm() == d }

// Rule is a multa, juros or abatimento: the spec's {modalidade, valorPerc}.
type Rule struct {
	// Modalidade is the spec's domain value: multa and abatimento 1 (value)
	// or 2 (percent); juros 1–8.
	Modalidade int
	// ValorPerc is cents when the modalidade is a value, hundredths of a
	// percent when it is a percentage.
	ValorPerc int64
}

// FixedDiscount is one descontoDataFixa entry: ValorPerc applies to a
// payment on or before Date.
type FixedDiscount struct {
	Date      Date
	ValorPerc int64
}

// Discount is valor.desconto. Modalidades 1 (value) and 2 (percent) use
// Fixed and leave ValorPerc zero; 3–6 (per day of anticipation: 3 value per
// calendar day, 4 value per business day, 5 percent per calendar day, 6
// percent per business day) use ValorPerc and leave Fixed empty.
type Discount struct {
	Modalidade int
	ValorPerc  int64
	Fixed      []FixedDiscount
}

// Charge is the part of a cobv that determines the amount due.
type Charge struct {
	// Original is valor.original in cents.
	Original int64
	// DueDate is calendario.dataDeVencimento, before any adjustment.
	DueDate Date
	// Validity is calendario.validadeAposVencimento. The zero value means 0
	// days; applying the spec default of 30 is the caller's job, because only
	// the caller knows whether the field was absent.
	Validity int
	// Multa, Juros, Abatimento and Desconto are nil when the cobv omits them.
	Multa      *Rule
	Juros      *Rule
	Abatimento *Rule
	Desconto   *Discount
}

// Owed is the breakdown of the value due on one payment date, in cents; it
// maps one to one onto the Pix componentesValor, and
// Final = Original + Multa + Juros − Abatimento − Desconto.
type Owed struct {
	Original   int64
	Multa      int64
	Juros      int64
	Abatimento int64
	Desconto   int64
	Final      int64
}

// ErrExpired is wrapped by Owed when the payment date is after PayableUntil.
var ErrExpired = errors.New("charge is no longer payable")

// ErrInvalidCharge is wrapped by Validate (and so by Owed) when the charge
// breaks one of the CobVOperacaoInvalida rules of the spec.
var ErrInvalidCharge = errors.New("invalid charge")

// RuleError is the rule Validate found broken: the field in API terms
// (lists indexed as "a[0].b") and the reason, in Portuguese because the
// sandbox shows it to partners as a violation of CobVOperacaoInvalida.
type RuleError struct {
	Field, Reason string
}

func (e *RuleError) Error() string {
	return "duedate: " + e.Field + ": " + e.Reason + ": " + ErrInvalidCharge.Error()
}

// Unwrap makes a RuleError an ErrInvalidCharge.
func (e *RuleError) Unwrap() error { return ErrInvalidCharge }

// AdjustedDueDate is the due date moved past weekends and holidays; multa,
// juros and desconto are counted from it.
func (c Charge) AdjustedDueDate() Date { return NextBusinessDay(c.DueDate) }

// PayableUntil is the last day on which the charge can be paid: Validity
// calendar days after the adjusted due date, moved to the next business day
// when that day is not one. This is the only reading consistent with all of
// the spec's examples A–G (example F rules out counting business days).
func (c Charge) PayableUntil() Date {
	return NextBusinessDay(c.AdjustedDueDate().AddDays(c.Validity))
}

// Validate checks the charge against the semantic rules the spec lists
// under CobVOperacaoInvalida. Errors name the field in API terms.
func (c Charge) Validate() error {
	invalid := func(field, format string, args ...any) error {
		return &RuleError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if c.Original <= 0 {
		return invalid("valor.original", "deve ser maior que zero, é %s", money.Cents(c.Original))
	}
	if !c.DueDate.valid() {
		return invalid("calendario.dataDeVencimento", "não é uma data válida: %+v", c.DueDate)
	}
	if c.Validity < 0 {
		return invalid("calendario.validadeAposVencimento", "não pode ser negativa: %d", c.Validity)
	}
	rules := []struct {
		field string
		r     *Rule
		max   int
	}{{"valor.multa", c.Multa, 2}, {"valor.juros", c.Juros, 8}, {"valor.abatimento", c.Abatimento, 2}}
	for _, x := range rules {
		if x.r == nil {
			continue
		}
		if x.r.Modalidade < 1 || x.r.Modalidade > x.max {
			return invalid(x.field+".modalidade", "%d não está entre 1 e %d", x.r.Modalidade, x.max)
		}
		if x.r.ValorPerc < 0 {
			return invalid(x.field+".valorPerc", "não pode ser negativo")
		}
	}
	if a := c.Abatimento; a != nil {
		if a.Modalidade == 1 && a.ValorPerc >= c.Original || a.Modalidade == 2 && a.ValorPerc >= 100_00 {
			return invalid("valor.abatimento.valorPerc", "%s não é menor que o valor original ou que 100%%", money.Cents(a.ValorPerc))
		}
	}
	if d := c.Desconto; d != nil {
		return c.validateDiscount(d, invalid)
	}
	return nil
}

func (c Charge) validateDiscount(d *Discount, invalid func(string, string, ...any) error) error {
	// tooBig mirrors "algum elemento de desconto que representa um valor
	// maior ou igual ao valor da cobrança original ou maior ou igual a 100%".
	tooBig := func(v int64, percent bool) bool {
		if percent {
			return v >= 100_00
		}
		return v >= c.Original
	}
	switch d.Modalidade {
	case 1, 2:
		if d.ValorPerc != 0 {
			return invalid("valor.desconto.valorPerc", "deve estar ausente na modalidade %d", d.Modalidade)
		}
		if len(d.Fixed) == 0 || len(d.Fixed) > 3 {
			return invalid("valor.desconto.descontoDataFixa", "deve ter de 1 a 3 itens na modalidade %d, tem %d", d.Modalidade, len(d.Fixed))
		}
		seen := make(map[Date]bool)
		for i, f := range d.Fixed {
			field := fmt.Sprintf("valor.desconto.descontoDataFixa[%d]", i)
			if !f.Date.valid() {
				return invalid(field+".data", "não é uma data válida: %+v", f.Date)
			}
			if f.Date.After(c.DueDate) {
				return invalid(field+".data", "%s é posterior a dataDeVencimento %s", f.Date, c.DueDate)
			}
			if seen[f.Date] {
				return invalid(field+".data", "%s aparece duas vezes", f.Date)
			}
			seen[f.Date] = true
			if f.ValorPerc <= 0 || tooBig(f.ValorPerc, d.Modalidade == 2) {
				return invalid(field+".valorPerc", "%s deve ser positivo e menor que o valor original ou que 100%%", money.Cents(f.ValorPerc))
			}
		}
	case 3, 4, 5, 6:
		if len(d.Fixed) != 0 {
			return invalid("valor.desconto.descontoDataFixa", "deve estar ausente na modalidade %d", d.Modalidade)
		}
		// A zero valorPerc is indistinguishable from an absent one here, and
		// a zero discount per day is meaningless, so both are refused.
		if d.ValorPerc <= 0 || tooBig(d.ValorPerc, d.Modalidade >= 5) {
			return invalid("valor.desconto.valorPerc", "%s deve ser positivo e menor que o valor original ou que 100%% na modalidade %d", money.Cents(d.ValorPerc), d.Modalidade)
		}
	default:
		return invalid("valor.desconto.modalidade", "%d não está entre 1 e 6", d.Modalidade)
	}
	return nil
}

// Owed computes the breakdown due for a payment on pay (a day of the
// payer's calendar). It fails with ErrExpired after PayableUntil and with
// ErrInvalidCharge when Validate fails.
func (c Charge) Owed(pay Date) (Owed, error) {
	if err := c.Validate(); err != nil {
		return Owed{}, err
	}
	if !pay.valid() {
		return Owed{}, fmt.Errorf("duedate: payment date %+v: not a valid date: %w", pay, ErrInvalidCharge)
	}
	if last := c.PayableUntil(); pay.After(last) {
		return Owed{}, fmt.Errorf("duedate: payment on %s is after the last payable day %s: %w", pay, last, ErrExpired)
	}
	adjusted := c.AdjustedDueDate()
	o := Owed{Original: c.Original}
	var err error
	if c.Abatimento != nil {
		if o.Abatimento, err = percentOrValue(*c.Abatimento, c.Original); err != nil {
			return Owed{}, fmt.Errorf("duedate: abatimento: %w", err)
		}
		o.Abatimento = min(o.Abatimento, c.Original)
	}
	base := c.Original - o.Abatimento
	if pay.After(adjusted) {
		if c.Multa != nil {
			if o.Multa, err = percentOrValue(*c.Multa, base); err != nil {
				return Owed{}, fmt.Errorf("duedate: multa: %w", err)
			}
		}
		if c.Juros != nil {
			if o.Juros, err = juros(*c.Juros, base, adjusted, pay); err != nil {
				return Owed{}, fmt.Errorf("duedate: juros: %w", err)
			}
		}
	} else if c.Desconto != nil {
		if o.Desconto, err = c.desconto(base, adjusted, pay); err != nil {
			return Owed{}, fmt.Errorf("duedate: desconto: %w", err)
		}
		o.Desconto = min(o.Desconto, base)
	}
	final := big.NewInt(base)
	final.Sub(final, big.NewInt(o.Desconto)).Add(final, big.NewInt(o.Multa)).Add(final, big.NewInt(o.Juros))
	if !final.IsInt64() {
		return Owed{}, fmt.Errorf("duedate: final value %s overflows int64", final)
	}
	o.Final = final.Int64()
	return o, nil
}

// percentOrValue serves the rules whose modalidade is 1 = value, 2 = percent.
func percentOrValue(r Rule, base int64) (int64, error) {
	if r.Modalidade == 1 {
		return r.ValorPerc, nil
	}
	return ratio(100_00, base, r.ValorPerc)
}

// jurosDivisor is n in Vj = (Vo − Va) × (Ij/100)/n × Dα; see the package
// comment for where each value comes from.
var jurosDivisor = map[int]int64{2: 1, 3: 30, 4: 360, 6: 1, 7: 21, 8: 252}

func juros(r Rule, base int64, adjusted, pay Date) (int64, error) {
	var days int
	if r.Modalidade <= 4 {
		days = adjusted.DaysUntil(pay)
	} else {
		days = BusinessDaysBetween(adjusted, pay)
	}
	if r.Modalidade == 1 || r.Modalidade == 5 {
		return ratio(1, r.ValorPerc, int64(days))
	}
	return ratio(100_00*jurosDivisor[r.Modalidade], base, r.ValorPerc, int64(days))
}

func (c Charge) desconto(base int64, adjusted, pay Date) (int64, error) {
	d := c.Desconto
	switch d.Modalidade {
	case 1, 2:
		fixed := slices.Clone(d.Fixed)
		slices.SortFunc(fixed, func(a, b FixedDiscount) int { return a.Date.Time().Compare(b.Date.Time()) })
		for _, f := range fixed {
			limit := f.Date
			if limit.Equal(c.DueDate) {
				limit = adjusted
			}
			if pay.After(limit) {
				continue
			}
			if d.Modalidade == 1 {
				return f.ValorPerc, nil
			}
			return ratio(100_00, base, f.ValorPerc)
		}
		return 0, nil
	case 3, 5:
		return perDay(d, base, max(pay.DaysUntil(adjusted), 0))
	default: // 4, 6
		return perDay(d, base, BusinessDaysBetween(pay, adjusted))
	}
}

func perDay(d *Discount, base int64, days int) (int64, error) {
	if d.Modalidade <= 4 {
		return ratio(1, d.ValorPerc, int64(days))
	}
	return ratio(100_00, base, d.ValorPerc, int64(days))
}

// ratio returns the product of factors divided by den, rounded half up. The
// factors are non-negative; big.Int keeps amount × rate × days exact where
// int64 would overflow (10 integer digits of money times 10 of rate).
func ratio(den int64, factors ...int64) (int64, error) {
	num := big.NewInt(1)
	for _, f := range factors {
		num.Mul(num, big.NewInt(f))
	}
	d := big.NewInt(den)
	num.Add(num.Lsh(num, 1), d) // (2·num + den) / (2·den) rounds half up
	q := num.Quo(num, d.Lsh(d, 1))
	if !q.IsInt64() {
		return 0, fmt.Errorf("result %s overflows int64", q)
	}
	return q.Int64(), nil
}
