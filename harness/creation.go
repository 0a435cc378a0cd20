package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// A partner may create a charge by PUT /cob/{txid} with a txid of its own,
// or by POST /cob with an Idempotency-Key: the spec's usage rules ask a
// txid per charge and a safe retry, and say nothing of which operation.
// These checks accept either way of meeting them.

// creationCalls are the partner's charge creations (PUT /pix/v2/cob/{txid},
// POST /pix/v2/cob), oldest first.
func (w *World) creationCalls() ([]interaction, error) {
	list, err := w.interactions("", `/pix/v2/cob(/[^/]+)?`)
	if err != nil {
		return nil, err
	}
	var out []interaction
	for _, it := range list {
		put := it.Method == http.MethodPut && strings.Count(it.Path, "/") == 4
		post := it.Method == http.MethodPost && it.Path == "/pix/v2/cob"
		if put || post {
			out = append(out, it)
		}
	}
	return out, nil
}

// faultedCreation finds the creation that met the injected fault and the
// partner's next creation, nil when it made none.
func (w *World) faultedCreation() (faulted interaction, next *interaction, err error) {
	list, err := w.creationCalls()
	if err != nil {
		return interaction{}, nil, err
	}
	for i, it := range list {
		if it.Injected == "" {
			continue
		}
		if i+1 < len(list) {
			next = &list[i+1]
		}
		return it, next, nil
	}
	return interaction{}, nil, fmt.Errorf("no charge creation of the partner (PUT /pix/v2/cob/{txid} or POST /pix/v2/cob) met the injected fault: did the partner create a charge?")
}

// retriedCreation checks that after the injected fault the partner made
// its creation again safely, the same txid (PUT) or the same
// Idempotency-Key (POST), and that n charges exist.
func (w *World) retriedCreation(n int) error {
	return eventually(6, func() error {
		f, next, err := w.faultedCreation()
		if err != nil {
			return err
		}
		if next == nil {
			return fmt.Errorf("no retry after the injected fault (%s on %s %s): retry 5xx answers, timeouts and lost answers, with backoff", f.Injected, f.Method, f.Path)
		}
		switch {
		case f.Method == http.MethodPut && next.Path != f.Path:
			return fmt.Errorf("the partner retried with another txid (%s, then %s %s): a retry must reuse the txid, or it creates a second charge", f.Path, next.Method, next.Path)
		case f.Method == http.MethodPost && (f.IdempotencyKey == "" || next.IdempotencyKey != f.IdempotencyKey):
			return fmt.Errorf("the partner retried POST /pix/v2/cob without the same Idempotency-Key (%q, then %q): a POST that creates needs one, repeated on its retries, or it creates a second charge",
				f.IdempotencyKey, next.IdempotencyKey)
		}
		got, err := w.chargesCreated()
		if err != nil {
			return err
		}
		if got != n {
			return fmt.Errorf("%d charges exist, want %d: a retry must not create another charge", got, n)
		}
		return nil
	})
}

// waitedBeforeRecreating checks the gap between the answer that carried
// the injected fault and the partner's retry of its creation.
func (w *World) waitedBeforeRecreating(ms int) error {
	return eventually(6, func() error {
		f, next, err := w.faultedCreation()
		if err != nil {
			return err
		}
		if next == nil {
			return fmt.Errorf("no retry after the injected fault (%s): retry 5xx answers with backoff, honouring Retry-After", f.Injected)
		}
		// Wall-clock times: the sandbox clock may be frozen.
		end := f.WallAt.Add(time.Duration(f.DurationMS * float64(time.Millisecond)))
		if gap := next.WallAt.Sub(end); gap < time.Duration(ms)*time.Millisecond {
			return fmt.Errorf("the partner retried its charge creation %d ms after %s, want at least %d ms: back off between attempts, never sooner than Retry-After asks", gap.Milliseconds(), faultSeen(f), ms)
		}
		return nil
	})
}

// chargesCreated counts the immediate charges of the scenario's company,
// as the sandbox holds them.
func (w *World) chargesCreated() (int, error) {
	resp, err := w.client.Get(w.BaseURL + "/sandbox/resources?kind=cob&limit=1000")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Resources []json.RawMessage `json:"resources"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return 0, fmt.Errorf("the sandbox's resources answered %d", resp.StatusCode)
	}
	return len(out.Resources), nil
}

// idempotencyKeysOwn checks the partner never sent one Idempotency-Key
// with two different proposals: a key names one operation, and the
// insurer answers a reused key with the first proposal (or refuses it).
func (w *World) idempotencyKeysOwn() error {
	list, err := w.interactions(http.MethodPost, `(?i)/.*/proposta`)
	if err != nil {
		return err
	}
	bodies := map[string]string{}
	for _, it := range list {
		if it.IdempotencyKey == "" {
			continue
		}
		if prev, ok := bodies[it.IdempotencyKey]; ok && prev != it.RequestBody {
			return fmt.Errorf("the partner sent the Idempotency-Key %s with two different proposals: a key names one proposal, repeated only on its retries; make a new one for each", it.IdempotencyKey)
		}
		bodies[it.IdempotencyKey] = it.RequestBody
	}
	if len(list) < 2 {
		return fmt.Errorf("the partner sent %d proposals, want 2", len(list))
	}
	return nil
}

// rereadAfterPending checks the partner read its proposal again after
// answering its pending: the answer moves the proposal on, and a partner
// that assumes where it went shows its customer a stale status.
func (w *World) rereadAfterPending(secs int) error {
	return eventually(secs, func() error {
		answers, err := w.interactions(http.MethodPut, `(?i)/.*/pendencia(/[0-9]+)?`)
		if err != nil {
			return err
		}
		if len(answers) == 0 {
			return fmt.Errorf("the partner did not answer its proposal's pending")
		}
		reads, err := w.interactions(http.MethodGet, `(?i)/.*/proposta/[0-9]+`)
		if err != nil {
			return err
		}
		for _, r := range reads {
			if r.ID > answers[0].ID {
				return nil
			}
		}
		return fmt.Errorf("the partner answered its pending (%s) and never read the proposal again: read it (GET /proposta/{numero}) or act on its next event to know where it stands", answers[0].Path)
	})
}
