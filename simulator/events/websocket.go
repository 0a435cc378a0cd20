package events

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

// Stream serves GET /events/ws: a websocket of event envelopes, one JSON
// text message each.
type Stream struct {
	Bus *Bus
	// Authenticate resolves what the caller may see (its company, in the
	// filter); browsers cannot set headers on a websocket, so the token
	// may also come as ?access_token=.
	Authenticate func(r *http.Request) (Filter, error)
	// PingEvery and PongWait bound a silent peer; zero means 30s and 60s.
	PingEvery time.Duration
	PongWait  time.Duration
	// Done, when closed, ends every stream with a going-away close frame:
	// http.Server.Shutdown does not touch hijacked connections.
	Done <-chan struct{}
	// Buffer is the number of envelopes a slow reader may lag behind
	// before it is dropped; zero means 1024.
	Buffer int

	mu   sync.Mutex
	open map[string]int // streams open per company
}

// MaxStreamsPerCompany is how many event streams one company may hold
// open at once: each holds a connection, a file descriptor and a
// buffer of the sandbox's, which all companies share. A dashboard, a
// homologa listen and a test suite's scenarios take a few.
const MaxStreamsPerCompany = 64

// admit counts a company's new stream in, or refuses it past the limit;
// the operator's (every company's) is not counted.
func (s *Stream) admit(f Filter) (release func(), err error) {
	if f.Every {
		return func() {}, nil
	}
	company := f.CompanyID
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		s.open = map[string]int{}
	}
	if s.open[company] >= MaxStreamsPerCompany {
		return nil, errs.Errorf(errs.TooManyRequests, "a empresa já tem %d streams de eventos abertos; feche algum (ou retome um com ?since=) e tente de novo", s.open[company]).
			WithHeader("Retry-After", "5")
	}
	s.open[company]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.open[company]--; s.open[company] <= 0 {
			delete(s.open, company)
		}
	}, nil
}

var upgrader = websocket.Upgrader{
	ReadBufferSize:  1024,
	WriteBufferSize: 4096,
	// The sandbox's own dashboard and partner pages on other origins
	// both connect; the token, not the origin, is the credential.
	CheckOrigin: func(r *http.Request) bool { return true },
}

// CloseSlowConsumer is the close code sent to a dropped reader (RFC 6455
// 1008, policy violation), with a reason that says what happened.
const CloseSlowConsumer = websocket.ClosePolicyViolation

func (s *Stream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if tok := q.Get("access_token"); tok != "" && r.Header.Get("Authorization") == "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	f, err := s.Authenticate(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f.Subject = q.Get("subject")
	for _, t := range strings.Split(q.Get("types"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			f.Types = append(f.Types, t)
		}
	}
	var since int64 = -1
	if v := q.Get("since"); v != "" {
		since, err = strconv.ParseInt(v, 10, 64)
		if err != nil || since < 0 {
			httpx.WriteError(w, r, errs.Invalidf("since", "deve ser um número de sequência de evento não negativo"))
			return
		}
	}
	if !websocket.IsWebSocketUpgrade(r) {
		httpx.WriteError(w, r, errs.Errorf(errs.Invalid, "este endpoint fala websocket; conecte com um cliente websocket (Upgrade: websocket)"))
		return
	}
	release, err := s.admit(f)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer release()
	// Subscribe before the handshake is answered: once the client sees the
	// 101, every event it causes must reach it, even without ?since=.
	buf := s.Buffer
	if buf <= 0 {
		buf = 1024
	}
	sub := s.Bus.Hub.Subscribe(f, buf)
	defer s.Bus.Hub.Unsubscribe(sub)
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	s.serve(r, conn, sub, buf, f, since)
}

func (s *Stream) serve(r *http.Request, conn *websocket.Conn, sub *Subscription, buf int, f Filter, since int64) {
	defer conn.Close()
	pingEvery, pongWait := s.PingEvery, s.PongWait
	if pingEvery <= 0 {
		pingEvery = 30 * time.Second
	}
	if pongWait <= 0 {
		pongWait = 2 * pingEvery
	}
	// The subscription predates the history read, so nothing falls
	// between the two; the sequence number removes what both deliver.
	done := make(chan struct{})
	conn.SetReadLimit(4096)
	conn.SetReadDeadline(time.Now().Add(pongWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(pongWait)) })
	go func() {
		defer close(done)
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()

	write := func(v any) error {
		conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		return conn.WriteJSON(v)
	}
	last := since
	if since >= 0 {
		for {
			page, err := s.Bus.Events(r.Context(), f, last, 500)
			if err != nil {
				return
			}
			for _, e := range page {
				last = e.Sequence
				if f.Match(e) {
					if write(e) != nil {
						return
					}
				}
			}
			if len(page) < 500 {
				break
			}
		}
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case e, ok := <-sub.C:
			if !ok {
				msg := websocket.FormatCloseMessage(CloseSlowConsumer, "slow consumer: more than "+strconv.Itoa(buf)+" events behind; reconnect with ?since="+strconv.FormatInt(last, 10))
				conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
				return
			}
			if e.Sequence <= last {
				continue
			}
			last = e.Sequence
			if write(e) != nil {
				return
			}
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)) != nil {
				return
			}
		case <-done:
			return
		case <-s.Done:
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "sandbox shutting down"), time.Now().Add(time.Second))
			return
		case <-r.Context().Done():
			return
		}
	}
}
