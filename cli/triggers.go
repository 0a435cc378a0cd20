package cli

import (
	"fmt"
	"net/http"
	"net/url"
)

// Triggers is every event the sandbox emits, with how homologa trigger
// fires it, by cycle: the specification's nineteen insurance events, its
// Pix notifications (a Pix received or refunded, a recurrence's
// authorisation, a recurring charge's settlement), and the sandbox's own.
func Triggers() []Trigger {
	var out []Trigger
	for _, group := range [][]Trigger{sandboxTriggers(), pixTriggers(), pixAutoTriggers(), saleTriggers(), customerTriggers(), benefitTriggers()} {
		out = append(out, group...)
	}
	return out
}

func sandboxTriggers() []Trigger {
	return []Trigger{
		{Type: "sandbox.ping", Name: "Ping", Cycle: "sandbox", Needs: "nothing: a test event to your app's webhook", Fields: "message",
			fire: func(f *firing) error {
				return f.call(http.MethodPost, "/sandbox/events/ping", map[string]any{"message": f.field("message", "homologa trigger")}, nil)
			}},
		{Type: "sandbox.mensagem", Name: "Mensagem Enviada", Cycle: "sandbox", Needs: "nothing: a signature code sent to the customer (stream only)", Fields: "cpf=11144477735",
			fire: func(f *firing) error {
				return f.call(http.MethodPost, "/access/v1/token/user", map[string]any{"cpf": f.field("cpf", "11144477735")}, nil)
			}},
	}
}

func pixTriggers() []Trigger {
	return []Trigger{
		{Type: "pix.cob.criada", Name: "Cobrança Criada", Cycle: "pix", Needs: "an immediate charge (stream only)", Fields: "valor=10.00 chave=<your CNPJ>",
			fire: func(f *firing) error { f.resource = ""; _, err := f.cob(); return err }},
		{Type: "pix.cob.revisada", Name: "Cobrança Revisada", Cycle: "pix", Resource: "txid", Needs: "an immediate charge, then revised", Fields: "valor=11.00",
			fire: func(f *firing) error {
				txid, err := f.cob()
				if err != nil {
					return err
				}
				return f.call(http.MethodPatch, "/pix/v2/cob/"+url.PathEscape(txid), map[string]any{"valor": map[string]any{"original": f.field("valor", "11.00")}}, nil)
			}},
		{Type: "pix.cob.status", Name: "Status de Cobrança", Cycle: "pix", Resource: "txid", Needs: "an immediate charge, then paid (CONCLUIDA) or removed",
			Fields: "status=CONCLUIDA|REMOVIDA_PELO_USUARIO_RECEBEDOR|REMOVIDA_PELO_PSP", fire: func(f *firing) error { return chargeStatus(f, "cob") }},
		{Type: "pix.cobv.criada", Name: "Cobrança Criada", Cycle: "pix", Needs: "a due-date charge, due in ten days (stream only)", Fields: "valor=100.00 cpf chave",
			fire: func(f *firing) error { f.resource = ""; _, err := f.cobv(); return err }},
		{Type: "pix.cobv.revisada", Name: "Cobrança Revisada", Cycle: "pix", Resource: "txid", Needs: "a due-date charge, then revised", Fields: "valor=101.00",
			fire: func(f *firing) error {
				txid, err := f.cobv()
				if err != nil {
					return err
				}
				return f.call(http.MethodPatch, "/pix/v2/cobv/"+url.PathEscape(txid), map[string]any{"valor": map[string]any{"original": f.field("valor", "101.00")}}, nil)
			}},
		{Type: "pix.cobv.status", Name: "Status de Cobrança", Cycle: "pix", Resource: "txid", Needs: "a due-date charge, then paid or removed",
			Fields: "status=CONCLUIDA|REMOVIDA_PELO_USUARIO_RECEBEDOR|REMOVIDA_PELO_PSP", fire: func(f *firing) error { return chargeStatus(f, "cobv") }},
		{Type: "pix.recebido", Name: "Pix Recebido", Cycle: "pix", Resource: "txid", Needs: "an immediate charge, paid by the simulated payer (the key's webhook gets /pix)", Fields: "valor",
			fire: func(f *firing) error {
				txid, err := f.cob()
				if err != nil {
					return err
				}
				_, err = f.pay(txid)
				return err
			}},
		{Type: "pix.devolucao", Name: "Devolução de Pix", Cycle: "pix", Resource: "endToEndId", Needs: "a paid charge, refunded and settled now (/pix callback)",
			Fields: "valor=1.00 status=DEVOLVIDO|NAO_REALIZADO", fire: fireDevolucao},
	}
}

// chargeStatus pays a charge (CONCLUIDA) or removes it.
func chargeStatus(f *firing, kind string) error {
	mk := f.cob
	if kind == "cobv" {
		mk = f.cobv
	}
	txid, err := mk()
	if err != nil {
		return err
	}
	switch st := f.field("status", "CONCLUIDA"); st {
	case "CONCLUIDA":
		f.fields["valor"] = ""
		_, err := f.pay(txid)
		return err
	case "REMOVIDA_PELO_PSP":
		return f.act(kind, map[string]any{"txid": txid}, map[string]any{"status": st})
	default:
		return f.call(http.MethodPatch, "/pix/v2/"+kind+"/"+url.PathEscape(txid), map[string]any{"status": st}, nil)
	}
}

func fireDevolucao(f *firing) error {
	valor := f.field("valor", "1.00")
	delete(f.fields, "valor")
	e2e, err := f.paidPix()
	if err != nil {
		return err
	}
	id := newID("d", 16)
	p := "/pix/v2/pix/" + url.PathEscape(e2e) + "/devolucao/" + id
	if err := f.call(http.MethodPut, p, map[string]any{"valor": valor}, nil); err != nil {
		return err
	}
	return f.call(http.MethodPost, "/sandbox/pix/refunds/"+url.PathEscape(e2e)+"/"+id, map[string]any{"status": f.field("status", "DEVOLVIDO")}, nil)
}

func pixAutoTriggers() []Trigger {
	return []Trigger{
		{Type: "pix.rec.status", Name: "Status de Recorrência", Cycle: "pix-automatico", Resource: "idRec", Needs: "a recurrence, then approved by the payer (/rec callback)",
			Fields: "acao=aprovar|rejeitar|cancelar", fire: func(f *firing) error {
				idRec, err := f.rec()
				if err != nil {
					return err
				}
				return f.call(http.MethodPost, "/sandbox/pix/rec/"+url.PathEscape(idRec)+"/"+url.PathEscape(f.field("acao", "aprovar")), nil, nil)
			}},
		{Type: "pix.solicrec.status", Name: "Status de Solicitação de Recorrência", Cycle: "pix-automatico", Resource: "idSolicRec",
			Needs: "a recurrence and its confirmation request, delivered to the payer", Fields: "status=ENVIADA|RECEBIDA|ACEITA|REJEITADA", fire: fireSolicRec},
		{Type: "pix.cobr.status", Name: "Status de Cobrança Recorrente", Cycle: "pix-automatico", Resource: "txid",
			Needs: "an approved recurrence and a recurring charge, accepted (ATIVA) and settled (CONCLUIDA) within seconds (/cobr callback)", Fields: "acao=pagar|rejeitar",
			fire: func(f *firing) error {
				if f.resource == "" && f.field("acao", "pagar") == "pagar" {
					_, err := f.cobr("cobr-paga-rapida")
					return err
				}
				txid, err := f.cobr("")
				if err != nil {
					return err
				}
				return f.call(http.MethodPost, "/sandbox/pix/cobr/"+url.PathEscape(txid)+"/"+url.PathEscape(f.field("acao", "pagar")), nil, nil)
			}},
		{Type: "pix.cobr.tentativa", Name: "Tentativa de Cobrança Recorrente", Cycle: "pix-automatico", Resource: "txid",
			Needs: "an active recurring charge whose settlement attempt is rejected, not for good (/cobr callback)", Fields: "codigo=AM02", fire: func(f *firing) error {
				txid, err := f.cobr("")
				if err != nil {
					return err
				}
				if f.resource == "" {
					if err := f.act("cobr", map[string]any{"txid": txid}, map[string]any{"status": "ATIVA"}); err != nil {
						return err
					}
				}
				return f.act("cobr", map[string]any{"txid": txid}, map[string]any{"refuse": map[string]any{"reason": f.field("codigo", "AM02")}})
			}},
	}
}

// fireSolicRec asks the payer to confirm a new recurrence and moves the
// request (or the one named) to the status asked.
func fireSolicRec(f *firing) error {
	id := f.resource
	if id == "" {
		idRec, err := f.rec()
		if err != nil {
			return err
		}
		body := map[string]any{"idRec": idRec, "calendario": map[string]any{"dataExpiracaoSolicitacao": f.now.AddDate(0, 0, 5).Format("2006-01-02T15:04:05Z07:00")},
			"destinatario": map[string]any{"conta": "123456", "ispbParticipante": "99999009", "agencia": "0001", "cpf": f.field("cpf", "11144477735")}}
		var out struct {
			ID string `json:"idSolicRec"`
		}
		if err := f.call(http.MethodPost, "/pix/v2/solicrec", body, &out, "Idempotency-Key", newID("trigger-", 16)); err != nil {
			return err
		}
		id = out.ID
	}
	ref := map[string]any{"idSolicRec": id}
	to := f.field("status", "ENVIADA")
	// A new request travels first: sent, received, then answered.
	before := map[string][]string{"RECEBIDA": {"ENVIADA"}, "ACEITA": {"ENVIADA", "RECEBIDA"}, "REJEITADA": {"ENVIADA", "RECEBIDA"}}
	if f.resource == "" {
		for _, st := range before[to] {
			if err := f.act("solicrec", ref, map[string]any{"status": st}); err != nil {
				return err
			}
		}
	}
	if to == "REJEITADA" {
		return f.act("solicrec", ref, map[string]any{"refuse": map[string]any{"reason": f.field("codigo", "AP13")}})
	}
	return f.act("solicrec", ref, map[string]any{"status": to})
}

func saleTriggers() []Trigger {
	return []Trigger{
		{Type: "proposta.status", Name: "Status de Proposta", Cycle: "sale", Resource: "numeroProposta",
			Needs: "a proposal sold to the customer (RECEBIDA), moved by the insurer's analysis", Fields: "status=EM_ANALISE|APROVADA|RECUSADA|CANCELADA offer=YZ cpf=11144477735",
			fire: fireProposalStatus},
		{Type: "proposta.pendencia", Name: "Pendência de Proposta", Cycle: "sale", Resource: "numeroProposta", Needs: "a proposal in analysis, given a pending",
			Fields: "code=DOC description", fire: func(f *firing) error { _, err := f.proposalPending(); return err }},
		{Type: "proposta.pendencia_respondida", Name: "Pendência Respondida", Cycle: "sale", Resource: "numeroProposta",
			Needs: "a proposal with a pending, answered through the insurer API", Fields: "resposta", fire: func(f *firing) error {
				numero, err := f.proposalPending()
				if err != nil {
					return err
				}
				var list struct {
					Valor []struct {
						ID     any    `json:"id"`
						Status string `json:"status"`
					} `json:"Valor"`
				}
				if err := f.call(http.MethodGet, "/insurer/v1/pendencia?numeroProposta="+url.QueryEscape(numero)+"&status=ABERTA", nil, &list); err != nil || len(list.Valor) == 0 {
					return errorOr(err, "the proposal "+numero+" has no open pending")
				}
				return f.call(http.MethodPut, "/insurer/v1/pendencia/"+scalarText(list.Valor[0].ID), map[string]any{"resposta": f.field("resposta", "Segue o documento pedido.")}, nil)
			}},
		{Type: "proposta.implantada", Name: "Proposta Implantada", Cycle: "sale", Resource: "numeroProposta",
			Needs: "a proposal analysed, approved and implanted (its enrollment opens)", Fields: "offer=YZ cpf=11144477735",
			fire: func(f *firing) error { _, err := f.proposalAt("IMPLANTADA"); return err }},
	}
}

// fireProposalStatus moves a proposal to the status asked: along the
// analysis, refused from analysis, or cancelled.
func fireProposalStatus(f *firing) error {
	to := f.field("status", "EM_ANALISE")
	switch to {
	case "RECUSADA":
		numero, err := f.proposalAt("EM_ANALISE")
		if err != nil {
			return err
		}
		return f.act("proposta", map[string]any{"numeroProposta": numero}, map[string]any{"refuse": map[string]any{"reason": f.field("motivo", "Recusa técnica da subscrição")}})
	case "CANCELADA":
		numero, err := f.proposal()
		if err != nil {
			return err
		}
		return f.act("proposta", map[string]any{"numeroProposta": numero}, map[string]any{"status": "CANCELADA"})
	case "RECEBIDA":
		f.resource = ""
		_, err := f.proposal()
		return err
	}
	_, err := f.proposalAt(to)
	return err
}

// proposalPending is a proposal in analysis with a new pending.
func (f *firing) proposalPending() (string, error) {
	numero, err := f.proposalAt("EM_ANALISE")
	if err != nil {
		return "", err
	}
	pending := map[string]any{"code": f.field("code", "DOC"), "description": f.field("description", "Documento de identificação do proponente")}
	return numero, f.act("proposta", map[string]any{"numeroProposta": numero}, map[string]any{"pending": pending})
}

func customerTriggers() []Trigger {
	cobrancaMove := func(step map[string]any) func(f *firing) error {
		return func(f *firing) error {
			id, err := f.cobranca()
			if err != nil {
				return err
			}
			return f.act("cobranca", map[string]any{"cobrancaId": id}, step)
		}
	}
	inscricao := func(method, suffix string, body map[string]any) func(f *firing) error {
		return func(f *firing) error {
			id, err := f.enrollment()
			if err != nil {
				return err
			}
			return f.call(method, "/customer/v1/inscricao/"+url.PathEscape(id)+suffix, body, nil)
		}
	}
	return []Trigger{
		{Type: "cobranca.emitida", Name: "Cobrança Emitida", Cycle: "customer", Needs: "a proposal implanted: its enrollment's first charge is issued", Fields: "offer=YZ cpf",
			fire: func(f *firing) error { f.resource = ""; _, err := f.enrollment(); return err }},
		{Type: "cobranca.recebida", Name: "Cobrança Recebida", Cycle: "customer", Resource: "cobrancaId", Needs: "a new enrollment's first charge, received",
			fire: cobrancaMove(map[string]any{"status": "RECEBIDA"})},
		{Type: "cobranca.paga", Name: "Cobrança Paga", Cycle: "customer", Resource: "cobrancaId", Needs: "a new enrollment's first charge, received and settled",
			fire: cobrancaMove(map[string]any{"pay": true})},
		{Type: "cobranca.recusada", Name: "Cobrança Recusada", Cycle: "customer", Resource: "cobrancaId", Needs: "a new enrollment's first charge, refused (insufficient funds)",
			fire: cobrancaMove(map[string]any{"refuse": map[string]any{"reason": "SALDO_INSUFICIENTE", "description": "Conta sem saldo na data do débito"}})},
		{Type: "comissao.emitida", Name: "Comissão Emitida", Cycle: "customer", Needs: "a new enrollment's first charge, paid: its commission accrues",
			fire: func(f *firing) error { f.resource = ""; _, err := f.paidCobranca(); return err }},
		{Type: "comissao.paga", Name: "Comissão Paga", Cycle: "customer", Needs: "a paid charge's commission, then the month's payout, now",
			fire: func(f *firing) error {
				f.resource = ""
				if _, err := f.paidCobranca(); err != nil {
					return err
				}
				return f.call(http.MethodPost, "/sandbox/comissoes/pagamento", nil, nil)
			}},
		{Type: "comissao.estornada", Name: "Comissão Estornada", Cycle: "customer", Resource: "inscricaoId",
			Needs: "an enrollment with a paid charge's commission, cancelled inside the chargeback window (the clock moves 5m)", fire: func(f *firing) error {
				insc, err := f.paidCobranca()
				if err != nil {
					return err
				}
				if err := f.call(http.MethodPost, "/customer/v1/inscricao/"+url.PathEscape(insc)+"/cancelamento", map[string]any{"motivo": "Pedido do cliente",
					"tipoCancelamento": "SOLICITACAO_CLIENTE", "solicitante": map[string]any{"tipoDocumento": "CPF", "documento": f.field("cpf", "11144477735")}}, nil); err != nil {
					return err
				}
				// The insurer processes a cancellation five minutes after
				// it is asked, on the company's clock.
				fmt.Fprintln(f.out, "  (a cancellation is processed 5 minutes after it is asked: your company's clock moves 5m)")
				return f.call(http.MethodPost, "/sandbox/clock/advance", map[string]any{"by": "5m"}, nil)
			}},
		{Type: "inscricao.forma_cobranca_alterada", Name: "Forma de Cobrança Alterada", Cycle: "customer", Resource: "inscricaoId", Needs: "an enrollment, moved to debit on day 5",
			fire: inscricao(http.MethodPut, "/forma-cobranca", map[string]any{"TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 5,
				"CONTA_CORRENTE": map[string]any{"BANCO": "001", "AGENCIA": "1234", "CONTA": "99999", "DIGITO_CONTA": "0"}})},
		{Type: "inscricao.dados_cadastrais_alterados", Name: "Dados Cadastrais Alterados", Cycle: "customer", Resource: "inscricaoId", Needs: "an enrollment, its e-mail changed",
			fire: inscricao(http.MethodPut, "/dados-cadastrais", map[string]any{"email": "cliente.trigger@example.com"})},
		{Type: "inscricao.valor_pago_alterado", Name: "Valor Pago Alterado", Cycle: "customer", Resource: "inscricaoId", Needs: "an enrollment, its capital halved (REDUCAO)",
			fire: inscricao(http.MethodPost, "/reducao", map[string]any{"coberturas": []any{map[string]any{"itemProdutoId": 1001, "capitalSeguradoNovo": 100000}}, "motivo": "homologa trigger"})},
	}
}

func benefitTriggers() []Trigger {
	at := func(status string) func(f *firing) error {
		return func(f *firing) error { _, err := f.benefitAt(status); return err }
	}
	return []Trigger{
		{Type: "beneficio.avisado", Name: "Benefício Avisado", Cycle: "benefit", Needs: "an enrollment, and a death notice on it", Fields: "causa=MORTE cpf",
			fire: func(f *firing) error { f.resource = ""; _, err := f.benefit(); return err }},
		{Type: "beneficio.status", Name: "Status de Benefício", Cycle: "benefit", Resource: "beneficioId", Needs: "a benefit notice, moved by regulation",
			Fields: "status=EM_REGULACAO|APROVADO|CANCELADO", fire: func(f *firing) error {
				to := f.field("status", "EM_REGULACAO")
				if to == "CANCELADO" {
					id, err := f.benefit()
					if err != nil {
						return err
					}
					return f.act("beneficio", map[string]any{"beneficioId": id}, map[string]any{"status": to})
				}
				return at(to)(f)
			}},
		{Type: "beneficio.pendencia", Name: "Pendência de Benefício", Cycle: "benefit", Resource: "beneficioId", Needs: "a benefit in regulation, given a documents pending",
			fire: func(f *firing) error { _, err := f.benefitPending(); return err }},
		{Type: "beneficio.pendencia_respondida", Name: "Pendência Respondida", Cycle: "benefit", Resource: "beneficioId",
			Needs: "a benefit with a pending, answered through the benefits API", fire: fireBenefitAnswer},
		{Type: "beneficio.pago", Name: "Beneficio Pago", Cycle: "benefit", Resource: "beneficioId", Needs: "a benefit regulated, approved and paid", fire: at("PAGO")},
		{Type: "beneficio.recusado", Name: "Beneficio Recusado", Cycle: "benefit", Resource: "beneficioId", Needs: "a benefit in regulation, refused", Fields: "motivo",
			fire: func(f *firing) error {
				id, err := f.benefitAt("EM_REGULACAO")
				if err != nil {
					return err
				}
				return f.act("beneficio", map[string]any{"beneficioId": id}, map[string]any{"refuse": map[string]any{
					"reason": f.field("motivo", "SEM_DOCUMENTACAO"), "description": "Os documentos obrigatórios do sinistro não foram apresentados"}})
			}},
	}
}

// benefitPending is a benefit in regulation with a new documents pending.
func (f *firing) benefitPending() (string, error) {
	id, err := f.benefitAt("EM_REGULACAO")
	if err != nil {
		return "", err
	}
	pending := map[string]any{"code": "DOCUMENTOS_SINISTRO", "group": "DOCUMENTACAO", "description": "Envie a certidão de óbito", "documentosExigidos": []any{"CERTIDAO_OBITO"}}
	return id, f.act("beneficio", map[string]any{"beneficioId": id}, map[string]any{"pending": pending})
}

func fireBenefitAnswer(f *firing) error {
	id, err := f.benefitPending()
	if err != nil {
		return err
	}
	var list struct {
		Valor []struct {
			ID     any    `json:"id"`
			Status string `json:"status"`
		} `json:"Valor"`
	}
	if err := f.call(http.MethodGet, "/benefits/v1/beneficio/"+url.PathEscape(id)+"/pendencias", nil, &list); err != nil {
		return err
	}
	for _, p := range list.Valor {
		if p.Status == "ABERTA" {
			body := map[string]any{"resposta": "Segue a certidão.", "documentos": []any{map[string]any{"tipo": "CERTIDAO_OBITO", "nomeArquivo": "certidao.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"}}}
			return f.call(http.MethodPut, "/benefits/v1/beneficio/"+url.PathEscape(id)+"/pendencias/"+scalarText(p.ID), body, nil)
		}
	}
	return errorOr(nil, "the benefit "+id+" has no open pending")
}
