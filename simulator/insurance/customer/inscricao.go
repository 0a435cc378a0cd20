package customer

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The enrollment states (SUMMARY §5.3).
const (
	InscAtiva                  = "ATIVA"
	InscSuspensa               = "SUSPENSA"
	InscCancelamentoSolicitado = "CANCELAMENTO_SOLICITADO"
	InscCancelada              = "CANCELADA"
	InscEncerrada              = "ENCERRADA"
)

// inscricaoMachine is the life of an enrollment. Its moves emit no event
// of their own: the customer cycle's events (Valor Pago Alterado, …) say
// what changed, with the data a partner needs.
var inscricaoMachine = &statemachine.Machine{
	Resource: "inscricao",
	Table:    "inscricoes",
	Initial:  InscAtiva,
	Edges: map[string][]statemachine.Edge{
		InscAtiva:                  {{To: InscSuspensa}, {To: InscCancelamentoSolicitado}, {To: InscCancelada}, {To: InscEncerrada}},
		InscSuspensa:               {{To: InscAtiva}, {To: InscCancelamentoSolicitado}, {To: InscCancelada}, {To: InscEncerrada}},
		InscCancelamentoSolicitado: {{To: InscCancelada}},
	},
}

// indiceReajuste is the index enrollments readjust by (OPIN
// coverageUpdateIndex; SUMMARY §3.9 proposes IPCA-IBGE).
const indiceReajuste = "IPCA-IBGE"

// Inscricao is a stored enrollment. Body is the document the API answers;
// its money is read into Coberturas and ValorContribuicao, which are
// written back into it when the enrollment is stored.
type Inscricao struct {
	ID        int64
	Numero    int64
	CompanyID string
	AppID     string
	CPF       string
	Status    string
	Body      map[string]any
	// OfferID and ProdutoID are what the enrollment was sold as.
	OfferID   string
	ProdutoID int
	// Coberturas are the coverages with their capitals and premiums.
	Coberturas []sale.Cobertura
	// ValorContribuicao is the premium per period.
	ValorContribuicao money.Cents
	CreatedAt         time.Time
}

// Capital is the sum of the coverages' capitals.
func (in *Inscricao) Capital() money.Cents {
	var t money.Cents
	for _, c := range in.Coberturas {
		t += c.CapitalSegurado
	}
	return t
}

// Ended reports whether the enrollment is over (no cover left).
func (in *Inscricao) Ended() bool { return in.Status == InscCancelada || in.Status == InscEncerrada }

// Inicio is the date the cover started.
func (in *Inscricao) Inicio() string { return wire.Str(in.Body, "dataInicioVigencia") }

func (in *Inscricao) subject() map[string]any {
	return map[string]any{"inscricaoId": in.ID, "numeroProposta": in.Numero}
}

func (in *Inscricao) key() string { return fmt.Sprintf("inscricao:%d", in.ID) }

// readBody reads what the code works with from the stored document.
func (in *Inscricao) readBody() error {
	in.OfferID = wire.Str(in.Body, "codigoModeloProposta")
	in.ProdutoID, _ = wire.Int(wire.Obj(in.Body, "produto")["idProduto"])
	var err error
	if in.ValorContribuicao, err = wire.Money(in.Body["valorContribuicao"]); err != nil {
		return fmt.Errorf("inscricao %d valorContribuicao: %w", in.ID, err)
	}
	in.Coberturas = nil
	for _, c := range wire.Items(in.Body["coberturas"]) {
		var cov sale.Cobertura
		cov.ItemProdutoID, _ = wire.Int(c["itemProdutoId"])
		cov.CapitalSegurado, _ = wire.Money(c["capitalSegurado"])
		cov.Premio, _ = wire.Money(c["premio"])
		in.Coberturas = append(in.Coberturas, cov)
	}
	return nil
}

// writeBody puts status and money back into the document.
func (in *Inscricao) writeBody() {
	in.Body["status"] = in.Status
	in.Body["coberturas"] = in.Coberturas
	in.Body["valorContribuicao"] = in.ValorContribuicao
}

// Enroll opens the enrollment of one plan of an implanted proposal, ATIVA,
// and starts its billing (sale.Enrollments).
func (s *Service) Enroll(ctx context.Context, tx *store.Tx, p sale.Plano) (int64, error) {
	in := &Inscricao{Numero: p.Numero, CompanyID: p.CompanyID, AppID: p.AppID, CPF: p.CPF, Status: InscAtiva, OfferID: p.OfferID,
		ProdutoID: p.ProdutoID, Coberturas: p.Coberturas, ValorContribuicao: p.ValorContribuicao, CreatedAt: p.At}
	in.Body = map[string]any{
		"numeroProposta": p.Numero, "cpf": p.CPF, "codigoModeloProposta": p.OfferID,
		"produto":       map[string]any{"idProduto": p.ProdutoID, "descricao": p.Produto},
		"periodicidade": p.Periodicidade,
		"formaCobranca": p.FormaCobranca,
		// Civil dates are Brasília's, as the insurer's: at 23:00 there
		// the UTC date is already tomorrow's.
		"dataInicioVigencia":  p.At.In(wire.Brasilia).Format(time.DateOnly),
		"competenciaReajuste": p.At.In(wire.Brasilia).AddDate(1, 0, 0).Format("01/2006"),
		"indiceReajuste":      indiceReajuste,
	}
	if p.DiaVencimento > 0 { // payroll (FOLHA) has no due day
		in.Body["diaVencimento"] = p.DiaVencimento
	}
	in.writeBody()
	if err := insertInscricao(ctx, tx, in); err != nil {
		return 0, err
	}
	return in.ID, s.startBilling(ctx, tx, in.CompanyID, in.ID, p.At)
}

// InscricoesOf lists the ids of the enrollments of the company's proposal
// numero (sale.Enrollments).
func (s *Service) InscricoesOf(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]int64, error) {
	return inscricaoIDsOf(ctx, tx, companyID, numero)
}

// Inscricao reads the company's enrollment id; nil when it has none.
func (s *Service) Inscricao(ctx context.Context, tx *store.Tx, companyID string, id int64) (*Inscricao, error) {
	return inscricoes.Of(ctx, tx, companyID, id)
}

// InscricoesDaProposta reads the enrollments of the company's proposal
// numero, one per plan.
func (s *Service) InscricoesDaProposta(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]*Inscricao, error) {
	return loadInscricoesOf(ctx, tx, companyID, numero)
}

// InscricaoAnyCompany reads enrollment id of whichever company: for the
// insurer's own work (a benefit's regulation), never for a partner's
// request.
func (s *Service) InscricaoAnyCompany(ctx context.Context, tx *store.Tx, id int64) (*Inscricao, error) {
	return inscricoes.AnyCompany(ctx, tx, id)
}

// mustInscricao reads the company's enrollment id, or the 404 to answer.
func mustInscricao(ctx context.Context, tx *store.Tx, companyID string, id int64) (*Inscricao, error) {
	return wire.Found(inscricoes.Of(ctx, tx, companyID, id))(errNoInscricao(id))
}

func errNoInscricao(id int64) error {
	return wire.NotFound("INSCRICAO_NAO_ENCONTRADA", "inscrição %d não encontrada", id)
}

// inscricaoFilter selects the company's enrollments: of a CPF, of a
// proposal; empty fields select all.
type inscricaoFilter struct{ CPF, Numero string }

// listInscricoesOf lists the company's enrollments as stored, oldest
// first.
func (s *Service) listInscricoesOf(ctx context.Context, companyID string, f inscricaoFilter) ([]rawBody, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]rawBody, error) { return listInscricoes(ctx, tx, companyID, f) })
}

// inscricaoBody reads the company's enrollment id as stored.
func (s *Service) inscricaoBody(ctx context.Context, companyID string, id int64) (rawBody, error) {
	b, err := wire.Read(ctx, s.DB, func(tx *store.Tx) (*rawBody, error) {
		return wire.Found(loadInscricaoBody(ctx, tx, companyID, id))(errNoInscricao(id))
	})
	if err != nil {
		return nil, err
	}
	return *b, nil
}

// save writes the enrollment's document (its status unchanged).
func (s *Service) save(ctx context.Context, tx *store.Tx, in *Inscricao) error {
	in.writeBody()
	return storeInscricao(ctx, tx, in, s.NowOf(in.CompanyID))
}

// moveInscricao changes an enrollment's status through its machine,
// storing its document with it.
func (s *Service) moveInscricao(ctx context.Context, tx *store.Tx, in *Inscricao, to string) error {
	from := in.Status
	_, err := s.Machines.Apply(ctx, tx, statemachine.Move{Machine: inscricaoMachine, From: from, To: to,
		Store: func(ctx context.Context, tx *store.Tx) error {
			in.Status = to
			in.writeBody()
			return storeInscricaoStatus(ctx, tx, in, s.NowOf(in.CompanyID))
		}})
	if err != nil {
		in.Status = from
	}
	return err
}

// valorPagoAlterado emits Valor Pago Alterado (SUMMARY §6) for a change of
// premium and/or capital.
func (s *Service) valorPagoAlterado(ctx context.Context, tx *store.Tx, in *Inscricao, motivo string, antes, depois, capAntes, capDepois money.Cents, extra map[string]any) error {
	data := map[string]any{"motivo": motivo, "valorAnterior": antes, "valorNovo": depois,
		"capitalAnterior": capAntes, "capitalNovo": capDepois, "vigenciaAPartirDe": s.NowOf(in.CompanyID).In(wire.Brasilia).Format(time.DateOnly)}
	for k, v := range extra {
		data[k] = v
	}
	return s.EmitFor(ctx, tx, in.AppID, wire.Event{Type: "inscricao.valor_pago_alterado", Name: "Valor Pago Alterado", Subject: in.subject(), Key: in.key(), Data: data})
}

// End closes an enrollment for good: CANCELADA (cancellation) or
// ENCERRADA (a paid terminating benefit, the end of the term). Open
// charges are cancelled; inside the chargeback window, a cancellation
// reverses the commissions; Valor Pago Alterado says the premium is now
// zero. An enrollment already over is left as it is.
func (s *Service) End(ctx context.Context, tx *store.Tx, id int64, to, motivo string) error {
	in, err := inscricoes.AnyCompany(ctx, tx, id)
	if err != nil {
		return err
	}
	if in == nil {
		return errNoInscricao(id)
	}
	if in.Ended() {
		return nil
	}
	antes, capAntes := in.ValorContribuicao, in.Capital()
	if err := s.moveInscricao(ctx, tx, in, to); err != nil {
		return err
	}
	if err := cobrancasDe.MoveAll(ctx, tx, s.Machines, in.ID, s.NowOf(in.CompanyID), CobCancelada, CobEmitida, CobRecusada); err != nil {
		return err
	}
	if to == InscCancelada {
		if err := s.reverseCommissions(ctx, tx, in, motivo); err != nil {
			return err
		}
	}
	return s.valorPagoAlterado(ctx, tx, in, motivo, antes, 0, capAntes, 0, nil)
}
