package sale

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// getUser is GET /user/{username}: the access-management user, a 404 when
// the company registered none (the 2025 client then registers it).
func (s *Service) getUser(r *http.Request) (*httpx.Reply, error) {
	u, err := s.userOf(r.Context(), wire.Principal(r).CompanyID, mux.Vars(r)["username"])
	if err != nil {
		return nil, err
	}
	return wire.OK(userBody(u)), nil
}

// postUser is POST /user {username, document, email, name, cellphone,
// active}: registers the customer who will sign; 409 when it exists.
func (s *Service) postUser(r *http.Request) (*httpx.Reply, error) {
	var in userIn
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/user.request", &in); err != nil {
		return nil, err
	}
	u, err := s.createUser(r.Context(), wire.Principal(r), in)
	if err != nil {
		return nil, err
	}
	return wire.Created(userBody(u)), nil
}

func userBody(u *user) map[string]any {
	return map[string]any{"username": u.Username, "document": u.Document, "email": u.Email, "name": u.Name, "cellphone": u.Cellphone,
		"active": u.Active, "createdAt": u.CreatedAt.Format(time.RFC3339)}
}
