package pix

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
)

// handleKeysList is GET /portal/apps/{id}/pix-keys.
func (s *Service) handleKeysList(r *http.Request) (*httpx.Reply, error) {
	a, err := s.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	keys, err := s.Keys(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"chaves": keys}), nil
}

// handleKeyAdd is POST /portal/apps/{id}/pix-keys.
func (s *Service) handleKeyAdd(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Chave string `json:"chave"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pixkey.create", &in); err != nil {
		return nil, err
	}
	a, err := s.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	k, err := s.AddKey(r.Context(), a.ID, strings.TrimSpace(in.Chave))
	if err != nil {
		return nil, err
	}
	return httpx.Created(k), nil
}
