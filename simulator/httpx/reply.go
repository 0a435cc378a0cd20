package httpx

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Info is what the plumbing learns about a request as it passes through:
// the outer middleware creates it, auth fills in the app, and the recorder
// reads it back after the handler has run.
type Info struct {
	RequestID string
	API       string
	Dialect   Dialect
	Logger    *slog.Logger
	// BodyLimit is the most bytes the request's body may have.
	BodyLimit int64
	AppID     string
	CNPJ      string
	CompanyID string
	// Account is the portal account whose session or personal token the
	// request carries: what is kept per caller (an Idempotency-Key's
	// answer) is kept per account, never shared by callers without an app.
	Account string
	// Operator marks a request of the sandbox's operator.
	Operator bool
	// At is the request's instant on its company's clock, once
	// authentication knows the company (the interaction log records it).
	At             time.Time
	IdempotencyKey string
	// Injected names a fault that answered this request instead of the
	// sandbox, so the interaction log marks it.
	Injected string
	// Style is the answer style of the base path the request used
	// (StyleV2 for apiseguradora v2's clients); SentPath is the path as
	// sent when it was not the one the router knows (an alias, another
	// case).
	Style    string
	SentPath string
	// Lenient is whether the request's API accepts what production
	// accepts beyond its specification (Strictness); Findings are what it
	// accepted so (Tolerate), which the interaction log records.
	Lenient  bool
	Findings []Finding
	// Route is the route the router matched (Routed), nil for a request
	// no route serves: its Request is the schema a body is decoded with.
	Route *Route
	// Finally runs once the request is done and recorded (an injected
	// reset closes the connection there, so the client cannot see the
	// reset before the log shows it).
	Finally []func()
}

// RunFinally runs and clears the request's Finally functions.
func (i *Info) RunFinally() {
	fs := i.Finally
	i.Finally = nil
	for _, f := range fs {
		f()
	}
}

type infoKey struct{}

// WithInfo returns ctx carrying info.
func WithInfo(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// InfoOf returns the request's Info; never nil.
func InfoOf(ctx context.Context) *Info {
	if info, ok := ctx.Value(infoKey{}).(*Info); ok {
		return info
	}
	return &Info{}
}

// Reply is what a handler returns: a status, a JSON body (nil for none) and
// extra headers.
type Reply struct {
	Status int
	Body   any
	Header http.Header
	// Raw is a body that is not JSON (a download), written as it is under
	// the Content-Type of Header.
	Raw []byte
}

// OK is a 200 with body.
func OK(body any) *Reply { return &Reply{Status: http.StatusOK, Body: body} }

// Created is a 201 with body.
func Created(body any) *Reply { return &Reply{Status: http.StatusCreated, Body: body} }

// NoContent is a 204.
func NoContent() *Reply { return &Reply{Status: http.StatusNoContent} }

// HandlerFunc is a handler that returns a value or an error; ServeHTTP
// writes either, so status codes and error bodies live in one place.
type HandlerFunc func(r *http.Request) (*Reply, error)

func (h HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep, err := h(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if rep != nil {
		if s, ok := rep.Body.(Styled); ok {
			rep.Body = s.ForStyle(InfoOf(r.Context()).Style)
		}
	}
	WriteReply(w, rep)
}

// WriteReply writes a Reply as JSON.
func WriteReply(w http.ResponseWriter, rep *Reply) {
	if rep == nil {
		rep = NoContent()
	}
	for k, vs := range rep.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.Raw != nil {
		w.WriteHeader(status)
		w.Write(rep.Raw)
		return
	}
	if rep.Body == nil {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, "application/json; charset=utf-8", status, rep.Body)
}

// Capture is a ResponseWriter that keeps the status and, up to Limit bytes
// (all when Limit is 0), the body written through it.
type Capture struct {
	http.ResponseWriter
	Status int
	Body   bytes.Buffer
	Limit  int
	// Total is every byte of the body written, kept or not.
	Total int
}

// WriteHeader implements http.ResponseWriter.
func (c *Capture) WriteHeader(code int) {
	if c.Status == 0 {
		c.Status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (c *Capture) Write(b []byte) (int, error) {
	if c.Status == 0 {
		c.Status = http.StatusOK
	}
	keep := b
	c.Total += len(b)
	if c.Limit > 0 {
		keep = b[:max(0, min(len(b), c.Limit-c.Body.Len()))]
	}
	c.Body.Write(keep)
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (c *Capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }
