package cli

import (
	"net/http"
	"net/url"
)

// controlFor is the control API's move that makes event e, as the other
// side made it (the payer, the insurer's analyst, the bank), or nil when
// no move of the other side makes e (a request of the partner, or time,
// does).
func controlFor(e *event) *control {
	d, _ := e.Data.(map[string]any)
	sub := func(k string) string { return scalar(e.Subject[k]) }
	st := statusOf(e)
	switch e.Type {
	case "sandbox.ping":
		return &control{http.MethodPost, "/sandbox/events/ping", map[string]any{"message": scalar(d["message"])}, http.StatusAccepted}
	case "pix.recebido":
		return payment(e, d)
	case "pix.devolucao":
		dv, _ := d["devolucao"].(map[string]any)
		if dv == nil || scalar(dv["id"]) == "" {
			return nil
		}
		return &control{http.MethodPost, "/sandbox/pix/refunds/" + url.PathEscape(sub("endToEndId")) + "/" + url.PathEscape(scalar(dv["id"])),
			map[string]any{"status": scalar(dv["status"])}, http.StatusOK}
	case "pix.rec.status":
		acao := map[string]string{"APROVADA": "aprovar", "REJEITADA": "rejeitar", "CANCELADA": "cancelar"}[st]
		if acao == "" {
			return nil
		}
		return &control{http.MethodPost, "/sandbox/pix/rec/" + url.PathEscape(sub("idRec")) + "/" + acao, nil, http.StatusOK}
	case "pix.cobr.status":
		acao := map[string]string{"CONCLUIDA": "pagar", "REJEITADA": "rejeitar"}[st]
		if st == "ATIVA" {
			return action("cobr", "txid", sub("txid"), map[string]any{"status": st})
		}
		if acao == "" {
			return nil
		}
		return &control{http.MethodPost, "/sandbox/pix/cobr/" + url.PathEscape(sub("txid")) + "/" + acao, nil, http.StatusOK}
	case "pix.solicrec.status":
		return solicrecMove(sub("idSolicRec"), st)
	case "pix.cob.status", "pix.cobv.status":
		if st != "REMOVIDA_PELO_PSP" {
			return nil
		}
		return action(e.Type[4:len(e.Type)-7], "txid", sub("txid"), map[string]any{"status": st})
	}
	return insuranceControl(e, d, st)
}

// payment is the payer paying a charge (or crediting a Pix on a key).
func payment(e *event, d map[string]any) *control {
	pix, _ := d["pix"].(map[string]any)
	body := map[string]any{"valor": scalar(pix["valor"])}
	if txid := scalar(e.Subject["txid"]); txid != "" {
		body["txid"] = txid
	} else {
		body["chave"] = scalar(e.Subject["chave"])
	}
	return &control{http.MethodPost, "/sandbox/pix/payments", body, http.StatusCreated}
}

func solicrecMove(id, st string) *control {
	switch st {
	case "ENVIADA", "RECEBIDA", "ACEITA":
		return action("solicrec", "idSolicRec", id, map[string]any{"status": st})
	case "REJEITADA":
		return action("solicrec", "idSolicRec", id, map[string]any{"refuse": true})
	}
	return nil
}

// action is POST /sandbox/actions/{kind}: one scenario step now.
func action(kind, refField, ref string, step map[string]any) *control {
	return &control{http.MethodPost, "/sandbox/actions/" + kind, map[string]any{refField: ref, "step": step}, http.StatusOK}
}

// insuranceControl is the insurer's move that makes an event of the
// insurance cycles.
func insuranceControl(e *event, d map[string]any, st string) *control {
	sub := func(k string) string { return scalar(e.Subject[k]) }
	switch e.Type {
	case "proposta.status":
		switch st {
		case "EM_ANALISE", "APROVADA", "CANCELADA":
			return action("proposta", "numeroProposta", sub("numeroProposta"), map[string]any{"status": st})
		case "RECUSADA":
			return action("proposta", "numeroProposta", sub("numeroProposta"), map[string]any{"refuse": map[string]any{"reason": scalar(d["motivo"])}})
		}
	case "proposta.pendencia":
		return action("proposta", "numeroProposta", sub("numeroProposta"), map[string]any{"pending": pendingOf(d)})
	case "proposta.implantada":
		return action("proposta", "numeroProposta", sub("numeroProposta"), map[string]any{"status": "IMPLANTADA"})
	case "beneficio.status":
		switch st {
		case "EM_REGULACAO", "APROVADO", "CANCELADO", "REABERTO":
			return action("beneficio", "beneficioId", sub("beneficioId"), map[string]any{"status": st})
		}
	case "beneficio.pendencia":
		p := pendingOf(d)
		p["documentosExigidos"] = d["documentosExigidos"]
		return action("beneficio", "beneficioId", sub("beneficioId"), map[string]any{"pending": p})
	case "beneficio.pago":
		return action("beneficio", "beneficioId", sub("beneficioId"), map[string]any{"pay": true})
	case "beneficio.recusado":
		return action("beneficio", "beneficioId", sub("beneficioId"), map[string]any{"refuse": map[string]any{"reason": scalar(d["motivoRecusa"]), "description": scalar(d["descricao"])}})
	case "cobranca.recebida", "cobranca.paga":
		return action("cobranca", "cobrancaId", sub("cobrancaId"), map[string]any{"status": map[string]string{"cobranca.recebida": "RECEBIDA", "cobranca.paga": "PAGA"}[e.Type]})
	case "cobranca.recusada":
		return action("cobranca", "cobrancaId", sub("cobrancaId"), map[string]any{"refuse": map[string]any{"reason": scalar(d["motivoRecusa"]), "description": scalar(d["descricaoRecusa"])}})
	case "comissao.paga":
		return &control{http.MethodPost, "/sandbox/comissoes/pagamento", nil, http.StatusOK}
	}
	return nil
}

// pendingOf is a pending step's arguments from its event.
func pendingOf(d map[string]any) map[string]any {
	return map[string]any{"code": scalar(d["codigo"]), "group": scalar(d["grupo"]), "description": scalar(d["descricao"])}
}
