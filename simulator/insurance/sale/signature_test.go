package sale

import (
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
)

func TestNewUser(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	yes := true
	tests := []struct {
		name  string
		in    userIn
		field string // "" when accepted
	}{
		{"OKAsTheClientSendsIt", userIn{Username: "11144477735", Document: "11144477735", Email: "m@x.com", Name: "Maria", Cellphone: "(11) 99999-0000", Active: &yes}, ""},
		{"OKDocumentFromUsername", userIn{Username: "111.444.777-35"}, ""},
		{"ErrNoUsername", userIn{Document: "11144477735"}, "username"},
		{"ErrNotACPF", userIn{Username: "11144477736"}, "document"},
	}
	for _, tt := range tests {
		u, err := newUser(auth.Principal{CompanyID: "c1"}, tt.in, now)
		if tt.field == "" {
			if err != nil || u.Document != "11144477735" || !u.Active {
				t.Errorf("%s: %+v, %v", tt.name, u, err)
			}
			continue
		}
		if e := errs.As(err); err == nil || len(e.Violations) == 0 || e.Violations[0].Field != tt.field {
			t.Errorf("%s: %v, want an error on %s", tt.name, err, tt.field)
		}
	}
	if u, _ := newUser(auth.Principal{}, userIn{Username: "11144477735", Cellphone: "(11) 99999-0000"}, now); u.Cellphone != "11999990000" {
		t.Errorf("cellphone %q, want its digits", u.Cellphone)
	}
}

func TestSignerOf(t *testing.T) {
	var in signatureIn
	in.User.Username, in.Token.TokenCode = "11144477735", "123456"
	if cpf, err := signerOf(in); err != nil || cpf != "11144477735" {
		t.Errorf("signerOf = %q, %v", cpf, err)
	}
	in.User.Document = "52998224725"
	if cpf, _ := signerOf(in); cpf != "52998224725" {
		t.Errorf("the document wins over the username: %q", cpf)
	}
	in.Token.TokenCode = " "
	if _, err := signerOf(in); err == nil {
		t.Error("no code accepted")
	}
	in.Token.TokenCode, in.User.Document, in.User.Username = "1", "", ""
	if _, err := signerOf(in); err == nil {
		t.Error("no CPF accepted")
	}
}

func TestInvalidToken(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	err := invalidToken(checkToken(&usedToken{ID: "t", ExpiresAt: now.Add(-time.Second)}, Payer{CPF: "11144477735"}, "1", now))
	e := errs.As(err)
	if e.Code != errs.Invalid || e.Type != "TOKEN_INVALIDO" || e.Violations[0].Field != "token.tokenCode" || !strings.HasPrefix(e.Violations[0].Reason, "Token inválido") {
		t.Errorf("invalidToken = %+v", e)
	}
}
