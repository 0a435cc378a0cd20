package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"homologa/simulator/server"
)

// pixClient calls the Pix API of s with a token of the demo app.
func pixClient(t *testing.T, s *server.Server) func(method, path, body string) (int, map[string]any) {
	t.Helper()
	tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	return func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, s.URL()+"/pix/v2"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out map[string]any
		json.Unmarshal(b, &out)
		return resp.StatusCode, out
	}
}

func cobBody(valor string) string {
	return `{"calendario":{"expiracao":3600},"valor":{"original":"` + valor + `"},"chave":"52998224725"}`
}

func startServer(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	ctx := context.Background()
	cfg.Addr, cfg.Log = "127.0.0.1:0", io.Discard
	if cfg.OperatorToken == "" {
		cfg.OperatorToken = testOperator
	}
	s, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

// Creations race for the same txid: the one that inserts creates it, every
// other one revises what it finds (each a 201, the only success PUT
// /cob/{txid} declares), and no revision is lost.
func TestConcurrentCreatorsOfOneTxid(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{OperatorToken: testOperator})
	defer s.Close(context.Background())
	call := pixClient(t, s)
	call(http.MethodPut, "/cob/warmupwarmupwarmupwarmup0001", cobBody("1.00"))
	const n = 16
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _ := call(http.MethodPut, "/cob/racedracedracedracedraced0001", cobBody(fmt.Sprintf("%d.00", i+1)))
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[201] != n {
		t.Fatalf("answers = %v, want %d 201", count, n)
	}
	// Every answer had a different valor, so every revision counted.
	if _, got := call(http.MethodGet, "/cob/racedracedracedracedraced0001", ""); got["revisao"] != float64(n-1) {
		t.Fatalf("revisao = %v, want %d", got["revisao"], n-1)
	}
}

// Location and charge ids come from the database: a restarted sandbox
// continues after the last ids instead of reusing them.
func TestPixIDsContinueAfterARestart(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "h.db")
	locID := func(s *server.Server, txid string) float64 {
		call := pixClient(t, s)
		code, got := call(http.MethodPut, "/cob/"+txid, cobBody("2.00"))
		if code != 201 {
			t.Fatalf("PUT %s = %d %v", txid, code, got)
		}
		return got["loc"].(map[string]any)["id"].(float64)
	}
	s := startServer(t, server.Config{OperatorToken: testOperator, DBPath: dbPath})
	first := locID(s, "restartrestartrestartrest0001")
	second := locID(s, "restartrestartrestartrest0002")
	s.Close(context.Background())
	s = startServer(t, server.Config{OperatorToken: testOperator, DBPath: dbPath})
	defer s.Close(context.Background())
	third := locID(s, "restartrestartrestartrest0003")
	fourth := locID(s, "restartrestartrestartrest0004")
	if !(first < second && second < third && third < fourth) {
		t.Fatalf("loc ids %v %v %v %v are not increasing", first, second, third, fourth)
	}
}
