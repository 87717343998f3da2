package api

import (
	"net/http"

	"github.com/plumbhq/plumb"
)

// userView is GET /user, as the original service answers it: every member
// a string, "" for an unknown email or URL.
type userView struct {
	ID          string `json:"id"`
	Login       string `json:"login"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	AvatarURL   string `json:"avatarUrl"`
	ProviderURL string `json:"providerUrl"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

func newUserView(u plumb.User) userView {
	return userView{ID: u.ID, Login: u.Login, Name: u.Name, Email: u.Email, AvatarURL: u.AvatarURL,
		ProviderURL: u.ProviderURL, CreatedAt: ts(u.CreatedAt), UpdatedAt: ts(u.UpdatedAt)}
}

// handleGetUser answers the token's user.
func (s *Server) handleGetUser(w http.ResponseWriter, r *http.Request, c *call) error {
	u, err := s.store.FindUser(r.Context(), c.user.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newUserView(u))
}
