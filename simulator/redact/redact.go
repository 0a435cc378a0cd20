package redact

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Mark replaces a secret's value.
const Mark = "[redacted]"

// CardMark replaces a card number found in a card object.
const CardMark = "[redacted card number]"

// fold is a name as the sets below hold it: lower case, without "-"
// or "_".
func fold(name string) string { return folder.Replace(strings.ToLower(name)) }

// folder is made once: a Replacer is costly to make, and every header of
// every recorded request is folded.
var folder = strings.NewReplacer("-", "", "_", "")

// secretParams are the query and form parameters whose values are secret:
// OAuth's tokens, client secret and authorization code, and the
// credentials a misconfigured client may send in a URL.
var secretParams = map[string]bool{
	"accesstoken": true, "refreshtoken": true, "idtoken": true, "token": true, "clientsecret": true, "code": true,
	"password": true, "senha": true, "apikey": true, "secret": true, "webhooksecret": true, "sessiontoken": true,
	"operatortoken": true,
}

// secretFields are the JSON fields whose values are secret, wherever they
// are in a document: tokens and secrets in OAuth answers, the portal's
// app answers and secret rotation, and passwords. "token" and "code" are
// not among them: the insurer's one-time signature code
// (ASSINATURA.TOKEN) is evidence the harness validates, and codes are
// everywhere in the insurer's documents.
var secretFields = map[string]bool{
	"accesstoken": true, "refreshtoken": true, "idtoken": true, "clientsecret": true, "webhooksecret": true,
	"password": true, "senha": true, "apikey": true, "secret": true, "sessiontoken": true, "operatortoken": true,
	"privatekey": true,
}

// binaryTypes are the content types of bodies kept only as their length:
// a PKCS#12 file holds a private key, and no binary body reads as text.
var binaryTypes = map[string]bool{"application/x-pkcs12": true, "application/pkcs12": true, "application/octet-stream": true}

// privateKeys is a PEM private key block, of any kind.
var privateKeys = regexp.MustCompile(`-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`)

// cardSecretFields are the card's security code, secret whatever its value.
var cardSecretFields = map[string]bool{
	"cvv": true, "cvv2": true, "cvc": true, "cvc2": true, "securitycode": true, "codigoseguranca": true,
	"codigodeseguranca": true,
}

// IsSecretParam reports whether a query or form parameter is secret.
func IsSecretParam(name string) bool { return secretParams[fold(name)] }

// IsSecretField reports whether a JSON field is secret.
func IsSecretField(name string) bool {
	f := fold(name)
	return secretFields[f] || cardSecretFields[f]
}

// IsSecretHeader reports whether a header carries a credential:
// Authorization and Cookie and their kin, and any header named for a
// token, secret, password or API key.
func IsSecretHeader(name string) bool {
	if v, ok := secretHeaders.Load(name); ok {
		return v.(bool)
	}
	f := fold(name)
	secret := false
	for _, s := range []string{"authorization", "cookie", "token", "secret", "password", "apikey", "session"} {
		if strings.Contains(f, s) {
			secret = true
		}
	}
	// Header names repeat from request to request: the answer is kept,
	// for a bounded number of names (a client may send made-up ones).
	if headerNames.Add(1) < 4096 {
		secretHeaders.Store(name, secret)
	}
	return secret
}

var (
	secretHeaders sync.Map // header name → IsSecretHeader
	headerNames   atomic.Int64
)

// Query returns a raw query string with the values of secret parameters
// replaced by Mark, its order and every other byte as they were.
func Query(raw string) string {
	if raw == "" {
		return raw
	}
	parts := strings.Split(raw, "&")
	hit := false
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(k); err == nil && IsSecretParam(name) {
			parts[i], hit = k+"="+Mark, true
		}
	}
	if !hit {
		return raw
	}
	return strings.Join(parts, "&")
}

// Headers returns h as one value per name with credentials redacted: an
// Authorization keeps its scheme ("Bearer [redacted]"), a cookie its
// name and attributes, so the log still says what was sent.
func Headers(h http.Header) map[string]string {
	m := make(map[string]string, len(h))
	for k, vs := range h {
		if !IsSecretHeader(k) {
			m[k] = strings.Join(vs, ", ")
			continue
		}
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = headerValue(http.CanonicalHeaderKey(k), v)
		}
		m[k] = strings.Join(out, ", ")
	}
	return m
}

func headerValue(name, v string) string {
	switch name {
	case "Authorization", "Proxy-Authorization":
		if scheme, _, ok := strings.Cut(v, " "); ok {
			return scheme + " " + Mark
		}
	case "Cookie":
		pairs := strings.Split(v, ";")
		for i, p := range pairs {
			n, _, _ := strings.Cut(strings.TrimSpace(p), "=")
			pairs[i] = n + "=" + Mark
		}
		return strings.Join(pairs, "; ")
	case "Set-Cookie":
		first, attrs, _ := strings.Cut(v, ";")
		n, _, _ := strings.Cut(first, "=")
		if attrs != "" {
			return n + "=" + Mark + ";" + attrs
		}
		return n + "=" + Mark
	}
	return Mark
}

// Body returns a request or response body as text, with the values of
// secret parameters (a form) or fields (JSON) replaced by Mark, card
// numbers inside card objects by CardMark, and PEM private keys by Mark.
// A binary body (a PKCS#12 file) is kept as its length. Any other body is
// kept as it is, cut to valid UTF-8.
func Body(contentType string, body []byte) string {
	if len(body) == 0 {
		return ""
	}
	mt := mediaType(contentType)
	if binaryTypes[mt] {
		return "[" + strconv.Itoa(len(body)) + " bytes of " + mt + "]"
	}
	if bytes.Contains(body, []byte("PRIVATE KEY-----")) {
		body = privateKeys.ReplaceAll(body, []byte("-----BEGIN ${1}PRIVATE KEY-----"+Mark+"-----END ${1}PRIVATE KEY-----"))
	}
	switch {
	case mt == "application/x-www-form-urlencoded":
		return Query(text(body))
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		if !mayHoldSecrets(body) {
			return text(body)
		}
		// Numbers stay as they were written: a redacted document is
		// written again, and float64 would round long ones.
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return text(body)
		}
		if value(v, false) {
			if b, err := json.Marshal(v); err == nil {
				return string(b)
			}
		}
	}
	return text(body)
}

// mediaType is a Content-Type's media type, lower-cased. The common
// forms ("application/json", with a charset or not) are read without
// mime.ParseMediaType, which builds a map of the parameters for each of
// a request's two bodies; the rest are left to it.
func mediaType(contentType string) string {
	base, _, _ := strings.Cut(contentType, ";")
	base = strings.TrimSpace(base)
	if typ, sub, ok := strings.Cut(base, "/"); ok && isToken(typ) && isToken(sub) {
		return strings.ToLower(base)
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt
}

// isToken reports a non-empty RFC 2045 token: printable ASCII without
// spaces or tspecials.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			return false
		}
	}
	return true
}

// mayHoldSecrets is a quick look for a secret field or a card, so the
// common body is not parsed twice: every word a secret field name or a
// card object's name holds, in any case. One pass over the body, not a
// pass per word and case; a word's first two letters are tested as a
// pair before the words are compared, since JSON is full of s, t, p, c
// and a, and comparing whole words at each of them would be most of the
// pass.
func mayHoldSecrets(body []byte) bool {
	for i := 0; i+1 < len(body); i++ {
		row := secretFirst[body[i]]
		if row == 0 {
			continue
		}
		if c1 := body[i+1]; secretSeconds[row][c1>>6]&(1<<(c1&63)) == 0 {
			continue
		}
		for _, w := range secretHints[lower(body[i])] {
			if hasPrefixFold(body[i+1:], w) {
				return true
			}
		}
	}
	return false
}

// secretWords are the words mayHoldSecrets looks for, in lower case.
var secretWords = []string{"hpat_", "hses_", "token", "secret", "password", "senha", "apik", "api_k", "api-k",
	"cv", "seguranca", "security", "card", "cartao", "private"}

// secretHints lists the words by their first letter, without it.
var secretHints = func() (m [256][]string) {
	for _, w := range secretWords {
		m[w[0]] = append(m[w[0]], w[1:])
	}
	return m
}()

// secretFirst numbers the bytes a word starts with, in either case, from
// 1; secretSeconds[n] holds, bit by byte, the second bytes that may
// follow byte n in either case. One load a byte for most of a body.
var secretFirst, secretSeconds = func() (first [256]uint8, seconds [][4]uint64) {
	seconds = make([][4]uint64, 1, 16)
	for _, w := range secretWords {
		c0 := w[0]
		if first[c0] == 0 {
			seconds = append(seconds, [4]uint64{})
			first[c0] = uint8(len(seconds) - 1)
			first[upper(c0)] = first[c0]
		}
		row := &seconds[first[c0]]
		for _, c1 := range []byte{w[1], upper(w[1])} {
			row[c1>>6] |= 1 << (c1 & 63)
		}
	}
	return first, seconds
}()

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold is bytes.HasPrefix ignoring ASCII case; w is lower case.
func hasPrefixFold(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for i := range len(w) {
		if lower(b[i]) != w[i] {
			return false
		}
	}
	return true
}

// value replaces, in a decoded JSON document, the secret fields and the
// card numbers inside card objects (a partner that wrongly sends one must
// not find it in the log: PCI). It reports whether it replaced anything.
func value(v any, inCard bool) bool {
	hit := false
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			lk := strings.ToLower(k)
			card := inCard || strings.Contains(lk, "cartao") || strings.Contains(lk, "card")
			switch {
			case IsSecretField(k):
				x[k], hit = Mark, true
			case card && isCardNumber(val):
				x[k], hit = CardMark, true
			case isCredential(val):
				x[k], hit = Mark, true
			default:
				hit = value(val, card) || hit
			}
		}
	case []any:
		for i, val := range x {
			if inCard && isCardNumber(val) {
				x[i], hit = CardMark, true
				continue
			}
			hit = value(val, inCard) || hit
		}
	}
	return hit
}

// credentialPrefixes begin the sandbox's own credentials: the portal's
// API tokens and sessions, whatever field carries them ("token" is left
// alone by name, see secretFields).
var credentialPrefixes = []string{"hpat_", "hses_"}

// isCredential reports a string that is one of the sandbox's credentials.
func isCredential(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// isCardNumber reports a string or number of 13 to 19 digits (spaces and
// dashes allowed) that passes the Luhn check.
func isCardNumber(v any) bool {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = string(x)
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return false
	}
	sum, n, double := 0, 0, false
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c == ' ' || c == '-' {
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		n++
		double = !double
	}
	return n >= 13 && n <= 19 && sum%10 == 0
}

func text(b []byte) string {
	for !utf8.Valid(b) && len(b) > 0 {
		b = b[:len(b)-1]
	}
	return string(b)
}

var (
	// credentials is an HTTP credential written out: a header's scheme
	// and its token.
	credentials = regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{4,}`)
	// params is a parameter in a URL or a form: its name (kept) and its
	// value, up to the next separator.
	params = regexp.MustCompile(`([?&;\s"']|^)([A-Za-z_-]+)=([^&;\s"'<>]*)`)
	// fields is a JSON string field, as an error message may quote one.
	fields = regexp.MustCompile(`"([A-Za-z_-]+)"(\s*:\s*)"(?:[^"\\]|\\.)*"`)
)

// Text redacts the secrets free text may hold, as a log line's message or
// an error does: credentials after Bearer or Basic, secret parameters of
// URLs and forms, secret fields of JSON.
func Text(s string) string {
	// Most of a log's text (ids, paths, methods) holds nothing to
	// redact: it costs no regular expression.
	if !strings.ContainsAny(s, `="`) && !containsFold(s, "bearer") && !containsFold(s, "basic") {
		return s
	}
	s = credentials.ReplaceAllString(s, "${1}${2}"+Mark)
	s = params.ReplaceAllStringFunc(s, func(m string) string {
		sub := params.FindStringSubmatch(m)
		if !IsSecretParam(sub[2]) {
			return m
		}
		return sub[1] + sub[2] + "=" + Mark
	})
	return fields.ReplaceAllStringFunc(s, func(m string) string {
		sub := fields.FindStringSubmatch(m)
		if !IsSecretField(sub[1]) {
			return m
		}
		return `"` + sub[1] + `"` + sub[2] + `"` + Mark + `"`
	})
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case, without allocating.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
