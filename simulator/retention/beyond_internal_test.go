package retention

import (
	"context"
	"slices"
	"testing"
	"time"

	"homologa/simulator/store"
)

// capped is a table of ids kept in memory, pruned beyond a cap as the
// real tables are, counting how often its boundary is looked for.
type capped struct {
	ids    []int64 // ascending
	bounds int
}

func (c *capped) Prune(ctx context.Context, tx *store.Tx, cut Cut) (int, error) {
	return cut.Beyond("capped", cut.Limit,
		func() (int64, bool, error) {
			c.bounds++
			if len(c.ids) <= cut.Keep {
				return 0, false, nil
			}
			return c.ids[len(c.ids)-cut.Keep], true, nil
		},
		func(boundary int64, limit int) (int, error) {
			n := 0
			for n < len(c.ids) && n < limit && c.ids[n] < boundary {
				n++
			}
			c.ids = c.ids[n:]
			return n, nil
		})
}

func (c *capped) add(n int) {
	next := int64(1)
	if len(c.ids) > 0 {
		next = c.ids[len(c.ids)-1] + 1
	}
	for range n {
		c.ids = append(c.ids, next)
		next++
	}
}

// A pass looks for a cap's boundary once, not once a batch, and still
// leaves exactly the newest keep rows.
func TestBeyondFindsTheBoundaryOncePerPass(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tab := &capped{}
	tab.add(1000)
	p := &Pruner{Limit: 10, Pause: time.Microsecond}
	e := entry{name: "capped", db: db, keep: 100, table: tab}
	n, err := p.prune(ctx, e, Cut{Company: "A", Keep: 100, Limit: 10, marks: map[string]int64{}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 900 || len(tab.ids) != 100 || tab.ids[0] != 901 {
		t.Fatalf("deleted %d, kept %d from %v; want 900 deleted, ids 901–1000 kept", n, len(tab.ids), tab.ids[:1])
	}
	// 90 full batches and a last one: the boundary found at the first,
	// and again at the last (nothing left below the first).
	if tab.bounds > 2 {
		t.Fatalf("the boundary was looked for %d times in one pass of 91 batches", tab.bounds)
	}
}

// Rows added during a pass go above the boundary found; once the rows
// below it are gone the boundary is found again and the pass goes on,
// as a busy company's pass must.
func TestBeyondFindsTheBoundaryAgainWhenItIsExhausted(t *testing.T) {
	tab := &capped{}
	tab.add(50)
	cut := Cut{Company: "A", Keep: 10, Limit: 25, marks: map[string]int64{}}
	for i, want := range []struct{ deleted, bounds, left int }{
		{25, 1, 25}, // the boundary is 41: 1–25 go (then 51–70 arrive)
		{25, 2, 20}, // 26–40 below 41, then 41–50 below the new boundary, 61
		{10, 3, 10}, // 51–60 below 61; looked for again: no more than 10 left
		{0, 4, 10},
	} {
		n, err := tab.Prune(context.Background(), nil, cut)
		if err != nil {
			t.Fatal(err)
		}
		if n != want.deleted || tab.bounds != want.bounds || len(tab.ids) != want.left {
			t.Fatalf("call %d: deleted %d (bounds %d, %d left); want %d (%d, %d)", i, n, tab.bounds, len(tab.ids), want.deleted, want.bounds, want.left)
		}
		if i == 0 {
			tab.add(20) // 51–70 arrive during the pass
		}
	}
	if !slices.Equal(tab.ids, []int64{61, 62, 63, 64, 65, 66, 67, 68, 69, 70}) {
		t.Fatalf("kept %v, want the newest 10", tab.ids)
	}
	// Without marks (a Cut made outside a pruner), the boundary is found
	// each call.
	tab.add(5)
	before := tab.bounds
	for range 2 {
		if _, err := tab.Prune(context.Background(), nil, Cut{Company: "A", Keep: 10, Limit: 25}); err != nil {
			t.Fatal(err)
		}
	}
	if tab.bounds != before+2 || len(tab.ids) != 10 {
		t.Fatalf("without marks: %d lookups, %d left; want 2 and 10", tab.bounds-before, len(tab.ids))
	}
}
