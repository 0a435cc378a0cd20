package sale

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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
		if v, err := wire.Decimal(vt); err == nil && !totalConfere(v, u.sent, u.n) {
			u.vs.Add("PROPOSTA.PLANOS.VL_TOTAL", "VL_TOTAL %s não é a soma dos VL_CONTRIB (%s)", decimal(v), decimal(u.sent))
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
	sent    float64
	n       int
	vs      wire.Violations
}

// premioConfere reports whether a premium as sent is the premium the
// simulation gives, rounded or not: within a cent.
func premioConfere(sent, want float64) bool { return math.Abs(sent-want) <= 0.01+1e-9 }

// totalConfere reports whether VL_TOTAL is the sum of the n premiums as
// sent, each of which a client may have rounded or not: within a cent a
// premium.
func totalConfere(total, sum float64, n int) bool {
	return math.Abs(total-sum) <= 0.01*float64(max(n, 1))+1e-9
}

// decimal writes an amount as sent, without binary noise.
func decimal(f float64) string { return strconv.FormatFloat(math.Round(f*1e8)/1e8, 'f', -1, 64) }

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
	sent, perr := wire.Decimal(c["VL_CONTRIB"])
	if cerr != nil || perr != nil {
		u.vs.Add(field, "VL_COBERTURA e VL_CONTRIB devem ser números")
		return 0
	}
	u.sent, u.n = u.sent+sent, u.n+1
	cov := prod.Cobertura(item)
	if cov.CapitalFixo {
		// A fixed-value coverage insures its own capital, whatever is sent.
		capital = catalog.Cents(cov.ValorFixo)
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
	want := quoted.PremioOf(capital.Float())
	if !premioConfere(sent, want) {
		u.vs.Add(field+".VL_CONTRIB", "%s", premioMessage(sent, want, quoted, capital, q.Idade, u.perName))
	}
	return catalog.Cents(want)
}

// premioMessage says which premium the simulation gives, and how the
// clients compute it.
func premioMessage(sent, want float64, quoted catalog.CoberturaQuote, capital money.Cents, idade int, per string) string {
	how := fmt.Sprintf("VL_COBERTURA ÷ capitalBase × premioBase = %s ÷ %s × %s", capital, decimal(quoted.CapitalBase), decimal(quoted.PremioBase))
	if quoted.Fixed {
		how = fmt.Sprintf("a cobertura de valor fixo custa premioBase, %s", decimal(quoted.PremioBase))
	}
	return fmt.Sprintf("VL_CONTRIB %s não confere com o prêmio %s que a simulação dá (%s; idade %d, periodicidade %s)",
		decimal(sent), decimal(math.Round(want*100)/100), how, idade, per)
}

// participacoes checks that the beneficiaries' shares (percentages, not
// money) add up to 100.
func (u *underwriter) participacoes(bs []map[string]any) {
	if len(bs) == 0 {
		return
	}
	sum := 0.0
	for _, b := range bs {
		v, _ := wire.Decimal(b["PARTICIPACAO"])
		sum += v
	}
	if math.Abs(sum-100) > 0.001 {
		u.vs.Add("PROPOSTA.BENEFICIARIOS.BENEFICIARIO", "as participações dos beneficiários somam %g%%, não 100%%", math.Round(sum*100)/100)
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
