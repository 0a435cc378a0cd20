package events

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Local is the sandbox itself, as a delivery's target: its built-in
// inbox. A request to one of Hosts under one of Paths is served by
// Handler in the process, and never dialled: a hosted sandbox refuses to
// connect to the host's loopback, where it listens, and needs no
// exception for itself; on a developer's machine the inbox answers the
// same, without a connection.
type Local struct {
	// Hosts are the host:port pairs the sandbox is reached at (its
	// listen address, its public URL's), lower-case.
	Hosts []string
	// Paths are the path prefixes served in the process.
	Paths []string
	// Handler serves them: the sandbox's own handler, set before the
	// first delivery.
	Handler http.Handler
}

// serves reports whether u is one of the sandbox's own inbox URLs; false
// on a nil Local.
func (l *Local) serves(u *url.URL) bool {
	if l == nil || l.Handler == nil || u == nil || u.User != nil {
		return false
	}
	key, ok := exactKey(net.JoinHostPort(u.Hostname(), portOf(u)))
	if !ok {
		return false
	}
	matched := false
	for _, h := range l.Hosts {
		if k, ok := exactKey(h); ok && k == key {
			matched = true
		}
	}
	if !matched {
		return false
	}
	for _, p := range l.Paths {
		if strings.HasPrefix(u.EscapedPath(), p) && !strings.Contains(u.Path, "/../") {
			return true
		}
	}
	return false
}

// localFirst serves the sandbox's own inbox in the process and sends
// everything else through next, the guarded transport.
type localFirst struct {
	g    *Guard
	next http.RoundTripper
}

// maxLocalAnswer bounds what is kept of an answer served in the process:
// a delivery reads at most a KiB of it.
const maxLocalAnswer = 64 << 10

func (t localFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.g.Local.serves(req.URL) {
		return t.next.RoundTrip(req)
	}
	in := req.Clone(context.WithValue(req.Context(), inProcess{}, true))
	in.RequestURI = req.URL.RequestURI()
	in.Host = req.URL.Host
	in.RemoteAddr = "127.0.0.1:0"
	in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	if in.Body == nil {
		in.Body = http.NoBody
	}
	rec := &localAnswer{header: http.Header{}}
	t.g.Local.Handler.ServeHTTP(rec, in)
	if req.Body != nil {
		req.Body.Close()
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return &http.Response{
		Status: http.StatusText(rec.status), StatusCode: rec.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: rec.header, Body: io.NopCloser(bytes.NewReader(rec.body.Bytes())), ContentLength: int64(rec.body.Len()), Request: req,
	}, nil
}

// inProcess marks the context of a request the sandbox served itself.
type inProcess struct{}

// InProcess reports whether a request is one the sandbox made and served
// itself (a delivery to its own inbox): no client on the network can
// send one, so the inbox takes it as the sandbox's own.
func InProcess(ctx context.Context) bool {
	v, _ := ctx.Value(inProcess{}).(bool)
	return v
}

// localAnswer is the ResponseWriter of a request served in the process.
type localAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *localAnswer) Header() http.Header { return a.header }

func (a *localAnswer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *localAnswer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	if room := maxLocalAnswer - a.body.Len(); room > 0 {
		a.body.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
