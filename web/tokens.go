package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// The API token settings page: the spec's {token_settings_url}.

type tokensData struct {
	Tokens  []plumb.Token
	Created string // the secret of a token created by this request, shown once
	Name    string
	Error   string
	APIBase string
}

func (s *Server) tokensView(r *http.Request, v *view, d tokensData) error {
	list, err := s.store.ListTokens(r.Context(), v.User.ID)
	if err != nil {
		return err
	}
	// Newest first; revoked ones after the active ones.
	active, revoked := []plumb.Token{}, []plumb.Token{}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].RevokedAt == nil {
			active = append(active, list[i])
		} else {
			revoked = append(revoked, list[i])
		}
	}
	d.Tokens = append(active, revoked...)
	d.APIBase = s.baseURL(r)
	v.Title = "API tokens"
	v.Crumbs = []crumb{{"Settings", ""}, {"API tokens", ""}}
	v.Data = d
	return nil
}

// flashAPIToken is the flash kind of a new API token's secret.
const flashAPIToken = "api-token"

func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	created, err := s.takeFlash(r, flashAPIToken)
	if err != nil {
		return "", err
	}
	return "tokens", s.tokensView(r, v, tokensData{Created: created})
}

func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	name := strings.TrimSpace(r.PostForm.Get("name"))
	d := tokensData{Name: name}
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		d.Error = "Give the token a name that says where it is used, e.g. \"CI of my-repo\"."
	case n > 100:
		d.Error = "A token name may be at most 100 characters long."
	}
	if d.Error != "" {
		if err := s.tokensView(r, v, d); err != nil {
			return "", err
		}
		s.render(w, r, http.StatusBadRequest, "tokens", v)
		return "", nil
	}
	_, secret, err := s.store.CreateToken(r.Context(), v.User.ID, name)
	if err != nil {
		return "", err
	}
	// Post/redirect/get: the page the form redirects to shows the secret
	// once (flash.go); a reload shows it no more and re-sends nothing.
	if err := s.setFlash(r, flashAPIToken, secret); err != nil {
		return "", err
	}
	http.Redirect(w, r, "/settings/tokens", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	if err := s.store.RevokeUserToken(r.Context(), v.User.ID, r.PathValue("id")); err != nil {
		return "", err
	}
	http.Redirect(w, r, "/settings/tokens", http.StatusSeeOther)
	return "", nil
}
