package harness

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// A partner file says what its integration does, flow by flow, and what
// it leaves to its customers in the service's widgets. The suite
// homologates exactly that: a scenario tagged @flow:cobv runs for a
// partner that declares cobv and is "not applicable" for one that does
// not; @widget:pendencia-beneficio runs for a partner whose customers
// answer benefit pendings in the widget. Least privilege is judged
// against the same declaration (scopesAllowed).

// Flow is one thing an integration does, at the level of the service's
// operations.
type Flow struct {
	Name    string
	Product string
	Doc     string
	// Ops are the operations the flow may call: "METHOD /full/path" or
	// "/full/path" (every method), each the start of a route's path. The
	// scopes of the route table's routes under them are the scopes the
	// flow may ask for.
	Ops []string
}

// FlowCatalogue is every flow a partner file may declare.
var FlowCatalogue = []Flow{
	{"cob", "pix", "immediate charges: create, revise, read them and the Pix that paid them; the key's webhook",
		[]string{"/pix/v2/cob", "GET /pix/v2/pix", "/pix/v2/webhook", "/pix/v2/loc"}},
	{"cobv", "pix", "due-date charges: create, revise, read them and the Pix that paid them; the key's webhook",
		[]string{"/pix/v2/cobv", "GET /pix/v2/pix", "/pix/v2/webhook", "/pix/v2/loc"}},
	{"lotecobv", "pix", "batches of due-date charges",
		[]string{"/pix/v2/lotecobv", "GET /pix/v2/cobv", "GET /pix/v2/pix", "/pix/v2/webhook"}},
	{"conciliacao", "pix", "reconciling the Pix received in a period from the listing (GET /pix, every page)",
		[]string{"GET /pix/v2/pix"}},
	{"devolucao", "pix", "refunds of received Pix",
		[]string{"/pix/v2/pix"}},
	{"rec", "pix-automatico", "recurrences (Pix Automático) and their webhook",
		[]string{"/pix/v2/rec", "/pix/v2/locrec", "/pix/v2/webhookrec"}},
	{"solicrec", "pix-automatico", "confirmation requests of recurrences",
		[]string{"/pix/v2/solicrec", "GET /pix/v2/rec", "/pix/v2/webhookrec"}},
	{"cobr", "pix-automatico", "recurring charges and their webhook",
		[]string{"/pix/v2/cobr", "GET /pix/v2/rec", "/pix/v2/webhookcobr"}},
	{"venda", "seguros", "the sale: offers, simulation, the customer's signature, the proposal, following it",
		[]string{"/insurer/v1", "/access/v1", "/api.questionario/v2"}},
	{"pendencia-proposta", "seguros", "answering a proposal's pendings itself (PUT /insurer/v1/pendencia/{id})",
		[]string{"/insurer/v1/pendencia", "/insurer/v1/proposta", "GET /insurer/v1/documento", "POST /insurer/v1/documento"}},
	{"beneficio", "seguros", "benefit notices and following a benefit's regulation",
		[]string{"/benefits/v1"}},
	{"pendencia-beneficio", "seguros", "sending a benefit's pending documents itself (PUT /benefits/v1/beneficio/{id}/pendencias/{id})",
		[]string{"/benefits/v1"}},
	{"cliente", "seguros", "the customer cycle: enrollments, charges, cancellation, reduction, changes of data",
		[]string{"/customer/v1"}},
}

// WidgetCatalogue is what a partner may leave to its customer in the
// service's widgets.
var WidgetCatalogue = map[string]string{
	"cartao":              "the first premium is paid by card, typed into the credit-card widget (the partner sends only its pre-authorisation code)",
	"pendencia-proposta":  "the customer answers a proposal's pendings in the answer-pendings widget",
	"pendencia-beneficio": "the customer sends a benefit's pending documents in the benefit-pending widget",
	"questionario":        "the customer answers the offer's questionnaire in the forms widget",
	"aviso-beneficio":     "the customer gives the benefit notice in the benefit-notice widget",
}

// defaultFlows and defaultWidgets are what a product's partner declares
// when its file says nothing: what the suite homologated before partner
// files declared flows.
var (
	defaultFlows   = map[string][]string{"pix": {"cob", "devolucao"}, "pix-automatico": {"rec", "solicrec", "cobr"}, "seguros": {"venda", "pendencia-proposta", "beneficio", "pendencia-beneficio"}}
	defaultWidgets = map[string][]string{"seguros": {"cartao"}}
)

func flowNamed(name string) (Flow, bool) {
	for _, f := range FlowCatalogue {
		if f.Name == name {
			return f, true
		}
	}
	return Flow{}, false
}

// checkFlows applies the defaults and checks each flow and widget.
func (p *Partner) checkFlows() error {
	if len(p.Flows) == 0 {
		for _, pr := range p.Products {
			p.Flows = append(p.Flows, defaultFlows[pr]...)
		}
		if p.Widgets == nil {
			for _, pr := range p.Products {
				p.Widgets = append(p.Widgets, defaultWidgets[pr]...)
			}
		}
	}
	var names []string
	for _, f := range FlowCatalogue {
		names = append(names, f.Name)
	}
	for _, name := range p.Flows {
		f, ok := flowNamed(name)
		if !ok {
			return fmt.Errorf("flows: %q is not a flow the suite knows (%s)", name, strings.Join(names, ", "))
		}
		if !p.Does(f.Product) {
			return fmt.Errorf("flows: %s is a flow of %s, which products does not name", name, f.Product)
		}
	}
	for _, name := range p.Widgets {
		if _, ok := WidgetCatalogue[name]; !ok {
			var known []string
			for k := range WidgetCatalogue {
				known = append(known, k)
			}
			slices.Sort(known)
			return fmt.Errorf("widgets: %q is not a widget the suite knows (%s)", name, strings.Join(known, ", "))
		}
		if slices.Contains(p.Flows, name) {
			return fmt.Errorf("widgets: %s is declared as a flow too: the partner does it, or leaves it to its customer in the widget, not both", name)
		}
	}
	return nil
}

// applies says why a scenario with tags does not apply to the partner
// ("" when it does): a @flow: the partner does not declare, a @widget:
// it does not leave to its customer.
func (p *Partner) applies(tags []string) string {
	for _, t := range tags {
		if f, ok := strings.CutPrefix(t, "@flow:"); ok && !slices.Contains(p.Flows, f) {
			if slices.Contains(p.Widgets, f) {
				return fmt.Sprintf("the partner leaves %s to its customer in the widget (widgets: %s)", f, f)
			}
			return fmt.Sprintf("the partner does not declare the flow %s (flows)", f)
		}
		if wd, ok := strings.CutPrefix(t, "@widget:"); ok && !slices.Contains(p.Widgets, wd) {
			return fmt.Sprintf("the partner does not leave %s to the widget (widgets)", wd)
		}
	}
	return ""
}

// scopesAllowed are the scopes the partner's declared flows may ask for:
// those of the route table's routes under each flow's operations.
func (p *Partner) scopesAllowed() map[string]bool {
	out := map[string]bool{}
	for _, name := range p.Flows {
		f, _ := flowNamed(name)
		for _, op := range f.Ops {
			for _, sc := range scopesUnder(op) {
				out[sc] = true
			}
		}
	}
	return out
}

// scopesUnder lists the scopes of the routes an operation prefix covers.
func scopesUnder(op string) []string {
	method, path, hasMethod := strings.Cut(op, " ")
	if !hasMethod {
		method, path = "", op
	}
	var out []string
	for _, rt := range server.RouteTable() {
		if rt.Auth != httpx.App || (method != "" && rt.Method != method) {
			continue
		}
		if full := server.FullPath(rt); strings.HasPrefix(full, path) && isSegmentPrefix(full, path) {
			out = append(out, rt.Scopes...)
		}
	}
	return out
}

// isSegmentPrefix reports whether prefix ends where a segment of full
// ends ("/pix/v2/cob" covers "/pix/v2/cob/{txid}", not "/pix/v2/cobr").
func isSegmentPrefix(full, prefix string) bool {
	return len(full) == len(prefix) || full[len(prefix)] == '/'
}

// scopesCalled are the scopes of the operations the partner called, as
// the interaction log shows: a route's scopes for each request it
// answered other than 401 (a call the token could not make proves no
// need).
func scopesCalled(list []interaction) map[string]bool {
	out := map[string]bool{}
	routes := appRoutes()
	for _, it := range list {
		if it.Status == 401 {
			continue
		}
		for _, r := range routes {
			if r.method == it.Method && r.re.MatchString(it.Path) {
				for _, sc := range r.scopes {
					out[sc] = true
				}
			}
		}
	}
	return out
}

// appRoute is a partner route as the interaction log names it: under its
// API's base path or any of its aliases, in any case where the API
// ignores case.
type appRoute struct {
	method string
	re     *regexp.Regexp
	scopes []string
}

// appRoutes are the route table's app routes, compiled once.
var appRoutes = sync.OnceValue(func() []appRoute {
	var out []appRoute
	for _, rt := range server.RouteTable() {
		if rt.Auth != httpx.App {
			continue
		}
		api := httpx.APIFor(server.APIs, server.FullPath(rt))
		prefixes := []string{api.Prefix}
		for _, a := range api.Aliases {
			prefixes = append(prefixes, a.Prefix)
		}
		for _, prefix := range prefixes {
			re := httpx.PathPattern(prefix+rt.Path, rt.Prefix).String()
			if api.CaseInsensitive {
				re = "(?i)" + re
			}
			out = append(out, appRoute{rt.Method, regexp.MustCompile(re), rt.Scopes})
		}
	}
	return out
})
