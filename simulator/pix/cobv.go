package pix

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"homologa/simulator/money"
	"homologa/simulator/pix/duedate"
)

// The receiver's address on a cobv: companies register only a CNPJ and a
// name in the sandbox, so every receiver gets this fictitious address.
var sandboxAddress = doc{"logradouro": "Rua da Homologação, 100", "cidade": "São Paulo", "uf": "SP", "cep": "01310100"}

// brasilia is the payer's civil time zone: due dates and payment dates are
// dates in Brazil (UTC−3, without daylight saving since 2019), not in UTC.
var brasilia = time.FixedZone("BRT", -3*60*60)

func today(t time.Time) duedate.Date { return duedate.Of(t.In(brasilia)) }

// atBRT is a time of day in Brasília on a date.
func atBRT(d duedate.Date, hour, min, sec int) time.Time {
	return time.Date(d.Y, d.M, d.D, hour, min, sec, 0, brasilia)
}

// recebedor is CobVGerada.recebedor.
func recebedor(co company) doc {
	d := clone(sandboxAddress)
	d["cnpj"], d["nome"] = co.CNPJ, co.Name
	return d
}

// cents reads a money field of a cobv for duedate, which counts in int64
// cents (and hundredths of a percent).
func cents(s string) (int64, error) {
	c, err := money.Parse(s)
	return int64(c), err
}

// moneyReason is why a money string is refused, as a partner reads it.
const moneyReason = "deve ter dígitos, um ponto e duas casas decimais (como 123.45)"

// dueCharge reads the amount rules of a cobv (request or stored answer).
func dueCharge(d doc) (duedate.Charge, []violation) {
	var vs []violation
	cal, valor := sub(d, "calendario"), sub(d, "valor")
	var ch duedate.Charge
	var err error
	if ch.Original, err = cents(str(valor, "original")); err != nil {
		vs = append(vs, violation{"cobv.valor.original", moneyReason, str(valor, "original")})
	}
	if ch.DueDate, err = duedate.Parse(str(cal, "dataDeVencimento")); err != nil {
		vs = append(vs, violation{"cobv.calendario.dataDeVencimento", "deve ser uma data AAAA-MM-DD", str(cal, "dataDeVencimento")})
	}
	ch.Validity = 30
	if v, ok := cal["validadeAposVencimento"].(float64); ok {
		ch.Validity = int(v)
	}
	rule := func(name string) *duedate.Rule {
		r := sub(valor, name)
		if r == nil {
			return nil
		}
		m, _ := r["modalidade"].(float64)
		vp, err := cents(str(r, "valorPerc"))
		if err != nil {
			vs = append(vs, violation{"cobv.valor." + name + ".valorPerc", moneyReason, str(r, "valorPerc")})
		}
		return &duedate.Rule{Modalidade: int(m), ValorPerc: vp}
	}
	ch.Multa, ch.Juros, ch.Abatimento = rule("multa"), rule("juros"), rule("abatimento")
	var dvs []violation
	ch.Desconto, dvs = desconto(sub(valor, "desconto"))
	return ch, append(vs, dvs...)
}

// desconto reads valor.desconto of a cobv.
func desconto(dsc doc) (*duedate.Discount, []violation) {
	if dsc == nil {
		return nil, nil
	}
	var vs []violation
	m, _ := dsc["modalidade"].(float64)
	out := &duedate.Discount{Modalidade: int(m)}
	if vp := str(dsc, "valorPerc"); vp != "" {
		out.ValorPerc, _ = cents(vp)
	}
	list, _ := dsc["descontoDataFixa"].([]any)
	for i, item := range list {
		it, _ := item.(map[string]any)
		date, err := duedate.Parse(str(it, "data"))
		if err != nil {
			vs = append(vs, violation{fmt.Sprintf("cobv.valor.desconto.descontoDataFixa.%d.data", i), "deve ser uma data AAAA-MM-DD", str(it, "data")})
		}
		v, _ := cents(str(it, "valorPerc"))
		out.Fixed = append(out.Fixed, duedate.FixedDiscount{Date: date, ValorPerc: v})
	}
	return out, vs
}

var indexRE = regexp.MustCompile(`\[(\d+)\]`)

// validateCobV are the CobVOperacaoInvalida rules beyond the schema
// (SUMMARY §6): the due date not before the creation date, validity not
// negative, abatimento and desconto below the original value and 100 %,
// discount dates not after the due date, the modalidade combinations.
func validateCobV(d doc, created time.Time) []violation {
	ch, vs := dueCharge(d)
	if len(vs) > 0 {
		return vs
	}
	if ch.DueDate.Before(today(created)) {
		vs = append(vs, violation{"cobv.calendario.dataDeVencimento", "é anterior à data de criação da cobrança (" + today(created).String() + ")", ch.DueDate.String()})
	}
	var re *duedate.RuleError
	if err := ch.Validate(); errors.As(err, &re) {
		// Lists are indexed the way violacoes name them: a.0.b, not a[0].b.
		vs = append(vs, violation{"cobv." + indexRE.ReplaceAllString(re.Field, ".$1"), re.Reason, ""})
	}
	return vs
}

// owedCobV is what a due-date charge asks on a payment at now.
func owedCobV(c *charge, now time.Time) (money.Cents, doc, error) {
	ch, vs := dueCharge(c.Body)
	if len(vs) > 0 {
		return 0, nil, errors.New(vs[0].reason)
	}
	o, err := ch.Owed(today(now))
	if errors.Is(err, duedate.ErrExpired) {
		return 0, nil, fmt.Errorf("podia ser paga até %s (vencimento %s, validadeAposVencimento %d)", ch.PayableUntil(), ch.DueDate, ch.Validity)
	}
	if err != nil {
		return 0, nil, err
	}
	return money.Cents(o.Final), components(o, func(v int64) any { return doc{"valor": money.Cents(v).String()} }), nil
}

// components are the parts of what a cobv asks, each written by part:
// original always, the others when they count.
func components(o duedate.Owed, part func(int64) any) doc {
	d := doc{"original": part(o.Original)}
	for name, v := range map[string]int64{"multa": o.Multa, "juros": o.Juros, "abatimento": o.Abatimento, "desconto": o.Desconto} {
		if v != 0 {
			d[name] = part(v)
		}
	}
	return d
}
