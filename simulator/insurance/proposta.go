package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// firstNumero is where proposal numbers start: six digits, as the
// reservation answer seen (proposalReservedNumber: 123456).
const firstNumero = 100001

// nextNumero hands out the next proposal number, reserved or not.
func nextNumero(ctx context.Context, tx *store.Tx) (int64, error) {
	var n sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT MAX(n) FROM (SELECT MAX(numero) AS n FROM propostas UNION ALL SELECT MAX(numero) FROM proposal_numbers)`).Scan(&n)
	if err != nil {
		return 0, err
	}
	if !n.Valid || n.Int64 < firstNumero {
		return firstNumero, nil
	}
	return n.Int64 + 1, nil
}

// reserveNumber is POST /proposals/{codigo}/next-number (the underwriting
// API's reservation, SUMMARY §3.4): a number for a proposal of the offer,
// used before the proposal exists (questionnaire locator) and sent later
// as PROPOSTA.NUMERO.
func (s *Service) reserveNumber(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var n int64
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := s.offerFor(ctx, tx, r, mux.Vars(r)["codigo"]); err != nil {
			return err
		}
		var err error
		if n, err = nextNumero(ctx, tx); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO proposal_numbers (numero, company_id, offer_id, created_at) VALUES (?, ?, ?, ?)`,
			n, p.CompanyID, mux.Vars(r)["codigo"], s.Clock.Now().UnixNano())
		return err
	})
	if err != nil {
		return nil, err
	}
	// The answer seen is bare, not in the envelope.
	return httpx.Created(map[string]any{"proposalReservedNumber": n}), nil
}

// cardFields are the card data a proposal may never carry: the card is
// captured by the credit-card widget, and the proposal gets only its
// pre-authorisation code (CARTAO.NUM_PRE_AUTORIZACAO).
var cardFields = []string{"NUMERO", "CVV", "CODIGO_SEGURANCA"}

// refuseCardNumber finds card data in a PROPOSTA body before anything else
// reads it (schema errors would echo the value): the message says what to
// send instead. A 13-19 digit Luhn number anywhere in CARTAO counts too.
func refuseCardNumber(body map[string]any) error {
	return findCardData(body, "", false)
}

// findCardData walks the body: inside a CARTAO object the card fields and
// any card-like number are refused; anywhere, a key that names a card
// (NUMERO_CARTAO, CARD_NUMBER) holding a card-like number is refused too.
func findCardData(v any, path string, inCard bool) error {
	refuse := func(field string) error {
		return errs.Invalidf(field,
			"dados de cartão nunca vão na proposta: capture o cartão no widget de cartão de crédito e envie só DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO").
			WithType("DADOS_DE_CARTAO_PROIBIDOS")
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			field := strings.TrimPrefix(path+"."+k, ".")
			up := strings.ToUpper(k)
			card := inCard || strings.Contains(up, "CARTAO") || strings.Contains(up, "CARD")
			if k == "NUM_PRE_AUTORIZACAO" {
				continue
			}
			if inCard && slices.Contains(cardFields, k) && val != "" && val != nil || card && looksLikeCardNumber(val) {
				return refuse(field)
			}
			if err := findCardData(val, field, up == "CARTAO" || inCard); err != nil {
				return err
			}
		}
	case []any:
		for i, val := range x {
			if inCard && looksLikeCardNumber(val) {
				return refuse(fmt.Sprintf("%s.%d", path, i))
			}
			if err := findCardData(val, fmt.Sprintf("%s.%d", path, i), inCard); err != nil {
				return err
			}
		}
	}
	return nil
}

// postProposta is POST /proposta?empresa=&codigoModeloProposta= (or
// /proposta/{codigo}?empresa=): registers a signed proposal. The answer is
// the proposal number and status RECEBIDA; analysis is the proposal's
// scenario (default: scenarios/proposta-padrao.yaml).
func (s *Service) postProposta(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	pr := principal(r)
	if err := checkCNPJ(r, "empresa", "cnpj"); err != nil {
		return nil, err
	}
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if err := httpx.CheckSyntax(raw); err == nil {
		json.Unmarshal(raw, &body)
		if err := refuseCardNumber(body); err != nil {
			return nil, err
		}
	}
	if err := httpx.CheckJSONContentType(r); err != nil {
		return nil, err
	}
	if err := httpx.DecodeJSONBytes(raw, s.Schemas, "insurance/proposta.request", &body); err != nil {
		return nil, readableDates(err)
	}
	prop := obj(body, "PROPOSTA")
	// A date no layout reads is malformed input (400), not a broken rule.
	if _, err := parseDate(str(obj(prop, "DADOS_PROPONENTE"), "DT_NASCIMENTO")); err != nil {
		return nil, errs.Invalidf("PROPOSTA.DADOS_PROPONENTE.DT_NASCIMENTO", "%v", err)
	}
	code := mux.Vars(r)["codigo"]
	if code == "" {
		code = r.URL.Query().Get("codigoModeloProposta")
	}
	if code == "" {
		code = str(obj(prop, "USO_MONGERAL"), "MODELO_PROPOSTA")
	}
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta: ?codigoModeloProposta=, /proposta/{codigo} ou PROPOSTA.USO_MONGERAL.MODELO_PROPOSTA")
	}
	var out map[string]any
	status := http.StatusCreated
	s.numMu.Lock()
	defer s.numMu.Unlock()
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		o, err := s.offerFor(ctx, tx, r, code)
		if err != nil {
			return err
		}
		numero, existing, err := s.numeroFor(ctx, tx, pr.CompanyID, o.ID, prop)
		if err != nil {
			return err
		}
		if existing != nil {
			// The reserved number was already used: the proposal it made
			// is the answer (a retry after a lost response).
			status = http.StatusOK
			out = map[string]any{"numeroProposta": existing.Numero, "status": existing.Status, "statusCodigo": statusCode[existing.Status],
				"dataProtocolo": existing.CreatedAt.Format(time.RFC3339), "valorTotal": existing.Total}
			return nil
		}
		total, vs := s.check(ctx, tx, o, prop)
		if len(vs) > 0 {
			return rules("PROPOSTA_INVALIDA", vs)
		}
		cpf := str(obj(prop, "DADOS_PROPONENTE"), "CPF")
		now := s.Clock.Now()
		if e := s.checkBilling(ctx, tx, o, pr.CompanyID, cpf, prop, total, numero); e != nil {
			return e
		}
		if e := s.checkSignature(ctx, tx, pr.CompanyID, cpf, prop, numero, now); e != nil {
			return e
		}
		stored, _ := json.Marshal(body) // card data was refused above: nothing to strip
		if _, err := tx.ExecContext(ctx, `INSERT INTO propostas (numero, company_id, app_id, offer_id, cpf, status, valor_total, request, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, numero, pr.CompanyID, pr.AppID, o.ID, cpf, Recebida, total, string(stored), now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		p := &proposta{Numero: numero, CompanyID: pr.CompanyID, AppID: pr.AppID, OfferID: o.ID, CPF: cpf, Status: Recebida, Total: total, CreatedAt: now}
		if err := addTimeline(ctx, tx, numero, now, Recebida, pr.ClientID, "Proposta recebida", 0); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, pr, "proposta.status", "Status de Proposta", subjectOf(p), keyOf(p),
			map[string]any{"statusAnterior": nil, "statusAtual": Recebida, "statusAtualCodigo": statusCode[Recebida]}); err != nil {
			return err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Bind(ctx, tx, scenario.Resource{Kind: "proposta", Key: b10(numero), Ref: b10(numero), AppID: pr.AppID,
				Named: r.Header.Get(scenario.Header), Body: body}); err != nil {
				return err
			}
		}
		out = map[string]any{"numeroProposta": numero, "status": Recebida, "statusCodigo": statusCode[Recebida], "dataProtocolo": now.Format(time.RFC3339),
			"valorTotal": total}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: status, Body: envelope(out)}, nil
}

// readableDates says in words what the schema's date pattern means.
func readableDates(err error) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	for i, v := range e.Violations {
		last := v.Field[strings.LastIndex(v.Field, ".")+1:]
		if (strings.HasPrefix(last, "DT_") || last == "NASCIMENTO") && strings.HasPrefix(v.Reason, "Does not match pattern") {
			e.Violations[i].Reason = "data inválida: use YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS ou DD-MM-YYYY"
		}
	}
	return e
}

// numeroFor takes PROPOSTA.NUMERO when it is a number the company reserved
// for the offer (returning the proposal it already made, if any), or hands
// out a new one when it is absent or "0".
func (s *Service) numeroFor(ctx context.Context, tx *store.Tx, companyID, offerID string, prop map[string]any) (int64, *proposta, error) {
	n, err := intOf(prop["NUMERO"])
	if err != nil || n == 0 {
		if _, present := prop["NUMERO"]; present && err != nil {
			return 0, nil, errs.Invalidf("PROPOSTA.NUMERO", "NUMERO deve ser \"0\" ou o número reservado")
		}
		id, err := nextNumero(ctx, tx)
		return id, nil, err
	}
	var owner, offer string
	err = tx.QueryRowContext(ctx, `SELECT company_id, offer_id FROM proposal_numbers WHERE numero = ?`, n).Scan(&owner, &offer)
	if errors.Is(err, sql.ErrNoRows) || err == nil && owner != companyID {
		return 0, nil, rule("PROPOSTA.NUMERO", "NUMERO_NAO_RESERVADO", "o número %d não foi reservado por esta empresa (POST /insurer/v1/proposals/{codigo}/next-number)", n)
	}
	if err != nil {
		return 0, nil, err
	}
	if offer != offerID {
		return 0, nil, rule("PROPOSTA.NUMERO", "NUMERO_NAO_RESERVADO", "o número %d foi reservado para o modelo %s, não %s", n, offer, offerID)
	}
	existing, err := loadProposta(ctx, tx, companyID, int64(n))
	return int64(n), existing, err
}

// check applies the offer's rules to the proposal: proponent, plans and
// coverages, capitals and premiums (each VL_CONTRIB must be what
// POST /simulacao prices for its capital), the total, beneficiaries. It
// returns the total premium and every violation.
func (s *Service) check(ctx context.Context, tx *store.Tx, o *catalog.Offer, prop map[string]any) (float64, []errs.Violation) {
	var vs []errs.Violation
	bad := func(field, format string, args ...any) {
		vs = append(vs, errs.Violation{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	dp := obj(prop, "DADOS_PROPONENTE")
	cpf := str(dp, "CPF")
	if err := taxid.CheckCPF(cpf); err != nil {
		bad("PROPOSTA.DADOS_PROPONENTE.CPF", "CPF inválido: %v", err)
	}
	birth, err := parseDate(str(dp, "DT_NASCIMENTO"))
	if err != nil {
		bad("PROPOSTA.DADOS_PROPONENTE.DT_NASCIMENTO", "%v", err)
	}
	cob := obj(prop, "DADOS_COBRANCA")
	per := periodicityID(str(cob, "PERIODICIDADE"))
	if !slices.ContainsFunc(o.Periodicidades, func(d catalog.Dominio) bool { return d.ID == per }) {
		bad("PROPOSTA.DADOS_COBRANCA.PERIODICIDADE", "o modelo %s não aceita a periodicidade %s", o.ID, orDefault(str(cob, "PERIODICIDADE"), "MENSAL"))
	}
	sexo := 1
	if str(dp, "SEXO") == "FEMININO" {
		sexo = 2
	}
	renda, _ := moneyOf(dp["RENDA_MENSAL"])
	uf := ""
	if ends := items(obj(dp, "ENDERECOS")["ENDERECO"]); len(ends) > 0 {
		uf = str(ends[0], "ESTADO")
	}
	fumante := dp["FUMANTE"] == true || dp["FUMANTE"] == "S" || dp["FUMANTE"] == "true"
	profile := catalog.Profile{BirthDate: birth, At: s.Clock.Now(), SexoID: sexo, Renda: renda, ProfissaoCBO: str(obj(dp, "PROFISSAO"), "CODIGO"), UF: uf, Fumante: fumante}

	total := 0.0
	planos := items(obj(prop, "PLANOS")["PLANO"])
	for i, plano := range planos {
		pf := fmt.Sprintf("PROPOSTA.PLANOS.PLANO.%d", i)
		pid, _ := intOf(plano["CODIGO"])
		prod := productOf(o, pid)
		if prod == nil {
			bad(pf+".CODIGO", "o produto %v não faz parte do modelo de proposta %s", plano["CODIGO"], o.ID)
			continue
		}
		covs := items(obj(plano, "COBERTURAS")["COBERTURA"])
		got := map[int]bool{}
		for j, c := range covs {
			cf := fmt.Sprintf("%s.COBERTURAS.COBERTURA.%d", pf, j)
			item, _ := intOf(c["CODIGO"])
			cov := coverageOf(prod, item)
			if cov == nil {
				var items []string
				for _, c := range prod.Coberturas {
					items = append(items, fmt.Sprint(c.ItemProdutoID))
				}
				bad(cf+".CODIGO", "a cobertura %v não faz parte do produto %d: CODIGO é o itemProdutoId da cobertura (%s)", c["CODIGO"], pid, strings.Join(items, ", "))
				continue
			}
			if got[item] {
				bad(cf+".CODIGO", "a cobertura %d aparece duas vezes", item)
				continue
			}
			got[item] = true
			capital, cerr := moneyOf(c["VL_COBERTURA"])
			premio, perr := moneyOf(c["VL_CONTRIB"])
			if cerr != nil || perr != nil {
				bad(cf, "VL_COBERTURA e VL_CONTRIB devem ser números")
				continue
			}
			if birth.IsZero() {
				continue
			}
			q, limits := catalog.Price(o, profile, capital, per)
			for _, l := range limits {
				if l.ItemProdutoID == item || (l.ItemProdutoID == 0 && l.ProdutoID == pid) || (l.ItemProdutoID == 0 && l.ProdutoID == 0 && l.Code != catalog.LimitTicketMinimo) {
					bad(cf+".VL_COBERTURA", "%s (%s)", l.Message, l.Code)
				}
			}
			want, found := quoted(q, pid, item)
			if !found {
				continue
			}
			if math.Abs(want-premio) > 0.011 {
				bad(cf+".VL_CONTRIB", "VL_CONTRIB %.2f não confere com o prêmio %.2f que a simulação dá para capital %.2f, idade %d e periodicidade %s",
					premio, want, capital, q.Idade, orDefault(str(cob, "PERIODICIDADE"), "MENSAL"))
			}
			total += premio
		}
		for _, cov := range prod.Coberturas {
			if cov.Obrigatoria && !got[cov.ItemProdutoID] {
				bad(pf+".COBERTURAS", "a cobertura obrigatória %d (%s) do produto %d falta", cov.ItemProdutoID, cov.Descricao, pid)
			}
		}
	}
	total = round2(total)
	if vt, ok := obj(prop, "PLANOS")["VL_TOTAL"]; ok {
		if v, err := moneyOf(vt); err == nil && math.Abs(v-total) > 0.011 {
			bad("PROPOSTA.PLANOS.VL_TOTAL", "VL_TOTAL %.2f não é a soma dos VL_CONTRIB (%.2f)", v, total)
		}
	}
	if bs := items(obj(prop, "BENEFICIARIOS")["BENEFICIARIO"]); len(bs) > 0 {
		sum := 0.0
		for _, b := range bs {
			v, _ := moneyOf(b["PARTICIPACAO"])
			sum += v
		}
		if math.Abs(sum-100) > 0.001 {
			bad("PROPOSTA.BENEFICIARIOS.BENEFICIARIO", "as participações dos beneficiários somam %g%%, não 100%%", round2(sum))
		}
	}
	return total, vs
}

func productOf(o *catalog.Offer, id int) *catalog.Produto {
	for i := range o.Produtos {
		if o.Produtos[i].ID == id {
			return &o.Produtos[i]
		}
	}
	return nil
}

func coverageOf(p *catalog.Produto, item int) *catalog.Cobertura {
	for i := range p.Coberturas {
		if p.Coberturas[i].ItemProdutoID == item {
			return &p.Coberturas[i]
		}
	}
	return nil
}

func quoted(q catalog.Quote, produto, item int) (float64, bool) {
	for _, p := range q.Produtos {
		if p.IDProduto != produto {
			continue
		}
		for _, c := range p.Coberturas {
			if c.ItemProdutoID == item {
				return c.Premio, true
			}
		}
	}
	return 0, false
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

var billingIDs = map[string]int{"BOLETO": 1, "CARTAO": 2, "DEBITO": 3, "FOLHA": 4}

// checkBilling checks DADOS_COBRANCA for its method: one the offer
// accepts, a due day it offers, and the method's own data complete; a card
// only as a valid pre-authorisation code.
func (s *Service) checkBilling(ctx context.Context, tx *store.Tx, o *catalog.Offer, companyID, cpf string, prop map[string]any, total float64, numero int64) error {
	return s.checkBillingBlock(ctx, tx, o, companyID, cpf, obj(prop, "DADOS_COBRANCA"), "PROPOSTA.DADOS_COBRANCA", total, numero)
}

// checkBillingBlock checks one DADOS_COBRANCA block, whose fields are
// named under prefix (a proposal's, or an enrollment's change of billing
// method at the top level).
func (s *Service) checkBillingBlock(ctx context.Context, tx *store.Tx, o *catalog.Offer, companyID, cpf string, cob map[string]any, prefix string, total float64, numero int64) error {
	tipo := str(cob, "TIPO_COBRANCA")
	f := prefix
	field := func(name string) string {
		if f == "" {
			return name
		}
		return f + "." + name
	}
	if !slices.ContainsFunc(o.FormasPagamento, func(d catalog.Dominio) bool { return d.ID == billingIDs[tipo] }) {
		return rule(field("TIPO_COBRANCA"), "FORMA_DE_COBRANCA_INVALIDA", "o modelo %s não aceita cobrança por %s", o.ID, tipo)
	}
	if tipo != "FOLHA" {
		dia, err := intOf(cob["DIA_VENCIMENTO"])
		if err != nil || !slices.Contains(o.DiasVencimento, dia) {
			return rule(field("DIA_VENCIMENTO"), "DIA_VENCIMENTO_INVALIDO", "DIA_VENCIMENTO deve ser um dos dias do modelo %s: %v", o.ID, o.DiasVencimento)
		}
	}
	var missing []string
	need := func(block map[string]any, prefix string, fields ...string) {
		for _, k := range fields {
			if str(block, k) == "" {
				missing = append(missing, prefix+k)
			}
		}
	}
	switch tipo {
	case "CARTAO":
		cartao := obj(cob, "CARTAO")
		need(cartao, field("CARTAO")+".", "NUM_PRE_AUTORIZACAO")
		if len(missing) == 0 {
			if e := usePreauth(ctx, tx, companyID, cpf, str(cartao, "NUM_PRE_AUTORIZACAO"), total, numero); e != nil {
				return e
			}
		}
	case "DEBITO":
		need(obj(cob, "CONTA_CORRENTE"), field("CONTA_CORRENTE")+".", "BANCO", "AGENCIA", "CONTA", "DIGITO_CONTA")
	case "FOLHA":
		need(obj(cob, "CONSIGNACAO"), field("CONSIGNACAO")+".", "MATRICULA", "ORGAO")
	}
	if len(missing) > 0 {
		var vs []errs.Violation
		for _, m := range missing {
			vs = append(vs, errs.Violation{Field: m, Reason: "obrigatório para cobrança por " + tipo})
		}
		return rules("DADOS_DE_COBRANCA_INCOMPLETOS", vs)
	}
	return nil
}

// checkSignature requires ASSINATURA: a signature-token code issued for
// the proponent's CPF (single use, unexpired), or a signed document's id.
func (s *Service) checkSignature(ctx context.Context, tx *store.Tx, companyID, cpf string, prop map[string]any, numero int64, now time.Time) error {
	a, ok := prop["ASSINATURA"].(map[string]any)
	if !ok {
		return rule("PROPOSTA.ASSINATURA", "ASSINATURA_AUSENTE",
			"a proposta precisa ser assinada: ASSINATURA {TIPO: TOKEN, TOKEN: <código enviado por POST /access/v1/token/user>} ou {TIPO: DOCUMENTO, ID_DOCUMENTO}")
	}
	switch str(a, "TIPO") {
	case "TOKEN":
		code := str(a, "TOKEN")
		if code == "" {
			return rule("PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA", "informe o código do token de assinatura")
		}
		if e := useToken(ctx, tx, companyID, cpf, code, numero, now); e != nil {
			return e
		}
	case "DOCUMENTO":
		if strings.TrimSpace(str(a, "ID_DOCUMENTO")) == "" {
			return rule("PROPOSTA.ASSINATURA.ID_DOCUMENTO", "ASSINATURA_INVALIDA", "informe o ID_DOCUMENTO da proposta assinada")
		}
	}
	return nil
}
