package api

import (
	"net/http"

	"github.com/plumbhq/plumb"
)

func (s *Server) handleCreateApplication(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	if !ws.ApplicationsEnabled {
		return plumb.Errorf(plumb.EFORBIDDEN, "Applications are not enabled on workspace %q; a workspace admin can enable them.", ws.Key)
	}
	obj, err := s.readJSONObject(w, r)
	if err != nil {
		return err
	}
	f := &fields{obj: obj}
	name := f.name("name", 100)
	desc, _ := f.str("description", false, 0, 1000)
	if err := plumb.InvalidCounted(append(c.query.errs, f.errs...), c.query.nErrs+f.nErrs); err != nil {
		return err
	}
	a, err := s.store.CreateApplication(r.Context(), ws.ID, name, desc)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.baseURL(r)+"/gh/"+ws.Key+"/applications/"+a.ID)
	return writeJSON(w, http.StatusCreated, applicationView{ID: a.ID, Name: a.Name, Description: a.Description})
}

func (s *Server) handleListApplications(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	name, _ := c.query.single("name")
	return serveList(s, w, r, c, func(p plumb.Page, fn func(applicationCountView) error) error {
		return s.store.EachApplication(r.Context(), ws.ID, name, p, func(a plumb.Application) error { return fn(newApplicationCountView(a)) })
	})
}

func (s *Server) handleGetApplication(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	a, err := s.store.FindApplication(r.Context(), ws.ID, c.params["application"])
	if err != nil {
		return err
	}
	if err := c.query.err(); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newApplicationCountView(a))
}
