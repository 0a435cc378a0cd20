package insurance

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// cancelDelay is how long, on the sandbox clock, a requested cancellation
// takes to be processed.
const cancelDelay = 5 * time.Minute

// listCobrancas is GET /inscricao/{id}/cobrancas: the enrollment's charges,
// oldest first.
func (s *Service) listCobrancas(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		in, err := s.mustInscricao(ctx, tx, r)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+cobrancaColumns+` FROM cobrancas WHERE inscricao_id = ? AND (? = '' OR status = ?) ORDER BY parcela`,
			in.ID, r.URL.Query().Get("status"), r.URL.Query().Get("status"))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanCobranca(rows)
			if err != nil {
				return err
			}
			out = append(out, c.body())
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// getCobranca is GET /cobranca/{id}.
func (s *Service) getCobranca(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, _ := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	var out map[string]any
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		c, err := loadCobranca(ctx, tx, principal(r).CompanyID, id)
		if err != nil {
			return err
		}
		if c == nil {
			return errs.Errorf(errs.NotFound, "cobrança %d não encontrada", id).WithType("COBRANCA_NAO_ENCONTRADA")
		}
		out = c.body()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// listComissoes is GET /comissao?status=&competencia=&inscricaoId=: the
// company's commissions, newest first.
func (s *Service) listComissoes(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	q := r.URL.Query()
	switch q.Get("status") {
	case "", ComEmitida, ComPaga, ComEstornada:
	default:
		return nil, errs.Invalidf("status", "status deve ser EMITIDA, PAGA ou ESTORNADA")
	}
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, cobranca_id, inscricao_id, valor, percentual, competencia, status, pago_em, estornado_em, created_at FROM comissoes
			WHERE company_id = ? AND (? = '' OR status = ?) AND (? = '' OR competencia = ?) AND (? = '' OR inscricao_id = ?) ORDER BY id DESC LIMIT 1000`,
			principal(r).CompanyID, q.Get("status"), q.Get("status"), q.Get("competencia"), q.Get("competencia"), q.Get("inscricaoId"), q.Get("inscricaoId"))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, cob, insc, created int64
			var valor, pct float64
			var comp, status string
			var pago, estornado *int64
			if err := rows.Scan(&id, &cob, &insc, &valor, &pct, &comp, &status, &pago, &estornado, &created); err != nil {
				return err
			}
			c := map[string]any{"comissaoId": id, "cobrancaId": cob, "inscricaoId": insc, "valor": valor, "percentual": pct,
				"competencia": comp, "status": status, "dataEmissao": time.Unix(0, created).UTC().Format(time.RFC3339)}
			if pago != nil {
				c["dataPagamento"] = time.Unix(0, *pago).UTC().Format(time.RFC3339)
			}
			if estornado != nil {
				c["dataEstorno"] = time.Unix(0, *estornado).UTC().Format(time.RFC3339)
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// getCommissionRule is GET /regracomissao?codigoModeloProposta= (v2
// RegraComissao): what the partner earns on an offer.
func (s *Service) getCommissionRule(r *http.Request) (*httpx.Reply, error) {
	code := r.URL.Query().Get("codigoModeloProposta")
	if _, ok := s.Catalog.Offer(code); !ok {
		return nil, errs.Invalidf("codigoModeloProposta", "informe um modelo de proposta do catálogo")
	}
	rule := ruleFor(code)
	return ok(map[string]any{"nome": "Comissão " + code, "tipoComissionamento": "PERCENTUAL_SOBRE_PREMIO", "tipoPessoa": "JURIDICA",
		"comissionamentos":   []map[string]any{{"tipoComissionamento": "CORRETAGEM", "percentual": rule.Percentual, "periodicidade": rule.Periodicidade}},
		"janelaEstornoMeses": rule.JanelaMeses}), nil
}

// cancelInscricao is POST /inscricao/{id}/cancelamento {motivo,
// tipoCancelamento, dataSolicitacao, solicitante}: answered 202 with a
// protocol; the cancellation is processed cancelDelay later (CANCELADA,
// open charges cancelled, commissions reversed inside the window, Valor
// Pago Alterado with valorNovo 0).
func (s *Service) cancelInscricao(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Motivo           string `json:"motivo"`
		TipoCancelamento string `json:"tipoCancelamento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.cancelamento", &in); err != nil {
		return nil, err
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		insc, err := s.mustInscricao(ctx, tx, r)
		if err != nil {
			return err
		}
		if _, err := inscricaoMachine.Check(insc.Status, InscCancelamentoSolicitado); err != nil {
			return rule("id", "INSCRICAO_NAO_CANCELAVEL", "a inscrição %d está %s e não pode ser cancelada", insc.ID, insc.Status)
		}
		if err := s.moveInscricao(ctx, tx, insc, InscCancelamentoSolicitado); err != nil {
			return err
		}
		insc.Body["motivoCancelamento"] = in.Motivo
		if err := s.saveInscricao(ctx, tx, insc); err != nil {
			return err
		}
		now := s.Clock.Now()
		if _, err := s.Jobs.Schedule(ctx, tx, jobCancel, now.Add(cancelDelay), jobRef{ID: insc.ID}); err != nil {
			return err
		}
		out = map[string]any{"protocolo": fmt.Sprintf("CAN-%d-%s", insc.ID, now.Format("20060102150405")),
			"dataHoraProtocolo": now.Format(time.RFC3339), "status": InscCancelamentoSolicitado, "inscricaoId": insc.ID}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: http.StatusAccepted, Body: envelope(out)}, nil
}

// cancelJob processes a requested cancellation.
func (s *Service) cancelJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := loadInscricao(ctx, tx, "", ref.ID)
	if err != nil || in == nil || in.Status != InscCancelamentoSolicitado {
		return err
	}
	return s.endEnrollment(ctx, tx, in.ID, InscCancelada, "CANCELAMENTO")
}

// reduceInscricao is POST /inscricao/{id}/reducao: lower capitals
// ({coberturas: [{itemProdutoId, capitalSeguradoNovo}]}) or the premium
// ({valorContribuicaoNovo}), never below the offer's minimums; the premium
// follows the capital proportionally.
func (s *Service) reduceInscricao(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Coberturas []struct {
			ItemProdutoID       int      `json:"itemProdutoId"`
			CapitalSeguradoNovo *float64 `json:"capitalSeguradoNovo"`
		} `json:"coberturas"`
		ValorContribuicaoNovo *float64 `json:"valorContribuicaoNovo"`
		Motivo                string   `json:"motivo"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.reducao", &in); err != nil {
		return nil, err
	}
	if (len(in.Coberturas) == 0) == (in.ValorContribuicaoNovo == nil) {
		return nil, errs.Invalidf("coberturas", "informe coberturas (capitais novos) ou valorContribuicaoNovo, não ambos")
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		insc, err := s.mustInscricao(ctx, tx, r)
		if err != nil {
			return err
		}
		if insc.Status != InscAtiva {
			return rule("id", "INSCRICAO_NAO_ATIVA", "a inscrição %d está %s: só uma inscrição ATIVA é reduzida", insc.ID, insc.Status)
		}
		offer, _ := s.Catalog.Offer(str(insc.Body, "codigoModeloProposta"))
		prodID, _ := intOf(obj(insc.Body, "produto")["idProduto"])
		antes, capAntes := premio(insc), totalCapital(insc)
		covs := coverages(insc)
		newCap := map[int]float64{}
		for i, c := range in.Coberturas {
			if c.CapitalSeguradoNovo == nil {
				return errs.Invalidf(fmt.Sprintf("coberturas.%d.capitalSeguradoNovo", i), "informe o capital novo")
			}
			newCap[c.ItemProdutoID] = *c.CapitalSeguradoNovo
		}
		if in.ValorContribuicaoNovo != nil {
			if *in.ValorContribuicaoNovo >= antes || *in.ValorContribuicaoNovo <= 0 {
				return rule("valorContribuicaoNovo", "REDUCAO_INVALIDA", "a contribuição nova deve ser positiva e menor que a atual (%.2f)", antes)
			}
			f := *in.ValorContribuicaoNovo / antes
			for _, c := range covs {
				item, _ := intOf(c["itemProdutoId"])
				capital, _ := c["capitalSegurado"].(float64)
				newCap[item] = math.Round(capital * f)
			}
		}
		var vs []errs.Violation
		total := 0.0
		for i, c := range covs {
			item, _ := intOf(c["itemProdutoId"])
			capital, _ := c["capitalSegurado"].(float64)
			pr, _ := c["premio"].(float64)
			nc, changed := newCap[item]
			if !changed {
				total += pr
				continue
			}
			delete(newCap, item)
			var cat *catalog.Cobertura
			if offer != nil {
				if prod := productOf(offer, prodID); prod != nil {
					cat = coverageOf(prod, item)
				}
			}
			field := fmt.Sprintf("coberturas.%d.capitalSeguradoNovo", i)
			switch {
			case nc >= capital:
				vs = append(vs, errs.Violation{Field: field, Reason: fmt.Sprintf("a redução deve diminuir o capital %.2f da cobertura %d", capital, item)})
			case cat != nil && cat.CapitalFixo:
				vs = append(vs, errs.Violation{Field: field, Reason: fmt.Sprintf("a cobertura %d tem capital fixo", item)})
			case cat != nil && nc < cat.ValorMinimoCapitalContratacao:
				vs = append(vs, errs.Violation{Field: field, Reason: fmt.Sprintf("capital %.2f abaixo do mínimo de %.2f da cobertura %d", nc, cat.ValorMinimoCapitalContratacao, item)})
			default:
				np := round2(pr * nc / capital)
				c["capitalSegurado"], c["premio"] = nc, np
				total += np
			}
		}
		for item := range newCap {
			vs = append(vs, errs.Violation{Field: "coberturas", Reason: fmt.Sprintf("a inscrição não tem a cobertura %d", item)})
		}
		if offer != nil && len(vs) == 0 && total < offer.TicketMinimo {
			vs = append(vs, errs.Violation{Field: "coberturas", Reason: fmt.Sprintf("a contribuição resultante %.2f fica abaixo do ticket mínimo %.2f do modelo %s", total, offer.TicketMinimo, offer.ID)})
		}
		if len(vs) > 0 {
			return rules("REDUCAO_INVALIDA", vs)
		}
		insc.Body["coberturas"] = covs
		insc.Body["valorContribuicao"] = round2(total)
		if err := s.saveInscricao(ctx, tx, insc); err != nil {
			return err
		}
		if err := s.valorPagoAlterado(ctx, tx, insc, "REDUCAO", antes, total, capAntes, totalCapital(insc), map[string]any{"motivoSolicitacao": in.Motivo}); err != nil {
			return err
		}
		out = insc.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// changeBilling is PUT /inscricao/{id}/forma-cobranca: a DADOS_COBRANCA
// fragment (TIPO_COBRANCA, DIA_VENCIMENTO and the method's data), checked as
// a proposal's; the next charges use it (Forma de Cobrança Alterada).
func (s *Service) changeBilling(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if httpx.CheckSyntax(raw) == nil {
		json.Unmarshal(raw, &body)
		if err := sale.RefuseCardData(body); err != nil {
			return nil, err
		}
	}
	if err := httpx.DecodeJSONBytes(raw, s.Schemas, "insurance/inscricao.forma-cobranca", &body); err != nil {
		return nil, err
	}
	var out map[string]any
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		insc, err := s.mustInscricao(ctx, tx, r)
		if err != nil {
			return err
		}
		if insc.Status != InscAtiva && insc.Status != InscSuspensa {
			return rule("id", "INSCRICAO_ENCERRADA", "a inscrição %d está %s", insc.ID, insc.Status)
		}
		offer, ok := s.Catalog.Offer(str(insc.Body, "codigoModeloProposta"))
		if !ok {
			return fmt.Errorf("inscricao %d: offer %q gone from the catalogue", insc.ID, str(insc.Body, "codigoModeloProposta"))
		}
		premio, _ := money.FromFloat(premio(insc))
		if e := sale.CheckBilling(ctx, tx, offer, sale.Payer{CompanyID: insc.CompanyID, CPF: insc.CPF}, body, "", premio, insc.Numero); e != nil {
			return e
		}
		antes := str(insc.Body, "formaCobranca")
		insc.Body["formaCobranca"] = str(body, "TIPO_COBRANCA")
		delete(insc.Body, "diaVencimento")
		if dia, err := intOf(body["DIA_VENCIMENTO"]); err == nil && dia > 0 {
			insc.Body["diaVencimento"] = dia
		}
		if err := s.saveInscricao(ctx, tx, insc); err != nil {
			return err
		}
		own, err := s.ownerOf(ctx, tx, insc.AppID)
		if err != nil {
			return err
		}
		if err := s.emit(ctx, tx, own, "inscricao.forma_cobranca_alterada", "Forma de Cobrança Alterada", inscSubject(insc), inscKey(insc),
			map[string]any{"formaAnterior": antes, "formaAtual": insc.Body["formaCobranca"], "diaVencimento": insc.Body["diaVencimento"]}); err != nil {
			return err
		}
		out = insc.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

var (
	cepRE   = regexp.MustCompile(`^\d{8}$`)
	emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// changeRegistration is PUT /inscricao/{id}/dados-cadastrais {email,
// telefone, endereco}: what changed is kept and announced (Dados Cadastrais
// Alterados, camposAlterados).
func (s *Service) changeRegistration(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in map[string]any
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.dados-cadastrais", &in); err != nil {
		return nil, err
	}
	if e, ok := in["email"].(string); ok && !emailRE.MatchString(e) {
		return nil, errs.Invalidf("email", "e-mail inválido")
	}
	if cep := str(obj(in, "endereco"), "cep"); cep != "" && !cepRE.MatchString(cep) {
		return nil, errs.Invalidf("endereco.cep", "CEP deve ter 8 dígitos")
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		insc, err := s.mustInscricao(ctx, tx, r)
		if err != nil {
			return err
		}
		if insc.Status == InscCancelada || insc.Status == InscEncerrada {
			return rule("id", "INSCRICAO_ENCERRADA", "a inscrição %d está %s", insc.ID, insc.Status)
		}
		dados := obj(insc.Body, "dadosCadastrais")
		var changed []string
		for _, k := range []string{"email", "telefone", "endereco"} {
			v, ok := in[k]
			if !ok {
				continue
			}
			old, _ := json.Marshal(dados[k])
			now, _ := json.Marshal(v)
			if string(old) != string(now) {
				changed = append(changed, k)
				dados[k] = v
			}
		}
		insc.Body["dadosCadastrais"] = dados
		if len(changed) > 0 {
			if err := s.saveInscricao(ctx, tx, insc); err != nil {
				return err
			}
			own, err := s.ownerOf(ctx, tx, insc.AppID)
			if err != nil {
				return err
			}
			subject := inscSubject(insc)
			subject["cpf"] = insc.CPF
			if err := s.emit(ctx, tx, own, "inscricao.dados_cadastrais_alterados", "Dados Cadastrais Alterados", subject, inscKey(insc),
				map[string]any{"camposAlterados": changed}); err != nil {
				return err
			}
		}
		out = insc.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}
