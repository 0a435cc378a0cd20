package certs_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"path/filepath"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"homologa/simulator/certs"
	"homologa/simulator/store"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func mustCA(t *testing.T, path string) *certs.CA {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ca, err := certs.Load(context.Background(), db, now)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

// TestCAIsKeptInTheDatabase: a sandbox restarted on its database signs
// with the CA it had, so the certificates it issued still verify.
func TestCAIsKeptInTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	first, again := mustCA(t, path), mustCA(t, path)
	if !first.Cert.Equal(again.Cert) {
		t.Fatal("a second start made another CA")
	}
	if other := mustCA(t, ""); other.Cert.Equal(first.Cert) {
		t.Fatal("two sandboxes share a CA")
	}
	if !first.Cert.IsCA || first.Cert.NotAfter.Sub(now) < 9*365*24*time.Hour {
		t.Fatalf("CA %v until %v", first.Cert.IsCA, first.Cert.NotAfter)
	}
}

func TestServerCertificate(t *testing.T) {
	ca := mustCA(t, "")
	cert, err := ca.ServerCertificate([]string{"localhost", "127.0.0.1", "::1", "homologa.example.com"}, now)
	if err != nil {
		t.Fatal(err)
	}
	roots := ca.Pool()
	for _, host := range []string{"localhost", "127.0.0.1", "::1", "homologa.example.com"} {
		if _, err := cert.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, CurrentTime: now}); err != nil {
			t.Errorf("%s: %v", host, err)
		}
	}
	if _, err := cert.Leaf.Verify(x509.VerifyOptions{DNSName: "other.example", Roots: roots, CurrentTime: now}); err == nil {
		t.Error("the certificate serves a name it was not made for")
	}
	if _, err := cert.Leaf.Verify(x509.VerifyOptions{DNSName: "localhost", Roots: roots, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err == nil {
		t.Error("the server certificate authenticates a client")
	}
}

func TestClientCertificateDownloads(t *testing.T) {
	ca := mustCA(t, "")
	c, err := ca.IssueClient("hmlg_abc", "Corretora Exemplo", "11444777000161", now)
	if err != nil {
		t.Fatal(err)
	}
	if c.Cert.Subject.CommonName != "hmlg_abc" || c.Cert.Subject.SerialNumber != "11444777000161" || c.Thumbprint != certs.Thumbprint(c.Cert.Raw) {
		t.Fatalf("subject %v, thumbprint %s", c.Cert.Subject, c.Thumbprint)
	}
	opts := x509.VerifyOptions{Roots: ca.Pool(), CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if _, err := c.Cert.Verify(opts); err != nil {
		t.Fatal(err)
	}
	opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	if _, err := c.Cert.Verify(opts); err == nil {
		t.Error("a client certificate serves TLS")
	}

	t.Run("OKPEM", func(t *testing.T) {
		bundle, err := ca.PEMBundle(c)
		if err != nil {
			t.Fatal(err)
		}
		pair, err := tls.X509KeyPair(bundle, bundle)
		if err != nil {
			t.Fatal(err)
		}
		if len(pair.Certificate) != 2 || certs.Thumbprint(pair.Certificate[0]) != c.Thumbprint {
			t.Fatalf("the bundle's chain: %d certificates", len(pair.Certificate))
		}
	})
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "OKPKCS12", true: "OKPKCS12Legacy"}[legacy], func(t *testing.T) {
			p12, err := ca.PKCS12(c, "senha-do-p12", legacy)
			if err != nil {
				t.Fatal(err)
			}
			key, cert, chain, err := pkcs12.DecodeChain(p12, "senha-do-p12")
			if err != nil {
				t.Fatal(err)
			}
			if cert.Subject.CommonName != "hmlg_abc" || key == nil || len(chain) != 1 || !chain[0].Equal(ca.Cert) {
				t.Fatalf("decoded %v, %d CA certificates", cert.Subject, len(chain))
			}
			if _, _, _, err := pkcs12.DecodeChain(p12, "outra"); err == nil {
				t.Fatal("another password opens it")
			}
		})
	}
}

func TestThumbprintAndFingerprint(t *testing.T) {
	// SHA-256 of "abc", a published test vector.
	if got := certs.Thumbprint([]byte("abc")); got != "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0" {
		t.Errorf("Thumbprint = %s", got)
	}
	if got := certs.Fingerprint([]byte("abc")); got[:11] != "BA:78:16:BF" || len(got) != 95 {
		t.Errorf("Fingerprint = %s", got)
	}
}
