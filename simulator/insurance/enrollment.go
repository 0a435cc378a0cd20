package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
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

// inscricao is a stored enrollment; Body is what the API answers.
type inscricao struct {
	ID        int64
	Numero    int64
	CompanyID string
	AppID     string
	CPF       string
	Status    string
	Body      map[string]any
	CreatedAt time.Time
}

func loadInscricao(ctx context.Context, tx *store.Tx, companyID string, id int64) (*inscricao, error) {
	var in inscricao
	var body string
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT id, numero, company_id, app_id, cpf, status, body, created_at FROM inscricoes WHERE id = ? AND (? = '' OR company_id = ?)`,
		id, companyID, companyID).Scan(&in.ID, &in.Numero, &in.CompanyID, &in.AppID, &in.CPF, &in.Status, &body, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(body), &in.Body); err != nil {
		return nil, fmt.Errorf("inscricao %d: %w", id, err)
	}
	in.CreatedAt = time.Unix(0, at).UTC()
	return &in, nil
}

func (s *Service) mustInscricao(ctx context.Context, tx *store.Tx, r *http.Request) (*inscricao, error) {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if err != nil {
		return nil, errs.Invalidf("id", "id de inscrição inválido")
	}
	in, err := loadInscricao(ctx, tx, principal(r).CompanyID, id)
	if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, errs.Errorf(errs.NotFound, "inscrição %d não encontrada", id).WithType("INSCRICAO_NAO_ENCONTRADA")
	}
	return in, nil
}

// saveInscricao writes the body back, status included, so GET answers what
// the cycle did.
func (s *Service) saveInscricao(ctx context.Context, tx *store.Tx, in *inscricao) error {
	in.Body["status"] = in.Status
	b, _ := json.Marshal(in.Body)
	_, err := tx.ExecContext(ctx, `UPDATE inscricoes SET status = ?, body = ?, updated_at = ? WHERE id = ?`, in.Status, string(b), s.Clock.Now().UnixNano(), in.ID)
	return err
}

// moveInscricao changes an enrollment's status through its machine.
func (s *Service) moveInscricao(ctx context.Context, tx *store.Tx, in *inscricao, to string) error {
	if _, err := inscricaoMachine.Check(in.Status, to); err != nil {
		return err
	}
	in.Status = to
	return s.saveInscricao(ctx, tx, in)
}

func (s *Service) ownerOf(ctx context.Context, tx *store.Tx, appID string) (auth.Principal, error) {
	a, err := auth.AppTx(ctx, tx, appID)
	if err != nil {
		return auth.Principal{}, err
	}
	return auth.Principal{AppID: a.ID, CompanyID: a.CompanyID, CNPJ: a.CNPJ, ClientID: a.ClientID}, nil
}

func inscSubject(in *inscricao) map[string]any {
	return map[string]any{"inscricaoId": in.ID, "numeroProposta": in.Numero}
}
func inscKey(in *inscricao) string { return fmt.Sprintf("inscricao:%d", in.ID) }

// premio is the enrollment's current premium per period.
func premio(in *inscricao) float64 { v, _ := in.Body["valorContribuicao"].(float64); return v }

// capitals returns the enrollment's coverages.
func coverages(in *inscricao) []map[string]any { return items(in.Body["coberturas"]) }

func totalCapital(in *inscricao) float64 {
	t := 0.0
	for _, c := range coverages(in) {
		v, _ := c["capitalSegurado"].(float64)
		t += v
	}
	return t
}

// valorPagoAlterado emits Valor Pago Alterado (SUMMARY §6) for a change of
// premium and/or capital.
func (s *Service) valorPagoAlterado(ctx context.Context, tx *store.Tx, in *inscricao, motivo string, antes, depois, capAntes, capDepois float64, extra map[string]any) error {
	own, err := s.ownerOf(ctx, tx, in.AppID)
	if err != nil {
		return err
	}
	data := map[string]any{"motivo": motivo, "valorAnterior": round2(antes), "valorNovo": round2(depois),
		"capitalAnterior": round2(capAntes), "capitalNovo": round2(capDepois), "vigenciaAPartirDe": s.Clock.Now().Format(time.DateOnly)}
	for k, v := range extra {
		data[k] = v
	}
	return s.emit(ctx, tx, own, "inscricao.valor_pago_alterado", "Valor Pago Alterado", inscSubject(in), inscKey(in), data)
}

// endEnrollment closes an enrollment for good: CANCELADA (cancellation,
// default) or ENCERRADA (a paid terminating benefit, the end of the term).
// Open charges are cancelled; inside the chargeback window, commissions are
// reversed; Valor Pago Alterado says the premium is now zero.
func (s *Service) endEnrollment(ctx context.Context, tx *store.Tx, inscricaoID int64, to, motivo string) error {
	in, err := loadInscricao(ctx, tx, "", inscricaoID)
	if err != nil {
		return err
	}
	if in == nil {
		return errs.Errorf(errs.NotFound, "inscrição %d não encontrada", inscricaoID)
	}
	if in.Status == InscCancelada || in.Status == InscEncerrada {
		return nil
	}
	antes, capAntes := premio(in), totalCapital(in)
	if err := s.moveInscricao(ctx, tx, in, to); err != nil {
		return err
	}
	if err := s.cancelOpenCharges(ctx, tx, in); err != nil {
		return err
	}
	if to == InscCancelada {
		if err := s.reverseCommissions(ctx, tx, in, motivo); err != nil {
			return err
		}
	}
	return s.valorPagoAlterado(ctx, tx, in, motivo, antes, 0, capAntes, 0, nil)
}
