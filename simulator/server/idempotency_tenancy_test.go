package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestIdempotencyKeysAreTheCallers: an Idempotency-Key is one caller's.
// Another account sending the same key and body to the portal or the
// control API gets an answer of its own, never the first caller's (an
// app's secrets, a rotated secret, a delivery), and the first caller's
// retry still gets its own; a request of no caller keeps no answer.
func TestIdempotencyKeysAreTheCallers(t *testing.T) {
	m := newMatrixWorld(t)
	send := func(method, path, cred, key, body string) (int, map[string]any, string) {
		t.Helper()
		req, _ := http.NewRequest(method, m.s.URL()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+cred)
		req.Header.Set("Idempotency-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var doc map[string]any
		json.Unmarshal(b, &doc)
		return resp.StatusCode, doc, resp.Header.Get("Idempotent-Replayed")
	}
	const body = `{"name":"Minha integracao"}`
	codeA, appA, _ := send(http.MethodPost, "/portal/apps", m.portA, "create-app-1", body)
	codeB, appB, replayedB := send(http.MethodPost, "/portal/apps", m.portB, "create-app-1", body)
	if codeA != http.StatusCreated || codeB != http.StatusCreated {
		t.Fatalf("creations: %d, %d", codeA, codeB)
	}
	if appA["clientId"] == appB["clientId"] || appA["clientSecret"] == appB["clientSecret"] || replayedB != "" {
		t.Fatalf("B's request with A's key got A's app: %v %v (replayed %q)", appA["clientId"], appB["clientId"], replayedB)
	}
	// A's own retry is still answered from its key.
	codeA2, appA2, replayedA := send(http.MethodPost, "/portal/apps", m.portA, "create-app-1", body)
	if codeA2 != http.StatusCreated || appA2["clientId"] != appA["clientId"] || replayedA != "true" {
		t.Fatalf("A's retry: %d %v (replayed %q), want A's app again", codeA2, appA2["clientId"], replayedA)
	}
	// A secret rotated by A is not handed to B sending the same key.
	path := "/portal/apps/" + appA["clientId"].(string) + "/secret"
	if code, rot, _ := send(http.MethodPost, path, m.portA, "rotate-1", ""); code/100 != 2 || rot["clientSecret"] == nil {
		t.Fatalf("A's rotation: %d %v", code, rot)
	}
	if code, rot, _ := send(http.MethodPost, path, m.portB, "rotate-1", ""); code/100 == 2 || rot["clientSecret"] != nil {
		t.Fatalf("B's request with A's key for A's app: %d %v", code, rot)
	}
}
