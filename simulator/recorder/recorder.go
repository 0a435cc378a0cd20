package recorder

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/jsondoc"
	"homologa/simulator/redact"
	"homologa/simulator/store"
)

// Interaction is one recorded request and its response.
type Interaction struct {
	ID int64     `json:"id"`
	At time.Time `json:"at"`
	// WallAt is when the request arrived by the wall clock: the sandbox
	// clock may be frozen or accelerated, a partner's pauses are real.
	WallAt    time.Time `json:"wallAt"`
	RequestID string    `json:"requestId"`
	AppID     string    `json:"appId"`
	CompanyID string    `json:"-"`
	API       string    `json:"api"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	// SentPath is the path as the partner sent it when the router knew
	// it by another (an alias of an insurer API, another case); Path is
	// the router's.
	SentPath       string            `json:"sentPath,omitempty"`
	Query          string            `json:"query"`
	RequestHeaders map[string]string `json:"requestHeaders"`
	RequestBody    string            `json:"requestBody"`
	Status         int               `json:"status"`
	ResponseHeader map[string]string `json:"responseHeaders"`
	ResponseBody   string            `json:"responseBody"`
	DurationMS     float64           `json:"durationMs"`
	IdempotencyKey string            `json:"idempotencyKey,omitempty"`
	Injected       string            `json:"injected,omitempty"`
	// Truncated names the bodies kept cut at the log's bound
	// (BodyLimit), with the size each had: {"requestBody": 921600}.
	Truncated map[string]int `json:"truncated,omitempty"`
	// Findings are what the sandbox accepted of the request beyond the
	// specification, as production does (httpx.Tolerate): works here
	// and in production, but is not in the specification.
	Findings []httpx.Finding `json:"findings,omitempty"`
}

// Recorder records interactions.
type Recorder struct {
	// DB is the log's database.
	DB     *store.DB
	Clocks *clock.Clocks
	Log    *slog.Logger
	// BodyLimit is how much of each body is kept (--quota-log-body); a
	// longer one is kept cut, and marked (Truncated).
	BodyLimit int
	// Keep is the most requests a company's log holds
	// (--retention-log); 0 keeps every one. The writer keeps it as it
	// writes (capAt).
	Keep int
	// MaxBytes is the most a company's log holds, whatever Keep
	// (--quota-log-bytes); 0 is DefaultMaxBytes. The newest request
	// stays, however large.
	MaxBytes int
	// Full, when set, says the sandbox's stores are past their budget:
	// nothing new is recorded meanwhile (counted as dropped).
	Full func() bool

	ch      chan *Interaction
	flush   chan chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	dropped atomic.Int64
	once    sync.Once

	// tallies is how many requests, and how many bytes, each company's
	// log holds, known to the writer; a company missing is counted
	// again. Read and changed only inside a transaction of the log's
	// database, whose one connection orders them, so a tally is never
	// read stale.
	talliesMu sync.Mutex
	tallies   map[string]tally
}

// DefaultMaxBytes is the most a company's log holds by default, whatever
// its cap in requests: the cap counts requests, and a request's bodies
// are recorded up to 64 KiB each, so 50,000 large requests would be ~6 GB
// of a hosted sandbox's memory or disk. Typical requests (~2 KB) reach
// the cap of 50,000 at ~100 MB, well under it.
const DefaultMaxBytes = 256 << 20

// tally is what a company's log holds: requests, and their size
// (rowSize).
type tally struct{ n, bytes int }

// Start starts the writer goroutine.
func (r *Recorder) Start() {
	if r.BodyLimit <= 0 {
		r.BodyLimit = 64 << 10
	}
	// Pointers: a buffer of interactions by value would be megabytes of
	// an idle sandbox's memory.
	r.ch = make(chan *Interaction, 4096)
	r.flush = make(chan chan struct{})
	r.stop = make(chan struct{})
	r.stopped = make(chan struct{})
	go r.loop()
}

// Close writes what is pending and stops the writer.
func (r *Recorder) Close() {
	r.once.Do(func() {
		close(r.stop)
		<-r.stopped
	})
}

// Flush returns once every interaction recorded before the call is in the
// database, so a reader sees the request it just made.
func (r *Recorder) Flush() {
	done := make(chan struct{})
	select {
	case r.flush <- done:
		<-done
	case <-r.stopped:
	}
}

// Dropped is how many interactions were lost because the writer fell behind.
func (r *Recorder) Dropped() int64 { return r.dropped.Load() }

func (r *Recorder) loop() {
	defer close(r.stopped)
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	var batch []Interaction
	write := func() {
		if len(batch) > 0 {
			if err := r.write(batch); err != nil {
				r.Log.Error("write interactions", "n", len(batch), "err", err)
			}
			batch = batch[:0]
		}
	}
	drain := func() {
		for {
			select {
			case it := <-r.ch:
				batch = append(batch, *it)
			default:
				return
			}
		}
	}
	for {
		select {
		case it := <-r.ch:
			batch = append(batch, *it)
			if len(batch) >= writeChunk {
				write()
			}
		case <-t.C:
			write()
		case done := <-r.flush:
			drain()
			write()
			close(done)
		case <-r.stop:
			drain()
			write()
			return
		}
	}
}

func (r *Recorder) write(batch []Interaction) error {
	type row struct{ reqHeaders, respHeaders, findings []byte }
	rows := make([]row, len(batch))
	for i, it := range batch { // outside the transaction: it holds the database
		rows[i].reqHeaders, _ = jsondoc.Marshal(it.RequestHeaders)
		rows[i].respHeaders, _ = jsondoc.Marshal(it.ResponseHeader)
		if len(it.Findings) > 0 {
			rows[i].findings, _ = json.Marshal(it.Findings)
		}
	}
	ctx := context.Background()
	// A transaction per writeChunk rows: a long one is a long stretch
	// inside SQLite, and a sandbox on one core (GOMAXPROCS=1) gets its
	// processor back from such a call only when the runtime's monitor
	// notices it; short ones leave the requests their turns.
	for len(batch) > 0 {
		n := min(len(batch), writeChunk)
		inserted := map[string]tally{}
		err := r.DB.Tx(ctx, func(tx *store.Tx) error {
			stmt, err := tx.PrepareContext(ctx, `INSERT INTO interactions (at, request_id, app_id, api, method, path, query, req_headers, req_body,
			status, resp_headers, resp_body, duration_us, idempotency_key, injected, wall_at, company_id, sent_path, findings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer stmt.Close()
			for i, it := range batch[:n] {
				t := inserted[it.CompanyID]
				t.n++
				t.bytes += len(it.RequestBody) + len(it.ResponseBody) + len(rows[i].reqHeaders) + len(rows[i].respHeaders)
				inserted[it.CompanyID] = t
				_, err := stmt.ExecContext(ctx, it.At.UnixNano(), it.RequestID, it.AppID, it.API, it.Method, it.Path, it.Query, string(rows[i].reqHeaders), it.RequestBody,
					it.Status, string(rows[i].respHeaders), it.ResponseBody, int64(it.DurationMS*1000), it.IdempotencyKey, it.Injected, it.WallAt.UnixNano(), it.CompanyID, it.SentPath,
					string(rows[i].findings))
				if err != nil {
					return err
				}
			}
			return r.capAt(ctx, tx, inserted)
		})
		if err != nil {
			for company := range inserted { // counted what rolled back
				r.forget(company)
			}
			return err
		}
		batch, rows = batch[n:], rows[n:]
	}
	return nil
}

// rowSize is the size of a recorded request as capAt counts it, its
// bodies and headers (what a request can make large), in SQL.
const rowSize = `length(CAST(req_body AS BLOB)) + length(CAST(resp_body AS BLOB)) + length(CAST(req_headers AS BLOB)) + length(CAST(resp_headers AS BLOB))`

// capAt deletes, in the transaction that wrote them, as many of each
// company's oldest requests as it has beyond Keep, and beyond MaxBytes.
// Left to the pruner's small, spaced batches, a log past its cap falls
// behind a steady load and grows, each new page a fault, and GETs queue
// behind each batch; here the log stays at its cap. At most twice what
// the batch wrote goes for the cap in requests, so a log far over a cap
// lowered since the last start shrinks over a few batches, not in one
// long statement (the pruner's batches do the rest).
func (r *Recorder) capAt(ctx context.Context, tx *store.Tx, inserted map[string]tally) error {
	r.talliesMu.Lock()
	defer r.talliesMu.Unlock()
	if r.tallies == nil {
		r.tallies = map[string]tally{}
	}
	for company, in := range inserted {
		t, ok := r.tallies[company]
		if !ok {
			if err := tx.QueryRowContext(ctx, `SELECT count(*), COALESCE(SUM(`+rowSize+`), 0) FROM interactions WHERE company_id = ?`, company).
				Scan(&t.n, &t.bytes); err != nil {
				return fmt.Errorf("count a company's interactions: %w", err)
			}
		} else {
			t.n, t.bytes = t.n+in.n, t.bytes+in.bytes
		}
		over := 0
		if r.Keep > 0 {
			over = max(min(t.n-r.Keep, 2*in.n), 0)
		}
		var err error
		if over > 0 || t.bytes > r.maxBytes() {
			t, err = r.trim(ctx, tx, company, t, over)
		}
		if err != nil {
			return err
		}
		r.tallies[company] = t
	}
	return nil
}

func (r *Recorder) maxBytes() int {
	if r.MaxBytes > 0 {
		return r.MaxBytes
	}
	return DefaultMaxBytes
}

// trim deletes a company's oldest requests: at least over of them, and
// as many more as its log needs to fit in MaxBytes, never its newest.
func (r *Recorder) trim(ctx context.Context, tx *store.Tx, company string, t tally, over int) (tally, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, `+rowSize+` FROM interactions WHERE company_id = ? ORDER BY id LIMIT ?`, company, t.n-1)
	if err != nil {
		return t, fmt.Errorf("read the oldest interactions: %w", err)
	}
	var last int64
	n, freed := 0, 0
	for rows.Next() && (n < over || t.bytes-freed > r.maxBytes()) {
		var id int64
		var size int
		if err := rows.Scan(&id, &size); err != nil {
			rows.Close()
			return t, err
		}
		last, n, freed = id, n+1, freed+size
	}
	rows.Close()
	if err := rows.Err(); err != nil || n == 0 {
		return t, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE company_id = ? AND id <= ?`, company, last); err != nil {
		return t, fmt.Errorf("delete interactions beyond the cap: %w", err)
	}
	return tally{n: t.n - n, bytes: t.bytes - freed}, nil
}

// forget makes the writer count a company's requests again: something
// else deleted some. Called inside the transaction that deleted them.
func (r *Recorder) forget(company string) {
	r.talliesMu.Lock()
	delete(r.tallies, company)
	r.talliesMu.Unlock()
}

// writeChunk is how many interactions one transaction writes.
const writeChunk = 32

// Middleware records every request of the APIs marked Record.
func (r *Recorder) Middleware(apis []httpx.API, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !httpx.APIFor(apis, req.URL.Path).Record {
			next.ServeHTTP(w, req)
			return
		}
		start := time.Now()
		at := r.Clocks.Default.Now()
		var reqBody bytes.Buffer
		if req.Body != nil {
			req.Body = &teeBody{ReadCloser: req.Body, buf: &reqBody, limit: r.BodyLimit}
		}
		cw := &httpx.Capture{ResponseWriter: w, Limit: r.BodyLimit}
		next.ServeHTTP(cw, req)
		info := httpx.InfoOf(req.Context())
		if !info.At.IsZero() {
			at = info.At
		}
		it := Interaction{
			At: at, WallAt: start.UTC(), RequestID: info.RequestID, AppID: info.AppID, CompanyID: info.CompanyID, API: info.API, Method: req.Method, Path: req.URL.Path, SentPath: info.SentPath,
			Query: redact.Query(req.URL.RawQuery), RequestHeaders: redact.Headers(req.Header), RequestBody: redact.Body(req.Header.Get("Content-Type"), reqBody.Bytes()),
			Status: cw.Status, ResponseHeader: redact.Headers(w.Header()), ResponseBody: redact.Body(w.Header().Get("Content-Type"), cw.Body.Bytes()),
			DurationMS: float64(time.Since(start).Microseconds()) / 1000, IdempotencyKey: req.Header.Get("Idempotency-Key"),
			Injected: info.Injected, Findings: info.Findings,
		}
		if tb, ok := req.Body.(*teeBody); ok && tb.total > reqBody.Len() {
			it.RequestBody = markTruncated(it.RequestBody, tb.total)
		}
		if cw.Total > cw.Body.Len() {
			it.ResponseBody = markTruncated(it.ResponseBody, cw.Total)
		}
		if it.Status == 0 && it.Injected == "" { // an injected reset answers nothing: 0 stays
			it.Status = http.StatusOK
		}
		r.record(&it)
		if it.Injected != "" {
			// What the fault still has to do (close the connection) waits
			// until the record is safely written, so a client that sees
			// the reset finds it in the log.
			r.Flush()
		}
		info.RunFinally()
	})
}

// record hands it to the writer; counted as dropped when the writer
// fell behind.
func (r *Recorder) record(it *Interaction) {
	if r.Full != nil && r.Full() {
		r.dropped.Add(1)
		return
	}
	select {
	case r.ch <- it:
	default:
		r.dropped.Add(1)
	}
}

type teeBody struct {
	io.ReadCloser
	buf   *bytes.Buffer
	limit int
	total int // every byte read, kept or not
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.total += n
	if room := t.limit - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(n, room)])
	}
	return n, err
}

// A body kept cut ends with a mark saying so and what it was, which the
// log stores with it (as its text: the log keeps no other column for it)
// and List takes off again, into Truncated.
var truncation = regexp.MustCompile(`\n\[homologa: corpo truncado, ([0-9]+) bytes recebidos\]$`)

// markTruncated ends a body kept cut with the mark of its full size.
func markTruncated(body string, size int) string {
	return body + "\n[homologa: corpo truncado, " + strconv.Itoa(size) + " bytes recebidos]"
}

// unmark takes the truncation marks off a listed request's bodies.
func unmark(it *Interaction) {
	for name, body := range map[string]*string{"requestBody": &it.RequestBody, "responseBody": &it.ResponseBody} {
		m := truncation.FindStringSubmatchIndex(*body)
		if m == nil {
			continue
		}
		size, _ := strconv.Atoi((*body)[m[2]:m[3]])
		*body = (*body)[:m[0]]
		if it.Truncated == nil {
			it.Truncated = map[string]int{}
		}
		it.Truncated[name] = size
	}
}

// Filter selects interactions.
type Filter struct {
	// CompanyID limits the list to one company's requests; EveryCompany
	// (the operator's view) lists every company's.
	CompanyID    string
	EveryCompany bool
	AppID        string
	Method       string
	// Path is an exact path, or a prefix when it ends in "*".
	Path    string
	Since   time.Time
	AfterID int64
	Limit   int
}

// List returns interactions, oldest first.
func (r *Recorder) List(ctx context.Context, f Filter) ([]Interaction, error) {
	r.Flush()
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	path, prefix := strings.CutSuffix(f.Path, "*")
	var since int64
	if !f.Since.IsZero() {
		since = f.Since.UnixNano()
	}
	out := []Interaction{}
	err := r.DB.Read(ctx, func(tx *store.Tx) error {
		// The newest page by default: a client polling for what it just
		// did reads the tail; AfterID pages forward from an older point.
		// Only the terms set: a company's page then walks its own rows
		// (interactions_company), not every company's newest first.
		where, args := `at >= ? AND id > ?`, []any{since, f.AfterID}
		term := func(sql string, v ...any) { where, args = where+` AND `+sql, append(args, v...) }
		if !f.EveryCompany {
			term(`company_id = ?`, f.CompanyID)
		}
		if f.AppID != "" {
			term(`app_id = ?`, f.AppID)
		}
		if f.Method != "" {
			term(`method = ?`, strings.ToUpper(f.Method))
		}
		switch {
		case prefix && path != "":
			term(`substr(path, 1, length(?)) = ?`, path, path)
		case path != "":
			term(`path = ?`, path)
		}
		rows, err := tx.QueryContext(ctx, `SELECT * FROM (SELECT id, at, request_id, app_id, api, method, path, query, req_headers, req_body, status,
			resp_headers, resp_body, duration_us, idempotency_key, injected, wall_at, sent_path, findings FROM interactions
			WHERE `+where+` ORDER BY id `+map[bool]string{true: "ASC", false: "DESC"}[f.AfterID > 0]+` LIMIT ?) ORDER BY id`, append(args, f.Limit)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var it Interaction
			var at, dur, wall int64
			var rh, sh, findings string
			if err := rows.Scan(&it.ID, &at, &it.RequestID, &it.AppID, &it.API, &it.Method, &it.Path, &it.Query, &rh, &it.RequestBody, &it.Status,
				&sh, &it.ResponseBody, &dur, &it.IdempotencyKey, &it.Injected, &wall, &it.SentPath, &findings); err != nil {
				return err
			}
			if findings != "" {
				json.Unmarshal([]byte(findings), &it.Findings)
			}
			it.At, it.WallAt, it.DurationMS = time.Unix(0, at).UTC(), time.Unix(0, wall).UTC(), float64(dur)/1000
			json.Unmarshal([]byte(rh), &it.RequestHeaders)
			json.Unmarshal([]byte(sh), &it.ResponseHeader)
			unmark(&it)
			out = append(out, it)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list interactions: %w", err)
	}
	return out, nil
}

// ResetCompany deletes a company's interactions (a reset of its sandbox).
func (r *Recorder) ResetCompany(ctx context.Context, companyID string) error {
	r.Flush()
	return r.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE company_id = ?`, companyID)
		r.forget(companyID)
		return err
	})
}
