package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// fastTimeouts are the client limits of these tests: short, so a test
// that waits past them runs in a second.
var fastTimeouts = server.Config{HeaderTimeout: 300 * time.Millisecond, BodyTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond}

// trickle writes head, then one byte of body every 50 ms until the server
// stops reading or stop is closed.
func trickle(t *testing.T, addr, head string, stop <-chan struct{}) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	return conn
}

// closedInTime checks a read that began at start ended with the server
// closing the connection (an end of file, or a reset when bytes sent were
// still unread), well before the test's own 10 s deadline.
func closedInTime(t *testing.T, start time.Time, err error) {
	t.Helper()
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || time.Since(start) > 5*time.Second {
		t.Fatalf("the connection was not closed in time (%v): %v", time.Since(start), err)
	}
}

// TestSlowClientsAreCutOff: a raw TCP client on loopback that trickles
// its body is answered 408 once the body timeout passes, in the API's
// dialect; one that trickles its headers is disconnected; an idle
// kept-alive connection is closed.
func TestSlowClientsAreCutOff(t *testing.T) {
	s := startServer(t, fastTimeouts)
	defer s.Close(context.Background())
	addr := strings.TrimPrefix(s.URL(), "http://")
	stop := make(chan struct{})
	defer close(stop)

	t.Run("ErrSlowBody", func(t *testing.T) {
		start := time.Now()
		conn := trickle(t, addr, "POST /portal/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", stop)
		defer conn.Close()
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer after %v: %v", time.Since(start), err)
		}
		body, _ := io.ReadAll(resp.Body)
		// The trickle would take 50 s to send its 1,000 bytes.
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"status":408`) || time.Since(start) > 5*time.Second {
			t.Fatalf("after %v: %d %s", time.Since(start), resp.StatusCode, body)
		}
	})
	t.Run("ErrSlowHeaders", func(t *testing.T) {
		start := time.Now()
		conn := trickle(t, addr, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", stop)
		defer conn.Close()
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.ReadAll(conn)
		closedInTime(t, start, err)
	})
	t.Run("ErrIdle", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprint(conn, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		start := time.Now()
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err = br.ReadByte()
		if err == nil {
			t.Fatal("the server sent a byte nobody asked for")
		}
		closedInTime(t, start, err)
	})
}

// TestLongRequestsOutliveTheBodyTimeout: the body's deadline bounds the
// body only. A handler that works longer than it, after reading its body
// or on a request without one, keeps its context and answers; a
// websocket stays open and delivers long past every timeout.
func TestLongRequestsOutliveTheBodyTimeout(t *testing.T) {
	ctx := context.Background()
	cfg := fastTimeouts
	cfg.Addr, cfg.Log, cfg.OperatorToken, cfg.PingEvery = "127.0.0.1:0", io.Discard, testOperator, 10*time.Second
	s, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-time.After(3 * cfg.BodyTimeout):
			io.WriteString(w, "done")
		case <-r.Context().Done():
			http.Error(w, "cancelled", http.StatusServiceUnavailable)
		}
	})
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if err := s.Mount(httpx.Route{API: "portal", Method: m, Path: "/slow-test", Auth: httpx.Public, Handler: slow}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)

	for _, m := range []string{http.MethodGet, http.MethodPost} {
		req, _ := http.NewRequest(m, s.URL()+"/portal/slow-test", strings.NewReader(map[string]string{"GET": "", "POST": "{}"}[m]))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "done" {
			t.Errorf("%s of a handler longer than the body timeout: %d %s", m, resp.StatusCode, b)
		}
	}

	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	ws := "ws" + strings.TrimPrefix(s.URL(), "http")
	var conns []*websocket.Conn
	for path, token := range map[string]string{"/events/ws": tok.AccessToken, "/sandbox/events/ws": testOperator} {
		c, _, err := websocket.DefaultDialer.Dial(ws+path, http.Header{"Authorization": {"Bearer " + token}})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	time.Sleep(4 * cfg.BodyTimeout) // past the header, body and idle timeouts
	if code, body := tenantCall(t, s, tok.AccessToken, http.MethodPost, "/sandbox/events/ping", ""); code != http.StatusAccepted && code != http.StatusOK {
		t.Fatalf("ping: %d %s", code, body)
	}
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, msg, err := c.ReadMessage(); err != nil || !strings.Contains(string(msg), "sandbox.ping") {
			t.Errorf("%s: the stream did not outlive the timeouts: %v %s", c.RemoteAddr(), err, msg)
		}
	}
}
