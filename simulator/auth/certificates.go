package auth

import (
	"context"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"homologa/simulator/certs"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// Certificate is a client certificate the portal issued to an app, as the
// sandbox keeps it: its public part. The private key went to the partner
// in the download, once.
type Certificate struct {
	ID    string `json:"id"`
	AppID string `json:"appId"`
	// Thumbprint is RFC 8705's x5t#S256, what a token bound to the
	// certificate carries as cnf.
	Thumbprint  string     `json:"thumbprint"`
	Fingerprint string     `json:"fingerprintSha256"`
	Serial      string     `json:"serial"`
	Subject     string     `json:"subject"`
	NotBefore   time.Time  `json:"notBefore"`
	NotAfter    time.Time  `json:"notAfter"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt,omitempty"`
}

// IssueCertificate makes a key and a client certificate for the app
// appID, signed by the sandbox CA, and keeps the certificate's public
// part; the answer holds the key, which the sandbox does not keep.
// Certificates live on the wall clock, as TLS checks them.
func (s *Service) IssueCertificate(ctx context.Context, appID string) (Certificate, *certs.Client, error) {
	if s.CA == nil {
		return Certificate{}, nil, errs.Errorf(errs.Unavailable, "este sandbox não tem autoridade certificadora")
	}
	a, err := s.App(ctx, appID)
	if err != nil {
		return Certificate{}, nil, err
	}
	c, err := s.Company(ctx, a.CompanyID)
	if err != nil {
		return Certificate{}, nil, err
	}
	now := time.Now().UTC()
	cl, err := s.CA.IssueClient(a.ClientID, c.Name, c.CNPJ, now)
	if err != nil {
		return Certificate{}, nil, err
	}
	cert := certificateOf(s.DB.IDs.UUID(), a.ID, cl.Cert, now)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO app_certificates (id, app_id, thumbprint, serial, subject, not_before, not_after, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, cert.ID, cert.AppID, cert.Thumbprint, cert.Serial, cert.Subject,
			cert.NotBefore.UnixNano(), cert.NotAfter.UnixNano(), cert.CreatedAt.UnixNano())
		return err
	})
	if err != nil {
		return Certificate{}, nil, fmt.Errorf("keep a client certificate: %w", err)
	}
	return cert, cl, nil
}

// certificateOf is what the sandbox keeps of a certificate.
func certificateOf(id, appID string, c *x509.Certificate, now time.Time) Certificate {
	return Certificate{ID: id, AppID: appID, Thumbprint: certs.Thumbprint(c.Raw), Fingerprint: certs.Fingerprint(c.Raw),
		Serial: c.SerialNumber.Text(16), Subject: c.Subject.String(), NotBefore: c.NotBefore.UTC(), NotAfter: c.NotAfter.UTC(), CreatedAt: now}
}

const certificateColumns = `id, app_id, thumbprint, serial, subject, not_before, not_after, created_at, revoked_at`

func scanCertificate(row store.Scanner) (Certificate, error) {
	var c Certificate
	var nb, na, created, revoked int64
	err := row.Scan(&c.ID, &c.AppID, &c.Thumbprint, &c.Serial, &c.Subject, &nb, &na, &created, &revoked)
	c.NotBefore, c.NotAfter, c.CreatedAt = time.Unix(0, nb).UTC(), time.Unix(0, na).UTC(), time.Unix(0, created).UTC()
	c.Fingerprint = certs.FingerprintOfThumbprint(c.Thumbprint)
	if revoked != 0 {
		at := time.Unix(0, revoked).UTC()
		c.RevokedAt = &at
	}
	return c, err
}

// Certificates lists the client certificates issued to an app, newest
// first.
func (s *Service) Certificates(ctx context.Context, appID string) ([]Certificate, error) {
	var out []Certificate
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		out, err = store.All(ctx, tx, scanCertificate, `SELECT `+certificateColumns+` FROM app_certificates WHERE app_id = ? ORDER BY created_at DESC, id`, appID)
		return err
	})
	return out, err
}

// RevokeCertificate revokes an app's certificate: it no longer obtains
// tokens, and the tokens bound to it stop working at once.
func (s *Service) RevokeCertificate(ctx context.Context, appID, id string) (Certificate, error) {
	var c Certificate
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		c, err = scanCertificate(tx.QueryRowContext(ctx, `SELECT `+certificateColumns+` FROM app_certificates WHERE id = ? AND app_id = ?`, id, appID))
		if errors.Is(err, sql.ErrNoRows) {
			return errs.Errorf(errs.NotFound, "nenhum certificado %q deste app", id)
		}
		if err != nil || c.RevokedAt != nil {
			return err
		}
		now := time.Now().UTC()
		c.RevokedAt = &now
		if _, err := tx.ExecContext(ctx, `UPDATE app_certificates SET revoked_at = ? WHERE id = ?`, now.UnixNano(), id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM tokens WHERE cnf_x5t = ?`, c.Thumbprint)
		return err
	})
	if err != nil {
		return Certificate{}, err
	}
	s.forgetApp(appID)
	return c, nil
}

// certificateOwner is the app a client certificate was issued to, when it
// is not revoked.
func (s *Service) certificateOwner(ctx context.Context, thumbprint string) (string, bool, error) {
	var appID string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT app_id FROM app_certificates WHERE thumbprint = ? AND revoked_at = 0`, thumbprint).Scan(&appID)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return appID, err == nil, err
}

// PeerCertificate is the client certificate of a request over TLS, which
// the TLS layer verified against the sandbox CA; nil when none was sent.
func PeerCertificate(r *http.Request) *x509.Certificate {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return nil
	}
	return r.TLS.PeerCertificates[0]
}

// RequireClientCertificate wraps the token endpoint under --mtls: a
// request without the app's client certificate is refused before its
// credentials are read (401 invalid_client). Which app the certificate
// is, the grant checks (TokenHandler).
func (s *Service) RequireClientCertificate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.MutualTLS && PeerCertificate(r) == nil {
			httpx.WriteError(w, r, errs.Errorf(errs.Unauthorized, "este endpoint exige TLS mútuo: apresente o certificado de cliente do app (emita-o em POST /portal/apps/{id}/certificates)").
				WithType("invalid_client"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// checkBinding is RFC 8705 §3 on a route of mutual TLS: a token bound to
// a certificate is used with that certificate only; under --mtls a
// request brings the app's certificate and a token bound to it.
func (s *Service) checkBinding(r *http.Request, p Principal) error {
	cert := PeerCertificate(r)
	switch {
	case cert == nil && s.MutualTLS:
		return bearerError("invalid_request", "esta API exige TLS mútuo: apresente o certificado de cliente do app (emita-o em POST /portal/apps/{id}/certificates)")
	case cert == nil && p.Thumbprint != "":
		return bearerError("invalid_token", "este token está vinculado a um certificado de cliente (RFC 8705): apresente-o na conexão TLS")
	case cert != nil && p.Thumbprint != certs.Thumbprint(cert.Raw) && (p.Thumbprint != "" || s.MutualTLS):
		if p.Thumbprint == "" {
			return bearerError("invalid_token", "este token não está vinculado a um certificado: peça um novo em /oauth/token apresentando o certificado do app")
		}
		return bearerError("invalid_token", "este token foi emitido para outro certificado de cliente (RFC 8705): use o certificado com que o pediu")
	}
	return nil
}

// bindingOf is the thumbprint a new token is bound to: the request's
// client certificate, which must be one the portal issued to the app a
// and not revoked; "" when no certificate came.
func (s *Service) bindingOf(r *http.Request, a App) (string, error) {
	cert := PeerCertificate(r)
	if cert == nil {
		return "", nil
	}
	x5t := certs.Thumbprint(cert.Raw)
	owner, ok, err := s.certificateOwner(r.Context(), x5t)
	if err != nil {
		return "", err
	}
	if !ok || owner != a.ID {
		invalid := invalidClient()
		invalid.Message = "o certificado de cliente apresentado não é um certificado válido deste app (de outro app, ou revogado)"
		return "", invalid
	}
	return x5t, nil
}
