package quota

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Counter counts what a company holds of one kind, in a read
// transaction of the database: each domain counts its own tables.
type Counter func(ctx context.Context, tx *store.Tx, companyID string) (int64, error)

// The kinds a company's quotas count.
const (
	Resources  = "resources"
	Events     = "events"
	Deliveries = "deliveries"
)

// Usage keeps what each company holds (its resources, events and
// deliveries) and what the sandbox's stores take, and refuses writes
// past a quota. Counts are read in the background, at most every Every
// for a company that writes and every StorageEvery for the stores, so
// that no request waits for a count: a company may pass a quota by what
// it writes in that time, never by more.
type Usage struct {
	DB     *store.DB
	Config Config // with defaults (WithDefaults)
	Log    *slog.Logger
	// Counters count each kind (Resources, Events, Deliveries); several
	// for one kind add up.
	Counters map[string][]Counter
	// Storage answers the bytes the sandbox's stores take; nil skips the
	// storage budget.
	Storage func(ctx context.Context) (int64, error)
	// Every and StorageEvery are how often counts are read again; zero
	// is a second, and five seconds.
	Every, StorageEvery time.Duration

	mu        sync.Mutex
	companies map[string]*held
	stored    held
}

// held is what was last counted, and when.
type held struct {
	at       time.Time
	counts   map[string]int64
	bytes    int64
	counting bool
}

// maxCompanies bounds the companies whose counts are remembered; past
// it they are all counted afresh.
const maxCompanies = 100_000

func (u *Usage) quotas() map[string]int64 {
	return map[string]int64{Resources: u.Config.Resources, Events: u.Config.Events, Deliveries: u.Config.Deliveries}
}

// Check answers nil, or why a write of the company ctx acts for may not
// go in: the sandbox's storage past its budget, or the company past a
// quota (429 with Retry-After, which the API's dialect words). For the
// operator only the storage applies; a write of no company is refused.
func (u *Usage) Check(ctx context.Context) error {
	if u == nil {
		return nil
	}
	sc, err := tenant.Of(ctx)
	if err != nil {
		return err
	}
	if err := u.checkStorage(); err != nil {
		return err
	}
	companyID, one := sc.Company()
	if !one {
		return nil
	}
	counts := u.counts(companyID)
	for kind, limit := range u.quotas() {
		if limit > 0 && counts[kind] >= limit {
			return errs.Errorf(errs.TooManyRequests, "a empresa atingiu a cota de %d %s do sandbox (tem %d); a retenção libera os mais antigos já concluídos, ou POST /sandbox/reset recomeça; tente de novo em 60 s",
				limit, words[kind], counts[kind]).WithHeader("Retry-After", "60")
		}
	}
	return nil
}

var words = map[string]string{Resources: "recursos (cobranças, Pix, recorrências, propostas, inscrições, benefícios)", Events: "eventos", Deliveries: "entregas de webhook"}

// counts answers a company's last counts, and has them read again in
// the background when they are older than Every.
func (u *Usage) counts(companyID string) map[string]int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.companies == nil || len(u.companies) > maxCompanies {
		u.companies = map[string]*held{}
	}
	h := u.companies[companyID]
	if h == nil {
		h = &held{}
		u.companies[companyID] = h
	}
	if !h.counting && time.Since(h.at) >= orEvery(u.Every, time.Second) {
		h.counting = true
		go u.count(companyID, h)
	}
	return h.counts
}

func orEvery(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// count reads a company's counts.
func (u *Usage) count(companyID string, h *held) {
	ctx := context.Background()
	counts := map[string]int64{}
	err := u.DB.Read(ctx, func(tx *store.Tx) error {
		for kind, cs := range u.Counters {
			for _, c := range cs {
				n, err := c(ctx, tx, companyID)
				if err != nil {
					return fmt.Errorf("count %s: %w", kind, err)
				}
				counts[kind] += n
			}
		}
		return nil
	})
	u.mu.Lock()
	defer u.mu.Unlock()
	h.counting, h.at = false, time.Now()
	if err != nil {
		if u.Log != nil {
			u.Log.Error("quota counts", "company", companyID, "err", err)
		}
		return
	}
	h.counts = counts
}

// checkStorage refuses every write while the stores are past their
// budget; it has them measured again in the background.
func (u *Usage) checkStorage() error {
	if u.Storage == nil || u.Config.Storage <= 0 {
		return nil
	}
	u.mu.Lock()
	h := &u.stored
	if !h.counting && time.Since(h.at) >= orEvery(u.StorageEvery, 5*time.Second) {
		h.counting = true
		go u.measure()
	}
	over := h.bytes >= u.Config.Storage
	bytes := h.bytes
	u.mu.Unlock()
	if over {
		return errs.Errorf(errs.TooManyRequests, "o armazenamento do sandbox está no limite (%s de %s); nada novo é gravado até a retenção liberar espaço; tente de novo em 60 s",
			FormatBytes(bytes), FormatBytes(u.Config.Storage)).WithHeader("Retry-After", strconv.Itoa(60))
	}
	return nil
}

func (u *Usage) measure() {
	n, err := u.Storage(context.Background())
	u.mu.Lock()
	defer u.mu.Unlock()
	u.stored.counting, u.stored.at = false, time.Now()
	if err != nil {
		if u.Log != nil {
			u.Log.Error("measure storage", "err", err)
		}
		return
	}
	u.stored.bytes = n
}

// Full reports whether the stores are past their budget, as last
// measured: the interaction log records nothing new meanwhile.
func (u *Usage) Full() bool {
	if u == nil {
		return false
	}
	return u.checkStorage() != nil
}
