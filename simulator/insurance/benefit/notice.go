package benefit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/customer"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

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

// aviso is a benefit notice whose form is checked: what it claims, and
// what GET will echo of it.
type aviso struct {
	By          auth.Principal
	Numero      int64
	InscricaoID int64
	Item        int // itemProdutoId, 0 when the notice names none
	CPF         string
	Causa       string
	Ocorrencia  time.Time
	Hora        string
	// Echo is what the notice said that GET echoes (comunicante,
	// documentos, hora and descricao of the occurrence).
	Echo map[string]any
	// Body is the request as sent, which the scenario selects on.
	Body     map[string]any
	Scenario string
}

// readAviso checks the form of a notice (each mistake a 400 naming its
// field) and reads it.
func readAviso(by auth.Principal, in avisoIn) (*aviso, error) {
	a := &aviso{By: by, Causa: in.Causa, Hora: in.HoraOcorrencia, CPF: wire.Digits(in.CPFSegurado)}
	var err error
	if a.Numero, err = optionalID(in.NumeroProposta, "numeroProposta"); err != nil {
		return nil, err
	}
	if a.InscricaoID, err = optionalID(in.InscricaoID, "inscricaoId"); err != nil {
		return nil, err
	}
	item, err := optionalID(in.ItemProdutoID, "itemProdutoId")
	if err != nil {
		return nil, err
	}
	a.Item = int(item)
	if a.Numero == 0 && a.InscricaoID == 0 {
		return nil, errs.Invalidf("inscricaoId", "informe a inscrição do segurado: inscricaoId e/ou numeroProposta")
	}
	if err := taxid.CheckCPF(a.CPF); err != nil {
		return nil, errs.Invalidf("cpfSegurado", "CPF inválido: %v", err)
	}
	com := in.Comunicante
	if com.TipoDocumento == "CPF" {
		com.Documento = wire.Digits(com.Documento)
		if err := taxid.CheckCPF(com.Documento); err != nil {
			return nil, errs.Invalidf("comunicante.documento", "CPF inválido: %v", err)
		}
	}
	if a.Ocorrencia, err = wire.ParseDate(in.DataOcorrencia); err != nil {
		return nil, errs.Invalidf("dataOcorrencia", "data inválida: use YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS ou DD-MM-YYYY")
	}
	docs, err := readDocumentos("documentos", in.Documentos)
	if err != nil {
		return nil, err
	}
	comunicante := map[string]any{"nome": com.Nome, "tipoDocumento": com.TipoDocumento, "documento": com.Documento, "relacao": com.Relacao}
	for k, v := range map[string]string{"email": com.Email, "telefone": com.Telefone} {
		if v != "" {
			comunicante[k] = v
		}
	}
	a.Echo = map[string]any{"comunicante": comunicante, "documentos": docs}
	for k, v := range map[string]string{"horaOcorrencia": in.HoraOcorrencia, "descricaoOcorrencia": in.DescricaoOcorrencia} {
		if v != "" {
			a.Echo[k] = v
		}
	}
	return a, nil
}

// readDocumentos decodes attached documents (400 naming the one that is
// not base64 or too large) and returns what is kept of them.
func readDocumentos(field string, docs []documentoIn) ([]map[string]any, error) {
	out := []map[string]any{}
	for i, d := range docs {
		size, err := wire.DocumentSize(fmt.Sprintf("%s.%d.conteudoBase64", field, i), d.ConteudoBase64)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"tipo": d.Tipo, "nomeArquivo": d.NomeArquivo, "formato": d.Formato, "tamanho": size})
	}
	return out, nil
}

// optionalID reads an id sent as a number or a numeric string; 0 when
// absent.
func optionalID(v any, field string) (int64, error) {
	if v == nil {
		return 0, nil
	}
	n, err := wire.Int(v)
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
		return wire.Rule(vs[0].field, vs[0].code, "%s", vs[0].msg)
	}
	e := &errs.Error{Code: errs.Unprocessable, Type: "AVISO_DE_BENEFICIO_INVALIDO", Message: "o aviso de benefício viola regras da inscrição"}
	for _, v := range vs {
		e.Violations = append(e.Violations, errs.Violation{Field: v.field, Reason: v.code + ": " + v.msg})
	}
	return e
}

// notify takes a benefit notice against an enrollment of the caller's
// company: checked against the enrollment's cover, it is stored AVISADO
// with its protocol, its timeline, Benefício Avisado and its scenario.
func (s *Service) notify(ctx context.Context, a *aviso) (*beneficio, error) {
	var b *beneficio
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		now := s.NowOf(a.By.CompanyID)
		var vs violations
		checkOccurrenceNotFuture(&vs, a.Ocorrencia, a.Hora, now)
		insc, covs, err := s.enrollmentFor(ctx, tx, &vs, a)
		if err != nil || insc == nil {
			return firstErr(err, vs)
		}
		if insc.CPF != a.CPF {
			vs.add("cpfSegurado", "CPF_DIVERGENTE", "o CPF %s não é o do segurado da inscrição %d", a.CPF, insc.ID)
		}
		if start, err := wire.ParseDate(insc.Inicio()); err == nil && a.Ocorrencia.Before(start) {
			vs.add("dataOcorrencia", "OCORRENCIA_ANTES_DA_VIGENCIA", "a ocorrência em %s é anterior ao início de vigência da inscrição %d (%s)",
				a.Ocorrencia.Format(time.DateOnly), insc.ID, start.Format(time.DateOnly))
		}
		open, err := openBeneficio(ctx, tx, insc.ID, a.Causa)
		if err != nil {
			return err
		}
		if open > 0 {
			vs.add("causa", "BENEFICIO_JA_AVISADO", "o benefício %d já regula %s para a inscrição %d; acompanhe-o em vez de avisar de novo", open, a.Causa, insc.ID)
		}
		if err := vs.err(); err != nil {
			return err
		}
		b, err = s.createBeneficio(ctx, tx, a, insc, covs, now)
		return err
	})
	return b, err
}

// firstErr is err, else the violations found.
func firstErr(err error, vs violations) error {
	if err != nil {
		return err
	}
	return vs.err()
}

// checkOccurrenceNotFuture refuses an occurrence after the company's now:
// the date, or the hour on today's date.
func checkOccurrenceNotFuture(vs *violations, occ time.Time, hora string, now time.Time) {
	// Today and the hour are Brasília's, where the occurrence is dated.
	local := now.In(wire.Brasilia)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
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
		at := time.Date(local.Year(), local.Month(), local.Day(), h.Hour(), h.Minute(), h.Second(), 0, wire.Brasilia)
		if at.After(now) {
			vs.add("horaOcorrencia", "OCORRENCIA_FUTURA", "a ocorrência hoje às %s é posterior a agora (%s, horário de Brasília)", hora, local.Format("15:04:05"))
		}
	}
}

// enrollmentFor finds the enrollment a notice is about, by inscricaoId
// and/or numeroProposta, within the company (another company's enrollment
// is answered as unknown, so a partner learns nothing of others'), with
// the coverages that pay the cause. Broken rules go to vs; a nil
// enrollment means there is nothing more to check.
func (s *Service) enrollmentFor(ctx context.Context, tx *store.Tx, vs *violations, a *aviso) (*customer.Inscricao, []covInfo, error) {
	cands, err := s.candidates(ctx, tx, vs, a)
	if err != nil || len(cands) == 0 {
		return nil, nil, err
	}
	// A proposal of several plans has an enrollment per plan: the notice is
	// about the one that covers the cause.
	in := cands[0]
	for _, c := range cands {
		if len(claimable(a.Causa, s.coveragesOf(c), a.Item)) > 0 {
			in = c
			break
		}
	}
	if in.Ended() {
		vs.add("inscricaoId", "INSCRICAO_ENCERRADA", "a inscrição %d está %s: não há cobertura para avisar", in.ID, in.Status)
		return nil, nil, nil
	}
	all := s.coveragesOf(in)
	if a.Item != 0 && !slices.ContainsFunc(all, func(c covInfo) bool { return c.ItemProdutoID == a.Item }) {
		vs.add("itemProdutoId", "COBERTURA_NAO_CONTRATADA", "a inscrição %d não tem a cobertura %d; tem: %s", in.ID, a.Item, describeCoverages(all))
		return in, nil, nil
	}
	covs := claimable(a.Causa, all, a.Item)
	if len(covs) == 0 {
		if a.Item != 0 {
			vs.add("causa", "CAUSA_NAO_COBERTA", "a cobertura %d da inscrição %d não cobre %s", a.Item, in.ID, a.Causa)
		} else {
			vs.add("causa", "CAUSA_NAO_COBERTA", "nenhuma cobertura da inscrição %d cobre %s; coberturas: %s", in.ID, a.Causa, describeCoverages(all))
		}
	}
	return in, covs, nil
}

// candidates are the company's enrollments the notice may be about: the
// one it names, or those of the proposal it names. None, with the
// violation why, when there is none.
func (s *Service) candidates(ctx context.Context, tx *store.Tx, vs *violations, a *aviso) ([]*customer.Inscricao, error) {
	companyID := a.By.CompanyID
	if a.InscricaoID > 0 {
		in, err := s.Customer.Inscricao(ctx, tx, companyID, a.InscricaoID)
		switch {
		case err != nil:
			return nil, err
		case in == nil:
			vs.add("inscricaoId", "INSCRICAO_NAO_ENCONTRADA", "a inscrição %d não existe ou não é da empresa do app", a.InscricaoID)
			return nil, nil
		case a.Numero > 0 && in.Numero != a.Numero:
			vs.add("numeroProposta", "PROPOSTA_DIVERGENTE", "a inscrição %d é da proposta %d, não da %d", in.ID, in.Numero, a.Numero)
			return nil, nil
		}
		return []*customer.Inscricao{in}, nil
	}
	cands, err := s.Customer.InscricoesDaProposta(ctx, tx, companyID, a.Numero)
	if err != nil || len(cands) > 0 {
		return cands, err
	}
	p, err := s.Sale.Proposta(ctx, tx, companyID, a.Numero)
	if err != nil {
		return nil, err
	}
	if p == nil {
		vs.add("numeroProposta", "PROPOSTA_NAO_ENCONTRADA", "a proposta %d não existe ou não é da empresa do app", a.Numero)
	} else {
		vs.add("numeroProposta", "PROPOSTA_NAO_IMPLANTADA", "a proposta %d está %s: só uma proposta implantada tem inscrições com cobertura", a.Numero, p.Status)
	}
	return nil, nil
}

// createBeneficio stores an accepted notice, starts its timeline, emits
// Benefício Avisado and binds its scenario.
func (s *Service) createBeneficio(ctx context.Context, tx *store.Tx, a *aviso, insc *customer.Inscricao, covs []covInfo, now time.Time) (*beneficio, error) {
	b := &beneficio{CompanyID: a.By.CompanyID, AppID: a.By.AppID, InscricaoID: insc.ID, Numero: insc.Numero, CPF: insc.CPF, Causa: a.Causa,
		Status: BenAvisado, DataOcorrencia: a.Ocorrencia.Format(time.DateOnly), Aviso: a.Echo, Coberturas: []benCobertura{}, CreatedAt: now, UpdatedAt: now}
	for _, c := range covs {
		b.Coberturas = append(b.Coberturas, benCobertura{ItemProdutoID: c.ItemProdutoID, Descricao: c.Descricao, CapitalSegurado: c.Capital})
	}
	if a.Item != 0 {
		b.Aviso["itemProdutoId"] = b.Coberturas[0].ItemProdutoID
	}
	// The protocol is the notice's day and number, as an insurer's
	// protocol desk would write it (OPIN protocolNumber, ≤ 60 characters).
	if err := insertBeneficio(ctx, tx, b, func(id int64) string { return fmt.Sprintf("%s%06d", now.Format("20060102"), id) }); err != nil {
		return nil, err
	}
	if err := beneficioTimeline.Add(ctx, tx, b.ID, wire.Entry{At: now, Status: BenAvisado, Usuario: a.By.ClientID,
		Descricao: fmt.Sprintf("Aviso de benefício recebido: %s em %s (protocolo %s)", a.Causa, b.DataOcorrencia, b.Protocolo)}); err != nil {
		return nil, err
	}
	if err := s.Emit(ctx, tx, a.By, wire.Event{Type: "beneficio.avisado", Name: "Benefício Avisado", Subject: b.subject(), Key: b.key(),
		Data: map[string]any{"protocolo": b.Protocolo, "dataHoraProtocolo": now.Format(time.RFC3339), "status": BenAvisado, "statusOpin": statusOpin[BenAvisado],
			"causa": a.Causa, "dataOcorrencia": b.DataOcorrencia, "cpfSegurado": insc.CPF}}); err != nil {
		return nil, err
	}
	return b, s.Bind(ctx, tx, scenario.Resource{Kind: "beneficio", Key: wire.ID(b.ID), Ref: b.Protocolo, AppID: a.By.AppID, Named: a.Scenario, Body: a.Body})
}

// describeCoverages names coverages for a message: "1001 MORTE, 1002 …".
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

// readBody reads POST /beneficio's body into the notice's fields.
func readBody(raw []byte) (avisoIn, error) {
	var in avisoIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, errs.Errorf(errs.Invalid, "JSON malformado: %v", err)
	}
	return in, nil
}
