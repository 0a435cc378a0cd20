package insurance

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// usuarioRegulacao is who acts for the insurer in a benefit's timeline.
const usuarioRegulacao = "REGULACAO"

// moveBeneficio changes a benefit's status through its machine, with
// Status de Benefício and a timeline entry. motivo goes into the event and
// the timeline.
func (s *Service) moveBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, to, motivo, usuario string) error {
	own, err := s.ownerOf(ctx, tx, b.AppID)
	if err != nil {
		return err
	}
	from := b.Status
	data := map[string]any{"statusAnterior": from, "statusAtual": to, "statusOpin": statusOpin[to]}
	if motivo != "" {
		data["motivo"] = motivo
	}
	now := s.Clock.Now()
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: beneficioMachine, From: from, To: to, AppID: own.AppID, CNPJ: own.CNPJ,
		Subject: benSubject(b), SubjectKey: benKey(b), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET status = ?, updated_at = ? WHERE id = ?`, to, now.UnixNano(), b.ID); err != nil {
				return err
			}
			if from == to {
				return nil // a further pending: its own entry says it
			}
			desc := "Benefício " + to
			if motivo != "" {
				desc += ": " + motivo
			}
			return addBenTimeline(ctx, tx, b.ID, now, to, usuario, desc, 0)
		},
	})
	if err != nil {
		return err
	}
	b.Status = to
	return nil
}

// raiseBenPendencia opens a pending of documents on a benefit under
// regulation (moving it to PENDENTE) with Pendência de Benefício. Answered
// pendings it replaces are rejected: the answer was not enough.
func (s *Service) raiseBenPendencia(ctx context.Context, tx *store.Tx, b *beneficio, codigo, grupo, descricao string, exigidos []string) (int64, error) {
	if b.Status != BenEmRegulacao && b.Status != BenPendente {
		return 0, errs.Errorf(errs.Conflict, "beneficio %d is %s: pendings are raised during regulation", b.ID, b.Status)
	}
	now := s.Clock.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE beneficio_pendencias SET status = ?, updated_at = ? WHERE beneficio_id = ? AND status = ?`,
		Rejeitada, now.UnixNano(), b.ID, Respondida); err != nil {
		return 0, fmt.Errorf("reject answered pendings of beneficio %d: %w", b.ID, err)
	}
	if grupo == "" {
		grupo = "DOCUMENTACAO"
	}
	if exigidos == nil {
		exigidos = []string{}
	}
	ex, _ := json.Marshal(exigidos)
	res, err := tx.ExecContext(ctx, `INSERT INTO beneficio_pendencias (beneficio_id, status, grupo, codigo, descricao, documentos_exigidos, responsavel, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, b.ID, Aberta, grupo, codigo, descricao, string(ex), "COMUNICANTE", now.UnixNano(), now.UnixNano())
	if err != nil {
		return 0, fmt.Errorf("insert pending of beneficio %d: %w", b.ID, err)
	}
	id, _ := res.LastInsertId()
	if err := s.moveBeneficio(ctx, tx, b, BenPendente, "", usuarioRegulacao); err != nil {
		return 0, err
	}
	if err := addBenTimeline(ctx, tx, b.ID, now, BenPendente, usuarioRegulacao, "Pendência "+codigo+": "+descricao, id); err != nil {
		return 0, err
	}
	own, err := s.ownerOf(ctx, tx, b.AppID)
	if err != nil {
		return 0, err
	}
	subject := benSubject(b)
	subject["pendenciaId"] = id
	return id, s.emit(ctx, tx, own, "beneficio.pendencia", "Pendência de Benefício", subject, benKey(b), map[string]any{
		"codigo": codigo, "grupo": grupo, "descricao": descricao, "documentosExigidos": exigidos, "responsavel": "COMUNICANTE",
		"dataPendencia": now.Format(time.RFC3339), "prazo": now.AddDate(0, 0, 30).Format(time.DateOnly),
	})
}

// resolveBenAnswered accepts the answered pendings when regulation goes
// on; a pending still unanswered holds it.
func (s *Service) resolveBenAnswered(ctx context.Context, tx *store.Tx, b *beneficio) error {
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM beneficio_pendencias WHERE beneficio_id = ? AND status = ?`, b.ID, Aberta).Scan(&open); err != nil {
		return err
	}
	if open > 0 {
		return errs.Errorf(errs.Conflict, "beneficio %d has %d pending(s) still unanswered", b.ID, open)
	}
	_, err := tx.ExecContext(ctx, `UPDATE beneficio_pendencias SET status = ?, updated_at = ? WHERE beneficio_id = ? AND status = ?`,
		Resolvida, s.Clock.Now().UnixNano(), b.ID, Respondida)
	return err
}

// closeBenPendencias cancels what is still open when regulation ends.
func (s *Service) closeBenPendencias(ctx context.Context, tx *store.Tx, b *beneficio) error {
	_, err := tx.ExecContext(ctx, `UPDATE beneficio_pendencias SET status = ?, updated_at = ? WHERE beneficio_id = ? AND status IN (?, ?)`,
		PendCancelada, s.Clock.Now().UnixNano(), b.ID, Aberta, Respondida)
	return err
}

// The OPIN denialJustification values (SUMMARY §4).
var motivosRecusa = []string{"RISCO_EXCLUIDO", "RISCO_AGRAVADO", "SEM_DOCUMENTACAO", "DOCUMENTACAO_INCOMPLETA", "PRESCRICAO", "FORA_COBERTURA", "OUTROS"}

// motivoRecusa reads a refuse step's reason as a denialJustification. A
// reason outside the list is kept in words under OUTROS rather than lost.
func motivoRecusa(reason, descricao string) (string, string) {
	if slices.Contains(motivosRecusa, reason) {
		return reason, descricao
	}
	if reason == "" {
		return "OUTROS", descricao
	}
	if descricao == "" {
		return "OUTROS", reason
	}
	return "OUTROS", reason + ": " + descricao
}

// refuseBeneficio ends regulation without payment: RECUSADO, with Status
// de Benefício and Beneficio Recusado.
func (s *Service) refuseBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, motivo, descricao string) error {
	if b.Status != BenEmRegulacao && b.Status != BenPendente {
		return errs.Errorf(errs.Conflict, "beneficio %d is %s: only a benefit under regulation is refused", b.ID, b.Status)
	}
	if err := s.closeBenPendencias(ctx, tx, b); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET motivo_recusa = ?, descricao_recusa = ? WHERE id = ?`, motivo, descricao, b.ID); err != nil {
		return fmt.Errorf("refuse beneficio %d: %w", b.ID, err)
	}
	if err := s.moveBeneficio(ctx, tx, b, BenRecusado, motivo, usuarioRegulacao); err != nil {
		return err
	}
	b.MotivoRecusa, b.DescricaoRecusa = motivo, descricao
	own, err := s.ownerOf(ctx, tx, b.AppID)
	if err != nil {
		return err
	}
	return s.emit(ctx, tx, own, "beneficio.recusado", "Beneficio Recusado", benSubject(b), benKey(b),
		map[string]any{"motivoRecusa": motivo, "descricao": descricao})
}

// reopen moves a refused benefit to REABERTO (the refusal stays in the
// timeline, no longer on the benefit) and tells its scenario.
func (s *Service) reopen(ctx context.Context, tx *store.Tx, b *beneficio, justificativa, usuario string) error {
	if _, err := beneficioMachine.Check(b.Status, BenReaberto); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET motivo_recusa = '', descricao_recusa = '' WHERE id = ?`, b.ID); err != nil {
		return fmt.Errorf("reopen beneficio %d: %w", b.ID, err)
	}
	if err := s.moveBeneficio(ctx, tx, b, BenReaberto, justificativa, usuario); err != nil {
		return err
	}
	b.MotivoRecusa, b.DescricaoRecusa = "", ""
	if s.Scenarios != nil {
		return s.Scenarios.Trigger(ctx, tx, "beneficio", b10(b.ID), "reopened")
	}
	return nil
}

// payBeneficio pays an approved benefit: PAGO, the value split among the
// recipients, Status de Benefício and Beneficio Pago. A paid death ends
// the enrollment (SUMMARY §5.3: ATIVA → ENCERRADA). valor, when > 0,
// replaces the claimed capital (a partial indemnity).
func (s *Service) payBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, valor float64) error {
	if b.Status != BenAprovado {
		return errs.Errorf(errs.Conflict, "beneficio %d is %s: only an APROVADO benefit is paid", b.ID, b.Status)
	}
	if valor <= 0 {
		for _, c := range b.Coberturas {
			valor += c.CapitalSegurado
		}
	}
	valor = round2(valor)
	recipients, err := s.recipientsOf(ctx, tx, b)
	if err != nil {
		return err
	}
	shares := make([]float64, len(recipients))
	for i, r := range recipients {
		shares[i] = r.Percentual
	}
	amounts := splitPayout(valor, shares)
	pcts := percentages(shares)
	for i := range recipients {
		recipients[i].Valor, recipients[i].Percentual = amounts[i], pcts[i]
	}
	now := s.Clock.Now()
	rj, _ := json.Marshal(recipients)
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET valor = ?, pago_em = ?, beneficiarios = ? WHERE id = ?`, valor, now.UnixNano(), string(rj), b.ID); err != nil {
		return fmt.Errorf("pay beneficio %d: %w", b.ID, err)
	}
	if err := s.moveBeneficio(ctx, tx, b, BenPago, "", usuarioRegulacao); err != nil {
		return err
	}
	b.Valor, b.DataPagamento, b.Beneficiarios = valor, now.Format(time.DateOnly), recipients
	own, err := s.ownerOf(ctx, tx, b.AppID)
	if err != nil {
		return err
	}
	if err := s.emit(ctx, tx, own, "beneficio.pago", "Beneficio Pago", benSubject(b), benKey(b),
		map[string]any{"valor": valor, "dataPagamento": b.DataPagamento, "beneficiarios": recipients}); err != nil {
		return err
	}
	if causas[b.Causa].Encerra {
		return s.endEnrollment(ctx, tx, b.InscricaoID, InscEncerrada, "BENEFICIO_PAGO")
	}
	return nil
}

// recipientsOf says who receives a benefit, with their shares (weights,
// not yet percentages): the insured for a living cause, the notice's
// communicant for a funeral, else the proposal's beneficiaries of the
// enrollment's plan, or the legal heirs when it named none.
func (s *Service) recipientsOf(ctx context.Context, tx *store.Tx, b *beneficio) ([]beneficiario, error) {
	p, err := s.Sale.PropostaAnyCompany(ctx, tx, b.Numero)
	if err != nil {
		return nil, err
	}
	prop := map[string]any{}
	if p != nil {
		prop = obj(p.Request, "PROPOSTA")
	}
	switch causas[b.Causa].Para {
	case paraSegurado:
		return []beneficiario{{CPF: b.CPF, Nome: str(obj(prop, "DADOS_PROPONENTE"), "NOME"), Parentesco: "SEGURADO", Percentual: 100}}, nil
	case paraComunicante:
		c := obj(b.Aviso, "comunicante")
		r := beneficiario{Nome: str(c, "nome"), Parentesco: str(c, "relacao"), Percentual: 100}
		if str(c, "tipoDocumento") == "CPF" {
			r.CPF = str(c, "documento")
		}
		return []beneficiario{r}, nil
	}
	var produto int
	if in, err := loadInscricao(ctx, tx, "", b.InscricaoID); err != nil {
		return nil, err
	} else if in != nil {
		produto, _ = intOf(obj(in.Body, "produto")["idProduto"])
	}
	return beneficiariosOf(items(obj(prop, "BENEFICIARIOS")["BENEFICIARIO"]), produto), nil
}

// herdeirosLegais is who receives a death benefit when the proposal named
// no beneficiary (SUMMARY §3.5: an empty list means the legal heirs).
const herdeirosLegais = "HERDEIROS LEGAIS"

// beneficiariosOf reads BENEFICIARIOS.BENEFICIARIO for the plan produto: a
// beneficiary tied to another plan (CD_PLANO) is not one of this plan's.
func beneficiariosOf(list []map[string]any, produto int) []beneficiario {
	var out []beneficiario
	for _, it := range list {
		if plano, err := intOf(it["CD_PLANO"]); err == nil && plano != 0 && produto != 0 && plano != produto {
			continue
		}
		share, err := moneyOf(it["PARTICIPACAO"])
		if err != nil || share <= 0 {
			continue
		}
		out = append(out, beneficiario{CPF: digits(str(it, "CPF")), Nome: str(it, "NOME"), Parentesco: str(it, "PARENTESCO"), Percentual: share})
	}
	if len(out) == 0 {
		return []beneficiario{{Nome: herdeirosLegais, Percentual: 100}}
	}
	return out
}

// splitPayout divides total among shares (weights of any sum) in cents,
// the cents left by rounding down going to the largest remainders, so the
// parts always add up to total.
func splitPayout(total float64, shares []float64) []float64 {
	out := make([]float64, len(shares))
	sum := 0.0
	for _, s := range shares {
		sum += s
	}
	if len(shares) == 0 || sum <= 0 {
		return out
	}
	cents := int64(math.Round(total * 100))
	parts := make([]int64, len(shares))
	rems := make([]float64, len(shares))
	given := int64(0)
	for i, s := range shares {
		exact := float64(cents) * s / sum
		parts[i] = int64(math.Floor(exact))
		rems[i] = exact - float64(parts[i])
		given += parts[i]
	}
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	// Stable: equal remainders favour the earlier beneficiary, as listed.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case rems[a] > rems[b]:
			return -1
		case rems[a] < rems[b]:
			return 1
		}
		return 0
	})
	for k := 0; given < cents; k++ {
		parts[order[k%len(order)]]++
		given++
	}
	for i, p := range parts {
		out[i] = float64(p) / 100
	}
	return out
}

// percentages turns shares into percentages of two decimals adding up to
// 100, by the same rule as the cents.
func percentages(shares []float64) []float64 { return splitPayout(100, shares) }

// beneficioRunner does the steps of benefit bindings.
type beneficioRunner struct{ s *Service }

func (r beneficioRunner) load(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*beneficio, error) {
	id, err := strconv.ParseInt(b.Key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("binding key %q: %w", b.Key, err)
	}
	ben, err := loadBeneficio(ctx, tx, "", id)
	if err != nil {
		return nil, err
	}
	if ben == nil {
		return nil, errs.Errorf(errs.NotFound, "beneficio %d no longer exists", id)
	}
	return ben, nil
}

// Resolve finds a benefit of the app by {"beneficioId"}.
func (r beneficioRunner) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	id, err := strconv.ParseInt(ref["beneficioId"], 10, 64)
	if err != nil {
		return "", errs.Invalidf("beneficioId", "name the benefit: beneficioId")
	}
	b, err := loadBeneficio(ctx, tx, "", id)
	if err != nil {
		return "", err
	}
	if b == nil || b.AppID != appID {
		return "", errs.Invalidf("beneficioId", "the app has no benefit %d", id)
	}
	return b10(id), nil
}

func (r beneficioRunner) Instant(context.Context, *store.Tx, *scenario.Binding, string) (time.Time, error) {
	return time.Time{}, fmt.Errorf("a benefit has no named instants")
}

// Do performs one step; a refusal of the domain stops the binding.
func (r beneficioRunner) Do(ctx context.Context, tx *store.Tx, bd *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, bd, st)
	return out, scenario.NotApplicable(err)
}

func (r beneficioRunner) do(ctx context.Context, tx *store.Tx, bd *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	b, err := r.load(ctx, tx, bd)
	if err != nil {
		return "", err
	}
	switch st.Verb {
	case "status":
		switch st.Status {
		case BenPago:
			return r.pay(ctx, tx, b, st)
		case BenRecusado:
			return r.refuse(ctx, tx, b, st)
		case BenPendente:
			return "", errs.Errorf(errs.Invalid, "raise a pending with a pending step, not status: PENDENTE")
		case BenReaberto:
			if err := s.reopen(ctx, tx, b, st.Reason, usuarioRegulacao); err != nil {
				return "", err
			}
			return "reopened", nil
		case BenEmRegulacao:
			if b.Status == BenPendente {
				if err := s.resolveBenAnswered(ctx, tx, b); err != nil {
					return "", err
				}
			}
		case BenCancelado:
			if err := s.closeBenPendencias(ctx, tx, b); err != nil {
				return "", err
			}
		}
		if err := s.moveBeneficio(ctx, tx, b, st.Status, st.Reason, usuarioRegulacao); err != nil {
			return "", err
		}
		return "moved to " + st.Status, nil
	case "pending":
		code, _ := st.Args["code"].(string)
		desc, _ := st.Args["description"].(string)
		group, _ := st.Args["group"].(string)
		if desc == "" {
			desc = code
		}
		var exigidos []string
		if list, ok := st.Args["documentosExigidos"].([]any); ok {
			for _, d := range list {
				exigidos = append(exigidos, fmt.Sprint(d))
			}
		}
		id, err := s.raiseBenPendencia(ctx, tx, b, code, group, desc, exigidos)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("pending %d raised: %s", id, code), nil
	case "pay":
		return r.pay(ctx, tx, b, st)
	case "refuse":
		return r.refuse(ctx, tx, b, st)
	case "emit":
		own, err := s.ownerOf(ctx, tx, b.AppID)
		if err != nil {
			return "", err
		}
		typ, name, data := st.Event()
		if err := s.emit(ctx, tx, own, typ, name, benSubject(b), benKey(b), data); err != nil {
			return "", err
		}
		return "emitted " + typ, nil
	}
	return "", errs.Errorf(errs.Invalid, "beneficio takes no %s step", st.Verb)
}

func (r beneficioRunner) pay(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	valor := 0.0
	if v, ok := st.Args["valor"]; ok {
		f, err := moneyOf(v)
		if err != nil {
			return "", errs.Errorf(errs.Invalid, "pay valor %v is not an amount", v)
		}
		valor = f
	}
	if err := r.s.payBeneficio(ctx, tx, b, valor); err != nil {
		return "", err
	}
	return fmt.Sprintf("paid %.2f to %d recipient(s)", b.Valor, len(b.Beneficiarios)), nil
}

func (r beneficioRunner) refuse(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	desc, _ := st.Args["description"].(string)
	motivo, desc := motivoRecusa(st.Reason, desc)
	if desc == "" {
		desc = "Recusa da regulação do sinistro"
	}
	if err := r.s.refuseBeneficio(ctx, tx, b, motivo, desc); err != nil {
		return "", err
	}
	return "refused: " + motivo, nil
}
