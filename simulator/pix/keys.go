package pix

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
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
		return "", fmt.Errorf("uma chave tem de 1 a 77 caracteres")
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
	return "", fmt.Errorf("%q não é uma chave do DICT: use um CPF ou CNPJ (dígitos), um telefone +55…, um e-mail em minúsculas ou uma chave aleatória (UUID v4)", chave)
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
	k := Key{Chave: chave, Tipo: tipo, AppID: appID}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		a, err := auth.AppTx(ctx, tx, appID)
		if err != nil {
			return err
		}
		// The portal's call carries no company: the key is dated by its
		// app's company's clock.
		k.AppID, k.CreatedAt = a.ID, s.nowOf(a.CompanyID)
		owner, err := findKeyOwner(ctx, tx, a.CompanyID, chave)
		switch {
		case err != nil:
			return err
		case owner == a.ID:
			return nil
		case owner != "":
			return errs.Errorf(errs.Conflict, "a chave %s pertence a outro aplicativo", chave)
		}
		return insertKey(ctx, tx, k, a.CompanyID, a.Namespace)
	})
	if err != nil {
		return Key{}, fmt.Errorf("add key: %w", err)
	}
	return k, nil
}

// Keys lists an app's keys.
func (s *Service) Keys(ctx context.Context, appID string) ([]Key, error) {
	return read(ctx, s.DB, func(tx *store.Tx) ([]Key, error) {
		keys, err := findKeys(ctx, tx, appID)
		if keys == nil {
			keys = []Key{}
		}
		return keys, err
	})
}
