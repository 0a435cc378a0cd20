package benefit

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
)

// target reads whose benefit the path names: the caller's company (a
// cnpj parameter must be its CNPJ) and the benefit's id.
func target(r *http.Request) (companyID string, id int64, err error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return "", 0, err
	}
	id, err = wire.PathID(r, "id", "id de benefício inválido")
	return wire.Principal(r).CompanyID, id, err
}

// postBeneficio is POST /beneficio?cnpj= (SUMMARY §3.8): a benefit notice
// against an enrollment of the caller's company. The answer is the
// protocol and status AVISADO; regulation is the benefit's scenario
// (default: scenarios/beneficio-padrao.yaml).
func (s *Service) postBeneficio(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
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
	in, err := readBody(raw)
	if err != nil {
		return nil, err
	}
	a, err := readAviso(wire.Principal(r), in)
	if err != nil {
		return nil, err
	}
	a.Body, a.Scenario = body, r.Header.Get(scenario.Header)
	b, err := s.notify(r.Context(), a)
	if err != nil {
		return nil, err
	}
	return wire.Created(map[string]any{"beneficioId": b.ID, "protocolo": b.Protocolo, "dataHoraProtocolo": b.CreatedAt.Format(time.RFC3339),
		"status": b.Status, "inscricaoId": b.InscricaoID, "numeroProposta": b.Numero}), nil
}

// getBeneficio is GET /beneficio/{id}.
func (s *Service) getBeneficio(r *http.Request) (*httpx.Reply, error) {
	companyID, id, err := target(r)
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.beneficioOf(r.Context(), companyID, id))
}

// MarshalJSON writes what GET /beneficio/{id} answers: the notice, where
// regulation stands, the amounts once paid, the refusal while refused,
// and the pendings.
func (r resumo) MarshalJSON() ([]byte, error) {
	b := r.beneficio
	out := map[string]any{
		"beneficioId": b.ID, "protocolo": b.Protocolo, "dataHoraProtocolo": b.CreatedAt.Format(time.RFC3339),
		"status": b.Status, "statusOpin": statusOpin[b.Status], "dataUltimaAtualizacao": b.UpdatedAt.Format(time.RFC3339),
		"inscricaoId": b.InscricaoID, "numeroProposta": b.Numero, "cpfSegurado": b.CPF,
		"causa": b.Causa, "dataOcorrencia": b.DataOcorrencia, "coberturas": b.Coberturas, "pendencias": r.Pendencias,
	}
	for _, k := range []string{"horaOcorrencia", "descricaoOcorrencia", "itemProdutoId", "comunicante", "documentos"} {
		if v, ok := b.Aviso[k]; ok {
			out[k] = v
		}
	}
	if b.Status == BenPago {
		out["valor"], out["dataPagamento"], out["beneficiarios"] = b.Valor, b.DataPagamento, b.Beneficiarios
	}
	if b.MotivoRecusa != "" {
		out["motivoRecusa"], out["descricaoRecusa"] = b.MotivoRecusa, b.DescricaoRecusa
	}
	return json.Marshal(out)
}

// listBeneficios is GET /beneficio?inscricaoId=&cpf=&numeroProposta=&status=:
// the company's benefits, oldest first.
func (s *Service) listBeneficios(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	q := wire.Params(r)
	for _, k := range []string{"inscricaoId", "numeroProposta"} {
		if v := q.Get(k); v != "" {
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || n <= 0 {
				return nil, httpx.QueryError(k, "%s deve ser um número inteiro positivo", k)
			}
		}
	}
	f := beneficioFilter{InscricaoID: q.Get("inscricaoId"), Numero: q.Get("numeroProposta"), CPF: wire.Digits(q.Get("cpf")), Status: q.Get("status")}
	if q.Get("cpf") != "" && len(f.CPF) != 11 {
		return nil, httpx.QueryError("cpf", "CPF deve ter 11 dígitos")
	}
	if f.Status != "" && !beneficioMachine.Has(f.Status) {
		return nil, httpx.QueryError("status", "status deve ser um de %s", strings.Join(beneficioMachine.States(), ", "))
	}
	return wire.OKOf(s.beneficios(r.Context(), wire.Principal(r).CompanyID, f))
}

// beneficioTimeline is GET /beneficio/{id}/timeline: every status and
// pending, oldest first, as the benefit-timeline widget shows them.
func (s *Service) beneficioTimeline(r *http.Request) (*httpx.Reply, error) {
	companyID, id, err := target(r)
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.timelineOf(r.Context(), companyID, id))
}

// reopenBeneficio is POST /beneficio/{id}/reabertura {justificativa}: the
// partner contests a refusal.
func (s *Service) reopenBeneficio(r *http.Request) (*httpx.Reply, error) {
	_, id, err := target(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Justificativa string `json:"justificativa"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/beneficio.reabertura", &in); err != nil {
		return nil, err
	}
	return wire.OKOf(s.contest(r.Context(), wire.Principal(r), id, in.Justificativa))
}
