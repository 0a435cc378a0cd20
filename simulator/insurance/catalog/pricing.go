package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/money"
)

// Pricing constants; the package comment explains them. ageRate is the
// exponent's, the one figure of the tariff computed in a float (tariff).
const ageRate = 0.085

var (
	femaleFactor    = money.MustParseRate("0.85")
	smokerFactor    = money.MustParseRate("1.5")
	annualDiscount  = money.MustParseRate("0.95")
	capitalBase1000 = money.Reais(1000)
)

// Sex ids (sexoId).
const (
	SexoMasculino = 1
	SexoFeminino  = 2
)

// professionFactors loads the premium by CBO major group (first digit).
var professionFactors = map[byte]money.Rate{
	'0': money.MustParseRate("1.5"), '6': money.MustParseRate("1.15"), '7': money.MustParseRate("1.3"),
	'8': money.MustParseRate("1.3"), '9': money.MustParseRate("1.15"),
}

// ufFactors loads the premium in a few states; the rest are 1.
var ufFactors = map[string]money.Rate{"AM": money.MustParseRate("1.05"), "PA": money.MustParseRate("1.05"), "RJ": money.MustParseRate("1.05")}

// periodicity is how a periodicidadeCobrancaId turns a monthly premium
// into the premium charged.
type periodicity struct {
	months   int64
	discount money.Rate
}

var periodicityTable = map[int]periodicity{30: {1, money.RateOne}, 90: {3, money.RateOne}, 180: {6, money.RateOne}, 360: {12, annualDiscount}}

// Profile is who is being priced and when.
type Profile struct {
	BirthDate    time.Time
	At           time.Time   // the selling company's now; the age is taken at this instant
	SexoID       int         // 1 male, 2 female
	Renda        money.Cents // monthly income
	ProfissaoCBO string      // "2410-05" or "241005"
	UF           string
	Fumante      bool
}

// Limit codes.
const (
	LimitPeriodicidadeInvalida = "PERIODICIDADE_INVALIDA"
	LimitCapitalInvalido       = "CAPITAL_INVALIDO"
	LimitSexoInvalido          = "SEXO_INVALIDO"
	LimitProfissaoInvalida     = "PROFISSAO_INVALIDA"
	LimitUFInvalida            = "UF_INVALIDA"
	LimitRendaInvalida         = "RENDA_INVALIDA"
	LimitIdadeProduto          = "IDADE_FORA_DO_LIMITE_DO_PRODUTO"
	LimitIdadeCobertura        = "IDADE_FORA_DO_LIMITE_DA_COBERTURA"
	LimitProfissaoRecusada     = "PROFISSAO_RECUSADA"
	LimitUFRecusada            = "UF_RECUSADA"
	LimitCapitalMinimo         = "CAPITAL_ABAIXO_DO_MINIMO"
	LimitCapitalMaximo         = "CAPITAL_ACIMA_DO_LIMITE"
	LimitCapitalRenda          = "CAPITAL_ACIMA_DO_LIMITE_POR_RENDA"
	LimitCapitalFaixaEtaria    = "CAPITAL_ACIMA_DO_LIMITE_POR_FAIXA_ETARIA"
	LimitCapitalProfissao      = "CAPITAL_ACIMA_DO_LIMITE_POR_PROFISSAO"
	LimitTicketMinimo          = "PREMIO_ABAIXO_DO_TICKET_MINIMO"
)

// Limit is why something was not priced (or, for the ticket, not
// sellable). Field is the simulation request's field to change; the bound
// that was crossed, when there is one, is Idade (an age limit's, in
// years) or Valor (a capital's or the ticket's), and the answer's "valor"
// is whichever it is.
type Limit struct {
	Code          string      `json:"codigo"`
	Field         string      `json:"campo"`
	Message       string      `json:"descricao"`
	ProdutoID     int         `json:"idProduto,omitempty"`
	ItemProdutoID int         `json:"itemProdutoId,omitempty"`
	Valor         money.Cents `json:"valor,omitempty"`
	Idade         int         `json:"-"`
}

// MarshalJSON writes an age limit's bound as its "valor".
func (l Limit) MarshalJSON() ([]byte, error) {
	type plain Limit
	if l.Idade == 0 {
		return json.Marshal(plain(l))
	}
	return json.Marshal(struct {
		plain
		Idade int `json:"valor"`
	}{plain(l), l.Idade})
}

// Simulation request fields that limits point at.
const (
	fieldPeriodicidade  = "periodicidadeCobrancaId"
	fieldCapital        = "capitalSegurado"
	fieldDataNascimento = "proponente.dataNascimento"
	fieldSexo           = "proponente.sexoId"
	fieldProfissao      = "proponente.profissaoCbo"
	fieldUF             = "proponente.uf"
	fieldRenda          = "proponente.renda"
)

// Quote is the priced simulation of one offer.
type Quote struct {
	CodigoModeloProposta    string         `json:"codigoModeloProposta"`
	PeriodicidadeCobrancaID int            `json:"periodicidadeCobrancaId"`
	Idade                   int            `json:"idade"`
	CapitalSegurado         money.Cents    `json:"capitalSegurado"`
	TicketMinimo            money.Cents    `json:"ticketMinimo"`
	Produtos                []ProdutoQuote `json:"produtos"`
	PremioMensal            money.Cents    `json:"premioMensalTotal"`
	Premio                  money.Cents    `json:"premioTotal"` // for the periodicity
}

// ProdutoQuote is one priced product.
type ProdutoQuote struct {
	IDProduto          int              `json:"idProduto"`
	Descricao          string           `json:"descricao"`
	DescricaoComercial string           `json:"descricaoComercial"`
	Coberturas         []CoberturaQuote `json:"coberturas"`
	PremioMensal       money.Cents      `json:"premioMensal"`
	Premio             money.Cents      `json:"premio"`
}

// CoberturaQuote is one priced coverage; the names follow MAG's simulation
// response where it has them, and what the 2025 client reads on it
// (numeroProcessoSusep, obrigatoria, questionariosPorFaixa,
// descricaoDigitalCurta and descricaoDigitalLonga).
type CoberturaQuote struct {
	ID                            int         `json:"id"`
	ItemProdutoID                 int         `json:"itemProdutoId"`
	Descricao                     string      `json:"descricao"`
	DescricaoDigitalCurta         string      `json:"descricaoDigitalCurta"`
	DescricaoDigitalLonga         string      `json:"descricaoDigitalLonga"`
	TipoID                        int         `json:"tipoId"`
	CausaID                       int         `json:"causaId"`
	Obrigatoria                   bool        `json:"obrigatoria"`
	NumeroProcessoSusep           string      `json:"numeroProcessoSusep"`
	Capital                       money.Cents `json:"capital"`
	CapitalBase                   money.Cents `json:"capitalBase"`     // premioBase is the premium of this much capital
	TipoCapitalBase               string      `json:"tipoCapitalBase"` // CAPITAL_SEGURADO, or CONTRIBUICAO (pension)
	Limite                        money.Cents `json:"limite"`          // highest capital allowed for the profile
	PremioBase                    money.Rate  `json:"premioBase"`      // for the periodicity, per capitalBase, to 8 places
	CustoFixo                     money.Cents `json:"custoFixo"`       // the premium of a fixed-value coverage, else 0
	PremioMensal                  money.Cents `json:"premioMensal"`
	Premio                        money.Cents `json:"premio"` // of capital, for the periodicity
	ValorMinimoCapitalContratacao money.Cents `json:"valorMinimoCapitalContratacao"`
	ValorLimiteCapitalReferencia  money.Cents `json:"valorLimiteCapitalReferencia"`
	// QuestionariosPorFaixa names the questionnaire the coverage's
	// product asks for (exigeDPS); the 2025 client makes the DPS
	// mandatory when it is not empty.
	QuestionariosPorFaixa []FaixaQuestionarios `json:"questionariosPorFaixa"`
	// Fixed reports a fixed-value coverage: its premium is premioBase
	// whatever the capital.
	Fixed bool `json:"-"`
}

// FaixaQuestionarios is one band of questionnaires of a coverage.
type FaixaQuestionarios struct {
	Questionarios []QuestionarioRef `json:"questionarios"`
}

// QuestionarioRef names a questionnaire of the questionnaire service.
type QuestionarioRef struct {
	IDQuestionario int `json:"idQuestionario"`
}

// PremioOf is the premium of a capital as the clients compute it,
// capital ÷ capitalBase × premioBase, to eight places (half away from
// zero): what a proposal's VL_CONTRIB is held to. A fixed-value
// coverage's premium is premioBase whatever the capital.
func (c CoberturaQuote) PremioOf(capital money.Cents) money.Rate {
	if c.Fixed {
		return c.PremioBase
	}
	return c.PremioBase.Scale(int64(capital), int64(c.CapitalBase))
}

// PremioCents is the premium of a capital rounded half-up to cents, once,
// from the exact capital ÷ capitalBase × premioBase: the premium a quote
// shows and a proposal charges.
func (c CoberturaQuote) PremioCents(capital money.Cents) money.Cents {
	if c.Fixed {
		return c.PremioBase.Cents()
	}
	return capital.Scale(int64(c.PremioBase), int64(c.CapitalBase)*int64(money.RateOne/100))
}

// Cobertura returns the quote of coverage item of product produto, when it
// was priced.
func (q Quote) Cobertura(produto, item int) (CoberturaQuote, bool) {
	for _, p := range q.Produtos {
		if p.IDProduto != produto {
			continue
		}
		for _, c := range p.Coberturas {
			if c.ItemProdutoID == item {
				return c, true
			}
		}
	}
	return CoberturaQuote{}, false
}

// Price quotes every coverage of every product of o for the profile, the
// requested capital (0: none, every coverage at its base) and the
// periodicity; see the package comment. Limits list what could not be
// priced and why; a quote with a PREMIO_ABAIXO_DO_TICKET_MINIMO limit is
// priced but not sellable.
func Price(o *Offer, p Profile, capital money.Cents, periodicidadeID int) (Quote, []Limit) {
	age := Age(p.BirthDate, p.At)
	q := Quote{
		CodigoModeloProposta:    o.ID,
		PeriodicidadeCobrancaID: periodicidadeID,
		Idade:                   age,
		CapitalSegurado:         capital,
		TicketMinimo:            o.TicketMinimo,
		Produtos:                []ProdutoQuote{},
	}
	per, limits := checkInput(o, p, capital, periodicidadeID)
	if len(limits) > 0 {
		return q, limits
	}
	pr := pricer{offer: o, profile: p, age: age, capital: capital, base: capital == 0, per: per, risk: riskFactor(p)}
	for i := range o.Produtos {
		pq, ls := pr.produto(&o.Produtos[i])
		limits = append(limits, ls...)
		if pq == nil {
			continue
		}
		q.Produtos = append(q.Produtos, *pq)
		q.PremioMensal += pq.PremioMensal
		q.Premio += pq.Premio
	}
	if !pr.base && len(q.Produtos) > 0 && q.PremioMensal < o.TicketMinimo {
		limits = append(limits, Limit{
			Code:  LimitTicketMinimo,
			Field: fieldCapital,
			Message: fmt.Sprintf("prêmio mensal de %s abaixo do ticket mínimo de %s do modelo de proposta %s",
				brl(q.PremioMensal), brl(o.TicketMinimo), o.ID),
			Valor: o.TicketMinimo,
		})
	}
	return q, limits
}

// Age is the full years from birth to at, each read as a calendar date in
// its own location.
func Age(birth, at time.Time) int {
	by, bm, bd := birth.Date()
	ay, am, ad := at.Date()
	age := ay - by
	if am < bm || (am == bm && ad < bd) {
		age--
	}
	return age
}

// tariff is a monthly premium per 1,000 of capital: taxa ×
// e^(0.085 × (age − 30)) × risk, rounded half away from zero to eight
// places (about 8.9% more a year of age). The exponential has no exact
// decimal, so this is the one place a float computes a figure of the
// tariff: the published figure, MAG's premioBase, is its eight-place
// rounding, and from the Rate it returns on every figure is exact. At 30
// the factor is e⁰, 1, and the product exact: computed as such, a half
// in the ninth place rounds up (0.0003 × 1.81125 is 0.00054338) instead
// of going whichever way a float's last bit leans. At any other age the
// product is irrational, never a tie, and the float's sixteen digits
// decide the eighth place.
func tariff(taxa money.Rate, age int, risk money.Rate) money.Rate {
	if age == 30 {
		return taxa.Mul(risk)
	}
	x := float64(taxa) / float64(money.RateOne) * math.Exp(ageRate*float64(age-30)) * float64(risk) / float64(money.RateOne)
	return money.Rate(math.Round(x * float64(money.RateOne)))
}

// checkInput rejects what cannot be priced at all: a periodicity the offer
// lacks and malformed profile fields.
func checkInput(o *Offer, p Profile, capital money.Cents, periodicidadeID int) (periodicity, []Limit) {
	var limits []Limit
	add := func(code, field, format string, args ...any) {
		limits = append(limits, Limit{Code: code, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	per, known := periodicityTable[periodicidadeID]
	offered := slices.ContainsFunc(o.Periodicidades, func(d Dominio) bool { return d.ID == periodicidadeID })
	if !known || !offered {
		add(LimitPeriodicidadeInvalida, fieldPeriodicidade,
			"periodicidade %d não é oferecida pelo modelo de proposta %s", periodicidadeID, o.ID)
	}
	if capital < 0 {
		add(LimitCapitalInvalido, fieldCapital, "o capital segurado deve ser um valor não negativo")
	}
	if p.SexoID != SexoMasculino && p.SexoID != SexoFeminino {
		add(LimitSexoInvalido, fieldSexo, "sexoId %d inválido: use 1 (masculino) ou 2 (feminino)", p.SexoID)
	}
	// Profession and state are optional in the simulation request (v2
	// Swagger): absent, they price as the base class and no state factor.
	if _, ok := normalizeCBO(p.ProfissaoCBO); !ok && strings.TrimSpace(p.ProfissaoCBO) != "" {
		add(LimitProfissaoInvalida, fieldProfissao, "%q não é um código CBO (formato 0000-00)", p.ProfissaoCBO)
	}
	if uf := normalizeUF(p.UF); uf != "" && !slices.Contains(ufs, uf) {
		add(LimitUFInvalida, fieldUF, "UF %q desconhecida", p.UF)
	}
	if p.Renda < 0 {
		add(LimitRendaInvalida, fieldRenda, "a renda deve ser um valor não negativo")
	}
	return per, limits
}

// normalizeCBO returns the CBO as "0000-00", accepting it with or without
// the dash.
func normalizeCBO(s string) (string, bool) {
	digits := strings.Replace(strings.TrimSpace(s), "-", "", 1)
	if len(digits) != 6 {
		return "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	return digits[:4] + "-" + digits[4:], true
}

func normalizeUF(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// riskFactor is every factor of the profile but age, which varies per
// coverage only through the age itself; exact (four factors of two
// places).
func riskFactor(p Profile) money.Rate {
	f := money.RateOne
	if p.SexoID == SexoFeminino {
		f = f.Mul(femaleFactor)
	}
	if p.Fumante {
		f = f.Mul(smokerFactor)
	}
	if cbo, ok := normalizeCBO(p.ProfissaoCBO); ok {
		if pf, ok := professionFactors[cbo[0]]; ok {
			f = f.Mul(pf)
		}
	}
	if uf, ok := ufFactors[normalizeUF(p.UF)]; ok {
		f = f.Mul(uf)
	}
	return f
}

// pricer carries what every coverage of one Price call shares; base is a
// simulation without a capital.
type pricer struct {
	offer   *Offer
	profile Profile
	age     int
	capital money.Cents
	base    bool
	per     periodicity
	risk    money.Rate
}

// produto prices one product, or returns nil and why it cannot be sold.
func (pr *pricer) produto(prod *Produto) (*ProdutoQuote, []Limit) {
	if limits := pr.produtoLimits(prod); len(limits) > 0 {
		return nil, limits
	}
	pq := &ProdutoQuote{
		IDProduto:          prod.ID,
		Descricao:          prod.Descricao,
		DescricaoComercial: prod.DescricaoComercial,
		Coberturas:         []CoberturaQuote{},
	}
	var limits []Limit
	refused := false
	for i := range prod.Coberturas {
		c := &prod.Coberturas[i]
		cq, ls := pr.cobertura(prod, c)
		if len(ls) > 0 {
			limits = append(limits, ls...)
			refused = refused || c.Obrigatoria
			continue
		}
		pq.Coberturas = append(pq.Coberturas, cq)
		pq.PremioMensal += cq.PremioMensal
		pq.Premio += cq.Premio
	}
	if refused {
		return nil, limits
	}
	return pq, limits
}

// produtoLimits are the refusals of a whole product: age, profession, UF.
func (pr *pricer) produtoLimits(prod *Produto) []Limit {
	var limits []Limit
	if pr.age < prod.IdadeMinima || pr.age > prod.IdadeMaxima {
		limits = append(limits, Limit{
			Code: LimitIdadeProduto, Field: fieldDataNascimento, ProdutoID: prod.ID,
			Message: fmt.Sprintf("idade de %d anos fora do limite do produto %s (%d a %d anos)",
				pr.age, prod.Descricao, prod.IdadeMinima, prod.IdadeMaxima),
			Idade: nearest(pr.age, prod.IdadeMinima, prod.IdadeMaxima),
		})
	}
	cbo, _ := normalizeCBO(pr.profile.ProfissaoCBO)
	if slices.Contains(prod.ProfissoesRecusadas, cbo) {
		limits = append(limits, Limit{
			Code: LimitProfissaoRecusada, Field: fieldProfissao, ProdutoID: prod.ID,
			Message: fmt.Sprintf("a profissão %s não é aceita no produto %s", cbo, prod.Descricao),
		})
	}
	uf := normalizeUF(pr.profile.UF)
	if slices.Contains(prod.UfsRecusadas, uf) {
		limits = append(limits, Limit{
			Code: LimitUFRecusada, Field: fieldUF, ProdutoID: prod.ID,
			Message: fmt.Sprintf("o produto %s não é comercializado na UF %s", prod.Descricao, uf),
		})
	}
	return limits
}

// nearest is the bound of lo..hi that v crossed.
func nearest(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	return hi
}

// cobertura prices one coverage, or says why it cannot be priced.
func (pr *pricer) cobertura(prod *Produto, c *Cobertura) (CoberturaQuote, []Limit) {
	var limits []Limit
	if pr.age < c.IdadeEntrada || pr.age > c.IdadeSaida {
		limits = append(limits, Limit{
			Code: LimitIdadeCobertura, Field: fieldDataNascimento, ProdutoID: prod.ID, ItemProdutoID: c.ItemProdutoID,
			Message: fmt.Sprintf("idade de %d anos fora do limite da cobertura %s (%d a %d anos)",
				pr.age, c.Descricao, c.IdadeEntrada, c.IdadeSaida),
			Idade: nearest(pr.age, c.IdadeEntrada, c.IdadeSaida),
		})
	}
	capital := pr.capital
	if c.CapitalFixo {
		capital = c.ValorFixo
	}
	limite, capLimits := pr.capitalLimits(prod, c, capital)
	if !pr.base {
		limits = append(limits, capLimits...)
	}
	if len(limits) > 0 {
		return CoberturaQuote{}, limits
	}
	capitalBase, monthly, discount := pr.rates(c)
	if pr.base && !c.CapitalFixo {
		capital = max(capitalBase, c.ValorMinimoCapitalContratacao)
	}
	q := CoberturaQuote{
		ID:                            c.ID,
		ItemProdutoID:                 c.ItemProdutoID,
		Descricao:                     c.Descricao,
		DescricaoDigitalCurta:         c.DescricaoDigitalCurta,
		DescricaoDigitalLonga:         c.DescricaoDigitalLonga,
		TipoID:                        c.Tipo.ID,
		CausaID:                       c.Causas[0].ID,
		Obrigatoria:                   c.Obrigatoria,
		NumeroProcessoSusep:           c.NumeroProcessoSusep,
		Capital:                       capital,
		CapitalBase:                   capitalBase,
		TipoCapitalBase:               "CAPITAL_SEGURADO",
		Limite:                        limite,
		PremioBase:                    monthly.Scale(pr.per.months, 1).Mul(discount),
		ValorMinimoCapitalContratacao: c.ValorMinimoCapitalContratacao,
		ValorLimiteCapitalReferencia:  c.ValorLimiteCapitalReferencia,
		QuestionariosPorFaixa:         pr.questionarios(prod),
		Fixed:                         c.CapitalFixo,
	}
	if c.Tipo.ID == TipoContribuicao {
		q.TipoCapitalBase = "CONTRIBUICAO"
	}
	q.Premio = q.PremioCents(capital)
	q.PremioMensal = (CoberturaQuote{Fixed: q.Fixed, CapitalBase: capitalBase, PremioBase: monthly}).PremioCents(capital)
	if q.Fixed {
		q.CustoFixo = q.PremioBase.Cents()
	}
	return q, nil
}

// rates are a coverage's base capital, the premium of that capital for a
// month (to 8 decimals), and the discount of the periodicity.
func (pr *pricer) rates(c *Cobertura) (capitalBase money.Cents, monthly, discount money.Rate) {
	discount = pr.per.discount
	switch {
	case c.Tipo.ID == TipoContribuicao:
		// A contribution is savings: no risk, no discount.
		return capitalBase1000, c.TaxaPor1000, money.RateOne
	case c.CapitalFixo:
		perThousand := c.TaxaPor1000.Scale(int64(c.ValorFixo), int64(capitalBase1000))
		return c.ValorFixo, tariff(perThousand, pr.age, pr.risk) + c.CustoFixo.Rate(), discount
	}
	return capitalBase1000, tariff(c.TaxaPor1000, pr.age, pr.risk), discount
}

// questionarios is the questionnaire a product asking for a DPS takes:
// the offer's.
func (pr *pricer) questionarios(prod *Produto) []FaixaQuestionarios {
	if !prod.ExigeDPS || pr.offer.Questionario == nil {
		return []FaixaQuestionarios{}
	}
	return []FaixaQuestionarios{{Questionarios: []QuestionarioRef{{IDQuestionario: pr.offer.Questionario.ID}}}}
}

// capBound is one maximum capital and the limit crossing it raises.
type capBound struct {
	value money.Cents
	limit Limit
}

// capitalLimits returns the highest capital the coverage allows for the
// profile (limite) and a Limit for each bound the capital breaks. A
// fixed-capital coverage's value is the insurer's own: nothing to check.
func (pr *pricer) capitalLimits(prod *Produto, c *Cobertura, capital money.Cents) (money.Cents, []Limit) {
	if c.CapitalFixo {
		return c.ValorFixo, nil
	}
	mk := func(code string, value money.Cents, format string, args ...any) capBound {
		return capBound{value: value, limit: Limit{
			Code: code, Field: fieldCapital, ProdutoID: prod.ID, ItemProdutoID: c.ItemProdutoID,
			Message: fmt.Sprintf(format, args...), Valor: value,
		}}
	}
	var limits []Limit
	if capital < c.ValorMinimoCapitalContratacao {
		b := mk(LimitCapitalMinimo, c.ValorMinimoCapitalContratacao,
			"capital de %s abaixo do mínimo de %s da cobertura %s",
			brl(capital), brl(c.ValorMinimoCapitalContratacao), c.Descricao)
		limits = append(limits, b.limit)
	}
	bounds := []capBound{mk(LimitCapitalMaximo, c.ValorLimiteCapitalReferencia,
		"capital de %s acima do limite de %s da cobertura %s",
		brl(capital), brl(c.ValorLimiteCapitalReferencia), c.Descricao)}
	bounds = append(bounds, pr.policyBounds(c, capital, mk)...)
	limite := bounds[0].value
	for _, b := range bounds {
		limite = min(limite, b.value)
		if capital > b.value {
			limits = append(limits, b.limit)
		}
	}
	return limite, limits
}

// policyBounds are the acceptance policy's maxima that apply to the
// coverage (by causa) and the profile (by age, income, profession).
func (pr *pricer) policyBounds(c *Cobertura, capital money.Cents,
	mk func(string, money.Cents, string, ...any) capBound) []capBound {
	pol := &pr.offer.PoliticaAceitacao
	var bounds []capBound
	for _, l := range pol.LimitesOperacionaisPorRenda {
		if c.HasCausa(l.Causa) && inBand(pr.age, l.IdadeInicial, l.IdadeFinal) {
			annual := 12 * pr.profile.Renda
			bound := annual.Times(l.MultiploRenda)
			bounds = append(bounds, mk(LimitCapitalRenda, bound,
				"capital de %s acima do limite de %s (%s vezes a renda anual de %s) da cobertura %s",
				brl(capital), brl(bound), formatFactor(l.MultiploRenda), brl(annual), c.Descricao))
		}
	}
	for _, l := range pol.LimitesOperacionaisPorFaixaEtaria {
		if c.HasCausa(l.Causa) && inBand(pr.age, l.IdadeInicial, l.IdadeFinal) {
			bounds = append(bounds, mk(LimitCapitalFaixaEtaria, l.ValorMaximoCapitalSegurado,
				"capital de %s acima do limite de %s para a faixa de %d a %d anos da cobertura %s",
				brl(capital), brl(l.ValorMaximoCapitalSegurado), l.IdadeInicial, l.IdadeFinal, c.Descricao))
		}
	}
	cbo, _ := normalizeCBO(pr.profile.ProfissaoCBO)
	for _, l := range pol.LimitesOperacionaisPorProfissao {
		if c.HasCausa(l.Causa) && l.ProfissaoID == cbo {
			bounds = append(bounds, mk(LimitCapitalProfissao, l.ValorMaximoCapitalSegurado,
				"capital de %s acima do limite de %s para a profissão %s da cobertura %s",
				brl(capital), brl(l.ValorMaximoCapitalSegurado), cbo, c.Descricao))
		}
	}
	return bounds
}

func inBand(age, from, to int) bool { return age >= from && age <= to }

// brl formats money the Brazilian way: R$ 1.234.567,89.
func brl(c money.Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	whole := strconv.FormatInt(int64(c/100), 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(r)
	}
	return fmt.Sprintf("%sR$ %s,%02d", sign, b.String(), c%100)
}

// formatFactor writes a multiple with a decimal comma: 2,5.
func formatFactor(f money.Rate) string {
	return strings.Replace(f.String(), ".", ",", 1)
}
