package httpx

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// Admission. The partner APIs' requests take turns, a few at a time, in
// the order they arrive. Go's scheduler runs the goroutines a running one
// wakes (a database turn, the log's queue, a response) before those the
// network wakes, so on one processor a busy sandbox left some of its
// connections runnable for hundreds of milliseconds while the others
// handed the processor to one another. With at most as many requests
// inside as there are processors, the others wait parked in a
// first-come, first-served queue.
//
// A turn is never a lock: a request that waited Wait without one goes
// in anyway, so a request that holds its turn long delays the others by
// Wait at most. A request about to wait on purpose (an injected latency)
// gives its turn back first (Yield), and so does one whose body has not
// arrived BodyGrace after its turn began: a client sending slowly holds
// nobody's turn. (Reading the body before asking for a turn would do
// that too, but measured no better than no turns at all.)
type Admission struct {
	// APIs are the APIs whose requests take turns, those of them marked
	// Record: a partner's calls; the control API, the pages and the
	// event stream do not.
	APIs []API
	// Slots is how many requests may be inside at once (the processors).
	Slots int
	// Wait is the longest a request waits for its turn.
	Wait time.Duration
	// BodyGrace is how long a request may hold its turn before its body
	// has been read to its end.
	BodyGrace time.Duration
}

// The defaults of Admission.
const (
	DefaultAdmissionWait = 50 * time.Millisecond
	DefaultBodyGrace     = 5 * time.Millisecond
)

type admittedKey struct{}

// admitted is a request's turn, given back once.
type admitted struct{ release func() }

// Yield gives back the request's turn, if it holds one: call it before
// waiting on purpose. The rest of the request runs without one.
func Yield(ctx context.Context) {
	if a, ok := ctx.Value(admittedKey{}).(*admitted); ok {
		a.release()
	}
}

// Middleware admits the requests of the APIs by turns.
func (a Admission) Middleware(next http.Handler) http.Handler {
	slots := make(chan struct{}, max(a.Slots, 1))
	wait, grace := a.Wait, a.BodyGrace
	if wait <= 0 {
		wait = DefaultAdmissionWait
	}
	if grace <= 0 {
		grace = DefaultBodyGrace
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.takes(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		t := time.NewTimer(wait)
		select {
		case slots <- struct{}{}:
			t.Stop()
			turn := &admitted{release: sync.OnceFunc(func() { <-slots })}
			defer turn.release()
			if r.Body != nil && r.Body != http.NoBody {
				body := &turnBody{ReadCloser: r.Body}
				body.late = time.AfterFunc(grace, turn.release)
				defer body.late.Stop()
				r.Body = body
			}
			r = r.WithContext(context.WithValue(r.Context(), admittedKey{}, turn))
		case <-t.C: // go in without a turn
		case <-r.Context().Done():
			t.Stop()
		}
		next.ServeHTTP(w, r)
	})
}

// takes says whether a request for path takes turns: its API's, or its
// alias's (the path is not made canonical yet).
func (a Admission) takes(path string) bool {
	if APIFor(a.APIs, path).Record {
		return true
	}
	_, api, _, ok := Canonical(a.APIs, path)
	return ok && api.Record
}

// turnBody is the body of a request holding a turn: once read to its end
// (or failed), the turn no longer depends on the client's pace.
type turnBody struct {
	io.ReadCloser
	late *time.Timer
}

func (b *turnBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.late.Stop()
	}
	return n, err
}
