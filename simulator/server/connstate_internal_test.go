package server

import (
	"context"
	"io"
	"reflect"
	"testing"

	"homologa/simulator/httpx"
)

// The served sandbox yields between a connection's requests
// (httpx.YieldWhenIdle): without it, on one processor, requests the
// network woke waited up to hundreds of milliseconds behind the others.
func TestServedSandboxYieldsBetweenRequests(t *testing.T) {
	ctx := context.Background()
	s, err := New(ctx, Config{OperatorToken: "operator-token-for-tests-0123456789", Addr: "127.0.0.1:0", Log: io.Discard, NoDemo: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if s.http.ConnState == nil || reflect.ValueOf(s.http.ConnState).Pointer() != reflect.ValueOf(httpx.YieldWhenIdle).Pointer() {
		t.Fatal("the sandbox's http.Server does not yield between a connection's requests (httpx.YieldWhenIdle)")
	}
}
