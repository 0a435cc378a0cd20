package pix

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/store"
)

// locRec is a location of recurrences: the URL of a recurrence's QR.
type locRec struct {
	ID        int64
	CompanyID string
	Token     string
	Location  string
	IDRec     sql.NullString
	CreatedAt time.Time
}

var locRecAbsent = absent{typ: "PayloadLocationRecNaoEncontrado", format: "nenhuma location de recorrência %v"}

// locRecFilter is what GET /locrec filters by, beyond the common
// parameters.
type locRecFilter struct {
	present  *bool
	convenio string
}

// body is PayloadLocationRecGerada (PayloadLocationRecCompleta with the
// idRec of the rec that uses it): tipo, which the spec requires there and
// defines in PayloadLocationRecSolicitada, is always "rec".
func (l *locRec) body() doc {
	d := doc{"id": l.ID, "location": l.Location, "tipo": "rec", "criacao": rfc3339(l.CreatedAt)}
	if l.IDRec.Valid {
		d["idRec"] = l.IDRec.String
	}
	return d
}

// createLocRec makes a location for a future recurrence.
func (s *Service) createLocRec(ctx context.Context, p auth.Principal, host string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		token := s.DB.IDs.Token(16)
		l := &locRec{CompanyID: p.CompanyID, Token: token, Location: host + QRPath + "rec/" + token, CreatedAt: s.nowOf(p.CompanyID)}
		if err := insertLocRec(ctx, tx, l, p.AppID); err != nil {
			return nil, err
		}
		return l.body(), nil
	})
}

// getLocRec is a location of recurrences as the API answers it.
func (s *Service) getLocRec(ctx context.Context, companyID string, id int64) (doc, error) {
	return view(ctx, s.DB, findLocRec, companyID, id, locRecAbsent, func(_ *store.Tx, l *locRec) (doc, error) {
		return l.body(), nil
	})
}

// unlinkLocRec takes a location from its recurrence.
func (s *Service) unlinkLocRec(ctx context.Context, companyID string, id int64) (doc, error) {
	return change(ctx, s.DB, findLocRec, companyID, id, locRecAbsent, func(tx *store.Tx, l *locRec) (doc, error) {
		if l.IDRec.Valid {
			rc, err := findRec(ctx, tx, l.CompanyID, l.IDRec.String)
			if err != nil {
				return nil, err
			}
			if rc != nil {
				delete(rc.Body, "loc")
				rc.LocID = sql.NullInt64{}
				if err := s.saveRec(ctx, tx, rc); err != nil {
					return nil, err
				}
			}
		}
		if err := releaseLocRec(ctx, tx, l.ID); err != nil {
			return nil, err
		}
		l.IDRec = sql.NullString{}
		return l.body(), nil
	})
}

// listLocRecs is GET /locrec's answer.
func (s *Service) listLocRecs(ctx context.Context, companyID string, lq *listQuery, f locRecFilter) (doc, error) {
	return list(ctx, s.DB, lq, locRecListing(companyID, lq, f), "loc", scanLocRec,
		func(_ context.Context, _ *store.Tx, l *locRec) (any, error) { return l.body(), nil })
}
