package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"homologa/simulator/store"
)

// loadInboxKey reads the key that signs the inbox boxes' secret URLs, or
// makes and keeps one: a sandbox on a file gives a box the same URL
// after a restart, so a webhook pointed at it keeps working.
func (s *Server) loadInboxKey(ctx context.Context) error {
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		var v string
		err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'inbox.key'`).Scan(&v)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read the inbox key: %w", err)
		}
		if key, derr := hex.DecodeString(v); err == nil && derr == nil && len(key) == 32 {
			s.inboxKey = key
			return nil
		}
		s.inboxKey = make([]byte, 32)
		rand.Read(s.inboxKey)
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings (key, value) VALUES ('inbox.key', ?)`, hex.EncodeToString(s.inboxKey))
		return err
	})
}

// baseURL is the sandbox's base URL as a request's client reaches it:
// the public URL of a hosted sandbox, else the request's own host.
func (s *Server) baseURL(r *http.Request) string {
	if s.Config.PublicURL != "" {
		return strings.TrimSuffix(s.Config.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
