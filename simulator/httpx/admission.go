package httpx

import (
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"time"
)

// Admission. The partner APIs' requests take turns, a few at a time, in
// the order they arrive: pixbench's creations at 32 connections had a
// p99 of 70–140 ms and a max of 200–370 ms on one core, though each takes
// a third of a millisecond. An execution trace showed why: every few
// hundred milliseconds, twenty of the 32 connections' goroutines sat
// runnable for 150–200 ms while the other dozen handed the processor to
// one another (a database turn, the log's queue, a response, net/http's
// background read). Go's scheduler runs the goroutines a running one
// wakes before those the network wakes, so a busy sandbox starved some
// of its requests. With at most as many requests inside as there are
// processors, the others wait parked in a first-come, first-served
// queue. (That alone left those the network woke late starving: the
// turns handed from request to request kept the scheduler from polling
// the network; YieldWhenIdle, below, is the rest.)
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

// YieldWhenIdle is the sandbox's http.Server ConnState: a connection
// whose answer has just been written (StateIdle) lets every runnable
// goroutine go first before it reads its next request.
//
// Why (tenth session, issue 19): on one processor a few requests still
// waited 50–170 ms while the others were served (GET c=32's max ~100 ms,
// creations' 75–300 ms). An execution trace showed whom: connections
// whose goroutine had gone to read its next request before the client
// sent it, so only the network could wake it. The scheduler polls the
// network only when it has nothing else to run, and with the turns
// above handing the processor from request to request it always had;
// Go's monitor thread then polls it (every 10 ms at most) and puts what
// it finds on the global run queue, of which the scheduler takes one
// goroutine every 61 scheduling rounds while its own queue is busy: in
// the trace, 14 connections woken at once ran one every 3.7 ms, the
// last after 60 ms, while 1,600 other requests went by. A connection
// that yields here goes to the back of the global queue; by its next
// turn its client's request has arrived, so it reads without waiting
// on the network, and the global queue, which everybody now passes
// through, is served in order. pixbench (alternating runs with the
// build before): GET c=32 max 98–145 → 10–22 ms and p99 5.2–8.3 →
// 3.6–4.9 ms; creations' max 70–141 → 13–15 ms, 5,241–5,280 →
// 5,952–5,976/s with the sleeping client. With nothing else runnable
// the yield returns at once.
func YieldWhenIdle(_ net.Conn, state http.ConnState) {
	if state == http.StateIdle {
		runtime.Gosched()
	}
}
