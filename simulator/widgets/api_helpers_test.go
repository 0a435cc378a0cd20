package widgets_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"homologa/simulator/server"
)

// apiCall sends a request to the sandbox with token (none when empty); a
// string body goes as is, anything else as JSON. The answer is decoded, or
// kept under "raw" when it is not a JSON object.
func apiCall(t *testing.T, s *server.Server, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, s.URL()+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, out
}

// apiMust is apiCall that wants a status.
func apiMust(t *testing.T, s *server.Server, token, method, path string, body any, want int) map[string]any {
	t.Helper()
	got, out := apiCall(t, s, token, method, path, body)
	if got != want {
		t.Fatalf("%s %s: status %d, want %d: %v", method, path, got, want, out)
	}
	return out
}

// dig reads a dotted path (numbers index arrays) of a decoded answer.
func dig(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
