package sale

import (
	"context"
	"errors"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// user is an access-management user: the customer who signs, known by
// its CPF (insurance CLIENTS §3.7: username and document are the CPF's
// digits).
type user struct {
	CompanyID string
	Username  string `json:"username"`
	Document  string `json:"document"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Cellphone string `json:"cellphone"`
	Active    bool   `json:"active"`
	CreatedAt time.Time
}

// userIn is POST /user's body as the 2025 client sends it.
type userIn struct {
	Username  string `json:"username"`
	Document  string `json:"document"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Cellphone string `json:"cellphone"`
	Active    *bool  `json:"active"`
}

// newUser checks a user to register: a username, and a document that is a
// CPF (the username's, when none is given); the cellphone's digits.
func newUser(by auth.Principal, in userIn, now time.Time) (*user, error) {
	u := &user{CompanyID: by.CompanyID, Username: wire.Digits(in.Username), Document: wire.Digits(wire.OrDefault(in.Document, in.Username)),
		Email: in.Email, Name: in.Name, Cellphone: wire.Digits(in.Cellphone), Active: in.Active == nil || *in.Active, CreatedAt: now}
	if u.Username == "" {
		return nil, errs.Invalidf("username", "informe o username (o CPF do cliente)")
	}
	if err := taxid.CheckCPF(u.Document); err != nil {
		return nil, errs.Invalidf("document", "CPF inválido: %v", err)
	}
	return u, nil
}

// errUserExists is a username the company registered already: the 2025
// client takes the 409 as success.
var errUserExists = errors.New("user exists")

// createUser registers a user of the company; 409 when it has one by that
// username.
func (s *Service) createUser(ctx context.Context, by auth.Principal, in userIn) (*user, error) {
	u, err := newUser(by, in, s.NowOf(by.CompanyID))
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error { return insertUser(ctx, tx, u) })
	if errors.Is(err, errUserExists) {
		return nil, errs.Errorf(errs.Conflict, "o usuário %s já existe", u.Username).WithType("USUARIO_JA_EXISTE")
	}
	return u, err
}

// userOf reads the company's user username, or the 404 to answer.
func (s *Service) userOf(ctx context.Context, companyID, username string) (*user, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) (*user, error) {
		return wire.Found(loadUser(ctx, tx, companyID, wire.Digits(username)))(
			wire.NotFound("USUARIO_NAO_ENCONTRADO", "usuário %s não encontrado", username))
	})
}
