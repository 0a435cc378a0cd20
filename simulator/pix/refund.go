package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The refund statuses (Devolucao.status).
const (
	EmProcessamento = "EM_PROCESSAMENTO"
	Devolvido       = "DEVOLVIDO"
	NaoRealizado    = "NAO_REALIZADO"
)

// refundMachine: a refund is processed once. Its moves emit no event of
// their own; notify sends the /pix callback with the Pix and its refunds.
var refundMachine = &statemachine.Machine{
	Resource: "devolucao",
	Table:    "pix_refunds",
	Initial:  EmProcessamento,
	Edges:    map[string][]statemachine.Edge{EmProcessamento: {{To: Devolvido}, {To: NaoRealizado}}},
}

// refundWindow is the 90 days after the Pix in which it can be refunded.
const refundWindow = 90 * 24 * time.Hour

func refundsOf(ctx context.Context, tx *store.Tx, e2eid string) ([]doc, error) {
	rows, err := tx.QueryContext(ctx, `SELECT body FROM pix_refunds WHERE e2eid = ? ORDER BY created_at, id`, e2eid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []doc
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		var d doc
		json.Unmarshal([]byte(b), &d)
		out = append(out, d)
	}
	return out, rows.Err()
}

// limits returns how much of each natureza a Pix can refund: ORIGINAL is
// what was paid for the purchase, RETIRADA the saque or troco.
func limits(p *received) map[string]int64 {
	comp := sub(p.Body, "componentesValor")
	var retirada int64
	for _, k := range []string{"saque", "troco"} {
		if c := sub(comp, k); c != nil {
			v, _ := parseCents(str(c, "valor"))
			retirada += v
		}
	}
	return map[string]int64{"ORIGINAL": p.Valor - retirada, "RETIRADA": retirada}
}

// putRefund is PUT /pix/{e2eid}/devolucao/{id}.
func (s *Service) putRefund(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	e2eid, id := mux.Vars(r)["e2eid"], mux.Vars(r)["id"]
	if !refundID.MatchString(id) {
		return nil, invalid("PixDevolucaoInvalida", violation{"id", "deve ter de 1 a 35 caracteres alfanuméricos", id})
	}
	var in struct {
		Valor     string `json:"valor"`
		Natureza  string `json:"natureza"`
		Descricao string `json:"descricao"`
	}
	if err := decode(r, s.Schemas, "pix/devolucao.request", "", "PixDevolucaoInvalida", &in); err != nil {
		return nil, err
	}
	if in.Natureza == "" {
		in.Natureza = "ORIGINAL"
	}
	valor, _ := parseCents(in.Valor)
	if valor <= 0 {
		return nil, invalid("PixDevolucaoInvalida", violation{"valor", "deve ser maior que zero", in.Valor})
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		p, err := loadReceived(ctx, tx, principal(r).CompanyID, e2eid)
		if err != nil {
			return err
		}
		if p == nil {
			return notFound("PixNaoEncontrado", "nenhum Pix com endToEndId %s", e2eid)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pix_refunds WHERE e2eid = ? AND id = ?`, e2eid, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return invalid("PixDevolucaoInvalida", violation{"id", "já existe uma devolução com este id para este Pix", id})
		}
		now := s.Clock.Now()
		if now.After(p.Horario.Add(refundWindow)) {
			return invalid("PixDevolucaoInvalida", violation{"valor", "o prazo de 90 dias para devolução deste Pix terminou em " + rfc3339(p.Horario.Add(refundWindow)), in.Valor})
		}
		limit := limits(p)[in.Natureza]
		if in.Natureza == "RETIRADA" && limit == 0 {
			return invalid("PixDevolucaoInvalida", violation{"natureza", "RETIRADA só se aplica a um Pix Saque ou Pix Troco", in.Natureza})
		}
		var done int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(valor), 0) FROM pix_refunds WHERE e2eid = ? AND natureza = ? AND status <> ?`,
			e2eid, in.Natureza, NaoRealizado).Scan(&done); err != nil {
			return err
		}
		if done+valor > limit {
			return invalid("PixDevolucaoInvalida", violation{"valor",
				fmt.Sprintf("a soma das devoluções (%s já pedidos + %s) excede o valor devolvível de %s (%s)", formatCents(done), in.Valor, formatCents(limit), in.Natureza), in.Valor})
		}
		out = doc{"id": id, "rtrId": NewRtrID(s.DB.IDs, now), "valor": in.Valor, "natureza": in.Natureza,
			"horario": doc{"solicitacao": rfc3339(now)}, "status": EmProcessamento}
		if in.Descricao != "" {
			out["descricao"] = in.Descricao
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pix_refunds (e2eid, id, rtr_id, valor, natureza, status, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			e2eid, id, out["rtrId"], valor, in.Natureza, EmProcessamento, now.UnixNano(), marshal(out)); err != nil {
			return err
		}
		// What happens next is the refund's scenario: by default
		// (scenarios/devolucao-padrao.yaml) DEVOLVIDO 5 s later.
		if err := s.bind(ctx, tx, scenario.Resource{Kind: "devolucao", Key: refundKey(e2eid, id), AppID: p.AppID, Named: r.Header.Get(scenario.Header),
			Body: doc{"valor": in.Valor, "natureza": in.Natureza, "descricao": in.Descricao}}); err != nil {
			return err
		}
		if !p.CobID.Valid {
			return nil
		}
		c := &charge{CompanyID: p.CompanyID}
		if err := tx.QueryRowContext(ctx, `SELECT kind, txid FROM pix_cobs WHERE id = ?`, p.CobID.Int64).Scan(&c.Kind, &c.TxID); err != nil {
			return err
		}
		return s.trigger(ctx, tx, c, "refund_requested")
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

// getRefund is GET /pix/{e2eid}/devolucao/{id}.
func (s *Service) getRefund(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	e2eid, id := mux.Vars(r)["e2eid"], mux.Vars(r)["id"]
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		p, err := loadReceived(ctx, tx, principal(r).CompanyID, e2eid)
		if err != nil {
			return err
		}
		if p == nil {
			return notFound("PixNaoEncontrado", "nenhum Pix com endToEndId %s", e2eid)
		}
		var b string
		err = tx.QueryRowContext(ctx, `SELECT body FROM pix_refunds WHERE e2eid = ? AND id = ?`, e2eid, id).Scan(&b)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("PixDevolucaoNaoEncontrada", "nenhuma devolução %s do Pix %s", id, e2eid)
		}
		jsonUnmarshal(b, &out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// settle ends a refund in status to, and sends the /pix callback; a refund
// already settled refuses (its machine has no move out of a final state).
func (s *Service) settle(ctx context.Context, tx *store.Tx, e2eid, id, to, motivo string) (doc, error) {
	var b, status, companyID string
	err := tx.QueryRowContext(ctx, `SELECT d.body, d.status, p.company_id FROM pix_refunds d JOIN pix_received p ON p.e2eid = d.e2eid WHERE d.e2eid = ? AND d.id = ?`,
		e2eid, id).Scan(&b, &status, &companyID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.Errorf(errs.NotFound, "no refund %s of Pix %s", id, e2eid)
	}
	if err != nil {
		return nil, err
	}
	var d doc
	jsonUnmarshal(b, &d)
	now := s.Clock.Now()
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{Machine: refundMachine, From: status, To: to,
		Store: func(ctx context.Context, tx *store.Tx) error {
			d["status"] = to
			if to == Devolvido {
				sub(d, "horario")["liquidacao"] = rfc3339(now)
			}
			if motivo != "" {
				d["motivo"] = motivo
			}
			_, err := tx.ExecContext(ctx, `UPDATE pix_refunds SET status = ?, body = ? WHERE e2eid = ? AND id = ?`, to, marshal(d), e2eid, id)
			return err
		}})
	if err != nil {
		return nil, err
	}
	p, err := loadReceived(ctx, tx, companyID, e2eid)
	if err != nil {
		return nil, err
	}
	return d, s.notify(ctx, tx, p, "pix.devolucao", "Devolução de Pix", doc{"devolucao": d})
}

// settleRefundNow is POST /sandbox/pix/refunds/{e2eid}/{id} {"status":
// "DEVOLVIDO"|"NAO_REALIZADO", "motivo"}: the control API decides the
// outcome of a refund still processing.
func (s *Service) settleRefundNow(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Status string `json:"status"`
		Motivo string `json:"motivo"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pix.refund.settle", &in); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		out, err = s.settle(ctx, tx, mux.Vars(r)["e2eid"], mux.Vars(r)["id"], in.Status, in.Motivo)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}
