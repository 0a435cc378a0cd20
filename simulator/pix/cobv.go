package pix

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/pix/brcode"
	"homologa/simulator/pix/duedate"
	"homologa/simulator/store"
)

// The receiver's address on a cobv: companies register only a CNPJ and a
// name in the sandbox, so every receiver gets this fictitious address.
var sandboxAddress = doc{"logradouro": "Rua da Homologação, 100", "cidade": "São Paulo", "uf": "SP", "cep": "01310100"}

// recebedor is CobVGerada.recebedor.
func (s *Service) recebedor(ctx context.Context, tx *store.Tx, companyID string) (doc, error) {
	co, err := s.company(ctx, tx, companyID)
	if err != nil {
		return nil, err
	}
	d := clone(sandboxAddress)
	d["cnpj"], d["nome"] = co.CNPJ, co.Name
	return d, nil
}

// brCode renders the charge's pixCopiaECola. An immediate charge carries its
// amount unless the payer may change it; a due-date charge's amount depends
// on the payment date, so the payer's app reads it from the location.
func (s *Service) brCode(ctx context.Context, tx *store.Tx, c *charge, body doc, location string) (string, error) {
	co, err := s.company(ctx, tx, c.CompanyID)
	if err != nil {
		return "", err
	}
	p := brcode.Payload{URL: location, MerchantName: co.Name, MerchantCity: str(sandboxAddress, "cidade"), PostalCode: str(sandboxAddress, "cep")}
	valor := sub(body, "valor")
	if c.Kind == "cob" && valor["modalidadeAlteracao"] != float64(1) && sub(valor, "retirada") == nil {
		p.Amount = str(valor, "original")
	}
	return brcode.Encode(p)
}

// putCobv is PUT /cobv/{txid} (and the seed's POST /cobv/{txid}); there is
// no POST /cobv: the client always chooses the txid.
func (s *Service) putCobv(r *http.Request) (*httpx.Reply, error) {
	return s.putCharge(r, cobvKind, mux.Vars(r)["txid"])
}

// patchCobv is PATCH /cobv/{txid}.
func (s *Service) patchCobv(r *http.Request) (*httpx.Reply, error) {
	return s.patchCharge(r, cobvKind)
}

// getCobv is GET /cobv/{txid}[?revisao=n].
func (s *Service) getCobv(r *http.Request) (*httpx.Reply, error) {
	return s.getCharge(r, cobvKind)
}

// listCobv is GET /cobv.
func (s *Service) listCobv(r *http.Request) (*httpx.Reply, error) {
	return s.listCharges(r, cobvKind)
}

var indexRE = regexp.MustCompile(`\[(\d+)\]`)

// brasilia is the payer's civil time zone: due dates and payment dates are
// dates in Brazil (UTC−3, without daylight saving since 2019), not in UTC.
var brasilia = time.FixedZone("BRT", -3*60*60)

func today(t time.Time) duedate.Date { return duedate.Of(t.In(brasilia)) }

// dueCharge reads the amount rules of a cobv (request or stored answer).
func dueCharge(d doc) (duedate.Charge, []violation) {
	var vs []violation
	cal, valor := sub(d, "calendario"), sub(d, "valor")
	var ch duedate.Charge
	var err error
	if ch.Original, err = parseCents(str(valor, "original")); err != nil {
		vs = append(vs, violation{"cobv.valor.original", err.Error(), str(valor, "original")})
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
		vp, err := parseCents(str(r, "valorPerc"))
		if err != nil {
			vs = append(vs, violation{"cobv.valor." + name + ".valorPerc", err.Error(), str(r, "valorPerc")})
		}
		return &duedate.Rule{Modalidade: int(m), ValorPerc: vp}
	}
	ch.Multa, ch.Juros, ch.Abatimento = rule("multa"), rule("juros"), rule("abatimento")
	if dsc := sub(valor, "desconto"); dsc != nil {
		m, _ := dsc["modalidade"].(float64)
		ch.Desconto = &duedate.Discount{Modalidade: int(m)}
		if vp := str(dsc, "valorPerc"); vp != "" {
			ch.Desconto.ValorPerc, _ = parseCents(vp)
		}
		list, _ := dsc["descontoDataFixa"].([]any)
		for i, item := range list {
			it, _ := item.(map[string]any)
			date, err := duedate.Parse(str(it, "data"))
			if err != nil {
				vs = append(vs, violation{fmt.Sprintf("cobv.valor.desconto.descontoDataFixa.%d.data", i), "deve ser uma data AAAA-MM-DD", str(it, "data")})
			}
			v, _ := parseCents(str(it, "valorPerc"))
			ch.Desconto.Fixed = append(ch.Desconto.Fixed, duedate.FixedDiscount{Date: date, ValorPerc: v})
		}
	}
	return ch, vs
}

// cobvRules are the CobVOperacaoInvalida rules beyond the schema (SUMMARY
// §6): the due date not before the creation date, validity not negative,
// abatimento and desconto below the original value and 100 %, discount
// dates not after the due date, the modalidade combinations.
func (s *Service) cobvRules(d doc, created time.Time) []violation {
	ch, vs := dueCharge(d)
	if len(vs) > 0 {
		return vs
	}
	if ch.DueDate.Before(today(created)) {
		vs = append(vs, violation{"cobv.calendario.dataDeVencimento", "é anterior à data de criação da cobrança (" + today(created).String() + ")", ch.DueDate.String()})
	}
	if err := ch.Validate(); err != nil {
		// Validate names the field: "duedate: <field>: <reason>: invalid charge".
		msg := strings.TrimPrefix(err.Error(), "duedate: ")
		field, reason, _ := strings.Cut(msg, ": ")
		reason = strings.TrimSuffix(reason, ": "+duedate.ErrInvalidCharge.Error())
		// Lists are indexed the way violacoes name them: a.0.b, not a[0].b.
		field = indexRE.ReplaceAllString(field, ".$1")
		vs = append(vs, violation{"cobv." + field, reason, ""})
	}
	return vs
}

// owed is what a charge asks on a payment at now, with the Pix's
// componentesValor; an error says why it cannot be paid.
func (s *Service) owed(c *charge, now time.Time) (int64, doc, error) {
	if c.Kind == "cob" {
		return owedCob(c, now)
	}
	ch, vs := dueCharge(c.Body)
	if len(vs) > 0 {
		return 0, nil, fmt.Errorf("%s", vs[0].reason)
	}
	o, err := ch.Owed(today(now))
	if errors.Is(err, duedate.ErrExpired) {
		return 0, nil, fmt.Errorf("it was payable until %s (due %s, validadeAposVencimento %d)", ch.PayableUntil(), ch.DueDate, ch.Validity)
	}
	if err != nil {
		return 0, nil, err
	}
	return o.Final, components(o), nil
}

// components is Pix.componentesValor of a cobv payment: original always,
// the others when they count.
func components(o duedate.Owed) doc {
	d := doc{"original": doc{"valor": formatCents(o.Original)}}
	for name, v := range map[string]int64{"multa": o.Multa, "juros": o.Juros, "abatimento": o.Abatimento, "desconto": o.Desconto} {
		if v != 0 {
			d[name] = doc{"valor": formatCents(v)}
		}
	}
	return d
}

// cobvPayload is GET /qr/v2/cobv/{token}?codMun=&DPP=: the JWS of
// CobVPayload, with the amounts computed for the payment date DPP (today
// when absent) in the payer's municipality.
func (s *Service) cobvPayload(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	var payload doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		if m := q.Get("codMun"); m != "" && !codMunRE.MatchString(m) {
			return invalid("CobPayloadOperacaoInvalida", violation{"codMun", "deve ser o código IBGE do município, 7 dígitos", m})
		}
		now := s.Clock.Now()
		dpp := today(now)
		if v := q.Get("DPP"); v != "" {
			d, err := duedate.Parse(v)
			if err != nil {
				return invalid("CobPayloadOperacaoInvalida", violation{"DPP", "deve ser uma data AAAA-MM-DD", v})
			}
			if d.Before(today(now)) {
				return invalid("CobPayloadOperacaoInvalida", violation{"DPP", "é anterior à data corrente (" + today(now).String() + ")", v})
			}
			dpp = d
		}
		c, err := s.chargeAt(ctx, tx, mux.Vars(r)["token"], "cobv")
		if err != nil {
			return err
		}
		ch, vs := dueCharge(c.Body)
		if len(vs) > 0 {
			return invalid("CobPayloadOperacaoInvalida", vs...)
		}
		o, err := ch.Owed(dpp)
		if errors.Is(err, duedate.ErrExpired) {
			return invalid("CobPayloadOperacaoInvalida", violation{"DPP", "a cobrança só pode ser paga até " + ch.PayableUntil().String(), dpp.String()})
		}
		if err != nil {
			return err
		}
		payload = payloadFields(c)
		cal := sub(c.Body, "calendario")
		payload["calendario"] = doc{"criacao": cal["criacao"], "apresentacao": rfc3339(now), "dataDeVencimento": cal["dataDeVencimento"],
			"validadeAposVencimento": cal["validadeAposVencimento"]}
		payload["recebedor"] = c.Body["recebedor"]
		valor := doc{"original": formatCents(o.Original), "final": formatCents(o.Final)}
		for name, v := range map[string]int64{"multa": o.Multa, "juros": o.Juros, "abatimento": o.Abatimento, "desconto": o.Desconto} {
			if v != 0 {
				valor[name] = formatCents(v)
			}
		}
		payload["valor"] = valor
		return nil
	})
	s.writeJWS(w, r, payload, err)
}
