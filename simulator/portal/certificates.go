package portal

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

// certificateRoutes are an app's client certificates for mutual TLS, as
// PSPs' portals issue them, and the sandbox CA that signs them.
func (h *Handlers) certificateRoutes() []httpx.Route {
	route := func(method, path string, kind httpx.Auth, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: path, Auth: kind, Answer: answer, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		route(http.MethodPost, "/apps/{id}/certificates", httpx.Account, "", h.issueCertificate,
			"issue an app a client certificate for mutual TLS: the download (PEM bundle or PKCS#12) holds its key, shown once").WithRequest("platform/certificate.create"),
		route(http.MethodGet, "/apps/{id}/certificates", httpx.Account, "platform/certificate.list", h.certificates, "an app's client certificates"),
		route(http.MethodDelete, "/apps/{id}/certificates/{cert}", httpx.Account, "platform/certificate", h.revokeCertificate,
			"revoke a client certificate: no more tokens with it, and its tokens stop working"),
		route(http.MethodGet, "/ca.pem", httpx.Public, "", h.caCertificate, "the sandbox CA's certificate (PEM): what clients trust"),
	}
}

// downloads are the formats of a certificate's download: content type
// and file extension.
var downloads = map[string][2]string{
	"pem":        {"application/x-pem-file", "pem"},
	"p12":        {"application/x-pkcs12", "p12"},
	"p12-legacy": {"application/x-pkcs12", "p12"},
}

// issueCertificate is POST /portal/apps/{id}/certificates {"format",
// "password"}: a new key and client certificate for the app, answered as
// the download itself (201): a PEM bundle (key, certificate, CA) or a
// PKCS#12 file under the password. The sandbox keeps the certificate,
// never the key.
func (h *Handlers) issueCertificate(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Format   string
		Password *string
	}
	if err := httpx.DecodeOptionalJSON(r, h.Schemas, "platform/certificate.create", &in); err != nil {
		return nil, err
	}
	if in.Format == "" {
		in.Format = "pem"
	}
	password, err := p12Password(in.Format, in.Password)
	if err != nil {
		return nil, err
	}
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	cert, cl, err := h.Auth.IssueCertificate(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	var raw []byte
	if in.Format == "pem" {
		raw, err = h.Auth.CA.PEMBundle(cl)
	} else {
		raw, err = h.Auth.CA.PKCS12(cl, password, in.Format == "p12-legacy")
	}
	if err != nil {
		return nil, err
	}
	kind := downloads[in.Format]
	return &httpx.Reply{Status: http.StatusCreated, Raw: raw, Header: http.Header{
		"Content-Type":                    {kind[0]},
		"Content-Disposition":             {fmt.Sprintf(`attachment; filename="%s.%s"`, a.ClientID, kind[1])},
		"Location":                        {"/portal/apps/" + a.ID + "/certificates/" + cert.ID},
		"Cache-Control":                   {"no-store"},
		"Homologa-Certificate-Id":         {cert.ID},
		"Homologa-Certificate-Thumbprint": {cert.Thumbprint},
	}}, nil
}

// p12Password is the password a PKCS#12 download is sealed with: one of
// 6 to 128 characters, or the empty one when the request asks for it
// ("password": ""), as PSPs issue theirs (Efí's portal does, and its SDK
// opens every .p12 with an empty passphrase). A PKCS#12 request without
// a password at all is refused: the empty one is a choice, not a default.
func p12Password(format string, password *string) (string, error) {
	switch {
	case format == "pem":
		return "", nil
	case password == nil:
		return "", errs.Invalidf("password", "um arquivo PKCS#12 precisa de uma senha (de 6 a 128 caracteres), ou de \"password\": \"\" para um arquivo sem senha, como os PSPs o emitem")
	case *password != "" && utf8.RuneCountInString(*password) < 6:
		return "", errs.Invalidf("password", "a senha do PKCS#12 tem de 6 a 128 caracteres (ou \"\" para um arquivo sem senha)")
	}
	return *password, nil
}

// certificates is GET /portal/apps/{id}/certificates.
func (h *Handlers) certificates(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	cs, err := h.Auth.Certificates(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		cs = []auth.Certificate{}
	}
	return httpx.OK(map[string]any{"certificates": cs}), nil
}

// revokeCertificate is DELETE /portal/apps/{id}/certificates/{cert}.
func (h *Handlers) revokeCertificate(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return replyOf(h.Auth.RevokeCertificate(r.Context(), a.ID, mux.Vars(r)["cert"]))
}

// caCertificate is GET /portal/ca.pem: the certificate of the CA that
// signs the sandbox's server certificate and the apps' client
// certificates. It is public, as a CA's certificate is.
func (h *Handlers) caCertificate(r *http.Request) (*httpx.Reply, error) {
	if h.Auth.CA == nil {
		return nil, errs.Errorf(errs.NotFound, "este sandbox não tem autoridade certificadora")
	}
	return &httpx.Reply{Raw: h.Auth.CA.PEM, Header: http.Header{"Content-Type": {"application/x-pem-file"},
		"Content-Disposition": {`attachment; filename="homologa-ca.pem"`}}}, nil
}

// replyOf answers 200 with v, or err.
func replyOf[T any](v T, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return httpx.OK(v), nil
}
