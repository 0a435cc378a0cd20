package pix

import (
	"encoding/hex"
	"time"

	"homologa/simulator/store"
)

// The identifier patterns of the spec, anchored (the published ones are
// not): [a-zA-Z0-9]{min,max}. Checked by a loop (alnumID); the regexp
// is the definition the test compares it with: matching it was a
// hundredth of a creation.
type idPattern struct{ min, max int }

var (
	txidCreate  = idPattern{26, 35}
	txidAny     = idPattern{1, 35}
	devolucaoID = idPattern{1, 35}
)

// MatchString reports whether s is min to max ASCII letters and digits.
func (p idPattern) MatchString(s string) bool {
	if len(s) < p.min || len(s) > p.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// ISPB is the sandbox's ISPB as a receiving PSP; PayerISPB the default one of
// the simulated payer's PSP. Both are outside the range of real institutions
// so nothing here is mistaken for a real participant.
const (
	ISPB      = "99999008"
	PayerISPB = "99999009"
)

// txidRule is the txid a client chooses for a new charge (cob, cobv,
// cobr): typ and field name the violation.
func txidRule(typ, field, txid string) error {
	if !txidCreate.MatchString(txid) {
		return invalid(typ, violation{field, "deve ter de 26 a 35 caracteres alfanuméricos ([a-zA-Z0-9]{26,35})", txid})
	}
	return nil
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// randomAlnum draws from the sandbox's id source, so a deterministic
// sandbox (tests, golden files) gives the same txids and endToEndIds.
func randomAlnum(ids store.IDSource, n int) string {
	b, _ := hex.DecodeString(ids.Token(n))
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// NewTxID generates a txid for POST /cob: 32 alphanumerics, inside the
// 26..35 the spec allows for charges.
func NewTxID(ids store.IDSource) string { return randomAlnum(ids, 32) }

// NewEndToEndID makes an endToEndId the way the SPI does: "E", the payer
// PSP's ISPB, the sandbox time to the minute (yyyyMMddHHmm) and 11
// alphanumerics: 32 characters.
func NewEndToEndID(ids store.IDSource, ispb string, at time.Time) string {
	return "E" + ispb + at.UTC().Format("200601021504") + randomAlnum(ids, 11)
}

// NewRtrID makes the rtrId of a refund: "D" (a devolução), the receiving
// PSP's ISPB, the time to the minute, and 11 alphanumerics.
func NewRtrID(ids store.IDSource, at time.Time) string {
	return "D" + ISPB + at.UTC().Format("200601021504") + randomAlnum(ids, 11)
}
