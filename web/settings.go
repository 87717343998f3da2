package web

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// A project's settings page, for its admins: upload tokens for CI (create,
// shown once; list; revoke), the badges' public switch and the sources
// switch (keep sources or not; turning it off deletes those kept, after a
// confirmation).

type projectSettingsData struct {
	*scope
	Tokens  []plumb.UploadToken
	Created string
	Name    string
	Error   string
	Public  bool
	Badges  []badgeLink
	Base    string
	// KeepSources is the project's sources setting; ServerRefuses says the
	// server keeps none whatever it is (plumb serve --refuse-sources).
	KeepSources, ServerRefuses bool
	ConfirmSourcesOff          bool // ask before deleting the kept sources
	SourcesDeleted             string
	More                       projectSettingsMore // settings_project.go
}

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request, v *view, d projectSettingsData, status int) (string, error) {
	sc := d.scope
	ctx := r.Context()
	err := s.store.EachUploadToken(ctx, sc.Project.ID, plumb.Page{}, func(t plumb.UploadToken) error {
		d.Tokens = append(d.Tokens, t)
		return nil
	})
	if err != nil {
		return "", err
	}
	if d.Public, err = s.store.BadgesPublic(ctx, sc.Project.ID); err != nil {
		return "", err
	}
	disabled, err := s.store.SourcesDisabled(ctx, sc.Project.ID)
	if err != nil {
		return "", err
	}
	d.KeepSources = !disabled
	if err := s.store.SourcesRefused(ctx, sc.Project.ID); plumb.ErrorCode(err) == plumb.EFORBIDDEN {
		d.ServerRefuses = !disabled
	} else if err != nil {
		return "", err
	}
	d.Base = s.baseURL(r)
	for _, b := range badgeKinds {
		d.Badges = append(d.Badges, badgeLink{b.title, d.Base + sc.API + "/" + b.file})
	}
	if err := s.loadProjectSettingsMore(r, &d); err != nil {
		return "", err
	}
	v.Data = d
	if status != http.StatusOK {
		s.render(w, r, status, "settings", v)
		return "", nil
	}
	return "settings", nil
}

func (s *Server) adminScope(r *http.Request, v *view) (*scope, error) {
	sc, err := s.projectOf(r, v, "Settings")
	if err != nil {
		return nil, err
	}
	return sc, s.requireAdmin(sc, "Managing upload tokens, badges and sources")
}

// flashUploadToken is the flash kind of a project's new upload token.
func flashUploadToken(p plumb.Project) string { return "upload-token:" + p.ID }

func (s *Server) handleProjectSettings(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	created, err := s.takeFlash(r, flashUploadToken(sc.Project))
	if err != nil {
		return "", err
	}
	deleted, err := s.takeFlash(r, flashSourcesDeleted(sc.Project))
	if err != nil {
		return "", err
	}
	return s.settingsPage(w, r, v, projectSettingsData{scope: sc, Created: created, SourcesDeleted: deleted}, http.StatusOK)
}

func (s *Server) handleCreateUploadToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(r.PostForm.Get("name"))
	if n := utf8.RuneCountInString(name); n == 0 || n > 100 {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc, Name: name,
			Error: "Give the upload token a name of 1 to 100 characters, e.g. \"GitHub Actions\"."}, http.StatusBadRequest)
	}
	_, secret, err := s.store.CreateProjectUploadToken(r.Context(), sc.Project.ID, name, v.User.ID)
	if err != nil {
		return "", err
	}
	// Post/redirect/get, as for API tokens: the settings page shows it once.
	if err := s.setFlash(r, flashUploadToken(sc.Project), secret); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleRevokeUploadToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	if _, err := s.store.RevokeProjectUploadToken(r.Context(), sc.Project.ID, r.PathValue("id")); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleBadgeSwitch(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	if err := s.store.SetBadgesPublic(r.Context(), sc.Project.ID, r.PostForm.Get("public") == "on"); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings", http.StatusSeeOther)
	return "", nil
}

// flashSourcesDeleted is the flash kind of what turning sources off
// deleted.
func flashSourcesDeleted(p plumb.Project) string { return "sources-deleted:" + p.ID }

// handleSourcesSwitch turns the project's sources setting on (keep=on) or
// off. Off deletes the kept sources, so it is asked to be confirmed first
// (confirm=yes): without it the settings page asks, and nothing changes.
func (s *Server) handleSourcesSwitch(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	keep := r.PostForm.Get("keep") == "on"
	if !keep && r.PostForm.Get("confirm") != "yes" {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc, ConfirmSourcesOff: true}, http.StatusOK)
	}
	d, err := s.store.SetSourcesDisabled(r.Context(), sc.Project.ID, !keep)
	if err != nil {
		return "", err
	}
	if !keep {
		msg := fmt.Sprintf("Sources are turned off: %d commits' sources and %d contents were deleted.", d.Commits, d.Blobs)
		if err := s.setFlash(r, flashSourcesDeleted(sc.Project), msg); err != nil {
			return "", err
		}
	}
	http.Redirect(w, r, sc.URL+"/settings", http.StatusSeeOther)
	return "", nil
}
