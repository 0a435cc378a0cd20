package pix

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/store"
)

// loc is a payload location: the URL inside a charge's QR code.
type loc struct {
	ID        int64
	CompanyID string
	AppID     string
	TipoCob   string
	Token     string
	Location  string
	CobID     sql.NullInt64
	CreatedAt time.Time
}

// QRPath is where the sandbox serves payloads; a location is the request's
// host plus this path and a token, without scheme, as PSPs write it.
const QRPath = "/qr/v2/"

var locAbsent = absent{typ: "PayloadLocationNaoEncontrado", format: "nenhuma location com id %v"}

// locFilter is what GET /loc filters by, beyond the common parameters.
type locFilter struct {
	txPresent *bool
	tipoCob   string
}

// makeLoc builds a location with a fresh token; nothing is stored yet.
func makeLoc(ids store.IDSource, id int64, host, companyID, appID, tipoCob string, now time.Time, cobID sql.NullInt64) *loc {
	l := &loc{ID: id, CompanyID: companyID, AppID: appID, TipoCob: tipoCob, Token: locToken(ids, now), CreatedAt: now, CobID: cobID}
	path := QRPath
	if tipoCob == "cobv" {
		path += "cobv/"
	}
	l.Location = host + path + l.Token
	return l
}

// locToken is the last segment of a location's URL: 32 hex digits, the
// first 12 the location's creation to the millisecond on its company's
// clock (already public in its payload), the other 20 random (80 bits).
// A wholly random token put each new location's entry in the token
// index on a leaf chosen at random, seldom one in the cache, a page more
// dirtied in every creation's commit; in time order new entries gather
// at the end of the index.
func locToken(ids store.IDSource, now time.Time) string {
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(now.UnixMilli()))
	return hex.EncodeToString(ms[2:]) + ids.Token(10) // 12 hex digits: fmt.Sprintf's %012x of the low 48 bits
}

// createLoc makes a location that serves no charge yet.
func (s *Service) createLoc(ctx context.Context, p auth.Principal, host, tipoCob string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		id, err := nextID(ctx, tx, "pix_locs")
		if err != nil {
			return nil, err
		}
		l := makeLoc(s.DB.IDs, id, host, p.CompanyID, p.AppID, tipoCob, s.nowOf(p.CompanyID), sql.NullInt64{})
		if err := insertLoc(ctx, tx, l); err != nil {
			return nil, err
		}
		return locBody(ctx, tx, l)
	})
}

// getLoc is a location as the API answers it.
func (s *Service) getLoc(ctx context.Context, companyID string, id int64) (doc, error) {
	return view(ctx, s.DB, findLoc, companyID, id, locAbsent, func(tx *store.Tx, l *loc) (doc, error) {
		return locBody(ctx, tx, l)
	})
}

// unlinkLoc takes a location from its charge, which keeps its status but
// loses its QR code.
func (s *Service) unlinkLoc(ctx context.Context, companyID string, id int64) (doc, error) {
	return change(ctx, s.DB, findLoc, companyID, id, locAbsent, func(tx *store.Tx, l *loc) (doc, error) {
		if l.CobID.Valid {
			c, err := findChargeByID(ctx, tx, l.CompanyID, l.CobID.Int64)
			if err != nil {
				return nil, err
			}
			if err := updateChargeUnlinked(ctx, tx, c.ID, marshal(withoutLoc(c.Body))); err != nil {
				return nil, err
			}
			if err := releaseLoc(ctx, tx, l.ID); err != nil {
				return nil, err
			}
			l.CobID = sql.NullInt64{}
		}
		return locBody(ctx, tx, l)
	})
}

// listLocs is GET /loc's answer.
func (s *Service) listLocs(ctx context.Context, companyID string, lq *listQuery, f locFilter) (doc, error) {
	return list(ctx, s.DB, lq, locListing(companyID, lq, f), "loc", scanLoc,
		func(ctx context.Context, tx *store.Tx, l *loc) (any, error) { return locBody(ctx, tx, l) })
}

// locBody is PayloadLocation as the API answers it.
func locBody(ctx context.Context, tx *store.Tx, l *loc) (doc, error) {
	d := doc{"id": l.ID, "location": l.Location, "tipoCob": l.TipoCob, "criacao": rfc3339(l.CreatedAt)}
	if l.CobID.Valid {
		txid, err := findChargeTxid(ctx, tx, l.CompanyID, l.CobID.Int64)
		if err != nil {
			return nil, err
		}
		d["txid"] = txid
	}
	return d, nil
}

// withoutLoc removes from a charge's body what its location gave it.
func withoutLoc(body doc) doc {
	delete(body, "loc")
	delete(body, "location")
	delete(body, "pixCopiaECola")
	return body
}

// locRule is the rule a location named by a charge must meet: it exists,
// has the charge's kind, and serves no other charge. It returns the
// violation's reason, "" when the location is fit.
func locRule(l *loc, kind string, cobID int64) string {
	switch {
	case l == nil:
		return "location inexistente"
	case l.TipoCob != kind:
		return "a location é do tipo " + l.TipoCob + " e não pode ser usada por uma " + kind
	case l.CobID.Valid && l.CobID.Int64 != cobID:
		return "a location já está em uso por outra cobrança"
	}
	return ""
}

// namedLoc is the location a charge's request names, checked by locRule.
func namedLoc(ctx context.Context, tx *store.Tx, k kindInfo, c *charge, ld doc) (*loc, error) {
	id, _ := ld["id"].(float64)
	l, err := findLoc(ctx, tx, c.CompanyID, int64(id))
	if err != nil {
		return nil, err
	}
	if reason := locRule(l, k.kind, c.ID); reason != "" {
		return nil, invalid(k.opInvalida, violation{k.kind + ".loc.id", reason, strconv.FormatInt(int64(id), 10)})
	}
	return l, nil
}

// attachLoc stores the link of a charge to its location, a new one
// included, and releases the location it had.
func attachLoc(ctx context.Context, tx *store.Tx, c *charge, l *loc, fresh bool) error {
	if fresh {
		if err := insertLoc(ctx, tx, l); err != nil {
			return err
		}
	}
	if c.LocID.Valid && c.LocID.Int64 != l.ID {
		if err := releaseLoc(ctx, tx, c.LocID.Int64); err != nil {
			return err
		}
	}
	if !l.CobID.Valid || l.CobID.Int64 != c.ID {
		if err := linkLoc(ctx, tx, l.ID, c.ID); err != nil {
			return err
		}
		l.CobID = sql.NullInt64{Int64: c.ID, Valid: true}
	}
	c.LocID = sql.NullInt64{Int64: l.ID, Valid: true}
	c.loc = l
	return nil
}
