package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// Header is the request header that carries the key.
const Header = "Idempotency-Key"

// ReplayedHeader marks a replayed answer.
const ReplayedHeader = "Idempotent-Replayed"

// Keys stores idempotency keys.
type Keys struct {
	DB     *store.DB
	Clocks *clock.Clocks
	TTL    time.Duration

	mu       sync.Mutex
	inflight map[string]bool
}

type stored struct {
	Status int
	Header map[string]string
	Body   []byte
}

// keptHeaders are the response headers a replay repeats.
var keptHeaders = []string{"Content-Type", "Location"}

// Wrap answers a POST with an Idempotency-Key from the store when it can.
// It must run after authentication, since keys are scoped to the app.
func (k *Keys) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get(Header)
		if key == "" || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if len(key) > 255 {
			httpx.WriteError(w, r, errs.Invalidf(Header, "deve ter no máximo 255 caracteres"))
			return
		}
		info := httpx.InfoOf(r.Context())
		scope := scopeOf(info)
		if scope == "" {
			// A request of no caller (registration, login) keeps no
			// answer: one kept for whoever sends the same key next
			// would hand one caller's answer, secrets and all, to
			// another.
			next.ServeHTTP(w, r)
			return
		}
		info.IdempotencyKey = key
		body, err := httpx.ReadBody(r, 0)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fp := fingerprint(r, body)

		prev, found, err := k.lookup(r.Context(), scope, key)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if found {
			if prev.request != fp {
				httpx.WriteError(w, r, errs.Errorf(errs.Unprocessable,
					"a Idempotency-Key %q já foi usada com outra requisição (método, caminho ou corpo); use uma chave nova para uma requisição nova", key))
				return
			}
			for h, v := range prev.Header {
				w.Header().Set(h, v)
			}
			w.Header().Set(ReplayedHeader, "true")
			w.WriteHeader(prev.Status)
			w.Write(prev.Body)
			return
		}

		release, ok := k.claim(scope + "\x00" + key)
		if !ok {
			httpx.WriteError(w, r, errs.Errorf(errs.Conflict, "uma requisição com a Idempotency-Key %q ainda está em andamento; tente de novo em instantes", key).WithHeader("Retry-After", "1"))
			return
		}
		defer release()

		cw := &httpx.Capture{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		// A 5xx is not an answer worth keeping: the retry the key exists
		// for should get another chance at the work.
		if cw.Status == 0 || cw.Status >= 500 {
			return
		}
		s := stored{Status: cw.Status, Header: map[string]string{}, Body: cw.Body.Bytes()}
		for _, h := range keptHeaders {
			if v := w.Header().Get(h); v != "" {
				s.Header[h] = v
			}
		}
		if err := k.save(context.WithoutCancel(r.Context()), scope, key, fp, s); err != nil {
			httpx.InfoOf(r.Context()).Logger.Error("save idempotency key", "err", err)
		}
	})
}

// scopeOf is whose keys a request's key is among: its app's, its portal
// account's, the operator's; "" for a request of no caller. Keys of one
// caller never answer another's request.
func scopeOf(info *httpx.Info) string {
	switch {
	case info.AppID != "":
		return info.AppID
	case info.Account != "":
		return "account:" + info.Account
	case info.Operator:
		return "operator"
	}
	return ""
}

// fingerprint identifies a request: method, path, query and the body with
// insignificant JSON whitespace removed.
// claim marks a key's request as in flight; false when one already is.
func (k *Keys) claim(slot string) (release func(), ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.inflight == nil {
		k.inflight = map[string]bool{}
	}
	if k.inflight[slot] {
		return nil, false
	}
	k.inflight[slot] = true
	return func() {
		k.mu.Lock()
		delete(k.inflight, slot)
		k.mu.Unlock()
	}, true
}

func fingerprint(r *http.Request, body []byte) string {
	var compact bytes.Buffer
	if json.Compact(&compact, body) != nil {
		compact.Reset()
		compact.Write(body)
	}
	h := sha256.New()
	io.WriteString(h, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery+"\n")
	h.Write(compact.Bytes())
	return hex.EncodeToString(h.Sum(nil))
}

type row struct {
	stored
	request string
}

func (k *Keys) lookup(ctx context.Context, scope, key string) (row, bool, error) {
	var rw row
	var headers string
	err := k.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT request, status, headers, body FROM idempotency_keys WHERE scope = ? AND key = ? AND expires_at > ?`,
			scope, key, k.Clocks.Now(ctx).UnixNano()).Scan(&rw.request, &rw.Status, &headers, &rw.Body)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return row{}, false, nil
	}
	if err != nil {
		return row{}, false, err
	}
	json.Unmarshal([]byte(headers), &rw.Header)
	return rw, true, nil
}

func (k *Keys) save(ctx context.Context, scope, key, fp string, s stored) error {
	ttl := k.TTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	now := k.Clocks.Now(ctx)
	h, _ := json.Marshal(s.Header)
	return k.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE expires_at <= ?`, now.UnixNano()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO idempotency_keys (scope, key, request, status, headers, body, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			scope, key, fp, s.Status, string(h), s.Body, now.Add(ttl).UnixNano())
		return err
	})
}

// ResetCompany forgets the answers kept for a company's apps (a reset of
// its sandbox).
func (k *Keys) ResetCompany(ctx context.Context, tx *store.Tx, _ string, appIDs []string) error {
	for _, id := range appIDs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE scope = ?`, id); err != nil {
			return err
		}
	}
	return nil
}
