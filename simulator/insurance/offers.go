package insurance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/taxid"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/store"
)

// sellable lists the offers a company may sell: the catalogue's grants for
// its CNPJ, changed by the portal's grants and revocations.
func (s *Service) sellable(ctx context.Context, tx *store.Tx, companyID, cnpj string) ([]string, error) {
	ids := slices.Clone(s.Catalog.SellableBy(cnpj))
	rows, err := tx.QueryContext(ctx, `SELECT offer_id, granted FROM insurance_grants WHERE company_id = ?`, companyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var granted bool
		if err := rows.Scan(&id, &granted); err != nil {
			return nil, err
		}
		ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
		if granted {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, rows.Err()
}

// checkCNPJ refuses a cnpj (or empresa) parameter naming another company:
// the caller's company comes from its app.
func checkCNPJ(r *http.Request, names ...string) error {
	p := principal(r)
	for _, n := range names {
		if v := r.URL.Query().Get(n); v != "" && taxid.NormalizeCNPJ(v) != p.CNPJ {
			e := &errs.Error{Code: errs.Forbidden, Type: "CNPJ_NAO_AUTORIZADO",
				Message: fmt.Sprintf("o CNPJ %s não é o da empresa do app (%s): um app vende só pela própria empresa", v, p.CNPJ)}
			e.Violations = []errs.Violation{{Field: n, Reason: e.Message}}
			return e
		}
	}
	return nil
}

// offerFor returns an offer the caller may sell, or the error to answer:
// 404 for an unknown offer and for one the company may not sell (it does
// not learn which exist), in the insurer's envelope.
func (s *Service) offerFor(ctx context.Context, tx *store.Tx, r *http.Request, id string) (*catalog.Offer, error) {
	p := principal(r)
	o, ok := s.Catalog.Offer(id)
	ids, err := s.sellable(ctx, tx, p.CompanyID, p.CNPJ)
	if err != nil {
		return nil, err
	}
	if !ok || !slices.Contains(ids, id) {
		return nil, errs.Errorf(errs.NotFound, "modelo de proposta %q não existe ou não pode ser vendido pela empresa %s", id, p.CNPJ).
			WithType("MODELO_PROPOSTA_NAO_ENCONTRADO")
	}
	return o, nil
}

// listOffers is GET /modeloproposta?cnpj=&completo=&canalVenda=.
func (s *Service) listOffers(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	complete, err := boolParam(r, "completo", true)
	if err != nil {
		return nil, err
	}
	p := principal(r)
	out := []any{}
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		ids, err := s.sellable(ctx, tx, p.CompanyID, p.CNPJ)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if o, ok := s.Catalog.Offer(id); ok && channelOK(r, o) {
				out = append(out, shape(s.Catalog, o, complete))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// getOffer is GET /modeloproposta/{id}?cnpj=&completo=.
func (s *Service) getOffer(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	complete, err := boolParam(r, "completo", true)
	if err != nil {
		return nil, err
	}
	var out any
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		o, err := s.offerFor(ctx, tx, r, mux.Vars(r)["id"])
		if err != nil {
			return err
		}
		out = shape(s.Catalog, o, complete)
		if complete {
			out = fullOffer{Offer: o, Questionario: o.Questionario}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// fullOffer is the complete shape of GET /modeloproposta/{id}: the offer
// with its questionnaire's questions, which the forms widget renders (the
// v2 list shows only refs; the single offer carries what a sale needs).
type fullOffer struct {
	*catalog.Offer
	Questionario *catalog.Questionario `json:"questionario,omitempty"`
}

func shape(c *catalog.Catalog, o *catalog.Offer, complete bool) any {
	if complete {
		return o
	}
	return c.Reduced(o)
}

// questionnaires is GET /questionario?codigoModeloProposta= (v2
// Questionario): the questions of an offer the caller may sell.
func (s *Service) questionnaires(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	code := r.URL.Query().Get("codigoModeloProposta")
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta (codigoModeloProposta)")
	}
	var out []*catalog.Questionario
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		o, err := s.offerFor(ctx, tx, r, code)
		if err != nil {
			return err
		}
		out = []*catalog.Questionario{}
		if o.Questionario != nil {
			out = append(out, o.Questionario)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// channelOK filters by canalVenda when given: every offer of the catalogue
// is sold through its canalComercializacao.
func channelOK(r *http.Request, o *catalog.Offer) bool {
	ch := r.URL.Query().Get("canalVenda")
	return ch == "" || ch == itoa(o.CanalComercializacao.ID)
}

func boolParam(r *http.Request, name string, def bool) (bool, error) {
	switch r.URL.Query().Get(name) {
	case "":
		return def, nil
	case "true", "True", "1":
		return true, nil
	case "false", "False", "0":
		return false, nil
	}
	return false, errs.Invalidf(name, "%s deve ser true ou false", name)
}

// companyOffers is GET /portal/companies/{id}/offers: what the company may
// sell, and every offer of the catalogue.
func (s *Service) companyOffers(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var out map[string]any
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		id, cnpj, err := companyOf(ctx, tx, mux.Vars(r)["id"])
		if err != nil {
			return err
		}
		ids, err := s.sellable(ctx, tx, id, cnpj)
		if err != nil {
			return err
		}
		all := []map[string]any{}
		for _, o := range s.Catalog.Offers() {
			all = append(all, map[string]any{"id": o.ID, "nome": o.Nome, "vendavel": slices.Contains(ids, o.ID)})
		}
		out = map[string]any{"companyId": id, "cnpj": cnpj, "offers": all}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

func (s *Service) grantOffer(r *http.Request) (*httpx.Reply, error)  { return s.setGrant(r, true) }
func (s *Service) revokeOffer(r *http.Request) (*httpx.Reply, error) { return s.setGrant(r, false) }

// setGrant is PUT/DELETE /portal/companies/{id}/offers/{offer}.
func (s *Service) setGrant(r *http.Request, granted bool) (*httpx.Reply, error) {
	ctx := r.Context()
	offer := mux.Vars(r)["offer"]
	if _, ok := s.Catalog.Offer(offer); !ok {
		return nil, errs.Errorf(errs.NotFound, "no offer %q in the catalogue", offer)
	}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		id, _, err := companyOf(ctx, tx, mux.Vars(r)["id"])
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO insurance_grants (company_id, offer_id, granted, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (company_id, offer_id) DO UPDATE SET granted = excluded.granted, updated_at = excluded.updated_at`,
			id, offer, granted, s.Clock.Now().UnixNano())
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.companyOffers(r)
}

// companyOf finds a company by id or CNPJ, as the portal does.
func companyOf(ctx context.Context, tx *store.Tx, key string) (id, cnpj string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT id, cnpj FROM companies WHERE id = ? OR cnpj = ?`, key, key).Scan(&id, &cnpj)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", errs.Errorf(errs.NotFound, "no company %q", key)
	}
	return id, cnpj, err
}
