package insurance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// The catalogue's causa ids (catalog/offers.yaml): what a coverage pays for.
const (
	causaMorte         = 1 // MORTE POR QUALQUER CAUSA
	causaMorteAcidente = 2 // MORTE ACIDENTAL
	causaInvalidez     = 3 // INVALIDEZ POR ACIDENTE
	causaDoencaGrave   = 4 // DOENÇAS GRAVES
	causaFuneral       = 5 // FUNERAL
)

// Who receives a paid benefit.
const (
	paraBeneficiarios = iota // the proposal's beneficiaries, or the legal heirs
	paraSegurado             // the insured, alive
	paraComunicante          // whoever paid the expenses (funeral)
)

// causaSpec is what a notice's causa means to the sandbox.
type causaSpec struct {
	// Causas are the catalogue causa ids whose coverages pay it.
	Causas []int
	// Encerra: paying it ends the enrollment (the insured died).
	Encerra bool
	Para    int
}

// causas are the accepted notice causes, OPIN EnumCodeCoverage names
// (SUMMARY §3.8). An accidental death is also a death by any cause, so a
// MORTE POR QUALQUER CAUSA coverage pays it too (and an additional
// MORTE ACIDENTAL capital, when contracted, is paid on top). The funeral
// cover reimburses whoever paid the funeral, who gave the notice.
// INTERNACAO_HOSPITALAR is a real cause no offer of the catalogue covers:
// it is accepted and refused as not covered, as the insurer would.
var causas = map[string]causaSpec{
	"MORTE":                          {Causas: []int{causaMorte}, Encerra: true, Para: paraBeneficiarios},
	"MORTE_ACIDENTAL":                {Causas: []int{causaMorteAcidente, causaMorte}, Encerra: true, Para: paraBeneficiarios},
	"INVALIDEZ_TOTAL_POR_ACIDENTE":   {Causas: []int{causaInvalidez}, Para: paraSegurado},
	"INVALIDEZ_PARCIAL_POR_ACIDENTE": {Causas: []int{causaInvalidez}, Para: paraSegurado},
	"DOENCA_GRAVE":                   {Causas: []int{causaDoencaGrave}, Para: paraSegurado},
	"FUNERAL":                        {Causas: []int{causaFuneral}, Para: paraComunicante},
	"INTERNACAO_HOSPITALAR":          {Para: paraSegurado},
}

// covInfo is one coverage of an enrollment with what the catalogue says
// it pays for.
type covInfo struct {
	ItemProdutoID int
	Descricao     string
	Causas        []int
	Capital       float64
}

// claimable picks the coverages that pay causa: item alone when the notice
// names one (none when it does not pay causa), else every coverage whose
// causas include one of the cause's.
func claimable(causa string, covs []covInfo, item int) []covInfo {
	spec, ok := causas[causa]
	if !ok {
		return nil
	}
	var out []covInfo
	for _, c := range covs {
		if item != 0 && c.ItemProdutoID != item {
			continue
		}
		if slices.ContainsFunc(spec.Causas, func(id int) bool { return slices.Contains(c.Causas, id) }) {
			out = append(out, c)
		}
	}
	return out
}

// coveragesOf reads an enrollment's coverages with their causas from the
// offer it was sold under.
func (s *Service) coveragesOf(in *inscricao) []covInfo {
	var prod *catalog.Produto
	if o, ok := s.Catalog.Offer(str(in.Body, "codigoModeloProposta")); ok {
		id, _ := intOf(obj(in.Body, "produto")["idProduto"])
		prod = productOf(o, id)
	}
	var out []covInfo
	for _, c := range coverages(in) {
		item, _ := intOf(c["itemProdutoId"])
		capital, _ := moneyOf(c["capitalSegurado"])
		ci := covInfo{ItemProdutoID: item, Capital: capital}
		if prod != nil {
			if cov := coverageOf(prod, item); cov != nil {
				ci.Descricao = cov.Descricao
				for _, d := range cov.Causas {
					ci.Causas = append(ci.Causas, d.ID)
				}
			}
		}
		out = append(out, ci)
	}
	return out
}

func describeCoverages(covs []covInfo) string {
	var parts []string
	for _, c := range covs {
		parts = append(parts, fmt.Sprintf("%d %s", c.ItemProdutoID, c.Descricao))
	}
	if len(parts) == 0 {
		return "nenhuma"
	}
	return strings.Join(parts, ", ")
}

// avisoIn is the body of POST /beneficio (SUMMARY §3.8, proposed).
type avisoIn struct {
	NumeroProposta      any    `json:"numeroProposta"`
	InscricaoID         any    `json:"inscricaoId"`
	CPFSegurado         string `json:"cpfSegurado"`
	Causa               string `json:"causa"`
	ItemProdutoID       any    `json:"itemProdutoId"`
	DataOcorrencia      string `json:"dataOcorrencia"`
	HoraOcorrencia      string `json:"horaOcorrencia"`
	DescricaoOcorrencia string `json:"descricaoOcorrencia"`
	Comunicante         struct {
		Nome          string `json:"nome"`
		TipoDocumento string `json:"tipoDocumento"`
		Documento     string `json:"documento"`
		Relacao       string `json:"relacao"`
		Email         string `json:"email"`
		Telefone      string `json:"telefone"`
	} `json:"comunicante"`
	Documentos []documentoIn `json:"documentos"`
}

// documentoIn is an attached document; only its metadata is kept.
type documentoIn struct {
	Tipo           string `json:"tipo"`
	NomeArquivo    string `json:"nomeArquivo"`
	Formato        string `json:"formato"`
	ConteudoBase64 string `json:"conteudoBase64"`
}

// readDocumentos decodes attached documents (400 naming the one that is
// not base64 or too large) and returns what is kept of them.
func readDocumentos(field string, docs []documentoIn) ([]map[string]any, error) {
	out := []map[string]any{}
	for i, d := range docs {
		f := fmt.Sprintf("%s.%d.conteudoBase64", field, i)
		raw, err := base64.StdEncoding.DecodeString(d.ConteudoBase64)
		if err != nil {
			return nil, errs.Invalidf(f, "conteúdo não é base64 válido: %v", err)
		}
		if len(raw) > maxDocument {
			return nil, errs.Invalidf(f, "documento de %d bytes excede o limite de %d", len(raw), maxDocument)
		}
		out = append(out, map[string]any{"tipo": d.Tipo, "nomeArquivo": d.NomeArquivo, "formato": d.Formato, "tamanho": len(raw)})
	}
	return out, nil
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// optionalID reads an id sent as a number or a numeric string; 0 when
// absent.
func optionalID(v any, field string) (int64, error) {
	if v == nil {
		return 0, nil
	}
	n, err := intOf(v)
	if err != nil || n <= 0 {
		return 0, errs.Invalidf(field, "%s deve ser um número inteiro positivo", field)
	}
	return int64(n), nil
}

// violations collects the broken business rules of a notice, each with
// its own code.
type violations []struct{ field, code, msg string }

func (vs *violations) add(field, code, format string, args ...any) {
	*vs = append(*vs, struct{ field, code, msg string }{field, code, fmt.Sprintf(format, args...)})
}

// err is the 422: one broken rule keeps its own Codigo; several share
// AVISO_DE_BENEFICIO_INVALIDO (the envelope has one Codigo per answer
// kind), each Mensagem naming its field.
func (vs violations) err() error {
	switch len(vs) {
	case 0:
		return nil
	case 1:
		return rule(vs[0].field, vs[0].code, "%s", vs[0].msg)
	}
	e := &errs.Error{Code: errs.Unprocessable, Type: "AVISO_DE_BENEFICIO_INVALIDO", Message: "o aviso de benefício viola regras da inscrição"}
	for _, v := range vs {
		e.Violations = append(e.Violations, errs.Violation{Field: v.field, Reason: v.code + ": " + v.msg})
	}
	return e
}

// postBeneficio is POST /beneficio?cnpj= (SUMMARY §3.8): a benefit notice
// against an enrollment of the caller's company. The answer is the
// protocol and status AVISADO; regulation is the benefit's scenario
// (default: scenarios/beneficio-padrao.yaml).
func (s *Service) postBeneficio(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	pr := principal(r)
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	if err := httpx.CheckJSONContentType(r); err != nil {
		return nil, err
	}
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if err := httpx.DecodeJSONBytes(raw, s.Schemas, "insurance/beneficio.request", &body); err != nil {
		return nil, err
	}
	var in avisoIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, errs.Errorf(errs.Invalid, "malformed JSON: %v", err)
	}
	numero, err := optionalID(in.NumeroProposta, "numeroProposta")
	if err != nil {
		return nil, err
	}
	inscID, err := optionalID(in.InscricaoID, "inscricaoId")
	if err != nil {
		return nil, err
	}
	item, err := optionalID(in.ItemProdutoID, "itemProdutoId")
	if err != nil {
		return nil, err
	}
	if numero == 0 && inscID == 0 {
		return nil, errs.Invalidf("inscricaoId", "informe a inscrição do segurado: inscricaoId e/ou numeroProposta")
	}
	cpf := digits(in.CPFSegurado)
	if err := taxid.CheckCPF(cpf); err != nil {
		return nil, errs.Invalidf("cpfSegurado", "CPF inválido: %v", err)
	}
	if in.Comunicante.TipoDocumento == "CPF" {
		if err := taxid.CheckCPF(digits(in.Comunicante.Documento)); err != nil {
			return nil, errs.Invalidf("comunicante.documento", "CPF inválido: %v", err)
		}
	}
	occ, err := parseDate(in.DataOcorrencia)
	if err != nil {
		return nil, errs.Invalidf("dataOcorrencia", "data inválida: use YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS ou DD-MM-YYYY")
	}
	docs, err := readDocumentos("documentos", in.Documentos)
	if err != nil {
		return nil, err
	}

	var out map[string]any
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		now := s.Clock.Now()
		var vs violations
		checkOccurrenceNotFuture(&vs, occ, in.HoraOcorrencia, now)
		insc, covs, err := s.enrollmentFor(ctx, tx, &vs, pr.CompanyID, inscID, numero, in.Causa, int(item))
		if err != nil {
			return err
		}
		if insc == nil {
			return vs.err()
		}
		if insc.CPF != cpf {
			vs.add("cpfSegurado", "CPF_DIVERGENTE", "o CPF %s não é o do segurado da inscrição %d", cpf, insc.ID)
		}
		if start, err := parseDate(str(insc.Body, "dataInicioVigencia")); err == nil && occ.Before(start) {
			vs.add("dataOcorrencia", "OCORRENCIA_ANTES_DA_VIGENCIA", "a ocorrência em %s é anterior ao início de vigência da inscrição %d (%s)",
				occ.Format(time.DateOnly), insc.ID, start.Format(time.DateOnly))
		}
		var open int64
		err = tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM beneficios WHERE inscricao_id = ? AND causa = ? AND status IN (?, ?, ?, ?, ?)`,
			insc.ID, in.Causa, BenAvisado, BenEmRegulacao, BenPendente, BenAprovado, BenReaberto).Scan(&open)
		if err != nil {
			return fmt.Errorf("open benefits of inscricao %d: %w", insc.ID, err)
		}
		if open > 0 {
			vs.add("causa", "BENEFICIO_JA_AVISADO", "o benefício %d já regula %s para a inscrição %d; acompanhe-o em vez de avisar de novo", open, in.Causa, insc.ID)
		}
		if err := vs.err(); err != nil {
			return err
		}
		out, err = s.createBeneficio(ctx, tx, r, insc, covs, in, occ, docs, body)
		return err
	})
	if err != nil {
		return nil, err
	}
	return created(out), nil
}

// checkOccurrenceNotFuture refuses an occurrence after the sandbox's now:
// the date, or the hour on today's date.
func checkOccurrenceNotFuture(vs *violations, occ time.Time, hora string, now time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if occ.After(today) {
		vs.add("dataOcorrencia", "OCORRENCIA_FUTURA", "a data de ocorrência %s é posterior a hoje (%s)", occ.Format(time.DateOnly), today.Format(time.DateOnly))
		return
	}
	if hora == "" || !occ.Equal(today) {
		return
	}
	layout := "15:04:05"
	if len(hora) == 5 {
		layout = "15:04"
	}
	if h, err := time.Parse(layout, hora); err == nil {
		at := today.Add(time.Duration(h.Hour())*time.Hour + time.Duration(h.Minute())*time.Minute + time.Duration(h.Second())*time.Second)
		if at.After(now) {
			vs.add("horaOcorrencia", "OCORRENCIA_FUTURA", "a ocorrência hoje às %s é posterior a agora (%s UTC)", hora, now.Format("15:04:05"))
		}
	}
}

// enrollmentFor finds the enrollment a notice is about, by inscricaoId
// and/or numeroProposta, within the company (another company's enrollment
// is answered as unknown, so a partner learns nothing of others'), with
// the coverages that pay the cause. Broken rules go to vs; a nil
// enrollment means there is nothing more to check.
func (s *Service) enrollmentFor(ctx context.Context, tx *store.Tx, vs *violations, companyID string, inscID, numero int64, causa string, item int) (*inscricao, []covInfo, error) {
	var cands []*inscricao
	if inscID > 0 {
		in, err := loadInscricao(ctx, tx, companyID, inscID)
		if err != nil {
			return nil, nil, err
		}
		if in == nil {
			vs.add("inscricaoId", "INSCRICAO_NAO_ENCONTRADA", "a inscrição %d não existe ou não é da empresa do app", inscID)
			return nil, nil, nil
		}
		if numero > 0 && in.Numero != numero {
			vs.add("numeroProposta", "PROPOSTA_DIVERGENTE", "a inscrição %d é da proposta %d, não da %d", in.ID, in.Numero, numero)
			return nil, nil, nil
		}
		cands = []*inscricao{in}
	} else {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM inscricoes WHERE numero = ? AND company_id = ? ORDER BY id`, numero, companyID)
		if err != nil {
			return nil, nil, fmt.Errorf("inscricoes of proposta %d: %w", numero, err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, nil, err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if len(ids) == 0 {
			p, err := s.Sale.Proposta(ctx, tx, companyID, numero)
			if err != nil {
				return nil, nil, err
			}
			if p == nil {
				vs.add("numeroProposta", "PROPOSTA_NAO_ENCONTRADA", "a proposta %d não existe ou não é da empresa do app", numero)
			} else {
				vs.add("numeroProposta", "PROPOSTA_NAO_IMPLANTADA", "a proposta %d está %s: só uma proposta implantada tem inscrições com cobertura", numero, p.Status)
			}
			return nil, nil, nil
		}
		for _, id := range ids {
			in, err := loadInscricao(ctx, tx, companyID, id)
			if err != nil {
				return nil, nil, err
			}
			cands = append(cands, in)
		}
	}
	// A proposal of several plans has an enrollment per plan: the notice is
	// about the one that covers the cause.
	in := cands[0]
	for _, c := range cands {
		if len(claimable(causa, s.coveragesOf(c), item)) > 0 {
			in = c
			break
		}
	}
	if in.Status == InscCancelada || in.Status == InscEncerrada {
		vs.add("inscricaoId", "INSCRICAO_ENCERRADA", "a inscrição %d está %s: não há cobertura para avisar", in.ID, in.Status)
		return nil, nil, nil
	}
	all := s.coveragesOf(in)
	if item != 0 && !slices.ContainsFunc(all, func(c covInfo) bool { return c.ItemProdutoID == item }) {
		vs.add("itemProdutoId", "COBERTURA_NAO_CONTRATADA", "a inscrição %d não tem a cobertura %d; tem: %s", in.ID, item, describeCoverages(all))
		return in, nil, nil
	}
	covs := claimable(causa, all, item)
	if len(covs) == 0 {
		if item != 0 {
			vs.add("causa", "CAUSA_NAO_COBERTA", "a cobertura %d da inscrição %d não cobre %s", item, in.ID, causa)
		} else {
			vs.add("causa", "CAUSA_NAO_COBERTA", "nenhuma cobertura da inscrição %d cobre %s; coberturas: %s", in.ID, causa, describeCoverages(all))
		}
	}
	return in, covs, nil
}

// createBeneficio stores an accepted notice, starts its timeline, emits
// Benefício Avisado and binds its scenario.
func (s *Service) createBeneficio(ctx context.Context, tx *store.Tx, r *http.Request, insc *inscricao, covs []covInfo, in avisoIn, occ time.Time,
	docs []map[string]any, body map[string]any) (map[string]any, error) {
	pr := principal(r)
	now := s.Clock.Now()
	claimed := []benCobertura{}
	for _, c := range covs {
		claimed = append(claimed, benCobertura{ItemProdutoID: c.ItemProdutoID, Descricao: c.Descricao, CapitalSegurado: c.Capital})
	}
	com := map[string]any{"nome": in.Comunicante.Nome, "tipoDocumento": in.Comunicante.TipoDocumento, "documento": in.Comunicante.Documento,
		"relacao": in.Comunicante.Relacao}
	if in.Comunicante.TipoDocumento == "CPF" {
		com["documento"] = digits(in.Comunicante.Documento)
	}
	if in.Comunicante.Email != "" {
		com["email"] = in.Comunicante.Email
	}
	if in.Comunicante.Telefone != "" {
		com["telefone"] = in.Comunicante.Telefone
	}
	aviso := map[string]any{"comunicante": com, "documentos": docs}
	if in.HoraOcorrencia != "" {
		aviso["horaOcorrencia"] = in.HoraOcorrencia
	}
	if in.DescricaoOcorrencia != "" {
		aviso["descricaoOcorrencia"] = in.DescricaoOcorrencia
	}
	if in.ItemProdutoID != nil {
		aviso["itemProdutoId"] = claimed[0].ItemProdutoID
	}
	avisoJSON, _ := json.Marshal(aviso)
	covJSON, _ := json.Marshal(claimed)
	res, err := tx.ExecContext(ctx, `INSERT INTO beneficios (protocolo, company_id, app_id, inscricao_id, numero, cpf, causa, status, data_ocorrencia, aviso, coberturas, created_at, updated_at)
		VALUES ('', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, pr.CompanyID, pr.AppID, insc.ID, insc.Numero, insc.CPF, in.Causa, BenAvisado,
		occ.Format(time.DateOnly), string(avisoJSON), string(covJSON), now.UnixNano(), now.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("insert beneficio: %w", err)
	}
	id, _ := res.LastInsertId()
	// The protocol is the notice's day and number, as an insurer's
	// protocol desk would write it (OPIN protocolNumber, ≤ 60 characters).
	protocolo := fmt.Sprintf("%s%06d", now.Format("20060102"), id)
	if _, err := tx.ExecContext(ctx, `UPDATE beneficios SET protocolo = ? WHERE id = ?`, protocolo, id); err != nil {
		return nil, fmt.Errorf("protocolo of beneficio %d: %w", id, err)
	}
	b := &beneficio{ID: id, Protocolo: protocolo, InscricaoID: insc.ID, Numero: insc.Numero}
	if err := addBenTimeline(ctx, tx, id, now, BenAvisado, pr.ClientID,
		fmt.Sprintf("Aviso de benefício recebido: %s em %s (protocolo %s)", in.Causa, occ.Format(time.DateOnly), protocolo), 0); err != nil {
		return nil, err
	}
	if err := s.emit(ctx, tx, pr, "beneficio.avisado", "Benefício Avisado", benSubject(b), benKey(b), map[string]any{
		"protocolo": protocolo, "dataHoraProtocolo": now.Format(time.RFC3339), "status": BenAvisado, "statusOpin": statusOpin[BenAvisado],
		"causa": in.Causa, "dataOcorrencia": occ.Format(time.DateOnly), "cpfSegurado": insc.CPF,
	}); err != nil {
		return nil, err
	}
	if s.Scenarios != nil {
		if err := s.Scenarios.Bind(ctx, tx, scenario.Resource{Kind: "beneficio", Key: b10(id), Ref: protocolo, AppID: pr.AppID,
			Named: r.Header.Get(scenario.Header), Body: body}); err != nil {
			return nil, err
		}
	}
	return map[string]any{"beneficioId": id, "protocolo": protocolo, "dataHoraProtocolo": now.Format(time.RFC3339), "status": BenAvisado,
		"inscricaoId": insc.ID, "numeroProposta": insc.Numero}, nil
}
