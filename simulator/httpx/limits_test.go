package httpx_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "read tcp: i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestBodyError(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		want   string
	}{
		{"OK413", &http.MaxBytesError{Limit: 10}, 413, "passa do limite de 10 bytes"},
		{"OK413Wrapped", fmt.Errorf("upload: %w", &http.MaxBytesError{Limit: 10}), 413, "passa do limite de 10 bytes"},
		{"OK408", fmt.Errorf("read: %w", timeoutErr{}), 408, "não chegou a tempo"},
		{"OK400", io.ErrUnexpectedEOF, 400, "erro ao ler o corpo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := httpx.BodyError(tt.err)
			if got := httpx.StatusOf(e); got != tt.status || !strings.Contains(e.Message, tt.want) {
				t.Fatalf("got %d %q, want %d %q", got, e.Message, tt.status, tt.want)
			}
		})
	}
}

// limited serves h behind Outer with a body limit of 16 bytes, the
// insurer's dialect under /insurer/v1 and the API Pix's under /pix/v2.
func limited(h http.HandlerFunc) http.Handler {
	return httpx.Outer([]httpx.API{
		{Prefix: "/insurer/v1", Name: "insurer", Dialect: httpx.Insurer{}},
		{Prefix: "/pix/v2", Name: "pix", Dialect: httpx.Pix{}},
	}, 16, nil, h)
}

// TestRawBodyErrorIsA413: a reader that hands the raw error of a body past
// the limit to WriteError still answers 413 in the API's dialect, not a
// 500.
func TestRawBodyErrorIsA413(t *testing.T) {
	h := limited(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		httpx.WriteError(w, r, &errs.Error{Code: errs.Internal, Err: fmt.Errorf("read: %w", err)})
	})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/insurer/v1/proposta", strings.NewReader(strings.Repeat("x", 17))))
	if w.Code != 413 || !strings.Contains(w.Body.String(), "CORPO_GRANDE_DEMAIS") {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	// The API Pix declares no 413: the same error is its 400
	// RequisicaoInvalida.
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/pix/v2/cob", strings.NewReader(strings.Repeat("x", 17))))
	if w.Code != 400 || !strings.Contains(w.Body.String(), "pix.bcb.gov.br/api/v2/error/RequisicaoInvalida") || !strings.Contains(w.Body.String(), `"status":400`) {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
}

// TestReplayKeepsTheReadError: a middleware that peeked at a body past the
// limit hands the handler the bytes and then the limit's error, so the
// handler answers 413 rather than parse a truncated document.
func TestReplayKeepsTheReadError(t *testing.T) {
	h := limited(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		r.Body = httpx.Replay(raw, err)
		if _, err := httpx.ReadBody(r, 0); err != nil {
			httpx.WriteError(w, r, err)
		}
	})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/insurer/v1/proposta", strings.NewReader(strings.Repeat("x", 17))))
	if w.Code != 413 {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Body = httpx.Replay([]byte("ok"), nil)
	if b, err := httpx.ReadBody(r, 0); err != nil || string(b) != "ok" {
		t.Fatalf("replay of a whole body: %q %v", b, err)
	}
}

// TestLimitDeclared: a declared length past the limit is a 413 before the
// route runs, whether it reads a body or not; a length within the limit,
// or none (chunked), reaches the route.
func TestLimitDeclared(t *testing.T) {
	ran := false
	h := limited(httpx.LimitDeclared(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true })).ServeHTTP)
	tests := []struct {
		name   string
		length int64
		status int
		ran    bool
	}{
		{"ErrDeclaredPastTheLimit", 17, 413, false},
		{"OKWithinTheLimit", 16, 200, true},
		{"OKChunked", -1, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = false
			r := httptest.NewRequest(http.MethodPost, "/insurer/v1/proposta", bytes.NewReader(make([]byte, max(tt.length, 0))))
			r.ContentLength = tt.length
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status || ran != tt.ran {
				t.Fatalf("got %d (route ran: %v), want %d (%v): %s", w.Code, ran, tt.status, tt.ran, w.Body)
			}
		})
	}
}

// TestBodyDeadlineWithoutAConnection: where there is no connection to
// bound (a recorder), the deadline is skipped, not an error.
func TestBodyDeadlineWithoutAConnection(t *testing.T) {
	h := httpx.BodyDeadline(1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil && !errors.Is(err, io.EOF) {
			t.Errorf("read: %v", err)
		}
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/", strings.NewReader("body")))
	if w.Code != 200 {
		t.Fatalf("got %d", w.Code)
	}
}
