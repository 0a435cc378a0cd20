package control

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/quota"
	"homologa/simulator/tenant"
)

// Inbox is a webhook receiver built into the sandbox, so the onboarding
// walkthrough and a first test need no receiver of their own. Its boxes
// belong to companies: a company's box named x holds what was delivered
// for that company to /sandbox/inbox/x, and what anyone posted to the
// box's secret URL (/sandbox/hooks/{key}, which GET /sandbox/inbox/x
// shows the company). /sandbox/inbox/x takes the sandbox's own
// deliveries only, served in the process (events.Local): a post from
// the network there is refused unread, so nobody fills, floods or
// evicts another company's box. Each company's boxes, requests and
// bytes are bounded (quota.Config), and only its own oldest go; all the
// companies' records together are bounded too, past which new records
// are refused, never anyone's dropped. Records live in memory.
type Inbox struct {
	// Owner names the company a delivery was made for (by its
	// Homologa-Delivery-Id), "" for none.
	Owner func(ctx context.Context, deliveryID string) string
	// Key signs the boxes' secret URLs (HMAC-SHA256): the same key makes
	// the same URLs, so a sandbox on a file keeps it across restarts.
	Key []byte
	// Base is the base URL a box's secret URL is written with, for a
	// request (the sandbox's public URL when it is hosted).
	Base func(r *http.Request) string
	// Quota bounds the boxes (InboxBoxes, InboxPerBox, InboxBytes,
	// InboxTotal); zero values take quota.Defaults.
	Quota quota.Config

	mu        sync.Mutex
	companies map[string]*companyInbox
	total     int64
	seq       int64
}

// companyInbox is one company's boxes.
type companyInbox struct {
	boxes map[string]*box
	order []string // box names, the least recently made first
	bytes int64
}

type box struct{ reqs []Received }

// Received is one request an inbox got.
type Received struct {
	ReceivedAt time.Time         `json:"receivedAt"`
	Path       string            `json:"path"`
	Headers    map[string]string `json:"headers"`
	Body       string            `json:"body"`
	// Truncated says the body was longer than the inbox keeps
	// (inboxBody); Size is then its length as received.
	Truncated bool `json:"truncated,omitempty"`
	Size      int  `json:"size,omitempty"`

	seq   int64
	bytes int64
}

// inboxBody is the most of a request's body a box keeps: webhook
// deliveries are a few KiB.
const inboxBody = 64 << 10

// boxName is what a box may be called: it is a path segment and part of
// a secret URL.
var boxName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func (ib *Inbox) quota() quota.Config { return ib.Quota.WithDefaults() }

// receive is POST /sandbox/inbox/{name}: the sandbox's own delivery,
// into its company's box. Anything else is refused before its body is
// read.
func (ib *Inbox) receive(r *http.Request) (*httpx.Reply, error) {
	name := mux.Vars(r)["name"]
	var owner tenant.Scope
	if id := r.Header.Get("Homologa-Delivery-Id"); id != "" && events.InProcess(r.Context()) && ib.Owner != nil {
		owner = tenant.Company(ib.Owner(r.Context(), id))
	}
	company, one := owner.Company()
	if !one {
		return nil, errs.Errorf(errs.Forbidden, "a caixa %q só recebe as entregas do próprio sandbox; para postar de fora, use a URL secreta da caixa (GET /sandbox/inbox/%s a mostra à sua empresa)", name, name)
	}
	return ib.store(r, company, name)
}

// receiveAtKey is POST /sandbox/hooks/{key}: anyone's post, into the box
// the key names. A key that is not one is a 404, its body unread.
func (ib *Inbox) receiveAtKey(r *http.Request) (*httpx.Reply, error) {
	company, name, ok := ib.openKey(mux.Vars(r)["key"])
	if !ok {
		return nil, errs.Errorf(errs.NotFound, "não há caixa nesta URL")
	}
	return ib.store(r, company, name)
}

// store reads the request and keeps it in the company's box.
func (ib *Inbox) store(r *http.Request, company, name string) (*httpx.Reply, error) {
	if !boxName.MatchString(name) {
		return nil, errs.Invalidf("name", "o nome da caixa tem de 1 a 64 letras, dígitos, _ ou -")
	}
	body, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	rec := Received{ReceivedAt: time.Now().UTC(), Path: r.URL.Path, Headers: map[string]string{}, Body: string(body)}
	if len(body) > inboxBody {
		rec.Body, rec.Truncated, rec.Size = string(body[:inboxBody]), true, len(body)
	}
	rec.bytes = int64(len(rec.Body) + len(rec.Path) + 64)
	for k, vs := range r.Header {
		v := vs[0]
		if len(v) > 1024 {
			v = v[:1024]
		}
		rec.Headers[k] = v
		rec.bytes += int64(len(k) + len(v))
	}
	if err := ib.put(company, name, rec); err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"received": true}), nil
}

// put keeps rec in a company's box, dropping the company's own oldest
// past its quotas. Past the sandbox-wide bound, room is made from the
// company holding the most (the one posting, on a tie), its oldest
// first: many companies of one account filling the inbox crowd out only
// one another, never a company that holds little (refusing instead let
// them keep every other company's deliveries out).
func (ib *Inbox) put(company, name string, rec Received) error {
	q := ib.quota()
	ib.mu.Lock()
	defer ib.mu.Unlock()
	for q.InboxTotal > 0 && ib.total+rec.bytes > q.InboxTotal {
		if !ib.dropFromLargest(company) {
			return errs.Errorf(errs.TooManyRequests, "a caixa de entrada do sandbox está cheia; tente de novo mais tarde").WithHeader("Retry-After", "60")
		}
	}
	if ib.companies == nil {
		ib.companies = map[string]*companyInbox{}
	}
	ci := ib.companies[company]
	if ci == nil {
		ci = &companyInbox{boxes: map[string]*box{}}
		ib.companies[company] = ci
	}
	b := ci.boxes[name]
	if b == nil {
		for q.InboxBoxes > 0 && len(ci.order) >= q.InboxBoxes {
			ib.dropBox(ci, ci.order[0])
		}
		b = &box{}
		ci.boxes[name] = b
		ci.order = append(ci.order, name)
	}
	ib.seq++
	rec.seq = ib.seq
	b.reqs = append(b.reqs, rec)
	ci.bytes += rec.bytes
	ib.total += rec.bytes
	if q.InboxPerBox > 0 && len(b.reqs) > q.InboxPerBox {
		ib.dropOldest(ci, b)
	}
	for q.InboxBytes > 0 && ci.bytes > q.InboxBytes && ib.dropOldestOf(ci) {
	}
	return nil
}

// dropFromLargest forgets the oldest request of the company holding the
// most bytes (poster on a tie); false when no company holds any.
func (ib *Inbox) dropFromLargest(poster string) bool {
	var largest *companyInbox
	for id, ci := range ib.companies {
		if largest == nil || ci.bytes > largest.bytes || ci.bytes == largest.bytes && id == poster {
			largest = ci
		}
	}
	if largest == nil || largest.bytes == 0 {
		return false
	}
	var oldest *box
	for _, b := range largest.boxes {
		if len(b.reqs) > 0 && (oldest == nil || b.reqs[0].seq < oldest.reqs[0].seq) {
			oldest = b
		}
	}
	if oldest == nil {
		return false
	}
	ib.dropOldest(largest, oldest)
	return true
}

// dropBox forgets one of a company's boxes.
func (ib *Inbox) dropBox(ci *companyInbox, name string) {
	if b := ci.boxes[name]; b != nil {
		for _, r := range b.reqs {
			ci.bytes -= r.bytes
			ib.total -= r.bytes
		}
	}
	delete(ci.boxes, name)
	for i, n := range ci.order {
		if n == name {
			ci.order = append(ci.order[:i], ci.order[i+1:]...)
			break
		}
	}
}

// dropOldest forgets the oldest request of a box.
func (ib *Inbox) dropOldest(ci *companyInbox, b *box) {
	ci.bytes -= b.reqs[0].bytes
	ib.total -= b.reqs[0].bytes
	b.reqs[0] = Received{}
	b.reqs = b.reqs[1:]
}

// dropOldestOf forgets the company's oldest request, in whichever of its
// boxes; false when it has none left but the one just kept.
func (ib *Inbox) dropOldestOf(ci *companyInbox) bool {
	var oldest *box
	kept := 0
	for _, b := range ci.boxes {
		kept += len(b.reqs)
		if len(b.reqs) > 0 && (oldest == nil || b.reqs[0].seq < oldest.reqs[0].seq) {
			oldest = b
		}
	}
	if oldest == nil || kept <= 1 {
		return false
	}
	ib.dropOldest(ci, oldest)
	return true
}

// list is GET /sandbox/inbox/{name}, oldest first: what the company's box
// received, and its secret URL; for the operator, every company's box of
// that name.
func (ib *Inbox) list(r *http.Request) (*httpx.Reply, error) {
	name := mux.Vars(r)["name"]
	if !boxName.MatchString(name) {
		return nil, errs.Invalidf("name", "o nome da caixa tem de 1 a 64 letras, dígitos, _ ou -")
	}
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	ib.mu.Lock()
	out := []Received{}
	for id, ci := range ib.companies {
		if b := ci.boxes[name]; b != nil && sc.Includes(id) {
			out = append(out, b.reqs...)
		}
	}
	ib.mu.Unlock()
	company, one := sc.Company()
	if !one {
		sortBySeq(out)
		return httpx.OK(map[string]any{"requests": out}), nil
	}
	return httpx.OK(map[string]any{"requests": out, "url": ib.boxURL(r, company, name)}), nil
}

func sortBySeq(rs []Received) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].seq < rs[j-1].seq; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// forget drops what the inbox received for a company (its reset).
func (ib *Inbox) forget(companyID string) {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	if ci := ib.companies[companyID]; ci != nil {
		ib.total -= ci.bytes
		delete(ib.companies, companyID)
	}
}

// boxURL is a box's secret URL: its company and name, and their MAC.
func (ib *Inbox) boxURL(r *http.Request, company, name string) string {
	base := ""
	if ib.Base != nil {
		base = strings.TrimSuffix(ib.Base(r), "/")
	}
	return base + "/sandbox/hooks/" + ib.key(company, name)
}

var b64 = base64.RawURLEncoding

func (ib *Inbox) mac(company, name string) []byte {
	m := hmac.New(sha256.New, ib.Key)
	m.Write([]byte(company + "\x00" + name))
	return m.Sum(nil)
}

// key is the {key} of a box's secret URL.
func (ib *Inbox) key(company, name string) string {
	return b64.EncodeToString([]byte(company+"\x00"+name)) + "." + b64.EncodeToString(ib.mac(company, name))
}

// openKey reads a secret URL's key: the company and box it names, if
// its MAC is right.
func (ib *Inbox) openKey(key string) (company, name string, ok bool) {
	if len(ib.Key) == 0 {
		return "", "", false
	}
	id, sum, found := strings.Cut(key, ".")
	raw, err1 := b64.DecodeString(id)
	got, err2 := b64.DecodeString(sum)
	if !found || err1 != nil || err2 != nil {
		return "", "", false
	}
	company, name, found = strings.Cut(string(raw), "\x00")
	if !found || !tenant.Named(company) || !boxName.MatchString(name) || !hmac.Equal(got, ib.mac(company, name)) {
		return "", "", false
	}
	return company, name, true
}
