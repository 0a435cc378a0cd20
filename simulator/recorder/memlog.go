package recorder

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"homologa/simulator/retention"
)

// memLog is the interaction log of an in-memory sandbox, whose database
// dies with the process anyway: each company's requests, oldest first,
// each encoded in a byte slice of its own (encodeRecord). A record holds
// no pointer, so the collector never looks inside one, and a company's
// index of records is one slice. A record is written by the request that
// made it, under one lock; a reader copies out what it lists.
type memLog struct {
	mu     sync.Mutex
	lastID int64
	logs   map[string]*companyLog
	closed bool
	// maxBytes bounds each company's records (companyBytes).
	maxBytes int
}

// companyBytes is the most a company's log holds in memory, whatever its
// cap in requests: the cap counts requests, and a request's bodies are
// recorded up to 64 KiB each, so 50,000 large requests would be ~6 GB of
// a hosted sandbox's memory. Typical requests (~2 KB) reach the cap of
// 50,000 at ~100 MB, well under it.
const companyBytes = 256 << 20

type companyLog struct {
	rows  []logRow // oldest first; rows[head:] are kept
	head  int
	bytes int // the kept records' size
}

// logRow is one recorded request: its id and sandbox time, which lists
// filter on, and the rest encoded.
type logRow struct {
	id, at int64
	rec    []byte
}

func newMemLog() *memLog { return &memLog{logs: map[string]*companyLog{}, maxBytes: companyBytes} }

// add records it and keeps the company's newest keep (0: all); false
// once the log is closed.
func (m *memLog) add(it *Interaction, keep int) bool {
	rec := make([]byte, recordSize(it))
	encodeRecord(rec, it)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	cl := m.logs[it.CompanyID]
	if cl == nil {
		cl = &companyLog{}
		m.logs[it.CompanyID] = cl
	}
	m.lastID++
	it.ID = m.lastID
	cl.rows = append(cl.rows, logRow{id: it.ID, at: it.At.UnixNano(), rec: rec})
	cl.bytes += len(rec)
	over := 0
	if keep > 0 && cl.len() > keep {
		over = cl.len() - keep
	}
	rows := cl.kept()
	for bytes := cl.bytes - sizeOf(rows[:over]); bytes > m.maxBytes && over < len(rows)-1; over++ { // the newest stays
		bytes -= len(rows[over].rec)
	}
	if over > 0 {
		cl.drop(over)
	}
	return true
}

// sizeOf is the size of the records of rows.
func sizeOf(rows []logRow) int {
	n := 0
	for _, r := range rows {
		n += len(r.rec)
	}
	return n
}

func (cl *companyLog) len() int { return len(cl.rows) - cl.head }

func (cl *companyLog) kept() []logRow { return cl.rows[cl.head:] }

// drop forgets the company's n oldest records.
func (cl *companyLog) drop(n int) {
	dropped := cl.rows[cl.head : cl.head+n]
	cl.bytes -= sizeOf(dropped)
	clear(dropped) // the records go with the next collection
	cl.head += n
	if cl.head > len(cl.rows)/2 { // the kept half moves down, so the index does not grow forever
		n := copy(cl.rows, cl.rows[cl.head:])
		clear(cl.rows[n:])
		cl.rows, cl.head = cl.rows[:n], 0
	}
}

// close forgets every record; the log records and lists nothing after.
func (m *memLog) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.logs = map[string]*companyLog{}
}

// reset forgets a company's requests.
func (m *memLog) reset(company string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.logs, company)
}

// prune is Recorder.Prune for this log: the company's requests made
// before c.Before, oldest first up to the first the cut keeps, then
// those beyond its newest c.Keep; at most c.Limit in all.
func (m *memLog) prune(c retention.Cut) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	cl := m.logs[c.Company]
	if cl == nil {
		return 0
	}
	n := 0
	if !c.Before.IsZero() {
		before := c.Before.UnixNano()
		for _, r := range cl.kept() {
			if n == c.Limit || r.at >= before {
				break
			}
			n++
		}
	}
	if c.Keep > 0 && n < c.Limit {
		n += min(max(cl.len()-n-c.Keep, 0), c.Limit-n)
	}
	if n > 0 {
		cl.drop(n)
	}
	return n
}

// list is Recorder.List for this log: the filter's page, oldest first.
func (m *memLog) list(f Filter) []Interaction {
	m.mu.Lock()
	defer m.mu.Unlock()
	path, prefix := strings.CutSuffix(f.Path, "*")
	match := recordMatch{since: f.Since.UnixNano(), appID: f.AppID, method: strings.ToUpper(f.Method), path: path, prefix: prefix}
	if f.Since.IsZero() {
		match.since = 0
	}
	forward := f.AfterID > 0
	page := []Interaction{}
	for company, cl := range m.logs {
		if !f.EveryCompany && company != f.CompanyID {
			continue
		}
		page = append(page, cl.page(match, f.AfterID, forward, f.Limit)...)
	}
	// Companies' pages merged: the first (forward) or the last Limit by id.
	sort.Slice(page, func(i, j int) bool { return page[i].ID < page[j].ID })
	if len(page) > f.Limit {
		if forward {
			page = page[:f.Limit]
		} else {
			page = page[len(page)-f.Limit:]
		}
	}
	return page
}

// page is up to limit of the company's matching records after afterID,
// the oldest of them (forward) or the newest.
func (cl *companyLog) page(match recordMatch, afterID int64, forward bool, limit int) []Interaction {
	rows := cl.kept()
	start := sort.Search(len(rows), func(i int) bool { return rows[i].id > afterID })
	rows = rows[start:]
	var out []Interaction
	for i := range rows {
		r := rows[i]
		if !forward {
			r = rows[len(rows)-1-i]
		}
		if r.at < match.since || !match.fields(r.rec) {
			continue
		}
		it := decodeRecord(r.rec)
		it.ID, it.At = r.id, time.Unix(0, r.at).UTC()
		if out = append(out, it); len(out) == limit {
			break
		}
	}
	if !forward {
		slices.Reverse(out)
	}
	return out
}

type recordMatch struct {
	since               int64
	appID, method, path string
	prefix              bool
}

// fields reports whether a record's app, method and path match, read
// from the record without copying it.
func (m recordMatch) fields(rec []byte) bool {
	d := recordReader{b: rec[recordFixed:]}
	app, method, path := d.bytes(), d.bytes(), d.bytes()
	switch {
	case m.appID != "" && string(app) != m.appID,
		m.method != "" && string(method) != m.method,
		m.prefix && !strings.HasPrefix(string(path), m.path),
		!m.prefix && m.path != "" && string(path) != m.path:
		return false
	}
	return true
}

// A record: wall time, status and duration (µs) as 8 bytes each, then
// each text as its length (uvarint) and bytes, the filtered ones first,
// then each header map as its size and its names and values.
const recordFixed = 24

func recordTexts(it *Interaction) [11]string {
	return [11]string{it.AppID, it.Method, it.Path, it.RequestID, it.API, it.SentPath, it.Query, it.RequestBody, it.ResponseBody, it.IdempotencyKey, it.Injected}
}

func recordSize(it *Interaction) int {
	n := recordFixed
	text := func(s string) { n += uvarintLen(len(s)) + len(s) }
	for _, s := range recordTexts(it) {
		text(s)
	}
	for _, h := range []map[string]string{it.RequestHeaders, it.ResponseHeader} {
		n += uvarintLen(len(h))
		for k, v := range h {
			text(k)
			text(v)
		}
	}
	return n
}

func uvarintLen(n int) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], uint64(n))
}

// encodeRecord writes it into b, exactly recordSize(it) bytes.
func encodeRecord(b []byte, it *Interaction) {
	binary.LittleEndian.PutUint64(b[0:], uint64(it.WallAt.UnixNano()))
	binary.LittleEndian.PutUint64(b[8:], uint64(it.Status))
	binary.LittleEndian.PutUint64(b[16:], uint64(int64(it.DurationMS*1000)))
	i := recordFixed
	text := func(s string) {
		i += binary.PutUvarint(b[i:], uint64(len(s)))
		i += copy(b[i:], s)
	}
	for _, s := range recordTexts(it) {
		text(s)
	}
	for _, h := range []map[string]string{it.RequestHeaders, it.ResponseHeader} {
		i += binary.PutUvarint(b[i:], uint64(len(h)))
		for k, v := range h {
			text(k)
			text(v)
		}
	}
}

// decodeRecord copies a record into an Interaction, without its ID and At
// (the index's).
func decodeRecord(rec []byte) Interaction {
	var it Interaction
	it.WallAt = time.Unix(0, int64(binary.LittleEndian.Uint64(rec[0:]))).UTC()
	it.Status = int(int64(binary.LittleEndian.Uint64(rec[8:])))
	it.DurationMS = float64(int64(binary.LittleEndian.Uint64(rec[16:]))) / 1000
	d := recordReader{b: rec[recordFixed:]}
	for _, p := range []*string{&it.AppID, &it.Method, &it.Path, &it.RequestID, &it.API, &it.SentPath, &it.Query, &it.RequestBody, &it.ResponseBody, &it.IdempotencyKey, &it.Injected} {
		*p = string(d.bytes())
	}
	for _, h := range []*map[string]string{&it.RequestHeaders, &it.ResponseHeader} {
		n := d.uvarint()
		*h = make(map[string]string, n)
		for range n {
			k := string(d.bytes())
			(*h)[k] = string(d.bytes())
		}
	}
	return it
}

type recordReader struct{ b []byte }

func (r *recordReader) uvarint() int {
	v, n := binary.Uvarint(r.b)
	r.b = r.b[n:]
	return int(v)
}

func (r *recordReader) bytes() []byte {
	n := r.uvarint()
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}
