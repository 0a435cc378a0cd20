package pix

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"sync"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/money"
	"homologa/simulator/pix/duedate"
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

var b64 = base64.RawURLEncoding

var codMunRE = regexp.MustCompile(`^\d{7}$`)

func (s *Service) signingKey(ctx context.Context) (*rsa.PrivateKey, string, error) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	if s.sign.key != nil {
		return s.sign.key, s.sign.kid, nil
	}
	key, err := s.storedSigningKey(ctx)
	if err != nil {
		return nil, "", err
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	sum := sha256.Sum256(der)
	s.sign.key, s.sign.kid = key, b64.EncodeToString(sum[:12])
	return s.sign.key, s.sign.kid, nil
}

// storedSigningKey reads the signing key, or makes and stores one.
func (s *Service) storedSigningKey(ctx context.Context) (*rsa.PrivateKey, error) {
	pemText, err := read(ctx, s.DB, func(tx *store.Tx) (string, error) { return findSigningKey(ctx, tx) })
	if err != nil {
		return nil, err
	}
	if pemText != "" {
		block, _ := pem.Decode([]byte(pemText))
		if block == nil {
			return nil, fmt.Errorf("stored payload signing key is not PEM")
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("stored payload signing key: %w", err)
		}
		return k.(*rsa.PrivateKey), nil
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	text := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	return key, s.DB.Tx(ctx, func(tx *store.Tx) error { return upsertSigningKey(ctx, tx, text) })
}

// jws signs payload as a compact JWS with RS256; jku points at the JWKS.
func (s *Service) jws(ctx context.Context, jku string, payload any) (string, error) {
	key, kid, err := s.signingKey(ctx)
	if err != nil {
		return "", err
	}
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JOSE", "kid": kid, "jku": jku})
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

// jwks is the public key that verifies payloads, as a JWK Set.
func (s *Service) jwks(ctx context.Context) (doc, error) {
	key, kid, err := s.signingKey(ctx)
	if err != nil {
		return nil, err
	}
	e := big.NewInt(int64(key.PublicKey.E)).Bytes()
	return doc{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
		"n": b64.EncodeToString(key.PublicKey.N.Bytes()), "e": b64.EncodeToString(e),
	}}}, nil
}

// chargeAt finds the charge a payload token serves.
func chargeAt(ctx context.Context, tx *store.Tx, token, tipo string) (*charge, error) {
	l, err := findLocByToken(ctx, tx, token)
	if err != nil {
		return nil, err
	}
	return chargeOfLoc(ctx, tx, l, tipo)
}

// chargeOfLoc is the charge a payload location (nil: none) serves.
func chargeOfLoc(ctx context.Context, tx *store.Tx, l *loc, tipo string) (*charge, error) {
	if l == nil || l.TipoCob != tipo || !l.CobID.Valid {
		return nil, notFound("CobPayloadNaoEncontrado", "nenhuma cobrança nesta location")
	}
	c, err := findChargeByID(ctx, tx, l.CompanyID, l.CobID.Int64)
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
	return copyFields(d, c.Body, "devedor", "solicitacaoPagador", "infoAdicionais")
}

// cobPayload is CobPayload of the immediate charge a token serves.
func (s *Service) cobPayload(ctx context.Context, token string) (doc, error) {
	return read(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		c, err := chargeAt(ctx, tx, token, "cob")
		if err != nil {
			return nil, err
		}
		payload := payloadFields(c)
		cal := sub(c.Body, "calendario")
		payload["calendario"] = doc{"criacao": cal["criacao"], "apresentacao": rfc3339(s.nowOf(c.CompanyID)), "expiracao": cal["expiracao"]}
		payload["valor"] = c.Body["valor"]
		return payload, nil
	})
}

// paymentDateRule reads the codMun and DPP of a cobv payload: a 7-digit
// IBGE code, and a date not before today (today when absent).
func paymentDateRule(codMun, dpp string, today duedate.Date) (duedate.Date, *violation) {
	if codMun != "" && !codMunRE.MatchString(codMun) {
		return today, &violation{"codMun", "deve ser o código IBGE do município, 7 dígitos", codMun}
	}
	if dpp == "" {
		return today, nil
	}
	d, err := duedate.Parse(dpp)
	if err != nil {
		return today, &violation{"DPP", "deve ser uma data AAAA-MM-DD", dpp}
	}
	if d.Before(today) {
		return today, &violation{"DPP", "é anterior à data corrente (" + today.String() + ")", dpp}
	}
	return d, nil
}

// cobvPayload is CobVPayload of the due-date charge a token serves, with
// the amounts of a payment on DPP.
func (s *Service) cobvPayload(ctx context.Context, token, codMun, dpp string) (doc, error) {
	return read(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		l, err := findLocByToken(ctx, tx, token)
		if err != nil {
			return nil, err
		}
		// The payer's request carries no company: "today" is the date of
		// the company the location belongs to (the sandbox's for no
		// location, which the charge's lookup refuses next: the date is
		// checked first, as it always was).
		company := ""
		if l != nil {
			company = l.CompanyID
		}
		now := s.nowOf(company)
		day, v := paymentDateRule(codMun, dpp, today(now))
		if v != nil {
			return nil, invalid("CobPayloadOperacaoInvalida", *v)
		}
		c, err := chargeOfLoc(ctx, tx, l, "cobv")
		if err != nil {
			return nil, err
		}
		ch, vs := dueCharge(c.Body)
		if len(vs) > 0 {
			return nil, invalid("CobPayloadOperacaoInvalida", vs...)
		}
		o, err := ch.Owed(day)
		if errors.Is(err, duedate.ErrExpired) {
			return nil, invalid("CobPayloadOperacaoInvalida", violation{"DPP", "a cobrança só pode ser paga até " + ch.PayableUntil().String(), day.String()})
		}
		if err != nil {
			return nil, err
		}
		return cobvPayloadBody(c, o, now), nil
	})
}

// cobvPayloadBody is CobVPayload with what a payment owes.
func cobvPayloadBody(c *charge, o duedate.Owed, now time.Time) doc {
	payload := payloadFields(c)
	cal := sub(c.Body, "calendario")
	payload["calendario"] = doc{"criacao": cal["criacao"], "apresentacao": rfc3339(now), "dataDeVencimento": cal["dataDeVencimento"],
		"validadeAposVencimento": cal["validadeAposVencimento"]}
	payload["recebedor"] = c.Body["recebedor"]
	valor := components(o, func(v int64) any { return money.Cents(v).String() })
	valor["final"] = money.Cents(o.Final).String()
	payload["valor"] = valor
	return payload
}

// recPayloadAt is RecPayload of the recurrence a token serves, while it
// awaits authorisation.
func (s *Service) recPayloadAt(ctx context.Context, token string) (doc, error) {
	return read(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		l, err := findLocRecByToken(ctx, tx, token)
		if err != nil {
			return nil, err
		}
		if l == nil || !l.IDRec.Valid {
			return nil, notFound("RecPayloadNaoEncontrado", "nenhuma recorrência nesta location")
		}
		rc, err := findRecByID(ctx, tx, l.IDRec.String)
		if err != nil {
			return nil, err
		}
		if rc == nil || rc.Status != RecCriada {
			return nil, problem(errs.Gone, "RecPayloadNaoEncontrado", "a recorrência não aguarda mais autorização")
		}
		return recPayload(rc), nil
	})
}
