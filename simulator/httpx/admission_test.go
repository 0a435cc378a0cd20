package httpx_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/httpx"
)

// admissionServer serves handler behind one turn (Slots 1) for the API
// under /api; /other is no API's.
func admissionServer(t *testing.T, wait time.Duration, handler http.HandlerFunc) *httptest.Server {
	t.Helper()
	a := httpx.Admission{APIs: []httpx.API{{Prefix: "/api", Name: "api", Record: true}}, Slots: 1, Wait: wait}
	srv := httptest.NewServer(a.Middleware(handler))
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string) time.Duration {
	t.Helper()
	start := time.Now()
	resp, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(start)
}

// Requests of an API take turns: with one slot, never two inside at once.
func TestAdmissionTakesTurns(t *testing.T) {
	var inside, most atomic.Int32
	srv := admissionServer(t, time.Minute, func(w http.ResponseWriter, r *http.Request) {
		n := inside.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(2 * time.Millisecond)
		inside.Add(-1)
	})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { get(t, srv.URL+"/api/x") })
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d requests inside at once, want 1", most.Load())
	}
}

// A turn is not a lock: a request whose turn does not come within Wait
// goes in anyway; a request that yields lets the next in at once; and
// requests of no API never wait.
func TestAdmissionNeverWaitsLong(t *testing.T) {
	const wait = 300 * time.Millisecond
	tests := []struct {
		holder, next    string
		atLeast, atMost time.Duration
	}{
		{"/api/hold", "/api/next", wait, 10 * wait},
		{"/api/yield", "/api/next", 0, wait / 2},
		{"/api/hold", "/other", 0, wait / 2},
	}
	for _, tt := range tests {
		t.Run(tt.holder+" "+tt.next, func(t *testing.T) {
			hold, held := make(chan struct{}), make(chan struct{}, 4)
			srv := admissionServer(t, wait, func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/api/yield":
					httpx.Yield(r.Context())
					fallthrough
				case "/api/hold":
					held <- struct{}{}
					<-hold
				}
			})
			t.Cleanup(func() { close(hold) }) // before the server closes
			go http.Get(srv.URL + tt.holder)
			<-held
			if d := get(t, srv.URL+tt.next); d < tt.atLeast || d > tt.atMost {
				t.Errorf("%s while %s runs took %v, want between %v and %v", tt.next, tt.holder, d, tt.atLeast, tt.atMost)
			}
		})
	}
}

// A client that sends its body slowly gives up its turn after the body
// grace: the next request does not wait for its body.
func TestAdmissionSlowBodyHoldsNoTurn(t *testing.T) {
	const wait = 500 * time.Millisecond
	srv := admissionServer(t, wait, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	})
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Half a body, and the rest never (until the test ends).
	io.WriteString(c, "POST /api/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345")
	time.Sleep(50 * time.Millisecond) // its turn began
	if d := get(t, srv.URL+"/api/next"); d > wait/2 {
		t.Fatalf("a request behind a slow body took %v, want well under the wait of %v", d, wait)
	}
}
