package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
)

// On a running clock a step's job runs a little after it is due; the next
// step's delay must count from when the previous one was due, or a chain
// of "after" delays drifts and an exact clock advance stops short of a
// step (a widget test met it: 1h then 7m did not add up to 1h07m). At
// 6000× a millisecond late is six sandbox seconds, so drift cannot hide.
func TestStepDelaysAddUpOnARunningClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Clock: "6000x", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, path, body string, hdr map[string]string) []byte {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return b
	}
	do("POST", "/sandbox/scenarios", `id: passos-encadeados
title: three events ten minutes apart
applies_to: cob
steps:
  - after: 10m
    emit: {type: teste.passo, name: Passo}
  - after: 10m
    emit: {type: teste.passo, name: Passo}
  - after: 10m
    emit: {type: teste.passo, name: Passo}
`, nil)
	do("PUT", "/pix/v2/cob/passosencadeadospassosencad01", `{"valor":{"original":"1.00"},"chave":"52998224725"}`,
		map[string]string{"X-Sandbox-Scenario": "passos-encadeados"})

	type binding struct {
		NextAt    *time.Time `json:"nextAt"`
		CreatedAt time.Time  `json:"createdAt"`
		Log       []struct {
			Step int `json:"step"`
		} `json:"log"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var out struct {
			Bindings []binding `json:"bindings"`
		}
		json.Unmarshal(do("GET", "/sandbox/scenarios/bindings?kind=cob", "", nil), &out)
		var b *binding
		for i := range out.Bindings {
			if len(out.Bindings[i].Log) > 0 || out.Bindings[i].NextAt != nil {
				b = &out.Bindings[i]
			}
		}
		if b != nil && len(b.Log) >= 1 && len(b.Log) <= 2 && b.NextAt != nil {
			want := b.CreatedAt.Add(time.Duration(len(b.Log)+1) * 10 * time.Minute)
			if d := b.NextAt.Sub(want); d < -time.Second || d > time.Second {
				t.Fatalf("after %d steps the next is due at %s, want %s (drift %s)", len(b.Log), b.NextAt, want, d)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no step ran: %+v", out.Bindings)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
