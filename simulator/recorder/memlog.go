package recorder

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"homologa/simulator/retention"
)

// memLog is the interaction log of an in-memory sandbox. Its database
// dies with the process anyway, and as a SQLite database of its own the
// log cost a creation 10–20 µs of its ~165 (pixbench's table,
// alternating runs: 142–155 µs with the writer's transactions skipped,
// 133–137 with no recording at all): each request is a ~2 KB row, one
// to a 4 KiB page, written twice (journal and database) and, while
// the log grows, a page fault (~12 µs on the bench's host).
//
// Here each company's requests are records encoded one after another in
// segments of memory mapped outside Go's heap: the collector neither
// scans nor counts them (50,000 requests of a company in its heap
// would be scanned by every cycle, and GOGC would let the heap grow to
// five times them), and a segment whose records have all gone (the cap,
// the age cut, a reset) is reused as it is, its pages already in memory,
// so a log at its cap takes no page faults. A record is written by the
// request that made it, under one lock, in a few microseconds; a reader
// copies out what it lists.
type memLog struct {
	mu     sync.Mutex
	lastID int64
	logs   map[string]*companyLog
	free   []*segment // whole segments no record uses, kept for reuse
	closed bool
	// maps counts the segments ever mapped, mapped those mapped now.
	maps, mapped int
	// maxBytes bounds each company's records (companyBytes).
	maxBytes int
}

// companyBytes is the most a company's log holds in memory, whatever its
// cap in requests: the cap counts requests, and a request's bodies are
// recorded up to 64 KiB each, so 50,000 large requests would be ~6 GB of
// a hosted sandbox's memory. Typical requests (~2 KB) reach the cap of
// 50,000 at ~100 MB, well under it.
const companyBytes = 256 << 20

// A record is one interaction encoded (encodeRecord); a rowRef finds it.
// Neither holds a Go pointer, so a company's index of 50,000 is one
// allocation the collector skips.
type rowRef struct {
	id, at int64
	seg    int64 // the company's segment number (companyLog.first + index)
	off, n int32
}

type companyLog struct {
	rows  []rowRef // oldest first; rows[head:] are kept
	head  int
	segs  []*segment // oldest first; segs[0] is number first
	first int64
	bytes int // the kept records' size
}

type segment struct {
	buf  []byte // mapped with mmap, never moved
	used int
}

// segmentSize is the memory a segment maps: ~500 records of a Pix
// creation. Pages are taken only as records are written, so a company
// with a few requests holds a few pages.
const segmentSize = 1 << 20

// freeSegments bounds the segments kept for reuse: beyond it, a freed
// segment (a reset of a company with a long log) is unmapped and its
// memory given back.
const freeSegments = 16

func newMemLog() *memLog { return &memLog{logs: map[string]*companyLog{}, maxBytes: companyBytes} }

// add records it and keeps the company's newest keep (0: all); false
// when it could not (no memory to map, the log closed).
func (m *memLog) add(it *Interaction, keep int) bool {
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
	size := recordSize(it)
	seg := cl.room(m, size)
	if seg == nil {
		return false
	}
	m.lastID++
	it.ID = m.lastID
	encodeRecord(seg.buf[seg.used:seg.used+size], it)
	cl.rows = append(cl.rows, rowRef{id: it.ID, at: it.At.UnixNano(), seg: cl.first + int64(len(cl.segs)-1), off: int32(seg.used), n: int32(size)})
	seg.used += size
	cl.bytes += size
	over := 0
	if keep > 0 && cl.len() > keep {
		over = cl.len() - keep
	}
	rows := cl.kept()
	for bytes := cl.bytes - cl.sizeOf(rows[:over]); bytes > m.maxBytes && over < len(rows)-1; over++ { // the newest stays
		bytes -= int(rows[over].n)
	}
	if over > 0 {
		cl.drop(m, over)
	}
	return true
}

// sizeOf is the size of records rows.
func (cl *companyLog) sizeOf(rows []rowRef) int {
	n := 0
	for _, r := range rows {
		n += int(r.n)
	}
	return n
}

// room is the segment the next record of size bytes goes in, the newest
// or a new one.
func (cl *companyLog) room(m *memLog, size int) *segment {
	if n := len(cl.segs); n > 0 && len(cl.segs[n-1].buf)-cl.segs[n-1].used >= size {
		return cl.segs[n-1]
	}
	seg := m.segment(size)
	if seg != nil {
		cl.segs = append(cl.segs, seg)
	}
	return seg
}

func (cl *companyLog) len() int { return len(cl.rows) - cl.head }

func (cl *companyLog) kept() []rowRef { return cl.rows[cl.head:] }

func (cl *companyLog) record(r rowRef) []byte {
	seg := cl.segs[r.seg-cl.first]
	return seg.buf[r.off : r.off+r.n]
}

// drop forgets the company's n oldest records and frees the segments
// left without one.
func (cl *companyLog) drop(m *memLog, n int) {
	cl.bytes -= cl.sizeOf(cl.rows[cl.head : cl.head+n])
	cl.head += n
	if cl.head == len(cl.rows) {
		cl.rows, cl.head = cl.rows[:0], 0
		for _, s := range cl.segs {
			m.release(s)
		}
		cl.first += int64(len(cl.segs))
		cl.segs = cl.segs[:0]
		return
	}
	if cl.head > len(cl.rows)/2 { // the index's kept half moves down, not grows forever
		cl.rows = cl.rows[:copy(cl.rows, cl.rows[cl.head:])]
		cl.head = 0
	}
	oldest := cl.rows[cl.head].seg
	for cl.first < oldest {
		m.release(cl.segs[0])
		cl.segs = cl.segs[1:]
		cl.first++
	}
}

// segment maps a segment for a record of size bytes, or reuses a free one.
func (m *memLog) segment(size int) *segment {
	if size <= segmentSize {
		if n := len(m.free); n > 0 {
			s := m.free[n-1]
			m.free = m.free[:n-1]
			s.used = 0
			return s
		}
	}
	buf, err := syscall.Mmap(-1, 0, max(size, segmentSize), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	m.maps++
	m.mapped++
	return &segment{buf: buf}
}

func (m *memLog) release(s *segment) {
	if len(s.buf) == segmentSize && len(m.free) < freeSegments && !m.closed {
		m.free = append(m.free, s)
		return
	}
	syscall.Munmap(s.buf)
	m.mapped--
}

// close unmaps every segment; the log records and lists nothing after.
func (m *memLog) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	for _, cl := range m.logs {
		for _, s := range cl.segs {
			syscall.Munmap(s.buf)
		}
	}
	for _, s := range m.free {
		syscall.Munmap(s.buf)
	}
	m.logs, m.free, m.mapped = map[string]*companyLog{}, nil, 0
}

// reset forgets a company's requests.
func (m *memLog) reset(company string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cl := m.logs[company]; cl != nil {
		cl.drop(m, cl.len())
		delete(m.logs, company)
	}
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
		cl.drop(m, n)
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
		if r.at < match.since || !match.fields(cl.record(r)) {
			continue
		}
		it := decodeRecord(cl.record(r))
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

// decodeRecord copies a record out of its segment (which a later record
// may reuse) into an Interaction, without its ID and At (the index's).
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
