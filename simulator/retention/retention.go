package retention

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Cut is what one call of Table.Prune may delete: rows of Company, done
// with, and either last changed before Before (zero: no age limit) or
// older than the newest Keep of their kind (0: no cap); at most Limit,
// oldest first.
type Cut struct {
	Company string
	Before  time.Time
	Keep    int
	Limit   int
	// marks are the boundaries of the cap found by earlier batches of the
	// same pass over the same company's table (Beyond); nil remembers
	// nothing.
	marks map[string]int64
	// scans are where the windowed scans of earlier batches of the pass
	// stopped (Window), and more is set when one stopped before its end,
	// so that the pass goes on with another batch although this one
	// deleted less than Limit; nil remembers nothing.
	scans map[string]Pos
	more  *bool
}

// Pos is a row's place in the order a windowed scan walks: its ordering
// value (a time), then its id for rows with the same value (a frozen
// clock makes many).
type Pos struct{ At, ID int64 }

// Window is the most candidate rows one batch's scan looks at. A row's
// "done with" can be dearer than a column (a charge asks whether a
// scenario or a refund still holds it), and rows that are not done stay
// where they are: examining every active charge of a busy company in one
// statement, every batch, would hold the one connection for tens of
// milliseconds. A window of them per batch, resumed by the next, holds
// the database about a millisecond (decision record 0024).
const Window = 256

// Resume is where the scan named key resumes: after the position an
// earlier batch of the pass reached, or from the start (ok false).
func (c Cut) Resume(key string) (p Pos, ok bool) {
	p, ok = c.scans[key]
	return p, ok
}

// Reached records that the scan named key got to p; all is false when it
// stopped at its window with more rows to look at, and the pass goes on
// with another batch. A later batch of the pass resumes after p either
// way: a cap's boundary only rises, and the rows below it that this pass
// looked at and kept wait for the next pass.
func (c Cut) Reached(key string, p Pos, all bool) {
	if c.scans == nil {
		return
	}
	c.scans[key] = p
	if !all && c.more != nil {
		*c.more = true
	}
}

// Scan runs the windowed scan named key for Beyond's del or an age's
// cut: query selects, from its FROM and WHERE, a candidate's id, its
// ordering value (order, an expression) and whether it is done with, and
// takes named parameters only; Scan adds where the scan resumes, the
// order (order, then idColumn) and the window. It returns the ids of the
// done candidates, at most limit, oldest first. A done of -1 ends the
// scan there, as if at its end: an age's cut walking rows in the order
// they were written stops at the first one younger than the cut
// (events.Prune), whose later rows it leaves for a later pass.
func Scan(ctx context.Context, tx *store.Tx, c Cut, key string, limit int, query, order, idColumn string, args ...any) ([]int64, error) {
	from, ok := c.Resume(key)
	if !ok {
		from = Pos{At: math.MinInt64, ID: math.MinInt64}
	}
	rows, err := tx.QueryContext(ctx, query+` AND `+order+` >= :scan_at AND (`+order+` > :scan_at OR `+idColumn+` > :scan_id)
		ORDER BY `+order+`, `+idColumn+` LIMIT :scan_window`,
		append(args, sql.Named("scan_at", from.At), sql.Named("scan_id", from.ID), sql.Named("scan_window", Window))...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	seen, at, stopped := 0, from, false
	for rows.Next() {
		var row Pos
		var done sql.NullInt64 // null (a comparison with a null) is not done
		if err := rows.Scan(&row.ID, &row.At, &done); err != nil {
			return nil, err
		}
		if done.Int64 == -1 {
			stopped = true
			break
		}
		seen, at = seen+1, row
		if done.Int64 == 1 {
			ids = append(ids, at.ID)
			if len(ids) == limit {
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if seen > 0 || stopped {
		c.Reached(key, at, stopped || seen < Window && len(ids) < limit)
	}
	return ids, nil
}

// unfinished reports whether a scan of this batch stopped before its end.
func (c Cut) unfinished() bool { return c.more != nil && *c.more }

// Bound runs a boundary's query for Beyond: one integer, or no row when
// there are no more than the cap's rows.
func Bound(ctx context.Context, tx *store.Tx, query string, args ...any) (int64, bool, error) {
	var v int64
	err := tx.QueryRowContext(ctx, query, args...).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return v, err == nil, err
}

// Beyond deletes up to limit of the rows past a cap: del deletes those
// below a boundary (oldest first, at most its limit) and bound finds the
// boundary, the keep-th newest row's value, with ok false when there are
// no more than keep rows. Finding it walks keep entries of an index
// (OFFSET keep), dearer than the batch it bounds for a large cap: the
// boundary found is kept for the pass's later
// batches and found again only when nothing is left below it. Newer rows
// only add above it, so what is below stays beyond the cap.
func (c Cut) Beyond(key string, limit int, bound func() (int64, bool, error), del func(boundary int64, limit int) (int, error)) (int, error) {
	n := 0
	if b, ok := c.marks[key]; ok {
		deleted, err := del(b, limit)
		if err != nil || deleted == limit || c.unfinished() {
			return deleted, err
		}
		n = deleted
	}
	b, ok, err := bound()
	if err != nil || !ok {
		delete(c.marks, key)
		return n, err
	}
	if c.marks != nil {
		c.marks[key] = b
	}
	deleted, err := del(b, limit-n)
	return n + deleted, err
}

// Table prunes one package's rows of a company, in tx, and says how many
// it deleted (rows its own cascade takes along, such as a delivery's
// attempts, are not counted). It deletes the rows past Before first,
// then those beyond Keep.
type Table interface {
	Prune(ctx context.Context, tx *store.Tx, c Cut) (int, error)
}

// Flusher is a Table that buffers its writes (the recorder): the pruner
// flushes it before pruning it, so that what was done just before a
// clock moved is in the table when the move's pruning runs.
type Flusher interface {
	Flush()
}

// The defaults of the homologa command (--retention-*), sized by the soak
// (make soak): a company creating 100 charges a second keeps about 20,000
// of each kind of row and 50,000 requests, a few hundred MB at most.
const (
	DefaultAge   = 7 * 24 * time.Hour
	DefaultRows  = 20000
	DefaultLog   = 50000
	DefaultEvery = 30 * time.Second
	// Limit bounds one batch, and Pause separates batches: a batch holds
	// the database for a fraction of a millisecond, and between two the
	// requests waiting for it go first. Larger batches delete no faster
	// and, behind a busy company's requests, make the tail of every
	// request's latency (decision record 0024 has the figures).
	Limit = 25
	Pause = 2500 * time.Microsecond
)

// Config is how much the sandbox keeps. Its zero value keeps everything
// (the pruner does not run), which is what tests and the in-process
// sandbox of `homologa test` want; the homologa command's flags default
// to DefaultAge, DefaultRows, DefaultLog and DefaultEvery.
type Config struct {
	// Age is how long a finished row is kept, on its company's clock.
	Age time.Duration
	// Rows is how many rows of each kind a company keeps at most (events,
	// charges, received Pix, scenario bindings).
	Rows int
	// Log is how many recorded requests a company keeps at most.
	Log int
	// Every is how often every company is pruned; zero is DefaultEvery.
	Every time.Duration
}

// On reports whether anything is bounded.
func (c Config) On() bool { return c.Age > 0 || c.Rows > 0 || c.Log > 0 }

// Counts is how many rows a pass deleted, by table.
type Counts map[string]int

// Total is the sum.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// String lists the non-zero counts by name, "events=12 pix=3".
func (c Counts) String() string {
	var parts []string
	for k, v := range c {
		if v > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

type entry struct {
	name  string
	db    *store.DB
	keep  int
	table Table
}

// Pruner runs the tables' pruning, per company.
type Pruner struct {
	Config Config
	Clocks *clock.Clocks
	Log    *slog.Logger
	// Companies lists every company; the pruner adds "", the sandbox's own
	// rows (requests no company made), on the default clock.
	Companies func(ctx context.Context) ([]string, error)
	// Limit and Pause override the package's, for tests.
	Limit int
	Pause time.Duration

	tables []entry
	mu     sync.Mutex
	poked  map[string]bool
	// pokedAll says the default clock moved: every company is pruned.
	pokedAll bool
	wake     chan struct{}
	once     sync.Once
}

// Add registers a table, named in the log, whose rows live in db (nil:
// in memory, pruned without a transaction); keep is its cap per company
// (0: none).
func (p *Pruner) Add(name string, db *store.DB, keep int, t Table) {
	p.tables = append(p.tables, entry{name: name, db: db, keep: keep, table: t})
}

func (p *Pruner) init() {
	p.once.Do(func() {
		p.wake = make(chan struct{}, 1)
		p.poked = map[string]bool{}
	})
}

// Poke asks for the companies of a scope to be pruned soon (every
// company's for the default clock, which every company that has no clock
// of its own follows): its clock moved, and what it made may now be past
// the age. It never blocks: a clock move is a request, and the pruning
// happens beside it.
func (p *Pruner) Poke(sc tenant.Scope) {
	p.init()
	p.mu.Lock()
	if id, one := sc.Company(); one {
		p.poked[id] = true
	}
	p.pokedAll = p.pokedAll || sc.Every()
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run prunes every company every Config.Every, and the companies poked
// as soon as they are, until ctx ends.
func (p *Pruner) Run(ctx context.Context) {
	p.init()
	every := p.Config.Every
	if every <= 0 {
		every = DefaultEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			counts, n, err := p.Pass(ctx)
			p.report(ctx, counts, n, err)
		case <-p.wake:
			counts, n, err := p.prunePoked(ctx)
			p.report(ctx, counts, n, err)
		}
	}
}

// prunePoked prunes the companies poked since the last time; a poke of
// the default clock prunes every company.
func (p *Pruner) prunePoked(ctx context.Context) (Counts, int, error) {
	p.mu.Lock()
	poked, all := p.poked, p.pokedAll
	p.poked, p.pokedAll = map[string]bool{}, false
	p.mu.Unlock()
	if all {
		return p.Pass(ctx)
	}
	counts := Counts{}
	for company := range poked {
		if err := p.Company(ctx, company, counts); err != nil {
			return counts, len(poked), err
		}
	}
	return counts, len(poked), nil
}

// report logs a pass that deleted something, counts only (never a row's
// data), and a pass that failed other than by the sandbox stopping.
func (p *Pruner) report(ctx context.Context, counts Counts, companies int, err error) {
	if err != nil && ctx.Err() == nil {
		p.Log.Error("retention pass", "err", err)
	}
	if n := counts.Total(); n > 0 {
		p.Log.Info("retention pass", "deleted", n, "companies", companies, "tables", counts.String())
	}
}

// Pass prunes every company once and says how many rows of each table it
// deleted and how many companies it looked at.
func (p *Pruner) Pass(ctx context.Context) (Counts, int, error) {
	counts := Counts{}
	companies, err := p.Companies(ctx)
	if err != nil {
		return counts, 0, fmt.Errorf("list companies: %w", err)
	}
	companies = append([]string{""}, companies...)
	for _, c := range companies {
		if err := p.Company(ctx, c, counts); err != nil {
			return counts, len(companies), err
		}
	}
	return counts, len(companies), nil
}

// Company prunes one company's rows of every table, adding what it
// deleted to counts.
func (p *Pruner) Company(ctx context.Context, company string, counts Counts) error {
	var before time.Time
	if p.Config.Age > 0 {
		before = p.Clocks.NowOf(company).Add(-p.Config.Age)
	}
	for _, e := range p.tables {
		if before.IsZero() && e.keep <= 0 {
			continue
		}
		n, err := p.prune(ctx, e, Cut{Company: company, Before: before, Keep: e.keep, Limit: p.limit(),
			marks: map[string]int64{}, scans: map[string]Pos{}, more: new(bool)})
		counts[e.name] += n
		if err != nil {
			return fmt.Errorf("prune %s of company %q: %w", e.name, company, err)
		}
	}
	return nil
}

// prune runs a table's batches until one deletes less than a full batch
// with its scans at their end, each in a transaction of its own, pausing
// between them.
func (p *Pruner) prune(ctx context.Context, e entry, c Cut) (int, error) {
	if f, ok := e.table.(Flusher); ok {
		f.Flush()
	}
	if c.more == nil {
		c.more = new(bool)
	}
	total := 0
	for {
		var n int
		*c.more = false
		var err error
		if e.db == nil {
			n, err = e.table.Prune(ctx, nil, c)
		} else {
			err = e.db.Tx(ctx, func(tx *store.Tx) error {
				var err error
				n, err = e.table.Prune(ctx, tx, c)
				return err
			})
		}
		if err != nil {
			return total, err
		}
		total += n
		if n < c.Limit && !*c.more {
			return total, nil
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(p.pause()):
		}
	}
}

func (p *Pruner) limit() int {
	if p.Limit > 0 {
		return p.Limit
	}
	return Limit
}

func (p *Pruner) pause() time.Duration {
	if p.Pause > 0 {
		return p.Pause
	}
	return Pause
}
