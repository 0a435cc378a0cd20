package pix

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
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

func (s *Service) newLoc(ctx context.Context, tx *store.Tx, host, companyID, appID, tipoCob string, now time.Time, cobID sql.NullInt64) (*loc, error) {
	id, err := s.locIDs.next(ctx, tx, "pix_locs")
	if err != nil {
		return nil, err
	}
	l := makeLoc(s.DB.IDs, id, host, companyID, appID, tipoCob, now, cobID)
	return l, insertLoc(ctx, tx, l)
}

// makeLoc builds a location with a fresh token; nothing is stored yet.
func makeLoc(ids store.IDSource, id int64, host, companyID, appID, tipoCob string, now time.Time, cobID sql.NullInt64) *loc {
	l := &loc{ID: id, CompanyID: companyID, AppID: appID, TipoCob: tipoCob, Token: ids.Token(16), CreatedAt: now, CobID: cobID}
	path := QRPath
	if tipoCob == "cobv" {
		path += "cobv/"
	}
	l.Location = host + path + l.Token
	return l
}

func insertLoc(ctx context.Context, tx *store.Tx, l *loc) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_locs (id, company_id, app_id, tipo_cob, token, location, cob_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.CompanyID, l.AppID, l.TipoCob, l.Token, l.Location, l.CobID, l.CreatedAt.UnixNano())
	return err
}

func scanLoc(row interface{ Scan(...any) error }) (*loc, error) {
	var l loc
	var at int64
	if err := row.Scan(&l.ID, &l.CompanyID, &l.AppID, &l.TipoCob, &l.Token, &l.Location, &l.CobID, &at); err != nil {
		return nil, err
	}
	l.CreatedAt = time.Unix(0, at).UTC()
	return &l, nil
}

const locColumns = `id, company_id, app_id, tipo_cob, token, location, cob_id, created_at`

func loadLoc(ctx context.Context, tx *store.Tx, companyID string, id int64) (*loc, error) {
	l, err := scanLoc(tx.QueryRowContext(ctx, `SELECT `+locColumns+` FROM pix_locs WHERE company_id = ? AND id = ?`, companyID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return l, err
}

// attachLoc links the charge to the loc its request names, or to a new one
// when it names none, applying the loc rules: the loc exists, has the
// charge's tipoCob, and serves no other charge. The old loc is released.
func (s *Service) attachLoc(ctx context.Context, tx *store.Tx, host string, k kindInfo, c *charge, d doc) error {
	var l *loc
	if ld := sub(d, "loc"); ld != nil {
		id, _ := ld["id"].(float64)
		var err error
		if l, err = loadLoc(ctx, tx, c.CompanyID, int64(id)); err != nil {
			return err
		}
		field := k.kind + ".loc.id"
		v := strconv.FormatInt(int64(id), 10)
		switch {
		case l == nil:
			return invalid(k.opInvalida, violation{field, "location inexistente", v})
		case l.TipoCob != k.kind:
			return invalid(k.opInvalida, violation{field, "a location é do tipo " + l.TipoCob + " e não pode ser usada por uma " + k.kind, v})
		case l.CobID.Valid && l.CobID.Int64 != c.ID:
			return invalid(k.opInvalida, violation{field, "a location já está em uso por outra cobrança", v})
		}
	} else if c.LocID.Valid {
		return nil // a revision that names no loc keeps the current one
	} else {
		var err error
		if l, err = s.newLoc(ctx, tx, host, c.CompanyID, c.AppID, k.kind, s.Clock.Now(), sql.NullInt64{Int64: c.ID, Valid: true}); err != nil {
			return err
		}
	}
	if c.LocID.Valid && c.LocID.Int64 != l.ID {
		if _, err := tx.ExecContext(ctx, `UPDATE pix_locs SET cob_id = NULL WHERE id = ?`, c.LocID.Int64); err != nil {
			return err
		}
	}
	if !l.CobID.Valid || l.CobID.Int64 != c.ID {
		if _, err := tx.ExecContext(ctx, `UPDATE pix_locs SET cob_id = ? WHERE id = ?`, c.ID, l.ID); err != nil {
			return err
		}
	}
	c.LocID = sql.NullInt64{Int64: l.ID, Valid: true}
	c.loc = l
	d["loc"] = doc{"id": l.ID}
	return nil
}

// locBody is PayloadLocation as the API answers it.
func (s *Service) locBody(ctx context.Context, tx *store.Tx, l *loc) (doc, error) {
	d := doc{"id": l.ID, "location": l.Location, "tipoCob": l.TipoCob, "criacao": rfc3339(l.CreatedAt)}
	if l.CobID.Valid {
		var txid string
		if err := tx.QueryRowContext(ctx, `SELECT txid FROM pix_cobs WHERE id = ?`, l.CobID.Int64).Scan(&txid); err != nil {
			return nil, err
		}
		d["txid"] = txid
	}
	return d, nil
}

// postLoc is POST /loc: a location for a future charge of tipoCob.
func (s *Service) postLoc(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var in struct {
		TipoCob string `json:"tipoCob"`
	}
	if err := decode(r, s.Schemas, "pix/loc.request", "", "PayloadLocationOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		l, err := s.newLoc(ctx, tx, r.Host, p.CompanyID, p.AppID, in.TipoCob, s.Clock.Now(), sql.NullInt64{})
		if err != nil {
			return err
		}
		out, err = s.locBody(ctx, tx, l)
		return err
	})
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(out)
	rep.Header = http.Header{"Location": {out["location"].(string)}}
	return rep, nil
}

func locID(r *http.Request) (int64, error) {
	v := mux.Vars(r)["id"]
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound("PayloadLocationNaoEncontrado", "nenhuma location com id %s", v)
	}
	return id, nil
}

// getLoc is GET /loc/{id}.
func (s *Service) getLoc(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, err := locID(r)
	if err != nil {
		return nil, err
	}
	var out doc
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		l, err := loadLoc(ctx, tx, principal(r).CompanyID, id)
		if err != nil {
			return err
		}
		if l == nil {
			return notFound("PayloadLocationNaoEncontrado", "nenhuma location com id %d", id)
		}
		out, err = s.locBody(ctx, tx, l)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// unlinkLoc is DELETE /loc/{id}/txid: the charge keeps its status but loses
// its location (and its QR code).
func (s *Service) unlinkLoc(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, err := locID(r)
	if err != nil {
		return nil, err
	}
	var out doc
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		l, err := loadLoc(ctx, tx, principal(r).CompanyID, id)
		if err != nil {
			return err
		}
		if l == nil {
			return notFound("PayloadLocationNaoEncontrado", "nenhuma location com id %d", id)
		}
		if l.CobID.Valid {
			var c charge
			var body string
			if err := tx.QueryRowContext(ctx, `SELECT id, company_id, kind, txid, status, revisao, created_at, body FROM pix_cobs WHERE id = ?`, l.CobID.Int64).
				Scan(&c.ID, &c.CompanyID, &c.Kind, &c.TxID, &c.Status, &c.Revisao, new(int64), &body); err != nil {
				return err
			}
			var d doc
			jsonUnmarshal(body, &d)
			delete(d, "loc")
			delete(d, "location")
			delete(d, "pixCopiaECola")
			if _, err := tx.ExecContext(ctx, `UPDATE pix_cobs SET loc_id = NULL, body = ? WHERE id = ?`, marshal(d), c.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE pix_locs SET cob_id = NULL WHERE id = ?`, l.ID); err != nil {
				return err
			}
			l.CobID = sql.NullInt64{}
		}
		out, err = s.locBody(ctx, tx, l)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// listLocs is GET /loc.
func (s *Service) listLocs(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	lq := parseList(r, "PayloadLocationConsultaInvalida", true)
	txPresent := lq.boolParam(r, "txIdPresente")
	tipo := r.URL.Query().Get("tipoCob")
	if tipo != "" && tipo != "cob" && tipo != "cobv" {
		lq.bad("tipoCob", "deve ser cob ou cobv", tipo)
	} else if tipo != "" {
		lq.params["tipoCob"] = tipo
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := `company_id = ? AND created_at >= ? AND created_at <= ? AND (? = '' OR tipo_cob = ?)`
	args := []any{principal(r).CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano(), tipo, tipo}
	if txPresent != nil {
		where += map[bool]string{true: " AND cob_id IS NOT NULL", false: " AND cob_id IS NULL"}[*txPresent]
	}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_locs", locColumns, where, "created_at, id", args)
		if err != nil {
			return err
		}
		var locs []*loc
		for rows.Next() {
			l, err := scanLoc(rows)
			if err != nil {
				rows.Close()
				return err
			}
			locs = append(locs, l)
		}
		rows.Close()
		items := []doc{}
		for _, l := range locs {
			d, err := s.locBody(ctx, tx, l)
			if err != nil {
				return err
			}
			items = append(items, d)
		}
		out = doc{"parametros": params, "loc": items}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}
