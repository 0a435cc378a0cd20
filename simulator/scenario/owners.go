package scenario

import (
	"context"

	"homologa/simulator/tenant"
)

// A company's uploaded scenarios are its own: they are seen, bound and
// activated for its resources only, and another company may upload one
// with the same id. Shipped scenarios, the --scenarios folder and the
// operator's uploads are shared. A view is what one company sees: its own
// scenarios over the shared ones.
type view struct {
	shared, own *Catalogue
}

// Get returns the scenario with id, the company's own first.
func (v view) Get(id string) *Scenario {
	if v.own != nil {
		if s := v.own.Get(id); s != nil {
			return s
		}
	}
	return v.shared.Get(id)
}

// Selected returns the scenario of kind whose select rule matches body,
// the company's own first.
func (v view) Selected(kind string, body map[string]any) *Scenario {
	if v.own != nil {
		if s := v.own.Selected(kind, body); s != nil {
			return s
		}
	}
	return v.shared.Selected(kind, body)
}

// Default returns the default scenario of kind, the company's own first.
func (v view) Default(kind string) *Scenario {
	if v.own != nil {
		if s := v.own.Default(kind); s != nil {
			return s
		}
	}
	return v.shared.Default(kind)
}

// All lists the shared scenarios and the company's own, by id; an own one
// replaces a shared one of the same id.
func (v view) All() []*Scenario {
	if v.own == nil {
		return v.shared.All()
	}
	var out []*Scenario
	for _, s := range v.shared.All() {
		if v.own.Get(s.ID) == nil {
			out = append(out, s)
		}
	}
	return append(out, v.own.All()...)
}

// viewOf is what the company ctx acts for sees: the shared scenarios and
// its own. The operator, and work of no company, see the shared ones.
func (e *Engine) viewOf(ctx context.Context) view {
	sc, _ := tenant.Of(ctx)
	company, _ := sc.Company()
	return e.viewFor(company)
}

// viewFor is what a company sees; an id of no company sees the shared
// scenarios, as no company owns any.
func (e *Engine) viewFor(company string) view {
	v := view{shared: e.Catalogue()}
	if c, ok := e.own.Load(company); ok {
		v.own = c.(*Catalogue)
	}
	return v
}

// Lookup returns the scenario id as company sees it, or nil.
func (e *Engine) Lookup(company, id string) *Scenario { return e.viewFor(company).Get(id) }
