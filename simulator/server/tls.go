package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"homologa/simulator/certs"
)

// The files --tls writes to the TLS folder: the CA's certificate, which
// clients trust, and the server's.
const (
	CAFile     = "ca.pem"
	ServerFile = "server.pem"
)

// tlsState is how the sandbox serves TLS, when it does.
type tlsState struct {
	config *tls.Config
	// leaf is the server's certificate; dir is where ca.pem and
	// server.pem were written; given says --tls-cert named it.
	leaf  *x509.Certificate
	dir   string
	given bool
}

// servesTLS says whether the configuration asks for TLS: --tls, or what
// implies it (--mtls, --tls-cert).
func (c Config) servesTLS() bool { return c.TLS || c.MTLS || c.TLSCert != "" }

// loadCA loads (or makes, the first time) the sandbox CA: it signs the
// apps' client certificates whether or not the sandbox serves TLS, and
// the server's certificate when it does.
func (s *Server) loadCA(ctx context.Context) error {
	ca, err := certs.Load(ctx, s.DB, time.Now())
	if err != nil {
		return err
	}
	s.CA = ca
	return nil
}

// setupTLS makes the server's TLS configuration: its certificate (given
// by --tls-cert and --tls-key, or signed by the sandbox CA for the names
// it serves), client certificates asked for but optional at the TLS
// layer, verified against the sandbox CA when sent (each route decides
// whether it needs one: the browser's pages never do), and ca.pem and
// server.pem written to the TLS folder.
func (s *Server) setupTLS() error {
	cfg := s.Config
	if !cfg.servesTLS() {
		return nil
	}
	if (cfg.TLSCert == "") != (cfg.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together")
	}
	st := &tlsState{given: cfg.TLSCert != ""}
	var cert tls.Certificate
	var err error
	if st.given {
		if cert, err = tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey); err != nil {
			return fmt.Errorf("--tls-cert %s, --tls-key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
		}
	} else if cert, err = s.CA.ServerCertificate(s.tlsHosts(), time.Now()); err != nil {
		return err
	}
	if st.leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
		return fmt.Errorf("the server certificate: %w", err)
	}
	if st.dir, err = s.writeTLSFiles(cert); err != nil {
		return err
	}
	st.config = &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.VerifyClientCertIfGiven,
		ClientCAs:    s.CA.Pool(),
		MinVersion:   tls.VersionTLS12,
	}
	s.tls = st
	return nil
}

// tlsHosts are the names the server's certificate is made for: loopback,
// the --addr host and the --public-url host.
func (s *Server) tlsHosts() []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	add := func(h string) {
		if h == "" || h == "0.0.0.0" || h == "::" {
			return
		}
		for _, have := range hosts {
			if have == h {
				return
			}
		}
		hosts = append(hosts, h)
	}
	if h, _, err := net.SplitHostPort(s.Config.Addr); err == nil {
		add(h)
	}
	if u, err := url.Parse(s.Config.PublicURL); err == nil {
		add(u.Hostname())
	}
	return hosts
}

// writeTLSFiles writes ca.pem and server.pem to the TLS folder (--tls-dir;
// beside a --db file; else a new temporary folder) and answers it.
func (s *Server) writeTLSFiles(cert tls.Certificate) (string, error) {
	dir := s.Config.TLSDir
	switch {
	case dir != "":
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("--tls-dir: %w", err)
		}
	case s.Config.DBPath != "":
		dir = s.Config.DBPath + ".tls"
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("TLS folder: %w", err)
		}
	default:
		var err error
		if dir, err = os.MkdirTemp("", "homologa-tls-"); err != nil {
			return "", fmt.Errorf("TLS folder: %w", err)
		}
	}
	var chain []byte
	for _, der := range cert.Certificate {
		chain = append(chain, certs.EncodePEM(der)...)
	}
	for name, data := range map[string][]byte{CAFile: s.CA.PEM, ServerFile: chain} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", name, err)
		}
	}
	return dir, nil
}

// TLSDir is the folder of ca.pem and server.pem, "" on plain HTTP.
func (s *Server) TLSDir() string {
	if s.tls == nil {
		return ""
	}
	return s.tls.dir
}

// trustedRoots are the roots the sandbox's own clients trust (webhook
// deliveries, homologation runs): the system's and the sandbox CA, so
// that its built-in inbox is reached over its own TLS.
func (s *Server) trustedRoots() *x509.CertPool {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	pool.AddCert(s.CA.Cert)
	return pool
}

// tlsBanner writes, under TLS, where the certificates are, the server's
// fingerprint, and how mutual TLS goes.
func (s *Server) tlsBanner(w io.Writer) {
	if s.tls == nil {
		return
	}
	made := "made at this start, signed by the sandbox CA"
	if s.tls.given {
		made = "given by --tls-cert"
	}
	fmt.Fprintf(w, "TLS (%s)\n  CA certificate     %s (trust it: curl --cacert, SSL_CERT_FILE, your SDK's CA option; also GET /portal/ca.pem)\n"+
		"  server certificate %s\n  SHA-256            %s\n",
		made, filepath.Join(s.tls.dir, CAFile), filepath.Join(s.tls.dir, ServerFile), certs.Fingerprint(s.tls.leaf.Raw))
	if s.Config.MTLS {
		fmt.Fprintf(w, "  mutual TLS         required on /pix/v2 and /oauth/token: each app's client certificate from POST /portal/apps/{id}/certificates\n\n")
	} else {
		fmt.Fprintf(w, "  mutual TLS         optional (--mtls requires it on /pix/v2 and /oauth/token)\n\n")
	}
}
