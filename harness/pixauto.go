package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// callbackWhere waits for a POST to a path ending in suffix whose body's
// field has the value; it becomes the current event.
func (w *World) callbackWhere(suffix, path, want string, secs int) error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	want, err := w.expand(want)
	if err != nil {
		return err
	}
	r, ok := w.receiver.WaitFor(time.Duration(secs)*time.Second, func(r Received) bool {
		if !strings.HasSuffix(r.Path, suffix) {
			return false
		}
		v, found, _ := field(r.Body, path)
		return found && text(v) == want
	})
	if !ok {
		var seen []string
		for _, r := range w.receiver.Requests() {
			if strings.HasSuffix(r.Path, suffix) {
				seen = append(seen, string(r.Body))
			}
		}
		return fmt.Errorf("no callback on %s with %s = %q within %ds; callbacks there: %v", suffix, path, want, secs, seen)
	}
	if err := w.checkCallback(suffix, r.Body); err != nil {
		return err
	}
	w.event = &received{Raw: r.Body, Header: r.Header}
	return nil
}

// checkCallback validates an official callback body against its schema,
// when the registry has it.
func (w *World) checkCallback(suffix string, body []byte) error {
	name := map[string]string{"/rec": "pix/callback.rec", "/cobr": "pix/callback.cobr", "/pix": "pix/callback.pix"}[suffix]
	if name == "" || !w.Schemas.Has(name) {
		return nil
	}
	if vs, err := w.Schemas.Validate(name, body); err != nil || len(vs) > 0 {
		return fmt.Errorf("callback breaks schema %s: %v %+v: %s", name, err, vs, body)
	}
	return nil
}

// countCallbacks counts the callbacks on suffix whose field has the value.
func (w *World) countCallbacks(n int, suffix, path, want string) error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	got := 0
	for _, r := range w.receiver.Requests() {
		if !strings.HasSuffix(r.Path, suffix) {
			continue
		}
		if v, found, _ := field(r.Body, path); found && text(v) == want {
			got++
		}
	}
	if got != n {
		return fmt.Errorf("%d callbacks on %s with %s = %q, want %d", got, suffix, path, want, n)
	}
	return nil
}

// chargeMonthly acts as the partner's billing for a year: for each month,
// PUT /cobr with the month's due date, then advance the clock past its
// settlement, so every charge goes through its scenario before the next
// is created (the cycle rule allows one per month).
func (w *World) chargeMonthly(idRec, first, valor string, months int) error {
	idRec, err := w.expand(idRec)
	if err != nil {
		return err
	}
	start, err := time.Parse(time.DateOnly, first)
	if err != nil {
		return fmt.Errorf("first due date %q: %w", first, err)
	}
	for i := range months {
		due := start.AddDate(0, i, 0)
		txid := fmt.Sprintf("cobrmensal%08d%016d", i+1, due.Unix())[:32]
		body, _ := json.Marshal(map[string]any{"idRec": idRec, "calendario": map[string]any{"dataDeVencimento": due.Format(time.DateOnly)},
			"valor": map[string]any{"original": valor}, "ajusteDiaUtil": true, "recebedor": map[string]any{"conta": "123456", "tipoConta": "CORRENTE", "agencia": "0001"}})
		if err := w.obtainToken(""); err != nil {
			return err
		}
		if err := w.do(http.MethodPut, "/pix/v2/cobr/"+txid, body, "application/json"); err != nil {
			return err
		}
		if w.resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("month %d: %s", i+1, w.describe())
		}
		// Past the settlement (a business day at most a few days later).
		now, err := w.sandboxNow()
		if err != nil {
			return err
		}
		target := due.Add(4*24*time.Hour + 18*time.Hour)
		if err := w.control(http.MethodPost, "/sandbox/clock/advance", fmt.Sprintf(`{"by":"%ds"}`, int(target.Sub(now).Seconds()))); err != nil {
			return err
		}
	}
	return w.obtainToken("")
}

func (w *World) sandboxNow() (time.Time, error) {
	if err := w.control(http.MethodGet, "/sandbox/clock", ""); err != nil {
		return time.Time{}, err
	}
	var c struct {
		Now time.Time `json:"now"`
	}
	if err := json.Unmarshal(w.body, &c); err != nil {
		return time.Time{}, err
	}
	return c.Now, nil
}
