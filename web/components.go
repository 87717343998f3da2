package web

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// Components: the list with file counts and metrics for every member, and
// create, edit and delete forms for project admins. The rules are the API's
// (Components enabled on the project, names unique per project, globs valid).

type componentsData struct {
	*scope
	Rows []componentRow
	Form componentForm
}

type componentForm struct {
	Action, Name, Description, Globs, Error string
	Editing                                 bool
	Delete                                  string
}

func (s *Server) componentScope(r *http.Request, v *view, section string) (*scope, error) {
	sc, err := s.projectOf(r, v, section)
	if err != nil {
		return nil, err
	}
	if !sc.Project.ComponentsEnabled {
		return nil, plumb.Errorf(plumb.EFORBIDDEN, "Components are not enabled on project %q. An operator turns them on with 'plumb project components %s/%s on'.",
			sc.Project.Key, sc.WS.Key, sc.Project.Key)
	}
	return sc, nil
}

func (s *Server) requireAdmin(sc *scope, what string) error {
	if !sc.Admin {
		return plumb.Errorf(plumb.EFORBIDDEN, "%s needs the admin role on project %q (a workspace admin administers every project of the workspace).", what, sc.Project.Key)
	}
	return nil
}

func (s *Server) componentsPage(w http.ResponseWriter, r *http.Request, v *view, sc *scope, form componentForm, status int) (string, error) {
	rows, err := s.componentRows(r.Context(), sc)
	if err != nil {
		return "", err
	}
	if form.Action == "" {
		form.Action = sc.URL + "/components"
	}
	v.Data = componentsData{scope: sc, Rows: rows, Form: form}
	if status != http.StatusOK {
		s.render(w, r, status, "components", v)
		return "", nil
	}
	return "components", nil
}

func (s *Server) handleComponents(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.componentScope(r, v, "Components")
	if err != nil {
		return "", err
	}
	return s.componentsPage(w, r, v, sc, componentForm{}, http.StatusOK)
}

// readComponentForm validates the form as the API validates its body.
func readComponentForm(r *http.Request) (plumb.Component, componentForm) {
	f := componentForm{Name: strings.TrimSpace(r.PostForm.Get("name")), Description: strings.TrimSpace(r.PostForm.Get("description")),
		Globs: r.PostForm.Get("globs")}
	c := plumb.Component{Name: f.Name, Description: f.Description}
	var problems []string
	switch n := utf8.RuneCountInString(f.Name); {
	case n == 0:
		problems = append(problems, "Give the component a name.")
	case n > 100:
		problems = append(problems, "A component name may be at most 100 characters long.")
	}
	if utf8.RuneCountInString(f.Description) > 1000 {
		problems = append(problems, "A description may be at most 1000 characters long.")
	}
	for _, line := range strings.Split(f.Globs, "\n") {
		if g := strings.TrimSpace(line); g != "" {
			c.PathGlobs = append(c.PathGlobs, g)
		}
	}
	if len(c.PathGlobs) == 0 {
		problems = append(problems, "List at least one path glob, one per line (e.g. src/api/**).")
	}
	if len(c.PathGlobs) > 1000 {
		problems = append(problems, "A component may have at most 1000 path globs.")
	}
	for _, g := range c.PathGlobs {
		if err := metric.ValidateGlob(g); err != nil {
			problems = append(problems, "Path glob "+g+": "+err.Error())
		}
	}
	f.Error = strings.Join(problems, " ")
	return c, f
}

func (s *Server) handleCreateComponent(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.componentScope(r, v, "Components")
	if err != nil {
		return "", err
	}
	if err := s.requireAdmin(sc, "Creating components"); err != nil {
		return "", err
	}
	in, form := readComponentForm(r)
	return s.saveComponent(w, r, v, sc, form, func() error {
		in.ProjectID, in.CreatorID = sc.Project.ID, v.User.ID
		_, err := s.store.CreateComponent(r.Context(), in)
		return err
	})
}

// saveComponent runs save for a valid form and goes back to the list, or
// shows the form again with what was wrong (400; a taken name is the store's
// conflict, said on the form).
func (s *Server) saveComponent(w http.ResponseWriter, r *http.Request, v *view, sc *scope, form componentForm, save func() error) (string, error) {
	if form.Error == "" {
		if err := save(); err != nil {
			if c := plumb.ErrorCode(err); c != plumb.ECONFLICT && c != plumb.EINVALID {
				return "", err
			}
			form.Error = strings.Join(plumb.ErrorDetails(err), " ")
		}
	}
	if form.Error != "" {
		return s.componentsPage(w, r, v, sc, form, http.StatusBadRequest)
	}
	http.Redirect(w, r, sc.URL+"/components", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleEditComponent(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, c, err := s.adminComponent(r, v, "Editing components")
	if err != nil {
		return "", err
	}
	form := componentForm{Action: sc.URL + "/components/" + url.PathEscape(c.ID), Name: c.Name, Description: c.Description,
		Globs: strings.Join(c.PathGlobs, "\n"), Editing: true, Delete: sc.URL + "/components/" + url.PathEscape(c.ID) + "/delete"}
	v.Crumbs = append(v.Crumbs[:len(v.Crumbs)-1], crumb{"Components", sc.URL + "/components"}, crumb{c.Name, ""})
	return s.componentsPage(w, r, v, sc, form, http.StatusOK)
}

func (s *Server) handleUpdateComponent(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, c, err := s.adminComponent(r, v, "Editing components")
	if err != nil {
		return "", err
	}
	in, form := readComponentForm(r)
	form.Action, form.Editing = sc.URL+"/components/"+url.PathEscape(c.ID), true
	form.Delete = form.Action + "/delete"
	return s.saveComponent(w, r, v, sc, form, func() error {
		_, err := s.store.ReplaceComponent(r.Context(), sc.Project.ID, c.ID, in)
		return err
	})
}

// adminComponent finds the {component} of the page's project for a project
// admin: 404 before 403, as the API checks.
func (s *Server) adminComponent(r *http.Request, v *view, what string) (*scope, plumb.Component, error) {
	sc, err := s.componentScope(r, v, "Components")
	if err != nil {
		return nil, plumb.Component{}, err
	}
	c, err := s.store.FindComponent(r.Context(), sc.Project.ID, r.PathValue("component"))
	if err != nil {
		return nil, c, err
	}
	return sc, c, s.requireAdmin(sc, what)
}

func (s *Server) handleDeleteComponent(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, c, err := s.adminComponent(r, v, "Deleting components")
	if err != nil {
		return "", err
	}
	if err := s.store.DeleteComponent(r.Context(), sc.Project.ID, c.ID); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/components", http.StatusSeeOther)
	return "", nil
}
