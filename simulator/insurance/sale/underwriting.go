package sale

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/taxid"
)

// underwrite applies the offer's rules to a proposal: proponent, plans and
// coverages, capitals and premiums (each VL_CONTRIB must be, within a
// cent, the premium the clients compute from the simulation:
// VL_COBERTURA ÷ capitalBase × premioBase, or premioBase for a
// fixed-value coverage), the total, beneficiaries. It returns the total
// premium (each coverage's rounded half-up to cents) and every violation.
func underwrite(o *catalog.Offer, prop map[string]any, now time.Time) (money.Cents, wire.Violations) {
	u := underwriter{offer: o}
	u.proponent(wire.Obj(prop, "DADOS_PROPONENTE"), wire.Obj(prop, "DADOS_COBRANCA"), now)
	var total money.Cents
	for i, plano := range wire.Items(wire.Obj(prop, "PLANOS")["PLANO"]) {
		total += u.plano(fmt.Sprintf("PROPOSTA.PLANOS.PLANO.%d", i), plano)
	}
	if vt, ok := wire.Obj(prop, "PLANOS")["VL_TOTAL"]; ok {
		if v, err := wire.Rate(vt); err == nil && !totalConfere(v, u.sent, u.n) {
			u.vs.Add("PROPOSTA.PLANOS.VL_TOTAL", "VL_TOTAL %s não é a soma dos VL_CONTRIB (%s)", v, u.sent)
		}
	}
	u.participacoes(wire.Items(wire.Obj(prop, "BENEFICIARIOS")["BENEFICIARIO"]))
	return total, u.vs
}

// underwriter carries what the checks of one proposal share: sent is the
// sum of the VL_CONTRIB as sent, n how many there were.
type underwriter struct {
	offer   *catalog.Offer
	profile catalog.Profile
	per     int    // periodicidadeCobrancaId
	perName string // PERIODICIDADE as sent, MENSAL by default
	sent    money.Rate
	n       int
	vs      wire.Violations
}

// premioTolerance is how far a premium as sent may be from the premium
// the simulation gives: a cent, either way, inclusive. A client may send
// capital ÷ capitalBase × premioBase as it computed it or rounded to the
// cent (rounded any way: down is a cent off at most), and both compare
// exactly, as eight-place decimals, with the premium to eight places.
const premioTolerance = money.Rate(money.RateOne / 100)

// premioConfere reports whether a premium as sent is the premium the
// simulation gives, rounded or not: within a cent.
func premioConfere(sent, want money.Rate) bool { return (sent - want).Abs() <= premioTolerance }

// totalConfere reports whether VL_TOTAL is the sum of the n premiums as
// sent, each of which a client may have rounded or not: within a cent a
// premium.
func totalConfere(total, sum money.Rate, n int) bool {
	return (total - sum).Abs() <= premioTolerance*money.Rate(max(n, 1))
}

// proponent checks the proponent and the periodicity, and makes the
// profile the pricing takes.
func (u *underwriter) proponent(dp, cob map[string]any, now time.Time) {
	if err := taxid.CheckCPF(wire.Str(dp, "CPF")); err != nil {
		u.vs.Add("PROPOSTA.DADOS_PROPONENTE.CPF", "CPF inválido: %v", err)
	}
	birth, err := wire.ParseDate(wire.Str(dp, "DT_NASCIMENTO"))
	if err != nil {
		u.vs.Add("PROPOSTA.DADOS_PROPONENTE.DT_NASCIMENTO", "%v", err)
	}
	u.per, u.perName = periodicityID(wire.Str(cob, "PERIODICIDADE")), wire.OrDefault(wire.Str(cob, "PERIODICIDADE"), "MENSAL")
	if !slices.ContainsFunc(u.offer.Periodicidades, func(d catalog.Dominio) bool { return d.ID == u.per }) {
		u.vs.Add("PROPOSTA.DADOS_COBRANCA.PERIODICIDADE", "o modelo %s não aceita a periodicidade %s", u.offer.ID, u.perName)
	}
	sexo := catalog.SexoMasculino
	if wire.Str(dp, "SEXO") == "FEMININO" {
		sexo = catalog.SexoFeminino
	}
	renda, _ := wire.Money(dp["RENDA_MENSAL"])
	uf := ""
	if ends := wire.Items(wire.Obj(dp, "ENDERECOS")["ENDERECO"]); len(ends) > 0 {
		uf = wire.Str(ends[0], "ESTADO")
	}
	fumante := dp["FUMANTE"] == true || dp["FUMANTE"] == "S" || dp["FUMANTE"] == "true"
	u.profile = catalog.Profile{BirthDate: birth, At: now, SexoID: sexo, Renda: renda,
		ProfissaoCBO: wire.Str(wire.Obj(dp, "PROFISSAO"), "CODIGO"), UF: uf, Fumante: fumante}
}

// plano checks one plan (a product of the offer) and returns the premium
// of its coverages.
func (u *underwriter) plano(field string, plano map[string]any) money.Cents {
	pid, _ := wire.Int(plano["CODIGO"])
	prod := u.offer.Produto(pid)
	if prod == nil {
		u.vs.Add(field+".CODIGO", "o produto %v não faz parte do modelo de proposta %s", plano["CODIGO"], u.offer.ID)
		return 0
	}
	var total money.Cents
	got := map[int]bool{}
	for j, c := range wire.Items(wire.Obj(plano, "COBERTURAS")["COBERTURA"]) {
		total += u.cobertura(fmt.Sprintf("%s.COBERTURAS.COBERTURA.%d", field, j), prod, c, got)
	}
	for _, cov := range prod.Coberturas {
		if cov.Obrigatoria && !got[cov.ItemProdutoID] {
			u.vs.Add(field+".COBERTURAS", "a cobertura obrigatória %d (%s) do produto %d falta", cov.ItemProdutoID, cov.Descricao, pid)
		}
	}
	return total
}

// cobertura checks one coverage of a plan (got records the ones seen) and
// returns its premium once the pricing gives it one.
func (u *underwriter) cobertura(field string, prod *catalog.Produto, c map[string]any, got map[int]bool) money.Cents {
	item, _ := wire.Int(c["CODIGO"])
	if prod.Cobertura(item) == nil {
		var items []string
		for _, c := range prod.Coberturas {
			items = append(items, fmt.Sprint(c.ItemProdutoID))
		}
		u.vs.Add(field+".CODIGO", "a cobertura %v não faz parte do produto %d: CODIGO é o itemProdutoId da cobertura (%s)", c["CODIGO"], prod.ID, strings.Join(items, ", "))
		return 0
	}
	if got[item] {
		u.vs.Add(field+".CODIGO", "a cobertura %d aparece duas vezes", item)
		return 0
	}
	got[item] = true
	capital, cerr := wire.Money(c["VL_COBERTURA"])
	sent, perr := wire.Rate(c["VL_CONTRIB"])
	if cerr != nil || perr != nil {
		u.vs.Add(field, "VL_COBERTURA e VL_CONTRIB devem ser números")
		return 0
	}
	u.sent, u.n = u.sent+sent, u.n+1
	cov := prod.Cobertura(item)
	if cov.CapitalFixo {
		// A fixed-value coverage insures its own capital, whatever is sent.
		capital = cov.ValorFixo
	} else if capital <= 0 {
		u.vs.Add(field+".VL_COBERTURA", "informe o capital da cobertura %d (VL_COBERTURA)", item)
		return 0
	}
	if u.profile.BirthDate.IsZero() {
		return 0
	}
	q, limits := catalog.Price(u.offer, u.profile, capital, u.per)
	for _, l := range limits {
		if l.ItemProdutoID == item || (l.ItemProdutoID == 0 && l.ProdutoID == prod.ID) || (l.ItemProdutoID == 0 && l.ProdutoID == 0 && l.Code != catalog.LimitTicketMinimo) {
			u.vs.Add(field+".VL_COBERTURA", "%s (%s)", l.Message, l.Code)
		}
	}
	quoted, found := q.Cobertura(prod.ID, item)
	if !found {
		return 0
	}
	if !premioConfere(sent, quoted.PremioOf(capital)) {
		u.vs.Add(field+".VL_CONTRIB", "%s", premioMessage(sent, quoted, capital, q.Idade, u.perName))
	}
	return quoted.PremioCents(capital)
}

// premioMessage says which premium the simulation gives, and how the
// clients compute it.
func premioMessage(sent money.Rate, quoted catalog.CoberturaQuote, capital money.Cents, idade int, per string) string {
	how := fmt.Sprintf("VL_COBERTURA ÷ capitalBase × premioBase = %s ÷ %s × %s", capital, quoted.CapitalBase.Rate(), quoted.PremioBase)
	if quoted.Fixed {
		how = fmt.Sprintf("a cobertura de valor fixo custa premioBase, %s", quoted.PremioBase)
	}
	return fmt.Sprintf("VL_CONTRIB %s não confere com o prêmio %s que a simulação dá (%s; idade %d, periodicidade %s)",
		sent, quoted.PremioCents(capital).Rate(), how, idade, per)
}

// participacaoTolerance is how far from 100 the beneficiaries' shares
// may add up: a thousandth of a percent, so that thirds written to four
// places (33.3333 three times, 99.9999) are a whole.
const participacaoTolerance = money.Rate(money.RateOne / 1000)

// participacoes checks that the beneficiaries' shares (percentages, not
// money) add up to 100.
func (u *underwriter) participacoes(bs []map[string]any) {
	if len(bs) == 0 {
		return
	}
	var sum money.Rate
	for i, b := range bs {
		v, err := wire.Rate(b["PARTICIPACAO"])
		if err != nil {
			u.vs.Add(fmt.Sprintf("PROPOSTA.BENEFICIARIOS.BENEFICIARIO.%d.PARTICIPACAO", i), "PARTICIPACAO deve ser um número (a porcentagem do beneficiário)")
			return
		}
		sum += v
	}
	if (sum - 100*money.RateOne).Abs() > participacaoTolerance {
		u.vs.Add("PROPOSTA.BENEFICIARIOS.BENEFICIARIO", "as participações dos beneficiários somam %s%%, não 100%%", sum.Round(2))
	}
}

// periodicityID maps PERIODICIDADE to periodicidadeCobrancaId.
func periodicityID(s string) int {
	switch s {
	case "TRIMESTRAL":
		return 90
	case "SEMESTRAL":
		return 180
	case "ANUAL":
		return 360
	}
	return 30
}
