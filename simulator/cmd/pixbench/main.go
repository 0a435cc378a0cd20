// Command pixbench measures the Pix API of an in-process sandbox on
// loopback against a bare net/http handler that returns the same bytes, in
// one run: GET and PUT /pix/v2/cob/{txid}, with authentication, validation,
// recording and events on, at 1 and 32 concurrent clients. It prints a
// table of requests per second, p50, p99 and the ratio to the baseline.
// `make bench` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/server"
)

const cobBody = `{"calendario":{"expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45"},"chave":"52998224725","solicitacaoPagador":"Serviço realizado."}`

type result struct {
	n        int
	errors   int
	perSec   float64
	p50, p99 time.Duration
}

func main() {
	dur := flag.Duration("d", 3*time.Second, "duration of each measurement")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pixbench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// As the homologa command does (see its main).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if err := run(*dur); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "pixbench:", err)
		os.Exit(1)
	}
}

func run(dur time.Duration) error {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		return err
	}
	if err := s.Start(ctx); err != nil {
		return err
	}
	defer s.Close(ctx)
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 100, MaxIdleConnsPerHost: 100}, Timeout: 10 * time.Second}
	auth := "Bearer " + tok.AccessToken

	// One charge to read, and the exact bytes the sandbox answers, for the
	// baseline to return.
	getBody, getCT, err := call(client, http.MethodPut, s.URL()+"/pix/v2/cob/"+txid(0, 0), auth, cobBody, http.StatusCreated)
	if err != nil {
		return err
	}
	putBody := getBody
	if getBody, getCT, err = call(client, http.MethodGet, s.URL()+"/pix/v2/cob/"+txid(0, 0), auth, "", http.StatusOK); err != nil {
		return err
	}
	base, err := baseline(map[string][]byte{http.MethodGet: getBody, http.MethodPut: putBody}, getCT)
	if err != nil {
		return err
	}
	defer base.Close()

	var seq atomic.Int64
	seq.Store(1)
	fmt.Printf("pixbench: %s per measurement, loopback, sandbox in-memory with auth, validation, recording and events\n\n", dur)
	fmt.Printf("%-4s %7s | %10s %8s %8s | %10s %8s %8s | %6s\n", "op", "clients", "sandbox/s", "p50", "p99", "baseline/s", "p50", "p99", "ratio")
	fmt.Println(strings.Repeat("-", 88))
	for _, op := range []string{http.MethodGet, http.MethodPut} {
		for _, clients := range []int{1, 32} {
			req := func(target string) func() error {
				return func() error {
					path, body, want := "/pix/v2/cob/"+txid(0, 0), "", http.StatusOK
					if op == http.MethodPut {
						path, body, want = "/pix/v2/cob/"+txid(1, seq.Add(1)), cobBody, http.StatusCreated
					}
					_, _, err := call(client, op, target+path, auth, body, want)
					return err
				}
			}
			b := measure(clients, dur, req("http://"+base.Addr().String()))
			r := measure(clients, dur, req(s.URL()))
			fmt.Printf("%-4s %7d | %10.0f %8s %8s | %10.0f %8s %8s | %5.0f%%\n", op, clients, r.perSec, r.p50, r.p99, b.perSec, b.p50, b.p99, 100*r.perSec/b.perSec)
			if r.errors > 0 {
				fmt.Printf("     %d of %d sandbox requests failed\n", r.errors, r.n)
			}
		}
	}
	fmt.Println("\ntargets: GET ≥ 35% of the baseline; PUT ≥ 4000 creations/s; p99 < 10ms at 32 clients")
	return nil
}

// txid makes distinct valid txids: 32 alphanumerics.
func txid(kind int, n int64) string { return fmt.Sprintf("bench%d%026d", kind, n) }

func call(c *http.Client, method, url, auth, body string, want int) ([]byte, string, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Authorization", auth)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != want {
		return nil, "", fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return b, resp.Header.Get("Content-Type"), nil
}

// baseline serves the same bytes with a bare handler that reads the body,
// the least any server must do.
func baseline(bodies map[string][]byte, ct string) (net.Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ct)
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusCreated)
		}
		w.Write(bodies[r.Method])
	}))
	return ln, nil
}

// measure runs do from clients goroutines for dur and summarises latencies.
func measure(clients int, dur time.Duration, do func() error) result {
	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(deadline) {
				t := time.Now()
				if err := do(); err != nil {
					errs.Add(1)
					if errs.Load() == 1 {
						fmt.Fprintln(os.Stderr, "pixbench:", err)
					}
					continue
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{n: len(lat) + int(errs.Load()), errors: int(errs.Load()), perSec: float64(len(lat)) / elapsed.Seconds()}
	if len(lat) > 0 {
		r.p50 = lat[len(lat)/2].Round(time.Microsecond)
		r.p99 = lat[len(lat)*99/100].Round(time.Microsecond)
	}
	return r
}
