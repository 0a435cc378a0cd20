package tenant_test

import (
	"context"
	"errors"
	"testing"

	"homologa/simulator/errs"
	"homologa/simulator/tenant"
)

func TestOf(t *testing.T) {
	bg := context.Background()
	tests := []struct {
		name     string
		ctx      context.Context
		company  string
		one      bool
		every    bool
		includes map[string]bool
		err      bool
	}{
		{"ErrNone", bg, "", false, false, map[string]bool{"c1": false, "": false}, true},
		{"ErrEmptyID", tenant.With(bg, ""), "", false, false, map[string]bool{"c1": false, "": false}, true},
		{"ErrEmptyIDHidesTheOperator", tenant.With(tenant.WithEveryCompany(bg), ""), "", false, false, map[string]bool{"c1": false}, true},
		{"Company", tenant.With(bg, "c1"), "c1", true, false, map[string]bool{"c1": true, "c2": false, "": false}, false},
		{"Operator", tenant.WithEveryCompany(bg), "", false, true, map[string]bool{"c1": true, "c2": true, "": true}, false},
		{"CompanyInsideTheOperator", tenant.With(tenant.WithEveryCompany(bg), "c2"), "c2", true, false, map[string]bool{"c1": false, "c2": true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := tenant.Of(tt.ctx)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want an error: %v", err, tt.err)
			}
			if err != nil && (!errors.Is(err, tenant.ErrNoCompany) || errs.CodeOf(err) != errs.Forbidden) {
				t.Fatalf("err = %v, want a 403 wrapping ErrNoCompany", err)
			}
			if got, one := sc.Company(); got != tt.company || one != tt.one {
				t.Errorf("Company() = %q, %v; want %q, %v", got, one, tt.company, tt.one)
			}
			if sc.Every() != tt.every {
				t.Errorf("Every() = %v, want %v", sc.Every(), tt.every)
			}
			for id, want := range tt.includes {
				if got := sc.Includes(id); got != want {
					t.Errorf("Includes(%q) = %v, want %v", id, got, want)
				}
			}
		})
	}
}

func TestCompanyOf(t *testing.T) {
	bg := context.Background()
	if id, err := tenant.CompanyOf(tenant.With(bg, "c1")); id != "c1" || err != nil {
		t.Errorf("a company's context: %q, %v", id, err)
	}
	for name, ctx := range map[string]context.Context{"none": bg, "operator": tenant.WithEveryCompany(bg)} {
		if id, err := tenant.CompanyOf(ctx); err == nil || errs.CodeOf(err) != errs.Forbidden {
			t.Errorf("%s: %q, %v; want a 403", name, id, err)
		}
	}
}

func TestNamed(t *testing.T) {
	for id, want := range map[string]bool{"": false, "c1": true} {
		if got := tenant.Named(id); got != want {
			t.Errorf("Named(%q) = %v, want %v", id, got, want)
		}
	}
}
