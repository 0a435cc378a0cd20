//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"slices"
	"syscall"
	"time"
)

// measurePolling is measure with a load generator that never sleeps: one
// thread keeps every connection's socket non-blocking and asks epoll for
// answers with a zero timeout, again and again, on its own core.
//
// Why: on this kind of machine (a PVM microVM) waking a thread that sleeps
// on another core is an interrupt the hypervisor delivers, and the kernel
// charges it to the sender: the server's write of an answer ran the
// loopback's receive, and the wake-up of the sleeping load generator is
// charged to the server's core (decision record 0019). A server fast
// enough to answer before its
// client sleeps (the bare one) never pays it, a slower one pays it per
// answer, so a sleeping client measures the host as much as the server.
// A client across a network never charges the server for its wake-up;
// this one does not either. Both figures are reported: -client picks.
func measurePolling(addr string, conns int, dur time.Duration, rq request) result {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return result{errors: 1, n: 1, firstErr: fmt.Errorf("epoll: %w", err)}
	}
	defer syscall.Close(epfd)
	l := &pollLoad{rq: rq, epfd: epfd}
	for i := range conns {
		pc, err := dialPolling(epfd, addr, rq, i)
		if err != nil {
			l.fail(err)
			continue
		}
		defer syscall.Close(pc.fd)
		l.pcs = append(l.pcs, pc)
	}
	elapsed := l.run(dur)
	slices.Sort(l.lat)
	r := result{n: len(l.lat) + l.nerr, errors: l.nerr, firstErr: l.firstErr, perSec: float64(len(l.lat)) / elapsed.Seconds()}
	if len(l.lat) > 0 {
		r.p50 = l.lat[len(l.lat)/2]
		r.p99 = l.lat[len(l.lat)*99/100]
		r.maxd = l.lat[len(l.lat)-1]
	}
	return r
}

// pollLoad is a run of measurePolling: its connections, the latencies of
// the answers wanted, the errors.
type pollLoad struct {
	rq       request
	epfd     int
	pcs      []*pollConn
	lat      []time.Duration
	nerr     int
	firstErr error
}

func (l *pollLoad) fail(err error) {
	if l.nerr++; l.nerr == 1 {
		l.firstErr = err
	}
}

// run keeps every connection busy for dur, a request, its answer, the
// next, and returns how long it took.
func (l *pollLoad) run(dur time.Duration) time.Duration {
	t0 := time.Now()
	deadline := t0.Add(dur)
	inFlight := 0
	for _, pc := range l.pcs {
		if err := pc.send(); err != nil {
			l.fail(err)
			syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, pc.fd, nil)
			continue
		}
		inFlight++
	}
	events := make([]syscall.EpollEvent, len(l.pcs)+1)
	// Answers still on their way when the time is up are awaited (as
	// measure's connections finish theirs), for at most a few seconds.
	giveUp := deadline.Add(5 * time.Second)
	for inFlight > 0 {
		n, err := syscall.EpollWait(l.epfd, events, 0)
		if err != nil && !errors.Is(err, syscall.EINTR) {
			l.fail(fmt.Errorf("epoll_wait: %w", err))
			break
		}
		if n <= 0 {
			if time.Now().After(giveUp) {
				l.fail(fmt.Errorf("%d answers never came", inFlight))
				break
			}
			continue
		}
		for _, ev := range events[:n] {
			if pc := l.pcs[ev.Fd]; !l.answer(pc, deadline) {
				inFlight--
				// Done or broken: a closed socket would be ready for ever.
				syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, pc.fd, nil)
			}
		}
	}
	return time.Since(t0)
}

// answer reads what came on pc and, once its answer is whole, counts it
// and sends the next request before the deadline; it reports whether pc
// still has a request in flight.
func (l *pollLoad) answer(pc *pollConn, deadline time.Time) bool {
	status, done, err := pc.receive()
	switch {
	case err != nil:
		l.fail(err)
		return false
	case !done:
		return true
	case status != l.rq.want:
		l.fail(fmt.Errorf("%s %s: status %d, want %d", l.rq.method, l.rq.path, status, l.rq.want))
	default:
		l.lat = append(l.lat, time.Since(pc.sent))
	}
	if time.Now().After(deadline) {
		return false
	}
	if err := pc.send(); err != nil {
		l.fail(err)
		return false
	}
	return true
}

// pollConn is a non-blocking connection of measurePolling: the request it
// repeats (conn's bytes and txid) and what has arrived of its answer.
type pollConn struct {
	*conn
	fd   int
	in   []byte
	sent time.Time
	rd   bytes.Reader
	br   *bufio.Reader
}

// dialPolling connects a non-blocking socket to addr, registered with
// epfd under the number i.
func dialPolling(epfd int, addr string, rq request, i int) (*pollConn, error) {
	ta, err := net.ResolveTCPAddr("tcp4", addr)
	if err != nil {
		return nil, err
	}
	sa := &syscall.SockaddrInet4{Port: ta.Port}
	copy(sa.Addr[:], ta.IP.To4())
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	// As Go's own connections: no Nagle delay on a request's last bytes.
	if err := syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	pc := &pollConn{conn: requestBytes(addr, rq), fd: fd, in: make([]byte, 0, 16<<10)}
	pc.br = bufio.NewReaderSize(&pc.rd, 16<<10)
	return pc, nil
}

// send writes the next request whole (a request is far below a socket's
// buffer, so a short write is the server not reading: it waits for it).
func (pc *pollConn) send() error {
	pc.nextTxid()
	pc.sent = time.Now()
	for b := pc.req; len(b) > 0; {
		n, err := syscall.Write(pc.fd, b)
		switch {
		case errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("write: %w", err)
		}
		b = b[n:]
	}
	return nil
}

// receive reads what has arrived and, once an answer is whole, returns
// its status and done. It parses with readResponse, the sleeping client's
// reader, over the bytes so far: a short read there is an answer not yet
// whole.
func (pc *pollConn) receive() (status int, done bool, err error) {
	for {
		if len(pc.in) == cap(pc.in) {
			pc.in = slices.Grow(pc.in, len(pc.in))
		}
		n, err := syscall.Read(pc.fd, pc.in[len(pc.in):cap(pc.in)])
		if errors.Is(err, syscall.EAGAIN) {
			break
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return 0, false, fmt.Errorf("read: %w", err)
		}
		if n == 0 {
			return 0, false, errors.New("the server closed the connection")
		}
		pc.in = pc.in[:len(pc.in)+n]
	}
	pc.rd.Reset(pc.in)
	pc.br.Reset(&pc.rd)
	status, err = readResponse(pc.br)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	if rest := pc.br.Buffered() + pc.rd.Len(); rest > 0 {
		return 0, false, fmt.Errorf("%d bytes past an answer nobody asked for", rest)
	}
	pc.in = pc.in[:0]
	return status, true, nil
}
