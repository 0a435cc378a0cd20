package certs

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"homologa/simulator/store"
)

// How long what the sandbox signs is valid.
const (
	CAValidity     = 10 * 365 * 24 * time.Hour
	ServerValidity = 397 * 24 * time.Hour
	ClientValidity = 365 * 24 * time.Hour
	// backdate covers a client clock a little behind the sandbox's.
	backdate = time.Hour
)

// CA is the sandbox's certificate authority.
type CA struct {
	Cert *x509.Certificate
	// PEM is the CA's certificate, PEM-encoded: what a client trusts.
	PEM []byte
	key *ecdsa.PrivateKey
}

// Load returns the sandbox's CA from the database, making it the first
// time (an in-memory database makes one at every start).
func Load(ctx context.Context, db *store.DB, now time.Time) (*CA, error) {
	var certPEM, keyPEM string
	err := db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT cert_pem, key_pem FROM sandbox_ca WHERE id = 1`).Scan(&certPEM, &keyPEM)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return create(ctx, db, now)
	case err != nil:
		return nil, fmt.Errorf("read the sandbox CA: %w", err)
	}
	return parseCA([]byte(certPEM), []byte(keyPEM))
}

// create makes the CA and keeps it; a CA another start kept first wins.
func create(ctx context.Context, db *store.DB, now time.Time) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject: pkix.Name{CommonName: "Homologa Sandbox CA " + hex.EncodeToString(serial.Bytes()[:4]),
			Organization: []string{"Homologa (sandbox, never production)"}},
		NotBefore: now.Add(-backdate), NotAfter: now.Add(CAValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true, IsCA: true, MaxPathLenZero: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	err = db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sandbox_ca (id, cert_pem, key_pem, created_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			string(certPEM), string(keyPEM), now.UnixNano())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("keep the sandbox CA: %w", err)
	}
	return Load(ctx, db, now)
}

// parseCA reads a CA's certificate and key.
func parseCA(certPEM, keyPEM []byte) (*CA, error) {
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, errors.New("the sandbox CA in the database is not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the sandbox CA's certificate: %w", err)
	}
	k, err := x509.ParsePKCS8PrivateKey(kb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the sandbox CA's key: %w", err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("the sandbox CA's key is not ECDSA")
	}
	return &CA{Cert: cert, PEM: certPEM, key: key}, nil
}

// Pool is a pool of the CA alone: whom a client certificate must be
// signed by.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// newSerial is a random 128-bit serial number.
func newSerial() (*big.Int, error) {
	return rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
}

// sign makes a certificate of the CA for a new key.
func (ca *CA) sign(tmpl *x509.Certificate, now time.Time, validity time.Duration) (*ecdsa.PrivateKey, *x509.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	if tmpl.SerialNumber, err = newSerial(); err != nil {
		return nil, nil, err
	}
	tmpl.NotBefore, tmpl.NotAfter = now.Add(-backdate), now.Add(validity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return key, cert, err
}

// ServerCertificate signs a TLS server certificate for hosts, names and
// IP addresses, with the CA in its chain.
func (ca *CA) ServerCertificate(hosts []string, now time.Time) (tls.Certificate, error) {
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: hosts[0], Organization: []string{"Homologa (sandbox)"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	key, cert, err := ca.sign(tmpl, now, ServerValidity)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("sign the server certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{cert.Raw, ca.Cert.Raw}, PrivateKey: key, Leaf: cert}, nil
}

// Client is a client certificate the CA made for an app, with its key.
type Client struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	// Thumbprint is the certificate's RFC 8705 x5t#S256.
	Thumbprint string
}

// IssueClient makes a key and a client certificate for an app: its
// client id as the common name, its company's name and CNPJ.
func (ca *CA) IssueClient(clientID, company, cnpj string, now time.Time) (*Client, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: clientID, Organization: []string{company}, SerialNumber: cnpj},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	key, cert, err := ca.sign(tmpl, now, ClientValidity)
	if err != nil {
		return nil, fmt.Errorf("sign a client certificate: %w", err)
	}
	return &Client{Cert: cert, Key: key, Thumbprint: Thumbprint(cert.Raw)}, nil
}

// PEMBundle is a client certificate's download as PEM: its private key
// (PKCS#8), its certificate, then the CA's, the order curl's --cert,
// Node's https and Go's tls.X509KeyPair take.
func (ca *CA) PEMBundle(c *Client) ([]byte, error) {
	keyDER, err := x509.MarshalPKCS8PrivateKey(c.Key)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	pem.Encode(&b, &pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw})
	b.Write(ca.PEM)
	return b.Bytes(), nil
}

// PKCS12 is a client certificate's download as a PKCS#12 file (.p12,
// .pfx) protected by password: its key, its certificate and the CA's.
// The encryption is AES-256 with PBKDF2 and a SHA-256 MAC (what OpenSSL 3,
// Java 12+ and .NET Core read); legacy uses 3DES and a SHA-1 MAC, for the
// older Windows and Java stacks that read nothing else.
func (ca *CA) PKCS12(c *Client, password string, legacy bool) ([]byte, error) {
	enc := pkcs12.Modern2023
	if legacy {
		enc = pkcs12.LegacyDES
	}
	return enc.Encode(c.Key, c.Cert, []*x509.Certificate{ca.Cert}, password)
}

// EncodePEM is a DER certificate as PEM.
func EncodePEM(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// Thumbprint is a certificate's SHA-256 thumbprint as RFC 8705 writes it
// (x5t#S256): base64url of the DER's hash, without padding.
func Thumbprint(der []byte) string {
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Fingerprint is a certificate's SHA-256 fingerprint as people compare
// it (openssl x509 -fingerprint -sha256): upper-case hex pairs.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return hexPairs(sum[:])
}

// FingerprintOfThumbprint is Fingerprint of the certificate whose
// Thumbprint is x5t: the same hash, written for people.
func FingerprintOfThumbprint(x5t string) string {
	sum, _ := base64.RawURLEncoding.DecodeString(x5t)
	return hexPairs(sum)
}

func hexPairs(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("%02X", c)
	}
	return strings.Join(parts, ":")
}
