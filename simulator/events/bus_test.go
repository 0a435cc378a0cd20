package events_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/clock"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// target is a real webhook receiver that fails while failing is set.
type target struct {
	mu      sync.Mutex
	failing bool
	got     []events.Envelope
	srv     *httptest.Server
}

func newTarget(t *testing.T) *target {
	tg := &target{}
	tg.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e events.Envelope
		json.NewDecoder(r.Body).Decode(&e)
		tg.mu.Lock()
		defer tg.mu.Unlock()
		tg.got = append(tg.got, e)
		if tg.failing {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(tg.srv.Close)
	return tg
}

func (tg *target) sequences() []int64 {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	var out []int64
	for _, e := range tg.got {
		out = append(out, e.Sequence)
	}
	return out
}

func newBus(t testing.TB, url string) (*events.Bus, *jobs.Scheduler) {
	t.Helper()
	return newGuardedBus(t, url, nil)
}

// newGuardedBus is a bus delivering to url through g (nil: the loopback
// default).
func newGuardedBus(t testing.TB, url string, g *events.Guard) (*events.Bus, *jobs.Scheduler) {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := clock.New(clock.Frozen, 0, start)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := jobs.New(db, clock.NewClocks(clk), log)
	b := &events.Bus{DB: db, Clocks: clock.NewClocks(clk), Jobs: s, Hub: events.NewHub(), Log: log, Timeout: 5 * time.Second, Guard: g,
		AppOf: func(ctx context.Context, tx *store.Tx, appID string) (events.App, error) {
			return events.App{CompanyID: "c1", WebhookURL: url, Secret: "whsec_test"}, nil
		}}
	b.Register()
	return b, s
}

func emit(t testing.TB, b *events.Bus, subject string) events.Envelope {
	t.Helper()
	var env events.Envelope
	err := b.DB.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		env, err = b.Emit(context.Background(), tx, events.Event{AppID: "app", CNPJ: "11222333000181", Type: "test.event", Name: "Test",
			Subject: map[string]any{"id": subject}, SubjectKey: subject})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestDeliveriesOfASubjectKeepTheirOrderAcrossRetries(t *testing.T) {
	ctx := context.Background()
	tg := newTarget(t)
	b, s := newBus(t, tg.srv.URL)
	tg.failing = true
	emit(t, b, "A") // seq 1
	emit(t, b, "B") // seq 2: another subject, not held back
	emit(t, b, "A") // seq 3: waits behind seq 1
	if _, err := s.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tg.sequences(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("first round delivered %v, want [1 2] (3 queued behind 1)", got)
	}
	tg.mu.Lock()
	tg.failing = false
	tg.mu.Unlock()
	if _, err := s.AdvanceTo(tenant.WithEveryCompany(ctx), start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got := tg.sequences()
	want := []int64{1, 2, 1, 2, 3}
	if len(got) != len(want) {
		t.Fatalf("delivered %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("delivered %v, want %v", got, want)
		}
	}
	ds, err := b.Deliveries(ctx, events.DeliveryFilter{EveryCompany: true, Status: "delivered"})
	if err != nil || len(ds) != 3 {
		t.Fatalf("delivered deliveries = %d, %v; want 3", len(ds), err)
	}
}

// oneFault disturbs the first delivery it is asked about, once.
type oneFault struct {
	mu   sync.Mutex
	f    *events.WebhookFault
	used bool
}

func (o *oneFault) Webhook(companyID, appID, eventType string) *events.WebhookFault {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.used {
		return nil
	}
	o.used = true
	return o.f
}

// An out-of-order fault holds its delivery back a minute, and what its
// subject emits meanwhile goes first: the events of one proposal arrive
// out of order, as a delivery retried late does in production. Nothing
// queues behind the held one, and it is delivered after the others.
func TestOutOfOrderHoldsADeliveryBehindTheNextOfItsSubject(t *testing.T) {
	ctx := context.Background()
	tg := newTarget(t)
	b, s := newBus(t, tg.srv.URL)
	b.Faults = &oneFault{f: &events.WebhookFault{Name: "webhook-fora-de-ordem", OutOfOrder: true}}
	emit(t, b, "A") // seq 1: held
	if _, err := s.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	emit(t, b, "A") // seq 2: not queued behind the held one
	emit(t, b, "A") // seq 3: behind seq 2, in order
	if _, err := s.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tg.sequences(); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Fatalf("before the hold ends, delivered %v, want [2 3]", got)
	}
	held, err := b.Deliveries(ctx, events.DeliveryFilter{EveryCompany: true, Status: "held"})
	if err != nil || len(held) != 1 || held[0].EventSeq != 1 || held[0].NextAt == nil {
		t.Fatalf("held deliveries: %+v, %v; want seq 1 with its next attempt", held, err)
	}
	if _, err := s.AdvanceTo(tenant.WithEveryCompany(ctx), start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := tg.sequences(); len(got) != 3 || got[2] != 1 {
		t.Fatalf("delivered %v, want [2 3 1]", got)
	}
	if ds, _ := b.Deliveries(ctx, events.DeliveryFilter{EveryCompany: true, Status: "delivered"}); len(ds) != 3 {
		t.Fatalf("delivered deliveries = %d, want 3", len(ds))
	}
}

func TestSignatureUsesWallClockNotSandboxTime(t *testing.T) {
	var header string
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		header = r.Header.Get(events.SignatureHeader)
		body, _ = io.ReadAll(r.Body)
	}))
	defer srv.Close()
	b, s := newBus(t, srv.URL)
	b.Clocks.Default.Advance(365 * 24 * time.Hour) // a sandbox a year ahead
	emit(t, b, "A")
	if _, err := s.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := events.Verify(header, "whsec_test", body, time.Now(), 5*time.Minute); err != nil {
		t.Fatalf("a careful receiver refuses the signature: %v", err)
	}
	var e events.Envelope
	json.Unmarshal(body, &e)
	if !e.OccurredAt.Equal(start.Add(365 * 24 * time.Hour)) {
		t.Fatalf("occurredAt = %v, want sandbox time", e.OccurredAt)
	}
}

func TestStreamDropsASlowConsumerWithoutBlockingWriters(t *testing.T) {
	b, _ := newBus(t, "")
	stream := &events.Stream{Bus: b, Buffer: 4, Authenticate: func(r *http.Request) (events.Filter, error) {
		return events.Filter{Every: true, CNPJ: "11222333000181"}, nil
	}}
	conn := dial(t, stream)
	for b.Hub.Len() == 0 {
		time.Sleep(time.Millisecond)
	}
	// The client reads nothing while many events are written: emitting
	// must not block, and the stream must end with a close frame.
	done := make(chan struct{})
	go func() {
		for i := 0; i < 5000; i++ {
			emit(t, b, "A")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("writers blocked on a slow websocket consumer")
	}
	var closeErr *websocket.CloseError
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			if ce, ok := err.(*websocket.CloseError); ok {
				closeErr = ce
			}
			break
		}
	}
	if closeErr == nil || closeErr.Code != events.CloseSlowConsumer || !strings.Contains(closeErr.Text, "slow consumer") {
		t.Fatalf("stream ended with %v, want close %d slow consumer", closeErr, events.CloseSlowConsumer)
	}
}

func TestStreamPingsAndDropsASilentPeer(t *testing.T) {
	b, _ := newBus(t, "")
	stream := &events.Stream{Bus: b, PingEvery: 20 * time.Millisecond, PongWait: 60 * time.Millisecond,
		Authenticate: func(r *http.Request) (events.Filter, error) { return events.Filter{Every: true}, nil }}
	conn := dial(t, stream)
	pings := make(chan struct{}, 10)
	// Answering no pong: the default handler would answer, so replace it.
	conn.SetPingHandler(func(string) error { pings <- struct{}{}; return nil })
	go func() {
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	select {
	case <-pings:
	case <-time.After(2 * time.Second):
		t.Fatal("no ping from the server")
	}
	deadline := time.Now().Add(3 * time.Second)
	for b.Hub.Len() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("a peer that never answers pings is still subscribed")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// dial serves stream on a loopback port and connects a websocket client.
func dial(t *testing.T, stream *events.Stream) *websocket.Conn {
	t.Helper()
	srv := httptest.NewServer(stream)
	t.Cleanup(srv.Close)
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// One company holds at most MaxStreamsPerCompany streams at once (one
// token opened 3,000 and ran the sandbox out of file descriptors); the
// next is a 429 saying why, another company's opens all the same, and a
// stream closed gives its place back.
func TestStreamsPerCompanyAreBounded(t *testing.T) {
	b, _ := newBus(t, "")
	stream := &events.Stream{Bus: b, Authenticate: func(r *http.Request) (events.Filter, error) {
		return events.Filter{CompanyID: r.URL.Query().Get("company")}, nil
	}}
	srv := httptest.NewServer(stream)
	t.Cleanup(srv.Close)
	open := func(company string) (*websocket.Conn, *http.Response, error) {
		return websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"?company="+company, nil)
	}
	var conns []*websocket.Conn
	for i := range events.MaxStreamsPerCompany {
		c, _, err := open("a")
		if err != nil {
			t.Fatalf("stream %d: %v", i+1, err)
		}
		conns = append(conns, c)
	}
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	if _, resp, err := open("a"); err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("stream %d of one company: %v %v, want a 429", events.MaxStreamsPerCompany+1, resp, err)
	}
	other, _, err := open("b")
	if err != nil {
		t.Fatalf("another company's stream: %v", err)
	}
	other.Close()
	conns[0].Close()
	deadline := time.Now().Add(3 * time.Second)
	for {
		c, _, err := open("a")
		if err == nil {
			conns[0] = c
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream's place was not given back: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
