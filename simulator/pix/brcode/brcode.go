package brcode

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GUI is the globally unique identifier of the Pix arrangement inside the
// merchant account template 26. The manual writes it in lower case; Parse
// compares it case-insensitively because older PSPs emit it in upper case.
const GUI = "br.gov.bcb.pix"

// Field length limits of the BR Code profile.
const (
	// MaxURL is the longest location that fits template 26: the template
	// value is at most 99 characters, of which the GUI takes 18 ("00" "14"
	// + 14) and the URL header 4, which leaves 77.
	MaxURL = 77
	// MaxMerchantName is the EMV limit of field 59.
	MaxMerchantName = 25
	// MaxMerchantCity is the EMV limit of field 60.
	MaxMerchantCity = 15
	// MaxPayload is the limit of pixCopiaECola in the API Pix schema.
	MaxPayload = 512
)

// ErrInvalidPayload is wrapped by every Encode error, so callers can tell a
// bad input apart from a programming error with errors.Is.
var ErrInvalidPayload = errors.New("invalid BR Code input")

// ErrMalformed is wrapped by every Parse error other than a CRC mismatch.
var ErrMalformed = errors.New("malformed BR Code")

// ErrCRC is wrapped by Parse when the structure is sound but field 63 does
// not match the computed CRC, which is what a mistyped copy-paste produces.
var ErrCRC = errors.New("BR Code CRC mismatch")

// Payload is what a PSP needs to render the BR Code of a dynamic charge.
// Everything else in the payload (format indicator, currency, country, ...)
// is fixed for Pix.
type Payload struct {
	// URL is the charge location without scheme, as the API returns it in
	// loc.location, e.g. "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25".
	URL string
	// Amount is "" (field 54 omitted, the payer app reads the value from the
	// location) or an API money string such as "123.45".
	Amount string
	// MerchantName is normalised to printable ASCII, upper-cased and cut to
	// MaxMerchantName characters.
	MerchantName string
	// MerchantCity is normalised like MerchantName and cut to MaxMerchantCity.
	MerchantCity string
	// PostalCode is optional; when set it must be 8 digits (a CEP).
	PostalCode string
	// RecURL is the location of a Pix Automático recurrence (no scheme).
	// With URL empty it is the recurrence's own QR (journey 2); with URL
	// set, the composite QR of a charge and a recurrence (journeys 3 and
	// 4). It travels in template 80, as template 26 carries the charge's.
	RecURL string
}

// Fields is the result of Parse.
type Fields struct {
	// Top maps every top-level id to its raw value, templates included
	// (their value is the nested TLV string) and "63" (the CRC).
	Top map[string]string
	// Account holds the subfields of the merchant account template 26:
	// "00" the GUI, "25" the location of a dynamic charge, "01" the key of a
	// static one.
	Account map[string]string
	// Additional holds the subfields of the additional data template 62;
	// "05" is the reference label ("***" for a dynamic charge).
	Additional map[string]string
}

// URL returns the location carried in template 26, or "" when absent (a
// static QR, or a Pix Automático QR whose location is in template 80).
func (f Fields) URL() string { return f.Account["25"] }

// Amount returns field 54, or "" when absent.
func (f Fields) Amount() string { return f.Top["54"] }

// Template decodes the subfields of any top-level template, such as "80"
// (the Pix Automático recurrence in a composite QR).
func (f Fields) Template(id string) (map[string]string, error) {
	v, ok := f.Top[id]
	if !ok {
		return nil, fmt.Errorf("brcode: template %s absent: %w", id, ErrMalformed)
	}
	sub, err := subfields(v)
	if err != nil {
		return nil, fmt.Errorf("brcode: template %s: %w", id, err)
	}
	return sub, nil
}

// parseAmountRE is looser than the money format Encode holds field 54 to,
// because EMV lets other issuers write "10" or "10.5" in field 54, and
// Parse must not reject a valid BR Code.
var parseAmountRE = regexp.MustCompile(`^\d+(\.\d{1,2})?$`)

// isMoney says whether s is the API Pix money format (^\d{1,10}\.\d{2}$):
// field 54 of a charge carries the same value as valor.original, so Encode
// holds it to the same rule. A loop, not a regexp: every charge's answer
// is encoded, and a regexp match would cost more than the rest of Encode.
func isMoney(s string) bool {
	dot := strings.IndexByte(s, '.')
	return dot >= 1 && dot <= 10 && len(s) == dot+3 && digits(s[:dot]) && digits(s[dot+1:])
}

// digits says whether s is only ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Encode renders the payload of a dynamic, single-use charge in the field
// order of the manual: 00, 01, 26, 52, 53, 54, 58, 59, 60, 61, 62, 63.
func Encode(p Payload) (string, error) {
	if p.URL != "" || p.RecURL == "" {
		if err := checkURL(p.URL); err != nil {
			return "", err
		}
	}
	if p.RecURL != "" {
		if err := checkURL(p.RecURL); err != nil {
			return "", err
		}
	}
	if p.Amount != "" && !isMoney(p.Amount) {
		return "", fmt.Errorf("brcode: Amount %q: want digits, a dot and two decimals (e.g. 123.45): %w", p.Amount, ErrInvalidPayload)
	}
	name := Normalize(p.MerchantName, MaxMerchantName)
	if name == "" {
		return "", fmt.Errorf("brcode: MerchantName %q: empty after ASCII normalisation: %w", p.MerchantName, ErrInvalidPayload)
	}
	city := Normalize(p.MerchantCity, MaxMerchantCity)
	if city == "" {
		return "", fmt.Errorf("brcode: MerchantCity %q: empty after ASCII normalisation: %w", p.MerchantCity, ErrInvalidPayload)
	}
	if p.PostalCode != "" && (len(p.PostalCode) != 8 || !digits(p.PostalCode)) {
		return "", fmt.Errorf("brcode: PostalCode %q: want 8 digits: %w", p.PostalCode, ErrInvalidPayload)
	}

	b := make([]byte, 0, 160+len(p.URL)+len(p.RecURL))
	b = appendTLV(b, "00", "01")
	// "12": dynamic, single use. A cobv is paid once, so "11" (reusable)
	// would let a payer app offer to pay it again.
	b = appendTLV(b, "01", "12")
	if p.URL != "" {
		b = appendLocation(b, "26", p.URL)
	}
	b = appendTLV(b, "52", "0000")
	b = appendTLV(b, "53", "986")
	if p.Amount != "" {
		b = appendTLV(b, "54", p.Amount)
	}
	b = appendTLV(b, "58", "BR")
	b = appendTLV(b, "59", name)
	b = appendTLV(b, "60", city)
	if p.PostalCode != "" {
		b = appendTLV(b, "61", p.PostalCode)
	}
	// The txid of a dynamic charge travels in the location, so the manual
	// fixes the reference label to "***".
	b = appendHeader(b, "62", 7)
	b = appendTLV(b, "05", "***")
	if p.RecURL != "" {
		b = appendLocation(b, "80", p.RecURL)
	}
	b = append(b, "6304"...)
	return string(appendCRC16(b, b)), nil
}

func checkURL(u string) error {
	switch {
	case u == "":
		return fmt.Errorf("brcode: URL: empty: %w", ErrInvalidPayload)
	case len(u) > MaxURL:
		return fmt.Errorf("brcode: URL: %d characters, longer than %d: %w", len(u), MaxURL, ErrInvalidPayload)
	case strings.Contains(u, "://"):
		// Payer apps prepend https:// themselves; a scheme here wastes 8 of
		// the 77 characters and breaks apps that do not strip it.
		return fmt.Errorf("brcode: URL %q: must not carry a scheme: %w", u, ErrInvalidPayload)
	}
	for i := 0; i < len(u); i++ {
		if u[i] <= ' ' || u[i] > '~' {
			return fmt.Errorf("brcode: URL %q: byte %d is not printable ASCII without spaces: %w", u, i, ErrInvalidPayload)
		}
	}
	return nil
}

// appendTLV appends a field; it is only called with values the callers
// have bounded to 99 characters.
func appendTLV(b []byte, id, value string) []byte {
	return append(appendHeader(b, id, len(value)), value...)
}

// appendHeader appends a field's id and its two-digit length.
func appendHeader(b []byte, id string, n int) []byte {
	return append(b, id[0], id[1], byte('0'+n/10), byte('0'+n%10))
}

// appendLocation appends a template of the Pix GUI and a location (26 for
// a charge, 80 for a recurrence); checkURL bounded url so it fits.
func appendLocation(b []byte, id, url string) []byte {
	b = appendHeader(b, id, 4+len(GUI)+4+len(url))
	b = appendTLV(b, "00", GUI)
	return appendTLV(b, "25", url)
}

// fold maps the accented letters that occur in Brazilian names and
// addresses (plus the rest of Latin-1 and Latin Extended-A) to ASCII. The
// standard library has no Unicode decomposition, so the table is explicit.
var fold = func() map[rune]string {
	groups := map[string]string{
		"A":  "ÀÁÂÃÄÅàáâãäåĀāĂăĄąª",
		"AE": "Ææ",
		"C":  "ÇçĆćĈĉĊċČč",
		"D":  "ĎďĐđÐð",
		"E":  "ÈÉÊËèéêëĒēĔĕĖėĘęĚě",
		"G":  "ĜĝĞğĠġĢģ",
		"H":  "ĤĥĦħ",
		"I":  "ÌÍÎÏìíîïĨĩĪīĬĭĮįİı",
		"J":  "Ĵĵ",
		"K":  "Ķķ",
		"L":  "ĹĺĻļĽľĿŀŁł",
		"N":  "ÑñŃńŅņŇň",
		"O":  "ÒÓÔÕÖØòóôõöøŌōŎŏŐőº",
		"OE": "Œœ",
		"R":  "ŔŕŖŗŘř",
		"S":  "ŚśŜŝŞşŠš",
		"SS": "ß",
		"T":  "ŢţŤťŦŧ",
		"TH": "Þþ",
		"U":  "ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲų",
		"W":  "Ŵŵ",
		"Y":  "ÝýÿŶŷŸ",
		"Z":  "ŹźŻżŽž",
	}
	m := make(map[rune]string)
	for ascii, letters := range groups {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()

// Normalize turns a free-text name into what fields 59 and 60 may carry:
// accents stripped, anything else outside printable ASCII dropped, runs of
// white space collapsed, upper-cased (customary, and what payer apps show),
// then cut to max characters. Payer apps differ in how they count non-ASCII
// lengths, so only ASCII is safe.
func Normalize(s string, max int) string {
	// One pass: a run of white space becomes one space, written only
	// before the next character kept, so none leads or trails (what
	// strings.Fields and Join made of it, in three allocations).
	b := make([]byte, 0, len(s))
	space := false
	put := func(c byte) {
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			put(byte(r) - 'a' + 'A')
		case ' ' < r && r <= '~':
			put(byte(r))
		case unicode.IsSpace(r):
			space = true
		case r < utf8.RuneSelf: // control characters: dropped
		default: // folded to ASCII, or dropped
			a := fold[r]
			for i := 0; i < len(a); i++ {
				put(a[i])
			}
		}
	}
	if len(b) > max {
		b = bytes.TrimRight(b[:max], " ")
	}
	return string(b)
}

// CRC16 returns the CRC16-CCITT-FALSE (polynomial 0x1021, initial value
// 0xFFFF, no reflection, no final XOR) of s as 4 upper-case hex digits, the
// form field 63 carries.
func CRC16(s string) string {
	return string(appendCRC16(nil, []byte(s)))
}

// appendCRC16 appends CRC16 of data to b.
func appendCRC16(b, data []byte) []byte {
	crc := uint16(0xFFFF)
	for _, c := range data {
		crc = crc<<8 ^ crcTable[byte(crc>>8)^c]
	}
	const hex = "0123456789ABCDEF"
	return append(b, hex[crc>>12], hex[crc>>8&0xF], hex[crc>>4&0xF], hex[crc&0xF])
}

// crcTable is the CRC of each byte, a byte at a time instead of a bit at a
// time: every charge's answer carries a payload of ~200 bytes, and a
// bit loop over it is eight times the work.
var crcTable = func() (t [256]uint16) {
	for b := range t {
		crc := uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
		t[b] = crc
	}
	return t
}()

type field struct{ id, value string }

// split decodes one level of TLV. Lengths count bytes: the payload is
// restricted to printable ASCII before split is called, so bytes and
// characters coincide.
func split(s string) ([]field, error) {
	var out []field
	seen := make(map[string]bool)
	for pos := 0; pos < len(s); {
		if len(s)-pos < 4 {
			return nil, fmt.Errorf("truncated field header at offset %d: %w", pos, ErrMalformed)
		}
		id, ls := s[pos:pos+2], s[pos+2:pos+4]
		if !isDigits(id) {
			return nil, fmt.Errorf("id %q at offset %d is not 2 digits: %w", id, pos, ErrMalformed)
		}
		if !isDigits(ls) {
			return nil, fmt.Errorf("field %s: length %q at offset %d is not 2 digits: %w", id, ls, pos+2, ErrMalformed)
		}
		n := int(ls[0]-'0')*10 + int(ls[1]-'0')
		if n == 0 {
			return nil, fmt.Errorf("field %s: zero length at offset %d: %w", id, pos+2, ErrMalformed)
		}
		start := pos + 4
		if start+n > len(s) {
			return nil, fmt.Errorf("field %s: length %d overruns the payload at offset %d: %w", id, n, pos+2, ErrMalformed)
		}
		if seen[id] {
			return nil, fmt.Errorf("field %s: duplicated at offset %d: %w", id, pos, ErrMalformed)
		}
		seen[id] = true
		out = append(out, field{id, s[start : start+n]})
		pos = start + n
	}
	return out, nil
}

func subfields(v string) (map[string]string, error) {
	fs, err := split(v)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(fs))
	for _, f := range fs {
		m[f.id] = f.value
	}
	return m, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'F' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// Parse decodes a BR Code, checks its structure and CRC, and returns its
// fields. It accepts what the spec's own examples contain: a template 26
// with only the GUI (a Pix Automático QR, "JORNADA_2", whose location is in
// template 80), no field 01, and a mixed-case merchant name. It does not
// require a location in template 26 for the same reason.
func Parse(s string) (Fields, error) {
	if s == "" {
		return Fields{}, fmt.Errorf("brcode: empty payload: %w", ErrMalformed)
	}
	if len(s) > MaxPayload {
		return Fields{}, fmt.Errorf("brcode: %d characters, longer than %d: %w", len(s), MaxPayload, ErrMalformed)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return Fields{}, fmt.Errorf("brcode: byte %d (0x%02x) is not printable ASCII: %w", i, s[i], ErrMalformed)
		}
	}
	fs, err := split(s)
	if err != nil {
		return Fields{}, fmt.Errorf("brcode: %w", err)
	}
	if fs[0].id != "00" || fs[0].value != "01" {
		return Fields{}, fmt.Errorf("brcode: field 00: want the first field to be 00 = \"01\", got %s = %q: %w", fs[0].id, fs[0].value, ErrMalformed)
	}
	last := fs[len(fs)-1]
	if last.id != "63" || len(last.value) != 4 || !isHex(last.value) {
		return Fields{}, fmt.Errorf("brcode: field 63: want the last field to be 63 with 4 hex digits, got %s = %q: %w", last.id, last.value, ErrMalformed)
	}
	top := make(map[string]string, len(fs))
	for _, f := range fs {
		top[f.id] = f.value
	}
	// The CRC is checked after the structure so that a truncated or
	// hand-edited payload gets a precise message rather than "bad CRC".
	if want := CRC16(s[:len(s)-4]); !strings.EqualFold(last.value, want) {
		return Fields{}, fmt.Errorf("brcode: field 63: CRC %s, computed %s: %w", last.value, want, ErrCRC)
	}

	for _, id := range []string{"26", "52", "53", "58", "59", "60", "62"} {
		if _, ok := top[id]; !ok {
			return Fields{}, fmt.Errorf("brcode: field %s: mandatory field missing: %w", id, ErrMalformed)
		}
	}
	checks := []struct {
		id   string
		ok   bool
		hint string
	}{
		{"01", top["01"] == "" || top["01"] == "11" || top["01"] == "12", `want "11" or "12"`},
		{"52", len(top["52"]) == 4 && isDigits(top["52"]), "want 4 digits"},
		{"53", top["53"] == "986", `want "986" (BRL)`},
		{"54", top["54"] == "" || len(top["54"]) <= 13 && parseAmountRE.MatchString(top["54"]), "want a decimal amount with a dot"},
		{"58", top["58"] == "BR", `want "BR"`},
		{"59", len(top["59"]) <= MaxMerchantName, fmt.Sprintf("longer than %d", MaxMerchantName)},
		{"60", len(top["60"]) <= MaxMerchantCity, fmt.Sprintf("longer than %d", MaxMerchantCity)},
	}
	for _, c := range checks {
		if !c.ok {
			return Fields{}, fmt.Errorf("brcode: field %s = %q: %s: %w", c.id, top[c.id], c.hint, ErrMalformed)
		}
	}

	account, err := subfields(top["26"])
	if err != nil {
		return Fields{}, fmt.Errorf("brcode: template 26: %w", err)
	}
	if !strings.EqualFold(account["00"], GUI) {
		return Fields{}, fmt.Errorf("brcode: template 26 field 00 = %q: want GUI %q: %w", account["00"], GUI, ErrMalformed)
	}
	additional, err := subfields(top["62"])
	if err != nil {
		return Fields{}, fmt.Errorf("brcode: template 62: %w", err)
	}
	if additional["05"] == "" {
		return Fields{}, fmt.Errorf("brcode: template 62 field 05: reference label missing: %w", ErrMalformed)
	}
	return Fields{Top: top, Account: account, Additional: additional}, nil
}
