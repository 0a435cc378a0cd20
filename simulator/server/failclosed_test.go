package server_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// A route reached without a company in its context (a credential rule
// forgotten, a handler mounted another way) answers an error, never data:
// each control route's handler and each operator route's, called as it is
// mounted but without the credential's rule, refuses with a 4xx.
func TestRoutesWithoutATenantAnswerAnError(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	checked := 0
	for _, rt := range s.Routes() {
		if rt.Auth != httpx.Tenant && rt.Auth != httpx.Operator {
			continue
		}
		checked++
		full := server.FullPath(rt)
		t.Run(rt.Method+" "+full, func(t *testing.T) {
			r := mux.NewRouter()
			r.Handle(full, rt.Handler).Methods(rt.Method)
			req := httptest.NewRequest(rt.Method, samplePath(t, full), strings.NewReader(`{}`))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, req)
			if rec.Code < 400 || rec.Code >= 500 {
				t.Fatalf("answered %d without a company: %.300s", rec.Code, rec.Body.String())
			}
		})
	}
	if checked < 30 {
		t.Fatalf("checked %d routes; the control API has more", checked)
	}
}
