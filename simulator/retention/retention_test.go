package retention_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/retention"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

var start = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// notes is a table of the tests: rows of a company, dated on its clock,
// pruned as the real tables are (age first, then the cap), with every
// call it got recorded.
type notes struct {
	mu    sync.Mutex
	calls []retention.Cut
	sizes []int
}

func (n *notes) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	deleted := 0
	if !c.Before.IsZero() {
		res, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id IN (SELECT id FROM notes WHERE company = ? AND at < ? ORDER BY at LIMIT ?)`,
			c.Company, c.Before.UnixNano(), c.Limit)
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		deleted += int(k)
	}
	if c.Keep > 0 && deleted < c.Limit {
		res, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id IN (SELECT id FROM notes WHERE company = ?
			AND id < (SELECT id FROM notes WHERE company = ? ORDER BY id DESC LIMIT 1 OFFSET ?) ORDER BY id LIMIT ?)`,
			c.Company, c.Company, c.Keep-1, c.Limit-deleted)
		if err != nil {
			return deleted, err
		}
		k, _ := res.RowsAffected()
		deleted += int(k)
	}
	n.mu.Lock()
	n.calls = append(n.calls, c)
	n.sizes = append(n.sizes, deleted)
	n.mu.Unlock()
	return deleted, nil
}

type world struct {
	t      *testing.T
	db     *store.DB
	clocks *clock.Clocks
	table  *notes
	log    *syncBuffer
	p      *retention.Pruner
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func newWorld(t *testing.T, cfg retention.Config) *world {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Tx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(context.Background(), `CREATE TABLE notes (id INTEGER PRIMARY KEY, company TEXT NOT NULL, at INTEGER NOT NULL, body TEXT NOT NULL)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, db: db, clocks: clock.NewClocks(clock.New(clock.Frozen, 0, start)), table: &notes{}, log: &syncBuffer{}}
	w.p = &retention.Pruner{Config: cfg, Clocks: w.clocks, Log: slog.New(slog.NewTextHandler(w.log, nil)), Pause: time.Millisecond,
		Companies: func(context.Context) ([]string, error) { return []string{"A", "B"}, nil }}
	w.p.Add("notes", db, cfg.Rows, w.table)
	return w
}

// add stores n rows of company, at on its clock.
func (w *world) add(company string, at time.Time, n int) {
	w.t.Helper()
	err := w.db.Tx(context.Background(), func(tx *store.Tx) error {
		for i := 0; i < n; i++ {
			if _, err := tx.ExecContext(context.Background(), `INSERT INTO notes (company, at, body) VALUES (?, ?, ?)`, company, at.UnixNano(), "secret-body"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) count(company string) int {
	w.t.Helper()
	var n int
	w.db.Read(context.Background(), func(tx *store.Tx) error {
		return tx.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM notes WHERE company = ?`, company).Scan(&n)
	})
	return n
}

func (w *world) pass() retention.Counts {
	w.t.Helper()
	counts, companies, err := w.p.Pass(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	if companies != 3 {
		w.t.Errorf("a pass looked at %d companies, want 3 (A, B and the sandbox's own)", companies)
	}
	return counts
}

func TestPruner(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name string
		cfg  retention.Config
		// advanceA moves company A's own clock before the pass.
		advanceA time.Duration
		rows     map[string][]time.Duration // per company, rows at start+offset
		want     map[string]int
	}{
		{"age: a company's advanced clock takes its old rows, not another's",
			retention.Config{Age: 7 * day}, 365 * day,
			map[string][]time.Duration{"A": {-day, 0}, "B": {-day, 0}}, map[string]int{"A": 0, "B": 2}},
		{"age: on the default clock, only what is older than the age goes",
			retention.Config{Age: 7 * day}, 0,
			map[string][]time.Duration{"A": {-10 * day, -day}, "B": {-8 * day, 0}}, map[string]int{"A": 1, "B": 1}},
		{"cap: each company keeps its newest rows",
			retention.Config{Rows: 2}, 0,
			map[string][]time.Duration{"A": {-3 * day, -2 * day, -day, 0}, "B": {0}}, map[string]int{"A": 2, "B": 1}},
		{"zero age and cap keep everything",
			retention.Config{Log: 1}, 365 * day,
			map[string][]time.Duration{"A": {-300 * day, 0, 0}}, map[string]int{"A": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.cfg)
			for company, offsets := range tt.rows {
				for _, off := range offsets {
					w.add(company, start.Add(off), 1)
				}
			}
			if tt.advanceA > 0 {
				clk, _ := w.clocks.Own("A")
				clk.Set(start.Add(tt.advanceA))
			}
			w.pass()
			for company, want := range tt.want {
				if got := w.count(company); got != want {
					t.Errorf("company %s kept %d rows, want %d", company, got, want)
				}
			}
		})
	}
}

// A pass deletes in batches of at most Limit rows, each its own
// transaction, until one comes back short.
func TestPrunerBatchesAreBounded(t *testing.T) {
	w := newWorld(t, retention.Config{Age: time.Hour})
	w.p.Limit = 4
	w.add("A", start.Add(-2*time.Hour), 10)
	if got := w.pass().Total(); got != 10 {
		t.Fatalf("deleted %d, want 10", got)
	}
	var sizesA []int
	for i, c := range w.table.calls {
		if c.Limit != 4 {
			t.Errorf("call %d had limit %d, want 4", i, c.Limit)
		}
		if c.Company == "A" {
			sizesA = append(sizesA, w.table.sizes[i])
		}
	}
	if fmt.Sprint(sizesA) != "[4 4 2]" {
		t.Errorf("company A's batches deleted %v, want [4 4 2]", sizesA)
	}
}

// A pass that deleted something logs one line of counts, never a row; a
// pass that deleted nothing logs nothing.
func TestPrunerLogsCountsOnly(t *testing.T) {
	w := newWorld(t, retention.Config{Age: time.Hour, Every: 20 * time.Millisecond})
	w.add("A", start.Add(-2*time.Hour), 3)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.p.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for w.count("A") > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a few more passes, which delete nothing
	cancel()
	<-done
	out := w.log.String()
	if strings.Count(out, "retention pass") != 1 || !strings.Contains(out, "deleted=3") || !strings.Contains(out, "notes=3") {
		t.Errorf("log = %q, want one line saying deleted=3 notes=3", out)
	}
	if strings.Contains(out, "secret-body") || strings.Contains(out, "company=A") {
		t.Errorf("the log shows a row's data: %q", out)
	}
}

// A poke prunes its company at once, without waiting for the period; Run
// returns when its context ends.
func TestPokePrunesAtOnce(t *testing.T) {
	w := newWorld(t, retention.Config{Age: 7 * 24 * time.Hour, Every: time.Hour})
	w.add("A", start, 2)
	w.add("B", start, 2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.p.Run(ctx) }()
	clk, _ := w.clocks.Own("A")
	clk.Set(start.Add(30 * 24 * time.Hour))
	w.p.Poke(tenant.Company("A"))
	deadline := time.Now().Add(5 * time.Second)
	for w.count("A") > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := w.count("A"); got != 0 {
		t.Errorf("company A kept %d rows after its clock moved a month and it was poked", got)
	}
	if got := w.count("B"); got != 2 {
		t.Errorf("company B kept %d rows, want 2", got)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

func TestConfigOn(t *testing.T) {
	for _, c := range []struct {
		cfg  retention.Config
		want bool
	}{{retention.Config{}, false}, {retention.Config{Every: time.Second}, false}, {retention.Config{Age: time.Hour}, true},
		{retention.Config{Rows: 1}, true}, {retention.Config{Log: 1}, true}} {
		if got := c.cfg.On(); got != c.want {
			t.Errorf("%+v.On() = %v, want %v", c.cfg, got, c.want)
		}
	}
}

// flushing is a table that buffers its rows, as the recorder does.
type flushing struct {
	notes
	buffered int
	flushes  int
	w        *world
}

func (f *flushing) Flush() {
	f.flushes++
	f.w.add("A", start.Add(-48*time.Hour), f.buffered)
	f.buffered = 0
}

// A table that buffers its writes is flushed before it is pruned: what a
// company did just before its clock moved goes with the rest.
func TestPrunerFlushesBufferedTables(t *testing.T) {
	w := newWorld(t, retention.Config{Age: time.Hour})
	f := &flushing{buffered: 2, w: w}
	w.p = &retention.Pruner{Config: w.p.Config, Clocks: w.clocks, Log: slog.New(slog.DiscardHandler), Companies: w.p.Companies}
	w.p.Add("buffered", w.db, 0, f)
	if got := w.pass().Total(); got != 2 || f.flushes == 0 || w.count("A") != 0 {
		t.Errorf("deleted %d after %d flushes, %d left; want the 2 buffered rows flushed, then pruned", got, f.flushes, w.count("A"))
	}
}
