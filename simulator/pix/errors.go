package pix

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

// violation is one broken rule, with the property path the spec's
// violacoes use ("cob.valor.original").
type violation struct {
	field, reason, value string
}

// problem builds a Pix error of the given official type.
func problem(code errs.Code, typ, detail string, vs ...violation) *errs.Error {
	e := &errs.Error{Code: code, Type: typ, Message: detail}
	for _, v := range vs {
		e.Violations = append(e.Violations, errs.Violation{Field: v.field, Reason: v.reason, Value: v.value})
	}
	return e
}

// invalid is a 400 of type typ naming the violated properties.
func invalid(typ string, vs ...violation) *errs.Error {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.field+": "+v.reason)
	}
	return problem(errs.Invalid, typ, strings.Join(parts, "; "), vs...)
}

func notFound(typ, format string, args ...any) *errs.Error {
	return problem(errs.NotFound, typ, fmt.Sprintf(format, args...))
}

// decode reads a request body validated against a schema of schemas/pix/.
// Schema violations become the operation's own type (CobOperacaoInvalida…)
// with properties prefixed by the entity ("cob."), as the spec's examples
// show; malformed JSON stays RequisicaoInvalida.
func decode(r *http.Request, reg *schema.Registry, schemaName, entity, typ string, v any) error {
	err := httpx.DecodeJSON(r, reg, schemaName, v)
	return retype(err, entity, typ)
}

func decodeBytes(body []byte, reg *schema.Registry, schemaName, entity, typ string, v any) error {
	return retype(httpx.DecodeJSONBytes(body, reg, schemaName, v), entity, typ)
}

func retype(err error, entity, typ string) error {
	var e *errs.Error
	if err == nil || !errors.As(err, &e) || e.Code != errs.Invalid || len(e.Violations) == 0 {
		return err
	}
	e.Type = typ
	var parts []string
	for i, v := range e.Violations {
		if entity != "" {
			if v.Field == "" {
				v.Field = entity
			} else {
				v.Field = entity + "." + v.Field
			}
		}
		e.Violations[i] = v
		parts = append(parts, v.Field+": "+v.Reason)
	}
	e.Message = strings.Join(parts, "; ")
	return e
}
