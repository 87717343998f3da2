package api

import (
	"net/http"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
)

// userView is GET /user, as the original service answers it: every member
// a string, "" for an unknown email or URL.
type userView = apiv1.User

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
