package recorder_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/recorder"
	"homologa/simulator/store"
)

var apis = []httpx.API{{Prefix: "/pix/v2", Name: "pix", Record: true}, {Prefix: "/sandbox", Name: "sandbox"}}

// logs are the two places a log lives: memory (an in-memory sandbox's)
// and a database of its own (a sandbox on a file); every test of the
// log runs on both (eachLog).
var logs = []string{"memory", "database"}

func eachLog(t *testing.T, test func(t *testing.T, log string)) {
	for _, log := range logs {
		t.Run(log, func(t *testing.T) { test(t, log) })
	}
}

func newRecorder(t *testing.T, log string) (*recorder.Recorder, http.Handler) {
	t.Helper()
	return newRecorderKeeping(t, log, 0)
}

// newRecorderKeeping records in log with a cap of keep requests a company
// (0: none).
func newRecorderKeeping(t *testing.T, log string, keep int) (*recorder.Recorder, http.Handler) {
	t.Helper()
	var db *store.DB
	if log == "database" {
		var err error
		if db, err = store.Open(context.Background(), ""); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	}
	rec := &recorder.Recorder{DB: db, Clocks: clock.NewClocks(clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))),
		Log: slog.New(slog.DiscardHandler), Keep: keep}
	rec.Start()
	t.Cleanup(rec.Close)
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		httpx.InfoOf(r.Context()).AppID = "app-1"
		httpx.InfoOf(r.Context()).CompanyID = r.Header.Get("X-Test-Company")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		io.WriteString(w, `{"txid":"abc","access_token":"tok-123"}`)
	})
	return rec, httpx.Outer(apis, 0, nil, rec.Middleware(apis, app))
}

func send(h http.Handler, method, path, body string, hdr map[string]string) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	h.ServeHTTP(httptest.NewRecorder(), r)
}

func TestRecordsPartnerRequestsWithSecretsRedacted(t *testing.T) {
	eachLog(t, func(t *testing.T, log string) {
		rec, h := newRecorder(t, log)
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
	})
}

// Secrets anywhere in a request, and in the answer, are redacted: a
// token in the query string, a cookie, a form's client secret, a CVV.
func TestSecretsAreRedactedEverywhere(t *testing.T) {
	eachLog(t, func(t *testing.T, log string) {
		rec, h := newRecorder(t, log)
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
	})
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// A card number a partner wrongly sends never reaches the log; numbers of
// other objects (a CNPJ, a proposal number) stay.
func TestCardNumbersAreRedacted(t *testing.T) {
	eachLog(t, func(t *testing.T, log string) {
		rec, h := newRecorder(t, log)
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
	})
}

// Each interaction carries the wall-clock instant beside the sandbox
// clock's: with the clock frozen, two requests 30 ms apart share At but
// not WallAt (the homologation suite measures a partner's backoff by it).
func TestWallClockBesideTheSandboxClock(t *testing.T) {
	eachLog(t, func(t *testing.T, log string) {
		rec, h := newRecorder(t, log)
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
	})
}

// The memory log answers every filter as the database log does: the same
// requests recorded by both (one middleware inside the other), the same
// pages listed, field for field but the timings each measured itself.
func TestMemoryLogAnswersAsTheDatabaseLog(t *testing.T) {
	ctx := context.Background()
	mem, _ := newRecorderKeeping(t, "memory", 6)
	db, _ := newRecorderKeeping(t, "database", 6)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		httpx.InfoOf(r.Context()).AppID = "app-" + r.Header.Get("X-Test-Company")
		httpx.InfoOf(r.Context()).CompanyID = r.Header.Get("X-Test-Company")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200 + len(r.URL.Path)%3)
		io.WriteString(w, `{"path":"`+r.URL.Path+`"}`)
	})
	h := httpx.Outer(apis, 0, nil, mem.Middleware(apis, db.Middleware(apis, app)))
	for i := range 30 {
		company := []string{"A", "B", "C"}[i%3]
		mem.Clocks.Default.Set(start.Add(time.Duration(i) * time.Hour))
		db.Clocks.Default.Set(start.Add(time.Duration(i) * time.Hour))
		method := []string{"GET", "PUT", "PATCH"}[i%4%3]
		send(h, method, fmt.Sprintf("/pix/v2/%s/%d?n=%d", []string{"cob", "loc"}[i%2], i, i), fmt.Sprintf(`{"i":%d}`, i),
			map[string]string{"X-Test-Company": company, "Content-Type": "application/json", "Idempotency-Key": fmt.Sprint(i % 5)})
	}
	for _, f := range []recorder.Filter{
		{CompanyID: "A"}, {CompanyID: "B", Limit: 2}, {EveryCompany: true}, {EveryCompany: true, Limit: 4},
		{EveryCompany: true, AfterID: 20, Limit: 3}, {CompanyID: "A", AfterID: 25}, {CompanyID: "C", Method: "get"},
		{EveryCompany: true, Path: "/pix/v2/loc/*"}, {EveryCompany: true, Path: "/pix/v2/cob/28"}, {EveryCompany: true, AppID: "app-B"},
		{EveryCompany: true, Since: start.Add(27 * time.Hour)}, {CompanyID: "nobody"},
	} {
		got, err := mem.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := db.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range [][]recorder.Interaction{got, want} {
			for i := range l {
				l[i].WallAt, l[i].DurationMS = time.Time{}, 0
			}
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("filter %+v:\nmemory   %s\ndatabase %s", f, g, w)
		}
		if len(want) == 0 && f.CompanyID != "nobody" {
			t.Errorf("filter %+v lists nothing: the test compares nothing", f)
		}
	}
}
