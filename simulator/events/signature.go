package events

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries the webhook signature.
const SignatureHeader = "Homologa-Signature"

// Sign returns the Homologa-Signature value for body sent at t:
// "t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>". t is wall-clock
// time, never sandbox time: it protects the transport, and the receiver
// compares it with its own clock.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// The ways a signature fails verification.
var (
	ErrNoSignature  = errors.New("no signature")
	ErrBadSignature = errors.New("signature does not match the body")
	ErrStale        = errors.New("signature timestamp outside the tolerance")
)

// Verify checks a Homologa-Signature header value against body, the signing
// secret and a tolerance around now, the way a careful receiver does: any of
// several v1 values may match (secret rotation), compared in constant time.
func Verify(header, secret string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return ErrNoSignature
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: t=%q", ErrNoSignature, ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: signed %s ago", ErrStale, d.Round(time.Second))
	}
	want := []byte(mac(secret, ts, body))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			return nil
		}
	}
	return ErrBadSignature
}
