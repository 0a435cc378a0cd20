package quota_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/quota"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"16MiB": 16 << 20, "512KiB": 512 << 10, "2GB": 2 << 30, "100": 100, "0": 0, " 3 MiB ": 3 << 20, "1B": 1} {
		if got, err := quota.ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "MiB", "1.5MiB", "ten"} {
		if _, err := quota.ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) took it", in)
		}
	}
	if got := quota.FormatBytes(16 << 20); got != "16MiB" {
		t.Errorf("FormatBytes = %q", got)
	}
}

func TestWithDefaults(t *testing.T) {
	c := quota.Config{Resources: -1, Events: 7}.WithDefaults()
	if c.Resources != 0 || c.Events != 7 || c.Deliveries != quota.Defaults.Deliveries || c.LogBytes != quota.Defaults.LogBytes {
		t.Fatalf("%+v", c)
	}
}

// waitFor polls ok for up to two seconds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestUsageRefusesPastAQuota: a company whose counts reach a quota is
// refused with a 429 and Retry-After; another company, under its own,
// is not; counts are read in the background, never in the caller's way.
func TestUsageRefusesPastAQuota(t *testing.T) {
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var events atomic.Int64
	u := &quota.Usage{DB: db, Config: quota.Config{Events: 3}.WithDefaults(), Every: time.Millisecond,
		Counters: map[string][]quota.Counter{quota.Events: {func(_ context.Context, _ *store.Tx, company string) (int64, error) {
			if company == "A" {
				return events.Load(), nil
			}
			return 0, nil
		}}}}
	ctx := context.Background()
	events.Store(2)
	waitFor(t, "A under its quota", func() bool { return u.Check(tenant.With(ctx, "A")) == nil })
	events.Store(3)
	waitFor(t, "A refused", func() bool { return u.Check(tenant.With(ctx, "A")) != nil })
	err = u.Check(tenant.With(ctx, "A"))
	if e := errs.As(err); e == nil || e.Code != errs.TooManyRequests || e.Header.Get("Retry-After") == "" {
		t.Fatalf("A past its quota: %v", err)
	}
	if err := u.Check(tenant.With(ctx, "B")); err != nil {
		t.Fatalf("B under its own quota: %v", err)
	}
}

// TestUsageRefusesEveryonePastTheStorage: past the storage budget every
// write is refused, the operator's too, and Full says so.
func TestUsageRefusesEveryonePastTheStorage(t *testing.T) {
	var bytes atomic.Int64
	u := &quota.Usage{Config: quota.Config{Storage: 1000}.WithDefaults(), StorageEvery: time.Millisecond,
		Storage: func(context.Context) (int64, error) { return bytes.Load(), nil }}
	ctx := context.Background()
	bytes.Store(999)
	waitFor(t, "under the budget", func() bool { return u.Check(tenant.WithEveryCompany(ctx)) == nil && !u.Full() })
	bytes.Store(1000)
	waitFor(t, "past the budget", func() bool { return u.Full() })
	if err := u.Check(tenant.With(ctx, "A")); errs.CodeOf(err) != errs.TooManyRequests {
		t.Fatalf("a company's write past the budget: %v", err)
	}
}
