package server

import (
	"io"
	"sync"
	"time"
)

// logBuffer holds a served sandbox's log lines for up to flushAfter
// before writing them at once. Unbuffered, a line a request is a write a
// request and, where the log is a pipe (a container's, journald's), a
// wake-up of its reader each time, which costs the waking request about
// half as much again as serving a GET. A
// line reaches the log at most flushAfter late, at once when bufferSize
// is held, and on Close; a crash loses at most flushAfter of lines.
type logBuffer struct {
	w          io.Writer
	flushAfter time.Duration
	size       int

	mu      sync.Mutex
	buf     []byte
	pending bool // a flush is scheduled
	err     error
}

const (
	logFlushAfter = 100 * time.Millisecond
	logBufferSize = 32 << 10
)

func newLogBuffer(w io.Writer) *logBuffer {
	return &logBuffer{w: w, flushAfter: logFlushAfter, size: logBufferSize}
}

// Write keeps p, a whole line as slog writes one, to write it with
// others; the error is the last write's.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= b.size {
		b.flushLocked()
	} else if !b.pending {
		b.pending = true
		time.AfterFunc(b.flushAfter, b.Flush)
	}
	return len(p), b.err
}

// Flush writes what is held.
func (b *logBuffer) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	b.pending = false
}

func (b *logBuffer) flushLocked() {
	if len(b.buf) == 0 {
		return
	}
	_, b.err = b.w.Write(b.buf)
	b.buf = b.buf[:0]
	if cap(b.buf) > 4*b.size { // a burst of long lines: not kept for good
		b.buf = nil
	}
}
