package pix

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

// principal is the app a request speaks for.
func principal(r *http.Request) auth.Principal {
	p, _ := auth.PrincipalOf(r.Context())
	return p
}

// decode reads a request body validated against a schema of schemas/pix/,
// with the errors of the operation's type (see retype).
func decode(r *http.Request, reg *schema.Registry, schemaName, entity, typ string, v any) error {
	err := httpx.DecodeJSON(r, reg, schemaName, v)
	return retype(err, entity, typ)
}

// decodeCancel reads the body of a PATCH that can only cancel.
func decodeCancel(r *http.Request, reg *schema.Registry, schemaName, typ string) error {
	var req doc
	if err := decode(r, reg, schemaName, "", typ, &req); err != nil {
		return err
	}
	return cancelOnly(typ, req)
}

// listOf reads the common list parameters of a request.
func listOf(r *http.Request, typ string, required bool) *listQuery {
	return parseList(query(r), typ, required)
}

// replyOK answers 200 with what an operation made, or its error.
func replyOK[T any](v T, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return httpx.OK(v), nil
}

// replyCreated answers 201 with what an operation made, or its error.
func replyCreated[T any](v T, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return httpx.Created(v), nil
}

// replyStatus answers a status without a body, or the operation's error.
func replyStatus(code int, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: code}, nil
}

// withLocation adds the Location header of a created location.
func withLocation(rep *httpx.Reply, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	rep.Header = http.Header{"Location": {rep.Body.(doc)["location"].(string)}}
	return rep, nil
}

// query is the request's query string, parsed as url.URL.Query parses it.
func query(r *http.Request) url.Values {
	v, _ := url.ParseQuery(r.URL.RawQuery)
	return v
}

// withoutActiveStatus is a revision's body without a status ATIVA, which
// clients send with the rest of a charge they revise (data7-pix's PATCH
// /cob repeats the charge it read, status ATIVA included): only an ATIVA
// charge can be revised, so it says nothing, and the spec's revision
// takes no status but REMOVIDA_PELO_USUARIO_RECEBEDOR. On a lenient API
// it is ignored, a finding of the request; under --strict it is left for
// the schema to refuse.
func withoutActiveStatus(ctx context.Context, raw []byte, kind string) []byte {
	var body map[string]json.RawMessage
	if !httpx.Lenient(ctx) || json.Unmarshal(raw, &body) != nil || string(body["status"]) != `"`+Ativa+`"` {
		return raw
	}
	delete(body, "status")
	out, err := json.Marshal(body)
	if err != nil {
		return raw
	}
	httpx.InfoOf(ctx).AddFinding(httpx.Finding{Kind: httpx.FindingSameStatus, Field: "status",
		Detail: "a revisão de " + kind + " trouxe status ATIVA, que a cobrança revisada já tem (só uma ATIVA pode ser revista): ignorado; a especificação só aceita status REMOVIDA_PELO_USUARIO_RECEBEDOR numa revisão"})
	return out
}
