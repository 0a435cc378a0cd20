package auth

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/errs"
)

// TestPasswordHashingTakesTurns: however many logins arrive at once, at
// most PasswordHashers hash; one that waits past hashWait is a 429.
func TestPasswordHashingTakesTurns(t *testing.T) {
	s := &Service{PasswordHashers: 2}
	var now, most atomic.Int32
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			err := s.withHashTurn(context.Background(), func() {
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(5 * time.Millisecond)
				now.Add(-1)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := most.Load(); got != 2 {
		t.Fatalf("%d hashes at once, want 2", got)
	}

	held := make(chan struct{})
	release := make(chan struct{})
	one := &Service{PasswordHashers: 1}
	go one.withHashTurn(context.Background(), func() { close(held); <-release })
	<-held
	defer close(release)
	start := time.Now()
	err := one.withHashTurn(context.Background(), func() { t.Error("ran without a turn") })
	if errs.CodeOf(err) != errs.TooManyRequests || time.Since(start) < hashWait {
		t.Fatalf("waiting past %v: %v after %v, want a 429", hashWait, err, time.Since(start))
	}
}
