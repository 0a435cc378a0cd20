package recorder

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/retention"
)

func interaction(company string, i int, body string) *Interaction {
	return &Interaction{
		At: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), WallAt: time.Now(), CompanyID: company, AppID: "app-" + company,
		API: "pix", Method: "PUT", Path: fmt.Sprintf("/pix/v2/cob/%d", i), RequestBody: body, Status: 201,
		RequestHeaders: map[string]string{"Content-Type": "application/json"}, ResponseHeader: map[string]string{},
	}
}

// A log at its cap keeps its newest records, and only them: 5,000
// requests of 4 KB under a cap of 100 leave an index of at most twice
// the cap, holding no record it dropped (the collector frees those).
func TestMemoryLogAtItsCapKeepsItsNewest(t *testing.T) {
	m := newMemLog()
	defer m.close()
	body := strings.Repeat("x", 4000)
	const keep = 100
	for i := range 5000 {
		if !m.add(interaction("A", i, body), keep) {
			t.Fatal("not recorded")
		}
	}
	list := m.list(Filter{CompanyID: "A", Limit: 1000})
	if len(list) != keep || list[0].Path != "/pix/v2/cob/4900" || list[keep-1].RequestBody != body {
		t.Fatalf("kept %d, the first %q", len(list), list[0].Path)
	}
	cl := m.logs["A"]
	if len(cl.rows) > 2*keep+1 {
		t.Errorf("the index holds %d rows for %d kept", len(cl.rows), keep)
	}
	held := 0
	for _, r := range cl.rows[:cap(cl.rows)] {
		if r.rec != nil {
			held++
		}
	}
	if held != keep || cl.bytes != sizeOf(cl.kept()) {
		t.Errorf("the index holds %d records (%d bytes counted, %d kept), want only the %d kept", held, cl.bytes, sizeOf(cl.kept()), keep)
	}
}

// A reset forgets the reset company's requests, whatever their size, and
// no other company's; a large request is listed whole.
func TestMemoryLogReset(t *testing.T) {
	m := newMemLog()
	defer m.close()
	body := strings.Repeat("y", 64<<10)
	for i := range 1000 { // ~64 MB
		m.add(interaction("A", i, body), 0)
	}
	big := strings.Repeat("z", 3<<20)
	m.add(interaction("B", 0, big), 0)
	m.reset("A")
	if list := m.list(Filter{CompanyID: "A", Limit: 100}); len(list) != 0 || m.logs["A"] != nil {
		t.Errorf("company A still lists %d requests", len(list))
	}
	if list := m.list(Filter{CompanyID: "B", Limit: 100}); len(list) != 1 || list[0].RequestBody != big {
		t.Errorf("company B's large request listed %d times, whole: %v", len(list), len(list) == 1 && list[0].RequestBody == big)
	}
	m.reset("B")
	m.add(interaction("C", 0, "after"), 0)
	if got := m.list(Filter{EveryCompany: true, Limit: 100}); len(got) != 1 || got[0].RequestBody != "after" {
		t.Errorf("after both resets the log lists %+v", got)
	}
}

// Once closed (the sandbox stopping), the log records and lists nothing
// and touches none of the memory it gave back.
func TestClosedMemoryLog(t *testing.T) {
	m := newMemLog()
	m.add(interaction("A", 0, "a"), 0)
	m.close()
	if m.add(interaction("A", 1, "b"), 0) {
		t.Error("recorded after close")
	}
	if list := m.list(Filter{CompanyID: "A", Limit: 100}); len(list) != 0 {
		t.Errorf("listed %d after close", len(list))
	}
	if n := m.prune(retention.Cut{Company: "A", Keep: 1, Limit: 10}); n != 0 {
		t.Errorf("pruned %d after close", n)
	}
}

// Requests recorded from many goroutines while others list: each company
// keeps exactly its newest cap, ids strictly rising, every record whole
// (run under -race by make test).
func TestMemoryLogUnderConcurrentRequests(t *testing.T) {
	m := newMemLog()
	defer m.close()
	const writers, each, keep = 8, 300, 50
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { // a reader throughout
		for {
			select {
			case <-stop:
				return
			default:
				m.list(Filter{EveryCompany: true, Limit: 1000})
			}
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				company := []string{"A", "B", "C"}[(w+i)%3]
				m.add(interaction(company, w*each+i, fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)+strings.Repeat(" ", i*7)), keep)
			}
		}()
	}
	wg.Wait()
	close(stop)
	for _, company := range []string{"A", "B", "C"} {
		list := m.list(Filter{CompanyID: company, Limit: 1000})
		if len(list) != keep {
			t.Errorf("company %s keeps %d, want %d", company, len(list), keep)
		}
		for i, it := range list {
			if i > 0 && it.ID <= list[i-1].ID {
				t.Errorf("company %s: id %d after %d", company, it.ID, list[i-1].ID)
			}
			if it.CompanyID != "" || it.AppID != "app-"+company || !strings.HasPrefix(it.RequestBody, `{"w":`) {
				t.Errorf("company %s: record %d came back as %+v", company, it.ID, it)
			}
		}
	}
	if total := len(m.list(Filter{EveryCompany: true, Limit: 1000})); total != 3*keep {
		t.Errorf("every company: %d records, want %d", total, 3*keep)
	}
}

// A company's log holds at most maxBytes whatever its cap in requests:
// large requests push out its oldest (never its newest), and another
// company's stay.
func TestMemoryLogBoundsACompanyInBytes(t *testing.T) {
	m := newMemLog()
	defer m.close()
	m.maxBytes = 4 << 20
	m.add(interaction("B", 0, "small"), 0)
	big := strings.Repeat("b", 1<<20)
	for i := range 40 {
		m.add(interaction("A", i, big), 50_000)
	}
	list := m.list(Filter{CompanyID: "A", Limit: 1000})
	if len(list) != 3 || list[2].Path != "/pix/v2/cob/39" || list[2].RequestBody != big {
		t.Errorf("company A keeps %d requests (want its newest 3, under 4 MiB)", len(list))
	}
	if cl := m.logs["A"]; cl.bytes > m.maxBytes || cl.bytes != sizeOf(cl.kept()) {
		t.Errorf("company A's log counts %d bytes (its records %d), want at most %d", cl.bytes, sizeOf(cl.kept()), m.maxBytes)
	}
	huge := strings.Repeat("h", 5<<20) // larger than the bound alone: kept, the newest
	m.add(interaction("A", 40, huge), 50_000)
	if list := m.list(Filter{CompanyID: "A", Limit: 1000}); len(list) != 1 || list[0].RequestBody != huge {
		t.Errorf("after one request larger than the bound, company A keeps %d", len(list))
	}
	if list := m.list(Filter{CompanyID: "B", Limit: 1000}); len(list) != 1 {
		t.Errorf("company B keeps %d requests, want its 1", len(list))
	}
}
