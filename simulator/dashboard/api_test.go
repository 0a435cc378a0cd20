package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/auth"
	"homologa/simulator/browsertest"
	"homologa/simulator/dashboard"
	"homologa/simulator/resource"
	"homologa/simulator/server"
)

const otherCNPJ = "11444777000161"

// otherApp registers a second company with an app and a Pix key, and
// returns a token of that app: the operator's views cross companies.
func otherApp(t *testing.T, s *server.Server) string {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Auth.CreateCompany(ctx, otherCNPJ, "Corretora Exemplo"); err != nil {
		t.Fatal(err)
	}
	a, err := s.Auth.CreateApp(ctx, auth.NewApp{Company: otherCNPJ, Name: "backend", ClientID: "exemplo-backend", ClientSecret: "exemplo-backend-secret"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pix.AddKey(ctx, a.ID, otherCNPJ); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Auth.IssueToken(ctx, "exemplo-backend", "exemplo-backend-secret", "cob.write cob.read")
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

func advance(t *testing.T, s *server.Server, by string) {
	t.Helper()
	if code, body := call(t, http.MethodPost, s.URL()+"/sandbox/clock/advance", "", `{"by": "`+by+`"}`); code != http.StatusOK {
		t.Fatalf("advance: %d %s", code, body)
	}
}

func TestRootAndFiles(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	browser := "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	tests := []struct {
		name, path, accept string
		status             int
		contentType, body  string
	}{
		{"OK/JSONIndexByDefault", "/", "", 200, "application/json", `"name":"Homologa sandbox"`},
		{"OK/JSONIndexForAnything", "/", "*/*", 200, "application/json", `"apis"`},
		{"OK/JSONIndexForJSON", "/", "application/json", 200, "application/json", `"apis"`},
		{"OK/JSONIndexWhenHTMLRefused", "/", "text/html;q=0, application/json", 200, "application/json", `"apis"`},
		{"OK/DashboardForBrowsers", "/", browser, 200, "text/html", `/dashboard/dashboard.js`},
		{"OK/DashboardForXHTML", "/", "application/xhtml+xml", 200, "text/html", `<main id="main"`},
		{"OK/DashboardAtItsPrefix", "/dashboard/", "", 200, "text/html", `<main id="main"`},
		{"OK/Script", "/dashboard/dashboard.js", "", 200, "text/javascript", `/sandbox/events/ws`},
		{"OK/Styles", "/dashboard/dashboard.css", "", 200, "text/css", `.badge`},
		{"OK/RedirectToPrefix", "/dashboard", "", 301, "", ""},
		{"ErrNoSuchFile", "/dashboard/nope.js", "", 404, "application/problem+json; charset=utf-8", `"status":404`},
		{"ErrNotTheDashboard", "/dashboardx", "", 404, "application/problem+json; charset=utf-8", `"status":404`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, s.URL()+tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if got, want := resp.StatusCode, tt.status; got != want {
				t.Fatalf("status: got %d, want %d (%s)", got, want, b)
			}
			if got := resp.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.contentType) {
				t.Errorf("content type: got %q, want %q", got, tt.contentType)
			}
			if !strings.Contains(string(b), tt.body) {
				t.Errorf("body lacks %q: %.300s", tt.body, b)
			}
			if tt.status == 301 && resp.Header.Get("Location") != dashboard.Prefix {
				t.Errorf("Location: got %q, want %q", resp.Header.Get("Location"), dashboard.Prefix)
			}
			if tt.contentType == "text/html" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
				t.Errorf("no content security policy: %v", resp.Header)
			}
		})
	}
}

func TestResources(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	demo := demoToken(t, s, "cob.read cob.write")
	other := otherApp(t, s)
	createCob(t, s, demo, "dashcobaaaaaaaaaaaaaaaaaaaaaaaa1", "10.00")
	advance(t, s, "1s")
	createCob(t, s, demo, "dashcobaaaaaaaaaaaaaaaaaaaaaaaa2", "11.00")
	advance(t, s, "1s")
	if code, body := call(t, http.MethodPut, s.URL()+"/pix/v2/cob/dashcobbbbbbbbbbbbbbbbbbbbbbbbb3", other,
		`{"valor": {"original": "12.00"}, "chave": "`+otherCNPJ+`"}`); code != http.StatusCreated {
		t.Fatalf("other company's cob: %d %s", code, body)
	}
	advance(t, s, "1s")
	// The first charge changes last: it must come first.
	if code, body := call(t, http.MethodPatch, s.URL()+"/pix/v2/cob/dashcobaaaaaaaaaaaaaaaaaaaaaaaa1", demo,
		`{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`); code != http.StatusOK {
		t.Fatalf("PATCH cob: %d %s", code, body)
	}

	type listing struct {
		Kinds     []string           `json:"kinds"`
		Counts    []resource.Count   `json:"counts"`
		Resources []resource.Summary `json:"resources"`
	}
	ids := func(l listing) string {
		var out []string
		for _, r := range l.Resources {
			out = append(out, r.Kind+":"+r.ID+":"+r.Status+":"+r.ClientID+":"+r.CNPJ)
		}
		return strings.Join(out, " ")
	}
	counts := func(l listing) string {
		var out []string
		for _, c := range l.Counts {
			out = append(out, c.Kind+":"+c.Status+"="+strconv.Itoa(c.Count))
		}
		return strings.Join(out, " ")
	}
	removed := "cob:dashcobaaaaaaaaaaaaaaaaaaaaaaaa1:REMOVIDA_PELO_USUARIO_RECEBEDOR:homologa-demo:11222333000181"
	second := "cob:dashcobaaaaaaaaaaaaaaaaaaaaaaaa2:ATIVA:homologa-demo:11222333000181"
	others := "cob:dashcobbbbbbbbbbbbbbbbbbbbbbbbb3:ATIVA:exemplo-backend:11444777000161"
	tests := []struct {
		name, query       string
		resources, counts string
	}{
		{"OK/EveryKindNewestChangeFirst", "", removed + " " + others + " " + second, "cob:ATIVA=2 cob:REMOVIDA_PELO_USUARIO_RECEBEDOR=1"},
		{"OK/OneKind", "kind=cob", removed + " " + others + " " + second, "cob:ATIVA=2 cob:REMOVIDA_PELO_USUARIO_RECEBEDOR=1"},
		{"OK/KindWithNothing", "kind=cobv", "", ""},
		{"OK/SeveralKindsEachOnce", "kind=cobv,cob,proposta,cob,", removed + " " + others + " " + second, "cob:ATIVA=2 cob:REMOVIDA_PELO_USUARIO_RECEBEDOR=1"},
		{"OK/AppByClientID", "app=exemplo-backend", others, "cob:ATIVA=1"},
		{"OK/StatusNarrowsTheListNotTheCounts", "status=ATIVA", others + " " + second, "cob:ATIVA=2 cob:REMOVIDA_PELO_USUARIO_RECEBEDOR=1"},
		{"OK/Limit", "limit=1", removed, "cob:ATIVA=2 cob:REMOVIDA_PELO_USUARIO_RECEBEDOR=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := call(t, http.MethodGet, s.URL()+"/sandbox/resources?"+tt.query, "", "")
			if code != http.StatusOK {
				t.Fatalf("status: got %d, want 200: %s", code, body)
			}
			var l listing
			if err := json.Unmarshal([]byte(body), &l); err != nil {
				t.Fatal(err)
			}
			if got, want := ids(l), tt.resources; got != want {
				t.Errorf("resources:\n got %s\nwant %s", got, want)
			}
			if got, want := counts(l), tt.counts; got != want {
				t.Errorf("counts: got %q, want %q", got, want)
			}
			if got, want := strings.Join(l.Kinds, ","), "cob,cobv,devolucao,rec,solicrec,cobr,proposta,pendencia,inscricao,cobranca,comissao,beneficio"; got != want {
				t.Errorf("kinds: got %s, want %s", got, want)
			}
		})
	}
	t.Run("OK/Times", func(t *testing.T) {
		_, body := call(t, http.MethodGet, s.URL()+"/sandbox/resources?limit=1", "", "")
		var l listing
		json.Unmarshal([]byte(body), &l)
		if len(l.Resources) != 1 || !l.Resources[0].UpdatedAt.Equal(s.Clocks.Default.Now()) || !l.Resources[0].CreatedAt.Equal(s.Clocks.Default.Now().Add(-3*time.Second)) {
			t.Errorf("times: got %+v, clock %s", l.Resources, s.Clocks.Default.Now())
		}
	})

	errs := []struct{ name, query, field string }{
		{"ErrUnknownKind", "kind=cob,nope", "kind"},
		{"ErrLimitZero", "limit=0", "limit"},
		{"ErrLimitTooLarge", "limit=1001", "limit"},
		{"ErrLimitNotANumber", "limit=ten", "limit"},
		{"ErrUnknownApp", "app=nobody", "app"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			code, body := call(t, http.MethodGet, s.URL()+"/sandbox/resources?"+tt.query, "", "")
			var p struct {
				Type   string `json:"type"`
				Status int    `json:"status"`
				Errors []struct {
					Field string `json:"field"`
				} `json:"errors"`
			}
			json.Unmarshal([]byte(body), &p)
			if code != 400 || p.Status != 400 || !strings.HasPrefix(p.Type, "urn:homologa:problem:") || len(p.Errors) != 1 || p.Errors[0].Field != tt.field {
				t.Errorf("got %d %s, want a 400 problem naming %q", code, body, tt.field)
			}
		})
	}
}

func TestOperatorEventStream(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	demo := demoToken(t, s, "cob.write")
	other := otherApp(t, s)
	wsURL := "ws" + strings.TrimPrefix(s.URL(), "http") + "/sandbox/events/ws"
	host := strings.TrimPrefix(s.URL(), "http://")

	operator := func(h http.Header) http.Header {
		out := http.Header{"Authorization": {"Bearer " + browsertest.OperatorToken}}
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	dial := func(t *testing.T, query string, h http.Header) *websocket.Conn {
		t.Helper()
		c, resp, err := websocket.DefaultDialer.Dial(wsURL+"?"+query, operator(h))
		if err != nil {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			t.Fatalf("dial ?%s: %v (%d)", query, err, status)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	next := func(t *testing.T, c *websocket.Conn) map[string]any {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		var e map[string]any
		if err := c.ReadJSON(&e); err != nil {
			t.Fatalf("read event: %v", err)
		}
		return e
	}

	t.Run("OK/EveryCompanyForTheOperator", func(t *testing.T) {
		c := dial(t, "types=pix.cob.*", nil)
		createCob(t, s, demo, "streamaaaaaaaaaaaaaaaaaaaaaaaaa1", "1.00")
		call(t, http.MethodPut, s.URL()+"/pix/v2/cob/streambbbbbbbbbbbbbbbbbbbbbbbbb1", other, `{"valor": {"original": "2.00"}, "chave": "`+otherCNPJ+`"}`)
		first, second := next(t, c), next(t, c)
		if first["cnpj"] != server.DemoCNPJ || second["cnpj"] != otherCNPJ || first["type"] != "pix.cob.criada" {
			t.Errorf("got %v then %v, want the demo's then the other company's charge", first, second)
		}
	})
	t.Run("OK/SameOriginPage", func(t *testing.T) {
		c := dial(t, "recent=1", http.Header{"Origin": {"http://" + host}})
		if e := next(t, c); e["cnpj"] != otherCNPJ {
			t.Errorf("recent=1: got %v, want the newest event", e)
		}
	})
	t.Run("OK/RecentThenLive", func(t *testing.T) {
		c := dial(t, "recent=2", nil)
		a, b := next(t, c), next(t, c)
		createCob(t, s, demo, "streamaaaaaaaaaaaaaaaaaaaaaaaaa2", "3.00")
		live := next(t, c)
		if a["sequence"].(float64) >= b["sequence"].(float64) || b["cnpj"] != otherCNPJ || live["subject"].(map[string]any)["txid"] != "streamaaaaaaaaaaaaaaaaaaaaaaaaa2" {
			t.Errorf("got %v, %v, %v", a, b, live)
		}
	})
	t.Run("OK/AnAppSeesItsCompanyOnly", func(t *testing.T) {
		c := dial(t, "since=0", http.Header{"Authorization": {"Bearer " + other}})
		if e := next(t, c); e["cnpj"] != otherCNPJ {
			t.Errorf("got %v, want only the app's company's events", e)
		}
	})
	t.Run("ErrNoCredential", func(t *testing.T) {
		_, resp, err := websocket.DefaultDialer.Dial(wsURL+"?since=0", nil)
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("dial without a credential: %v %v", err, resp)
		}
	})
	t.Run("OK/OneCompany", func(t *testing.T) {
		c := dial(t, "since=0&cnpj=11.444.777/0001-61", nil)
		if e := next(t, c); e["cnpj"] != otherCNPJ {
			t.Errorf("got %v, want only the other company's events", e)
		}
	})

	errs := []struct {
		name, query string
		header      http.Header
		status      int
		detail      string
	}{
		{"ErrOtherOrigin", "", http.Header{"Origin": {"http://evil.example"}}, 403, "/events/ws com o token do seu app"},
		{"ErrRecentZero", "recent=0", nil, 400, "de 1 a 1000"},
		{"ErrRecentAndSince", "recent=5&since=3", nil, 400, "não os dois"},
		{"ErrBadCNPJ", "cnpj=123", nil, 400, "cnpj"},
		{"ErrBadSince", "since=-4", nil, 400, "since"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := websocket.DefaultDialer.Dial(wsURL+"?"+tt.query, operator(tt.header))
			if err == nil || resp == nil {
				t.Fatalf("dial succeeded, want %d", tt.status)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != "application/problem+json; charset=utf-8" || !strings.Contains(string(b), tt.detail) {
				t.Errorf("got %d %s %s, want %d naming %q", resp.StatusCode, resp.Header.Get("Content-Type"), b, tt.status, tt.detail)
			}
		})
	}
	t.Run("ErrNotAWebsocket", func(t *testing.T) {
		code, body := call(t, http.MethodGet, s.URL()+"/sandbox/events/ws?"+url.Values{"recent": {"3"}}.Encode(), "", "")
		if code != 400 || !strings.Contains(body, "websocket") {
			t.Errorf("got %d %s", code, body)
		}
	})
}
