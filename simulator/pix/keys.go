package pix

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// Key is a DICT key of an app: where the Pix of its charges are credited.
type Key struct {
	Chave     string    `json:"chave"`
	Tipo      string    `json:"tipo"`
	AppID     string    `json:"appId"`
	CreatedAt time.Time `json:"criacao"`
}

// The DICT key types.
const (
	KeyCPF   = "CPF"
	KeyCNPJ  = "CNPJ"
	KeyEmail = "EMAIL"
	KeyPhone = "TELEFONE"
	KeyEVP   = "EVP"
)

var (
	phoneKey = regexp.MustCompile(`^\+[1-9][0-9]{10,13}$`)
	evpKey   = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	emailKey = regexp.MustCompile(`^[a-z0-9.!#$%&'*+/=?^_{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$`)
)

// KeyType tells the DICT type of a key, or why it is none: the DICT's own
// formats (CPF and CNPJ digits with check digits, +55 phones, lower-case
// e-mail up to 77 characters, a random key as a lower-case UUID v4).
func KeyType(chave string) (string, error) {
	switch {
	case len(chave) == 0 || len(chave) > 77:
		return "", fmt.Errorf("a key has 1 to 77 characters")
	case taxid.CheckCPF(chave) == nil:
		return KeyCPF, nil
	case len(chave) == 14 && taxid.CheckCNPJ(chave) == nil:
		return KeyCNPJ, nil
	case phoneKey.MatchString(chave):
		return KeyPhone, nil
	case evpKey.MatchString(chave):
		return KeyEVP, nil
	case emailKey.MatchString(chave):
		return KeyEmail, nil
	}
	return "", fmt.Errorf("%q is not a DICT key: use a CPF or CNPJ (digits), +55… phone, lower-case e-mail or a random key (UUID v4)", chave)
}

// DemoKeys are the demo app's keys, one of each DICT type; fixed so that
// examples work verbatim.
var DemoKeys = []string{"52998224725", "11222333000181", "cobranca@demo.homologa.test", "+5511999990001", "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}

// AddKey registers a DICT key for an app. A key has one owner in the DICT.
func (s *Service) AddKey(ctx context.Context, appID, chave string) (Key, error) {
	tipo, err := KeyType(chave)
	if err != nil {
		return Key{}, errs.Invalidf("chave", "%v", err)
	}
	k := Key{Chave: chave, Tipo: tipo, AppID: appID, CreatedAt: s.Clock.Now()}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		a, err := auth.AppTx(ctx, tx, appID)
		if err != nil {
			return err
		}
		k.AppID = a.ID
		var owner string
		// A key has one owner within a namespace, as DICT gives it one.
		err = tx.QueryRowContext(ctx, `SELECT app_id FROM pix_keys WHERE namespace = ? AND chave = ?`, a.Namespace, chave).Scan(&owner)
		if err == nil {
			if owner == a.ID {
				return nil
			}
			return errs.Errorf(errs.Conflict, "key %s belongs to another app", chave)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO pix_keys (chave, tipo, app_id, company_id, namespace, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			chave, tipo, a.ID, a.CompanyID, a.Namespace, k.CreatedAt.UnixNano())
		tx.AfterCommit(func() { s.keys.Delete(a.ID) })
		return err
	})
	if err != nil {
		return Key{}, fmt.Errorf("add key: %w", err)
	}
	return k, nil
}

// Keys lists an app's keys.
func (s *Service) Keys(ctx context.Context, appID string) ([]Key, error) {
	keys := []Key{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT chave, tipo, app_id, created_at FROM pix_keys WHERE app_id = ? ORDER BY created_at, chave`, appID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k Key
			var at int64
			if err := rows.Scan(&k.Chave, &k.Tipo, &k.AppID, &at); err != nil {
				return err
			}
			k.CreatedAt = time.Unix(0, at).UTC()
			keys = append(keys, k)
		}
		return rows.Err()
	})
	return keys, err
}

// ownsKey reports whether chave is a key of the app. Every charge asks, so
// an app's keys are kept in memory after the first read; AddKey forgets them.
func (s *Service) ownsKey(ctx context.Context, tx *store.Tx, appID, chave string) (bool, error) {
	if keys, ok := s.keys.Load(appID); ok {
		return keys.(map[string]bool)[chave], nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT chave FROM pix_keys WHERE app_id = ?`, appID)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	keys := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return false, err
		}
		keys[k] = true
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	s.keys.Store(appID, keys)
	return keys[chave], nil
}

// listKeysHandler is GET /portal/apps/{id}/pix-keys.
func (s *Service) listKeysHandler(r *http.Request) (*httpx.Reply, error) {
	a, err := s.Auth.App(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	keys, err := s.Keys(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"chaves": keys}), nil
}

// addKeyHandler is POST /portal/apps/{id}/pix-keys.
func (s *Service) addKeyHandler(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Chave string `json:"chave"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pixkey.create", &in); err != nil {
		return nil, err
	}
	a, err := s.Auth.App(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	k, err := s.AddKey(r.Context(), a.ID, strings.TrimSpace(in.Chave))
	if err != nil {
		return nil, err
	}
	return httpx.Created(k), nil
}
