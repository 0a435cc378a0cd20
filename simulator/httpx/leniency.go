package httpx

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/jsondoc"
	"homologa/simulator/schema"
)

// Production's leniency (DESIGN.md, "Leniency"): where the partner APIs
// in production accept what their specification does not define, and
// real clients rely on it, the sandbox accepts it too, and records a
// finding: "works here and in production, but is not in the
// specification". The partner sees its risk in its interaction log and in
// its homologation report, without being failed for it. A sandbox started
// with --strict refuses instead, as the specification reads.

// The kinds of finding. They are codes, stable for whoever reads the log;
// each finding's Detail says in Portuguese what was accepted.
const (
	// FindingUnknownMember is a member of a request body that the
	// operation's schema does not declare: accepted, ignored, never
	// echoed back.
	FindingUnknownMember = "unknown-member"
	// FindingTrailingSlash is a path with a trailing slash the route
	// does not have (GET /cobv/).
	FindingTrailingSlash = "trailing-slash"
	// FindingMaskedValue is a value written for people where the API
	// declares digits or a number ("5.000,00" as an income).
	FindingMaskedValue = "masked-value"
	// FindingTypeMismatch is a value of another JSON type than the one
	// declared (a number where a string is declared).
	FindingTypeMismatch = "type-mismatch"
	// FindingTokenInQuery is a token request with its parameters in the
	// query string (RFC 6749 §3.2 has them in the body): the client's
	// secret then sits in URLs, which proxies and access logs keep.
	FindingTokenInQuery = "token-in-query"
	// FindingTwoClientAuth is a token request that authenticates the
	// client twice, by HTTP Basic and in the parameters (RFC 6749
	// §2.3: one method only), with the same credentials.
	FindingTwoClientAuth = "two-client-authentications"
	// FindingSameStatus is a revision that repeats the status the
	// resource has (a charge's ATIVA), which the specification's
	// revision does not take: ignored.
	FindingSameStatus = "same-status"
	// FindingUnsignedSale is a v2 sale (POST /venda) registered without
	// a signature: no v2 client has a way to sign.
	FindingUnsignedSale = "unsigned-sale"
)

// Finding is one thing a request did that the specification does not
// define and the sandbox accepted, as production does.
type Finding struct {
	Kind string `json:"kind"`
	// Field names the member, parameter or path concerned, as sent.
	Field  string `json:"field,omitempty"`
	Detail string `json:"detail"`
}

// Tolerate is where an API is lenient: under --strict (or on an API that
// is not lenient) it answers refusal, which the caller returns; otherwise
// it records f among the request's findings and answers nil, and the
// caller goes on as production would.
func Tolerate(ctx context.Context, f Finding, refusal error) error {
	info := InfoOf(ctx)
	if !info.Lenient {
		return refusal
	}
	info.AddFinding(f)
	return nil
}

// Lenient reports whether the request's API is lenient where production
// is (and the sandbox was not started with --strict).
func Lenient(ctx context.Context) bool { return InfoOf(ctx).Lenient }

// AddFinding records f for the request's interaction, once: a finding
// made twice (a body read again, a route retried) is one.
func (i *Info) AddFinding(f Finding) {
	for _, g := range i.Findings {
		if g == f {
			return
		}
	}
	i.Findings = append(i.Findings, f)
}

// Strictness sets each request's leniency: the request's API's
// (API.Lenient), unless the sandbox is strict. It runs inside Outer, which
// chose the API.
func Strictness(apis []API, strict bool, next http.Handler) http.Handler {
	lenient := map[string]bool{}
	for _, a := range apis {
		lenient[a.Name] = a.Lenient && !strict
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := InfoOf(r.Context())
		info.Lenient = lenient[info.API]
		next.ServeHTTP(w, r)
	})
}

// trimSlash is path without its trailing slashes, and whether it had any
// to trim ("/" itself has none).
func trimSlash(path string) (string, bool) {
	trimmed := strings.TrimRight(path, "/")
	if trimmed == "" || trimmed == path {
		return path, false
	}
	return trimmed, true
}

// validate validates doc against the named schema. On a lenient API, the
// members the schema does not declare (additionalProperties false) are
// taken out of doc, so they are neither kept nor echoed back, and each is
// recorded as a finding, when they are all that is wrong; any other
// violation is answered as it is, without them.
func validate(ctx context.Context, schemas *schema.Registry, name string, doc any) error {
	vs, err := schemas.ValidateDocument(name, doc)
	if err != nil || len(vs) == 0 || !Lenient(ctx) {
		return schemaError(name)(vs, err)
	}
	var unknown []string
	for _, v := range vs {
		if v.Unknown {
			unknown = append(unknown, v.Field)
		}
	}
	if len(unknown) == 0 {
		return schemaError(name)(vs, nil)
	}
	for _, field := range unknown {
		removeMember(doc, strings.Split(field, "."))
	}
	if err := schemaError(name)(schemas.ValidateDocument(name, doc)); err != nil {
		return err
	}
	info := InfoOf(ctx)
	for _, field := range unknown {
		info.AddFinding(Finding{Kind: FindingUnknownMember, Field: field,
			Detail: fmt.Sprintf("o membro %s não é do schema %s: ignorado, nem guardado nem devolvido, como em produção, onde um PSP pode recusá-lo", field, name)})
	}
	return nil
}

// withoutUnknown is body without the members its schema does not declare
// (validate), re-encoded.
func withoutUnknown(ctx context.Context, schemas *schema.Registry, name string, body []byte) ([]byte, error) {
	doc, err := jsondoc.Decode(body)
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "JSON malformado: %v", err)
	}
	if err := validate(ctx, schemas, name, doc); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// removeMember deletes the member at path (a violation's dotted field:
// object keys and array indexes) from doc.
func removeMember(doc any, path []string) {
	for len(path) > 1 {
		switch x := doc.(type) {
		case map[string]any:
			doc = x[path[0]]
		case []any:
			i, err := strconv.Atoi(path[0])
			if err != nil || i < 0 || i >= len(x) {
				return
			}
			doc = x[i]
		default:
			return
		}
		path = path[1:]
	}
	if m, ok := doc.(map[string]any); ok {
		delete(m, path[0])
	}
}
