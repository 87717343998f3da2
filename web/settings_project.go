package web

import (
	"net/http"

	"github.com/plumbhq/plumb"
)

// The rest of a project's settings page, for its admins: the badge token
// (a secret a private project's badge URLs accept as ?token=, shown once,
// regenerable, revocable).

// projectSettingsMore is what settings_project.html shows.
type projectSettingsMore struct {
	BadgeToken      plumb.BadgeToken
	HasBadgeToken   bool
	NewBadgeToken   string // shown once, after creation
	BadgeTokenError string
}

func (s *Server) projectSettingsRoutes(project string) {
	m := s.mux
	m.HandleFunc("POST "+project+"/badge-token", s.form(s.handleCreateBadgeToken))
	m.HandleFunc("POST "+project+"/badge-token/revoke", s.form(s.handleRevokeBadgeToken))
}

// flashBadgeToken is the flash kind of a project's new badge token.
func flashBadgeToken(p plumb.Project) string { return "badge-token:" + p.ID }

func (s *Server) loadProjectSettingsMore(r *http.Request, d *projectSettingsData) error {
	ctx := r.Context()
	m := &d.More
	var err error
	if m.BadgeToken, m.HasBadgeToken, err = s.store.ProjectBadgeToken(ctx, d.Project.ID); err != nil {
		return err
	}
	if m.HasBadgeToken && r.Method == http.MethodGet {
		if m.NewBadgeToken, err = s.takeFlash(r, flashBadgeToken(d.Project)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) handleCreateBadgeToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	secret, err := s.store.CreateBadgeToken(r.Context(), sc.Project.ID, v.User.ID)
	if err != nil {
		return "", err
	}
	if err := s.setFlash(r, flashBadgeToken(sc.Project), secret); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings#badges", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleRevokeBadgeToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	had, err := s.store.RevokeBadgeToken(r.Context(), sc.Project.ID)
	if err != nil {
		return "", err
	}
	if !had {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc,
			More: projectSettingsMore{BadgeTokenError: "This project has no badge token to revoke."}}, http.StatusBadRequest)
	}
	http.Redirect(w, r, sc.URL+"/settings#badges", http.StatusSeeOther)
	return "", nil
}
