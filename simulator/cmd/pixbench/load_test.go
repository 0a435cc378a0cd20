package main

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadGeneratorsCountEveryAnswer runs both load generators against a
// real server on loopback that answers in pieces (a length-delimited body
// written in two flushes, a chunked one in several): every request the
// server answered is counted once, whole, and a status other than the one
// wanted is an error, never a latency.
func TestLoadGeneratorsCountEveryAnswer(t *testing.T) {
	var served atomic.Int64
	mux := http.NewServeMux()
	body := strings.Repeat("x", 3000)
	mux.HandleFunc("/length", func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(body[:1000]))
		w.(http.Flusher).Flush()
		w.Write([]byte(body[1000:]))
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.WriteHeader(http.StatusCreated)
		for i := 0; i < len(body); i += 700 {
			w.Write([]byte(body[i:min(i+700, len(body))]))
			w.(http.Flusher).Flush()
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()

	loads := map[string]func(string, int, time.Duration, request) result{"sleep": measure, "poll": measurePolling}
	for name, load := range loads {
		for _, path := range []string{"/length", "/chunked"} {
			t.Run(name+path, func(t *testing.T) {
				before := served.Load()
				r := load(addr, 4, 150*time.Millisecond, request{method: "POST", path: path, body: `{"a":1}`, want: http.StatusCreated})
				if r.errors != 0 {
					t.Fatalf("%d errors, the first: %v", r.errors, r.firstErr)
				}
				if got := served.Load() - before; r.n == 0 || int64(r.n) != got {
					t.Errorf("counted %d answers, the server gave %d", r.n, got)
				}
				if r.p50 <= 0 || r.p99 < r.p50 || r.maxd < r.p99 {
					t.Errorf("latencies out of order: p50 %v p99 %v max %v", r.p50, r.p99, r.maxd)
				}
			})
			t.Run(name+path+"/wrong status", func(t *testing.T) {
				r := load(addr, 2, 50*time.Millisecond, request{method: "GET", path: path, want: http.StatusOK})
				if r.n == 0 || r.errors != r.n || r.perSec != 0 {
					t.Errorf("%d answers, %d errors, %.0f/s: want every answer an error", r.n, r.errors, r.perSec)
				}
			})
		}
	}
}
