package recorder_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/recorder"
	"homologa/simulator/store"
)

var apis = []httpx.API{{Prefix: "/pix/v2", Name: "pix", Record: true}, {Prefix: "/sandbox", Name: "sandbox"}}

func newRecorder(t *testing.T) (*recorder.Recorder, http.Handler) {
	t.Helper()
	return newRecorderKeeping(t, 0)
}

// newRecorderKeeping records in a log of its own with a cap of keep
// requests a company (0: none).
func newRecorderKeeping(t *testing.T, keep int) (*recorder.Recorder, http.Handler) {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rec := &recorder.Recorder{DB: db, Clocks: clock.NewClocks(clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))),
		Log: slog.New(slog.DiscardHandler), Keep: keep}
	rec.Start()
	t.Cleanup(rec.Close)
	return rec, handlerFor(rec, 0)
}

// handlerFor is an API's handler behind rec, taking bodies up to
// bodyLimit (0: the default); the request's X-Test-Company header names
// its company.
func handlerFor(rec *recorder.Recorder, bodyLimit int64) http.Handler {
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		httpx.InfoOf(r.Context()).AppID = "app-1"
		httpx.InfoOf(r.Context()).CompanyID = r.Header.Get("X-Test-Company")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		io.WriteString(w, `{"txid":"abc","access_token":"tok-123"}`)
	})
	return httpx.Outer(apis, bodyLimit, nil, rec.Middleware(apis, app))
}

func send(h http.Handler, method, path, body string, hdr map[string]string) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	h.ServeHTTP(httptest.NewRecorder(), r)
}

func TestRecordsPartnerRequestsWithSecretsRedacted(t *testing.T) {
	rec, h := newRecorder(t)
	send(h, "PUT", "/pix/v2/cob/abc?x=1", `{"valor":{"original":"1.00"},"clientSecret":"s3cret"}`,
		map[string]string{"Authorization": "Bearer tok-123", "Content-Type": "application/json", "Idempotency-Key": "k1"})
	send(h, "GET", "/sandbox/clock", "", nil)
	list, err := rec.List(context.Background(), recorder.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("recorded %d interactions, want 1 (the control API is not recorded)", len(list))
	}
	it := list[0]
	if it.Method != "PUT" || it.Path != "/pix/v2/cob/abc" || it.Query != "x=1" || it.Status != 201 || it.AppID != "app-1" || it.API != "pix" || it.IdempotencyKey != "k1" {
		t.Fatalf("recorded %+v", it)
	}
	for _, s := range []string{it.RequestHeaders["Authorization"], it.RequestBody, it.ResponseBody} {
		if strings.Contains(s, "tok-123") || strings.Contains(s, "s3cret") {
			t.Fatalf("a secret reached the log: %q", s)
		}
	}
	if !strings.Contains(it.RequestBody, `"original":"1.00"`) || !strings.Contains(it.ResponseBody, `"txid":"abc"`) {
		t.Fatalf("bodies lost: %q %q", it.RequestBody, it.ResponseBody)
	}
	got, _ := rec.List(context.Background(), recorder.Filter{Path: "/pix/v2/*", Method: "put", AppID: "app-1"})
	none, _ := rec.List(context.Background(), recorder.Filter{Path: "/pix/v2/cob"})
	if len(got) != 1 || len(none) != 0 {
		t.Fatalf("filters: prefix %d (want 1), exact other path %d (want 0)", len(got), len(none))
	}
}

// Secrets anywhere in a request, and in the answer, are redacted: a
// token in the query string, a cookie, a form's client secret, a CVV.
func TestSecretsAreRedactedEverywhere(t *testing.T) {
	rec, h := newRecorder(t)
	send(h, "GET", "/pix/v2/cob?access_token=tok-q&inicio=2026-01-01", "", map[string]string{"Cookie": "session=tok-cookie"})
	send(h, "POST", "/pix/v2/form", "client_id=a&client_secret=tok-form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	send(h, "POST", "/pix/v2/card", `{"cartao":{"cvv":"987"}}`, map[string]string{"Content-Type": "application/json"})
	list, err := rec.List(context.Background(), recorder.Filter{})
	if err != nil || len(list) != 3 {
		t.Fatal(err, len(list))
	}
	for _, it := range list {
		// Not what the sandbox made: a CVV's digits may be a timestamp's,
		// a duration's or a random request id's ("…a31332f49668b873987…").
		it.At, it.WallAt, it.DurationMS, it.RequestID = time.Time{}, time.Time{}, 0, ""
		delete(it.ResponseHeader, "X-Request-Id")
		all := fmt.Sprint(it)
		for _, secret := range []string{"tok-", "987"} {
			if strings.Contains(all, secret) {
				t.Errorf("%s of %s reached the log: %s", secret, it.Path, all)
			}
		}
	}
	if q := list[0].Query; q != "access_token=[redacted]&inicio=2026-01-01" {
		t.Errorf("query recorded as %q", q)
	}
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// A card number a partner wrongly sends never reaches the log; numbers of
// other objects (a CNPJ, a proposal number) stay.
func TestCardNumbersAreRedacted(t *testing.T) {
	rec, h := newRecorder(t)
	send(h, "POST", "/pix/v2/x", `{"PROPOSTA":{"NUMERO":"11222333000181","DADOS_COBRANCA":{"NUMERO_CARTAO":"4012888888881881","CARTAO":{"NUMERO":"4111 1111 1111 1111","OUTRO":[5555555555554444],"VALIDADE":"2030-12"}}}}`,
		map[string]string{"Content-Type": "application/json"})
	list, err := rec.List(context.Background(), recorder.Filter{})
	if err != nil || len(list) != 1 {
		t.Fatal(err, len(list))
	}
	body := list[0].RequestBody
	if strings.Contains(body, "4111") || strings.Contains(body, "5555555555554444") || strings.Contains(body, "4012888888881881") {
		t.Fatalf("a card number reached the log: %s", body)
	}
	if !strings.Contains(body, `"NUMERO":"11222333000181"`) || !strings.Contains(body, `"VALIDADE":"2030-12"`) {
		t.Fatalf("the rest of the body was lost: %s", body)
	}
}

// Each interaction carries the wall-clock instant beside the sandbox
// clock's: with the clock frozen, two requests 30 ms apart share At but
// not WallAt (the homologation suite measures a partner's backoff by it).
func TestWallClockBesideTheSandboxClock(t *testing.T) {
	rec, h := newRecorder(t)
	send(h, "PUT", "/pix/v2/cob/a", `{}`, map[string]string{"Content-Type": "application/json"})
	time.Sleep(30 * time.Millisecond)
	send(h, "PUT", "/pix/v2/cob/b", `{}`, map[string]string{"Content-Type": "application/json"})
	var list []recorder.Interaction
	deadline := time.Now().Add(5 * time.Second)
	for len(list) < 2 && time.Now().Before(deadline) {
		list, _ = rec.List(context.Background(), recorder.Filter{})
		time.Sleep(10 * time.Millisecond)
	}
	if len(list) != 2 {
		t.Fatalf("recorded %d interactions", len(list))
	}
	if !list[0].At.Equal(list[1].At) {
		t.Errorf("sandbox times %s, %s: the clock is frozen", list[0].At, list[1].At)
	}
	if gap := list[1].WallAt.Sub(list[0].WallAt); gap < 30*time.Millisecond {
		t.Errorf("wall times %s apart, want at least 30ms", gap)
	}
}

// paths lists the paths of a company's recorded requests, oldest first.
func paths(t *testing.T, rec *recorder.Recorder, f recorder.Filter) []string {
	t.Helper()
	list, err := rec.List(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range list {
		out = append(out, it.Path)
	}
	return out
}

// A company's log holds at most MaxBytes whatever its cap in requests:
// large requests push out its oldest (never its newest, however large),
// and another company's stay.
func TestWriterBoundsACompanyInBytes(t *testing.T) {
	ctx := context.Background()
	rec, _ := newRecorderKeeping(t, 50_000)
	rec.BodyLimit, rec.MaxBytes = 8<<20, 4<<20
	h := handlerFor(rec, 8<<20)
	send(h, "PUT", "/pix/v2/b/0", "small", map[string]string{"X-Test-Company": "B"})
	big := strings.Repeat("b", 1<<20)
	for i := range 40 {
		send(h, "PUT", fmt.Sprintf("/pix/v2/a/%d", i), big, map[string]string{"X-Test-Company": "A"})
	}
	list, err := rec.List(ctx, recorder.Filter{CompanyID: "A", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[2].Path != "/pix/v2/a/39" || list[2].RequestBody != big {
		t.Errorf("company A keeps %v (want its newest 3, under 4 MiB)", paths(t, rec, recorder.Filter{CompanyID: "A", Limit: 1000}))
	}
	huge := strings.Repeat("h", 5<<20) // larger than the bound alone: kept, the newest
	send(h, "PUT", "/pix/v2/a/40", huge, map[string]string{"X-Test-Company": "A"})
	if list, err := rec.List(ctx, recorder.Filter{CompanyID: "A", Limit: 1000}); err != nil || len(list) != 1 || list[0].RequestBody != huge {
		t.Errorf("after one request larger than the bound, company A keeps %d (%v)", len(list), err)
	}
	if got := paths(t, rec, recorder.Filter{CompanyID: "B", Limit: 1000}); len(got) != 1 {
		t.Errorf("company B keeps %v, want its 1", got)
	}
}

// Requests recorded from many goroutines while another lists: each
// company keeps exactly its newest cap, ids strictly rising, every
// record whole (run under -race by make test).
func TestWriterUnderConcurrentRequests(t *testing.T) {
	ctx := context.Background()
	const writers, each, keep = 8, 150, 50
	rec, h := newRecorderKeeping(t, keep)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	listed := make(chan struct{})
	go func() { // a reader throughout
		defer close(listed)
		for {
			select {
			case <-stop:
				return
			default:
				rec.List(ctx, recorder.Filter{EveryCompany: true, Limit: 1000})
			}
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				company := []string{"A", "B", "C"}[(w+i)%3]
				send(h, "PUT", fmt.Sprintf("/pix/v2/%d/%d", w, i), fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)+strings.Repeat(" ", i*7),
					map[string]string{"X-Test-Company": company})
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-listed
	for _, company := range []string{"A", "B", "C"} {
		list, err := rec.List(ctx, recorder.Filter{CompanyID: company, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != keep {
			t.Errorf("company %s keeps %d, want %d", company, len(list), keep)
		}
		for i, it := range list {
			if i > 0 && it.ID <= list[i-1].ID {
				t.Errorf("company %s: id %d after %d", company, it.ID, list[i-1].ID)
			}
			if it.AppID != "app-1" || !strings.HasPrefix(it.RequestBody, `{"w":`) || !strings.Contains(it.ResponseBody, `"txid":"abc"`) {
				t.Errorf("company %s: record %d came back as %s %s: %.40q → %.40q", company, it.ID, it.AppID, it.Path, it.RequestBody, it.ResponseBody)
			}
		}
	}
	if all, err := rec.List(ctx, recorder.Filter{EveryCompany: true, Limit: 1000}); err != nil || len(all) != 3*keep {
		t.Errorf("every company: %d records (%v), want %d", len(all), err, 3*keep)
	}
	if n := rec.Dropped(); n != 0 {
		t.Errorf("%d requests dropped", n)
	}
}

// A reset forgets the reset company's requests, whatever their size, and
// no other company's; a large request is listed whole.
func TestResetCompanyForgetsItsRequestsOnly(t *testing.T) {
	ctx := context.Background()
	rec, _ := newRecorder(t)
	rec.BodyLimit = 4 << 20
	h := handlerFor(rec, 4<<20)
	body := strings.Repeat("y", 64<<10)
	for i := range 100 {
		send(h, "PUT", fmt.Sprintf("/pix/v2/a/%d", i), body, map[string]string{"X-Test-Company": "A"})
	}
	big := strings.Repeat("z", 3<<20)
	send(h, "PUT", "/pix/v2/b/0", big, map[string]string{"X-Test-Company": "B"})
	if err := rec.ResetCompany(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if got := paths(t, rec, recorder.Filter{CompanyID: "A"}); len(got) != 0 {
		t.Errorf("company A still lists %d requests", len(got))
	}
	if list, err := rec.List(ctx, recorder.Filter{CompanyID: "B"}); err != nil || len(list) != 1 || list[0].RequestBody != big {
		t.Errorf("company B's large request listed %d times, whole: %v (%v)", len(list), len(list) == 1 && list[0].RequestBody == big, err)
	}
	if err := rec.ResetCompany(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	send(h, "PUT", "/pix/v2/c/0", "after", map[string]string{"X-Test-Company": "C"})
	if got := paths(t, rec, recorder.Filter{EveryCompany: true}); fmt.Sprint(got) != "[/pix/v2/c/0]" {
		t.Errorf("after both resets the log lists %v", got)
	}
}
