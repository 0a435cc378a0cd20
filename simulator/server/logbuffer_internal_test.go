package server

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// written reads what b wrote to out: b writes under its lock.
func written(b *logBuffer, out *bytes.Buffer) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return out.String()
}

func TestLogBufferHoldsLinesBriefly(t *testing.T) {
	out := &bytes.Buffer{}
	b := &logBuffer{w: out, flushAfter: 50 * time.Millisecond, size: 1 << 10}
	b.Write([]byte("one\n"))
	b.Write([]byte("two\n"))
	if got := written(b, out); got != "" {
		t.Fatalf("written at once: %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for written(b, out) == "" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := written(b, out); got != "one\ntwo\n" {
		t.Fatalf("after the delay the log holds %q, want both lines in order", got)
	}
	// A full buffer is written at once.
	long := strings.Repeat("x", 1<<10) + "\n"
	b.Write([]byte(long))
	if got := written(b, out); got != "one\ntwo\n"+long {
		t.Fatalf("a full buffer was not written at once: %d bytes", len(got))
	}
	// Flush writes what is held.
	b.Write([]byte("three\n"))
	b.Flush()
	if got := written(b, out); !strings.HasSuffix(got, long+"three\n") {
		t.Fatalf("Flush left %q", got)
	}
}

// Lines written at once by many goroutines come out whole.
func TestLogBufferKeepsLinesWhole(t *testing.T) {
	out := &bytes.Buffer{}
	b := &logBuffer{w: out, flushAfter: time.Millisecond, size: 512}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				fmt.Fprintf(b, "goroutine=%d line=%03d end\n", g, i)
			}
		}()
	}
	wg.Wait()
	b.Flush()
	lines := strings.Split(strings.TrimSuffix(written(b, out), "\n"), "\n")
	if len(lines) != 1600 {
		t.Fatalf("%d lines, want 1600", len(lines))
	}
	for _, l := range lines {
		var g, i int
		if n, err := fmt.Sscanf(l, "goroutine=%d line=%d end", &g, &i); n != 2 || err != nil {
			t.Fatalf("a line came out broken: %q", l)
		}
	}
}
