package pix

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"sync"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// signer holds the RSA key that signs payloads (JWS RS256, Manual de
// Segurança do Pix). It is made on first use and kept in the database, so
// a --db sandbox keeps its kid across restarts.
type signer struct {
	mu  sync.Mutex
	key *rsa.PrivateKey
	kid string
}

func (s *Service) signingKey(ctx context.Context) (*rsa.PrivateKey, string, error) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	if s.sign.key != nil {
		return s.sign.key, s.sign.kid, nil
	}
	var pemText string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'pix.jws.key'`).Scan(&pemText)
	})
	var key *rsa.PrivateKey
	switch {
	case err == nil:
		block, _ := pem.Decode([]byte(pemText))
		if block == nil {
			return nil, "", fmt.Errorf("stored payload signing key is not PEM")
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, "", fmt.Errorf("stored payload signing key: %w", err)
		}
		key = k.(*rsa.PrivateKey)
	case errors.Is(err, sql.ErrNoRows):
		if key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			return nil, "", err
		}
		der, _ := x509.MarshalPKCS8PrivateKey(key)
		text := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		err = s.DB.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings (key, value) VALUES ('pix.jws.key', ?)`, text)
			return err
		})
		if err != nil {
			return nil, "", err
		}
	default:
		return nil, "", err
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	sum := sha256.Sum256(der)
	s.sign.key, s.sign.kid = key, base64.RawURLEncoding.EncodeToString(sum[:12])
	return s.sign.key, s.sign.kid, nil
}

var b64 = base64.RawURLEncoding

// jws signs payload as a compact JWS with RS256; jku points at the JWKS.
func (s *Service) jws(ctx context.Context, r *http.Request, payload any) (string, error) {
	key, kid, err := s.signingKey(ctx)
	if err != nil {
		return "", err
	}
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JOSE", "kid": kid, "jku": scheme(r) + "://" + r.Host + QRPath + "jwks.json"})
	body, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	signing := b64.EncodeToString(header) + "." + b64.EncodeToString(body)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + b64.EncodeToString(sig), nil
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// jwks is GET /qr/v2/jwks.json: the public key that verifies payloads.
func (s *Service) jwks(r *http.Request) (*httpx.Reply, error) {
	key, kid, err := s.signingKey(r.Context())
	if err != nil {
		return nil, err
	}
	e := big.NewInt(int64(key.PublicKey.E)).Bytes()
	return httpx.OK(map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
		"n": b64.EncodeToString(key.PublicKey.N.Bytes()), "e": b64.EncodeToString(e),
	}}}), nil
}

// chargeAt finds the charge a payload token serves.
func (s *Service) chargeAt(ctx context.Context, tx *store.Tx, token, tipo string) (*charge, error) {
	var companyID string
	var cobID sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT company_id, cob_id FROM pix_locs WHERE token = ? AND tipo_cob = ?`, token, tipo).Scan(&companyID, &cobID)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !cobID.Valid) {
		return nil, notFound("CobPayloadNaoEncontrado", "nenhuma cobrança nesta location")
	}
	if err != nil {
		return nil, err
	}
	var txid string
	if err := tx.QueryRowContext(ctx, `SELECT txid FROM pix_cobs WHERE id = ?`, cobID.Int64).Scan(&txid); err != nil {
		return nil, err
	}
	c, err := loadCharge(ctx, tx, companyID, txid)
	if err != nil {
		return nil, err
	}
	if c.Status == RemovidaUsuario || c.Status == RemovidaPeloPSP {
		// Removal is permanent: 410, as the spec allows for removed charges.
		return nil, problem(errs.Gone, "CobPayloadNaoEncontrado", "a cobrança foi removida ("+c.Status+")")
	}
	return c, nil
}

// payloadFields copies the fields a payload repeats from the charge.
func payloadFields(c *charge) doc {
	d := doc{"txid": c.TxID, "revisao": c.Revisao, "status": c.Status, "chave": c.Body["chave"]}
	for _, f := range []string{"devedor", "solicitacaoPagador", "infoAdicionais"} {
		if v, ok := c.Body[f]; ok {
			d[f] = v
		}
	}
	return d
}

// cobPayload is GET /qr/v2/{token}: the JWS of CobPayload, with
// calendario.apresentacao the moment it was fetched.
func (s *Service) cobPayload(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var payload doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		c, err := s.chargeAt(ctx, tx, mux.Vars(r)["token"], "cob")
		if err != nil {
			return err
		}
		payload = payloadFields(c)
		cal := sub(c.Body, "calendario")
		payload["calendario"] = doc{"criacao": cal["criacao"], "apresentacao": rfc3339(s.Clock.Now()), "expiracao": cal["expiracao"]}
		payload["valor"] = c.Body["valor"]
		return nil
	})
	s.writeJWS(w, r, payload, err)
}

// recPayloadJWS is GET /qr/v2/rec/{token} (RecPayload): what the payer's
// app reads from a recurrence's QR, signed as the charges' payloads are.
func (s *Service) recPayloadJWS(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var payload doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var idRec sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT id_rec FROM pix_locrecs WHERE token = ?`, mux.Vars(r)["token"]).Scan(&idRec)
		if errors.Is(err, sql.ErrNoRows) || err == nil && !idRec.Valid {
			return notFound("RecPayloadNaoEncontrado", "nenhuma recorrência nesta location")
		}
		if err != nil {
			return err
		}
		rc, err := loadRec(ctx, tx, "", idRec.String)
		if err != nil {
			return err
		}
		if rc == nil || rc.Status != RecCriada {
			return problem(errs.Gone, "RecPayloadNaoEncontrado", "a recorrência não aguarda mais autorização")
		}
		payload = recPayload(rc)
		return nil
	})
	s.writeJWS(w, r, payload, err)
}

var codMunRE = regexp.MustCompile(`^\d{7}$`)

func (s *Service) writeJWS(w http.ResponseWriter, r *http.Request, payload doc, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	token, err := s.jws(r.Context(), r, payload)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/jose")
	w.Write([]byte(token))
}
