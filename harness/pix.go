package harness

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"homologa/simulator/pix/brcode"
)

func isPixCallback(r Received) bool { return strings.HasSuffix(r.Path, "/pix") }

func (w *World) pixCallback(secs int) error { return w.pixCallbacks(1, secs) }

// pixCallbacks waits for n callbacks on {webhookUrl}/pix and checks each
// against the official callback shape.
func (w *World) pixCallbacks(n, secs int) error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	callbacks := func(rs []Received) []Received {
		var out []Received
		for _, r := range rs {
			if isPixCallback(r) {
				out = append(out, r)
			}
		}
		return out
	}
	all, _ := w.receiver.WaitUntil(time.Duration(secs)*time.Second, func(rs []Received) bool { return len(callbacks(rs)) >= n })
	got := callbacks(all)
	if len(got) < n {
		return fmt.Errorf("the receiver got %d Pix callbacks within %ds, want %d (it got %d requests in all)", len(got), secs, n, len(all))
	}
	for _, r := range got {
		if vs, err := w.Schemas.Validate("pix/callback.pix", r.Body); err != nil || len(vs) > 0 {
			return fmt.Errorf("callback breaks schema pix/callback.pix: %v %+v: %s", err, vs, r.Body)
		}
	}
	last := got[n-1]
	w.event = &received{Raw: last.Body, Header: last.Header}
	return nil
}

// verifyJWS checks the body as a compact JWS signed RS256 by the key its
// jku publishes, as a payer's PSP does before showing a charge.
func (w *World) verifyJWS() error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	if ct := w.resp.Header.Get("Content-Type"); ct != "application/jose" {
		return fmt.Errorf("Content-Type %q, want application/jose: %s", ct, w.describe())
	}
	parts := strings.Split(string(w.body), ".")
	if len(parts) != 3 {
		return fmt.Errorf("not a compact JWS: %s", w.describe())
	}
	var header struct{ Alg, Kid, Jku string }
	hb, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || json.Unmarshal(hb, &header) != nil {
		return fmt.Errorf("JWS header is not base64url JSON")
	}
	if header.Alg != "RS256" || header.Kid == "" || header.Jku == "" {
		return fmt.Errorf("JWS header %+v: want alg RS256 with kid and jku", header)
	}
	resp, err := w.client.Get(header.Jku)
	if err != nil {
		return fmt.Errorf("fetch jku: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("jku %s answered %d", header.Jku, resp.StatusCode)
	}
	var set struct {
		Keys []struct{ Kty, Kid, N, E string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return fmt.Errorf("JWKS: %w", err)
	}
	var pub *rsa.PublicKey
	for _, k := range set.Keys {
		if k.Kid == header.Kid && k.Kty == "RSA" {
			n, _ := base64.RawURLEncoding.DecodeString(k.N)
			e, _ := base64.RawURLEncoding.DecodeString(k.E)
			pub = &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		}
	}
	if pub == nil {
		return fmt.Errorf("the JWKS has no RSA key %q", header.Kid)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return fmt.Errorf("JWS signature is not base64url")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig); err != nil {
		return fmt.Errorf("JWS signature does not verify: %w", err)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return fmt.Errorf("JWS payload is not base64url")
	}
	w.body = payload
	return nil
}

func (w *World) brCodeFor(path, location string) error {
	v, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	if location, err = w.expand(location); err != nil {
		return err
	}
	code, _ := v.(string)
	if !ok || code == "" {
		return fmt.Errorf("no BR Code at %q: %s", path, w.describe())
	}
	f, err := brcode.Parse(code)
	if err != nil {
		return fmt.Errorf("%q is not a valid BR Code: %w", code, err)
	}
	if f.Account["00"] != brcode.GUI || f.URL() != location {
		return fmt.Errorf("BR Code carries GUI %q and location %q, want %q and %q", f.Account["00"], f.URL(), brcode.GUI, location)
	}
	return nil
}
