package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// request is what one connection sends again and again: the bytes of an
// HTTP/1.1 request, a txid spliced in at txidAt for creations (each its
// own), and the status it wants back.
type request struct {
	method, path string
	body         string
	auth         string
	want         int
	// fresh makes each request's txid new (creations); otherwise the path
	// is sent as it is.
	fresh bool
}

// result is one measurement: throughput and latency of the requests
// that got the status they wanted.
type result struct {
	n, errors      int
	perSec         float64
	p50, p99, maxd time.Duration
	firstErr       error
	// faults is the server's minor page faults per request: on a microVM
	// the first touch of a page is dear, so a server growing its memory
	// pays for it per request.
	faults float64
	// cpu is the server's processor time (user and system) per request.
	cpu time.Duration
}

// txidSeq numbers the creations of a whole run, so no two collide across
// cells and servers.
var txidSeq atomic.Int64

// txidWidth is a txid's length: "bench" and 27 digits, the 32
// alphanumerics of the charge's rule.
const txidWidth = 32

// measure keeps conns keep-alive connections to addr busy for dur, each a
// closed loop (a request, its whole answer, the next request), and
// summarises latencies. It is the load generator: no net/http client,
// whose per-request cost would be the bench's own ceiling on one core.
func measure(addr string, conns int, dur time.Duration, rq request) result {
	var (
		mu       sync.Mutex
		lat      []time.Duration
		nerr     atomic.Int64
		firstErr error
		wg       sync.WaitGroup
		ready    sync.WaitGroup
	)
	start := make(chan struct{})
	ready.Add(conns)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dial(addr, rq)
			ready.Done()
			<-start
			deadline := time.Now().Add(dur)
			mine := make([]time.Duration, 0, 1<<14)
			fail := func(err error) {
				if nerr.Add(1) == 1 {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}
			for time.Now().Before(deadline) {
				if err != nil || c == nil {
					if c, err = dial(addr, rq); err != nil {
						fail(err)
						time.Sleep(10 * time.Millisecond)
						continue
					}
				}
				t := time.Now()
				var status int
				status, err = c.do()
				if err != nil {
					fail(err)
					c.close()
					c = nil
					continue
				}
				if status != rq.want {
					fail(fmt.Errorf("%s %s: status %d, want %d", rq.method, rq.path, status, rq.want))
					continue
				}
				mine = append(mine, time.Since(t))
			}
			if c != nil {
				c.close()
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(t0)
	slices.Sort(lat)
	r := result{n: len(lat) + int(nerr.Load()), errors: int(nerr.Load()), firstErr: firstErr, perSec: float64(len(lat)) / elapsed.Seconds()}
	if len(lat) > 0 {
		r.p50 = lat[len(lat)/2]
		r.p99 = lat[len(lat)*99/100]
		r.maxd = lat[len(lat)-1]
	}
	return r
}

// conn is one keep-alive connection and the request it repeats.
type conn struct {
	nc     net.Conn
	br     *bufio.Reader
	req    []byte
	txidAt int // where the txid's digits start in req; -1 for none
}

func dial(addr string, rq request) (*conn, error) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c := requestBytes(addr, rq)
	c.nc, c.br = nc, bufio.NewReaderSize(nc, 16<<10)
	return c, nil
}

// requestBytes is a connection's request, not connected yet.
func requestBytes(addr string, rq request) *conn {
	c := &conn{txidAt: -1}
	path := rq.path
	if rq.fresh {
		path += fmt.Sprintf("bench%027d", 0)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: pixbench\r\nAccept: application/json\r\n", rq.method, path, addr)
	if rq.auth != "" {
		fmt.Fprintf(&b, "Authorization: %s\r\n", rq.auth)
	}
	if rq.body != "" {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(rq.body))
	}
	b.WriteString("\r\n")
	b.WriteString(rq.body)
	c.req = b.Bytes()
	if rq.fresh {
		c.txidAt = bytes.Index(c.req, []byte(path)) + len(rq.path) + len("bench")
	}
	return c
}

func (c *conn) close() { c.nc.Close() }

// do sends the request once and reads the whole answer; it returns the
// status.
func (c *conn) do() (int, error) {
	c.nextTxid()
	if _, err := c.nc.Write(c.req); err != nil {
		return 0, err
	}
	return readResponse(c.br)
}

// nextTxid gives a creation's request a txid of its own.
func (c *conn) nextTxid() {
	if c.txidAt < 0 {
		return
	}
	digits := c.req[c.txidAt : c.txidAt+txidWidth-len("bench")]
	n := txidSeq.Add(1)
	for i := len(digits) - 1; i >= 0; i-- {
		digits[i] = byte('0' + n%10)
		n /= 10
	}
}

// readResponse reads one HTTP/1.1 answer, its body by Content-Length or
// chunked, and returns its status.
func readResponse(br *bufio.Reader) (int, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	length, chunked, closing := -1, false, false
	for {
		line, err = br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(line) <= 2 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		err = discardChunked(br)
	case length >= 0:
		_, err = br.Discard(length)
	default:
		return 0, errors.New("an answer without a length")
	}
	if err == nil && closing {
		err = errors.New("the server closed the connection")
	}
	return status, err
}

func discardChunked(br *bufio.Reader) error {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		hex, _, _ := bytes.Cut(bytes.TrimSpace(line), []byte(";"))
		n, err := strconv.ParseInt(string(hex), 16, 64)
		if err != nil {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			for { // trailers, then the blank line
				line, err = br.ReadSlice('\n')
				if err != nil || len(line) <= 2 {
					return err
				}
			}
		}
		if _, err := br.Discard(int(n) + 2); err != nil {
			return err
		}
	}
}

// get sends one request on a fresh connection and returns the status,
// the body and the Content-Type of the answer: how the bench reads what
// the sandbox answers, to serve the same bytes from the baseline.
func get(addr, method, path, auth, ctype, body string) (int, []byte, string, error) {
	nc, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return 0, nil, "", err
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, path, addr)
	if auth != "" {
		fmt.Fprintf(&b, "Authorization: %s\r\n", auth)
	}
	if ctype != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", ctype)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	if _, err := nc.Write(b.Bytes()); err != nil {
		return 0, nil, "", err
	}
	raw, err := io.ReadAll(nc)
	if err != nil {
		return 0, nil, "", err
	}
	head, rest, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok || len(head) < 12 {
		return 0, nil, "", fmt.Errorf("%s %s: bad answer %q", method, path, raw)
	}
	status, _ := strconv.Atoi(string(head[9:12]))
	var ct string
	chunked := false
	for _, l := range bytes.Split(head, []byte("\r\n"))[1:] {
		name, value, _ := bytes.Cut(l, []byte(":"))
		switch {
		case bytes.EqualFold(name, []byte("Content-Type")):
			ct = string(bytes.TrimSpace(value))
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = true
		}
	}
	if chunked {
		var out []byte
		for len(rest) > 0 {
			size, after, _ := bytes.Cut(rest, []byte("\r\n"))
			n, err := strconv.ParseInt(string(size), 16, 64)
			if err != nil || n == 0 || int(n) > len(after) {
				break
			}
			out, rest = append(out, after[:n]...), after[n+2:]
		}
		rest = out
	}
	return status, rest, ct, nil
}
