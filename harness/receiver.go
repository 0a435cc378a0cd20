package harness

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Receiver is a real webhook receiver on a loopback port: it records every
// request and answers with a status the scenario chooses.
type Receiver struct {
	URL string

	mu       sync.Mutex
	status   int
	location string
	requests []Received
	notify   chan struct{}
	srv      *http.Server
}

// Received is one request the receiver got.
type Received struct {
	At     time.Time
	Path   string
	Header http.Header
	Body   []byte
}

// NewReceiver starts a receiver answering status.
func NewReceiver(status int) (*Receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rc := &Receiver{URL: "http://" + ln.Addr().String(), status: status, notify: make(chan struct{}, 1)}
	rc.srv = &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go rc.srv.Serve(ln)
	return rc, nil
}

func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	rc.mu.Lock()
	rc.requests = append(rc.requests, Received{At: time.Now(), Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	status, location := rc.status, rc.location
	rc.mu.Unlock()
	select {
	case rc.notify <- struct{}{}:
	default:
	}
	if location != "" {
		w.Header().Set("Location", location)
	}
	w.WriteHeader(status)
}

// SetRedirect makes the receiver answer status with a Location header:
// a receiver trying to send the sandbox elsewhere.
func (rc *Receiver) SetRedirect(status int, location string) {
	rc.mu.Lock()
	rc.status, rc.location = status, location
	rc.mu.Unlock()
}

// SetStatus changes the status the receiver answers with.
func (rc *Receiver) SetStatus(status int) {
	rc.mu.Lock()
	rc.status = status
	rc.mu.Unlock()
}

// Requests returns what the receiver got so far.
func (rc *Receiver) Requests() []Received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Received(nil), rc.requests...)
}

// WaitFor waits until ok accepts one of the requests, or the timeout ends.
func (rc *Receiver) WaitFor(timeout time.Duration, ok func(Received) bool) (Received, bool) {
	var found Received
	_, done := rc.WaitUntil(timeout, func(rs []Received) bool {
		for _, r := range rs {
			if ok(r) {
				found = r
				return true
			}
		}
		return false
	})
	return found, done
}

// WaitUntil waits until cond holds for what the receiver got, or the
// timeout ends; it returns the requests as they were last seen.
func (rc *Receiver) WaitUntil(timeout time.Duration, cond func([]Received) bool) ([]Received, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		rs := rc.Requests()
		if cond(rs) {
			return rs, true
		}
		select {
		case <-rc.notify:
		case <-deadline.C:
			return rs, false
		}
	}
}

// Close stops the receiver.
func (rc *Receiver) Close() error { return rc.srv.Close() }
