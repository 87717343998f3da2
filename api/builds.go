package api

import (
	"net/http"
	"strings"

	"github.com/plumbhq/plumb"
)

func (s *Server) handleListBuilds(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	var f plumb.BuildFilter
	if st, ok := c.query.single("status"); ok && st != "" {
		if !plumb.Contains(plumb.BuildStatuses, st) {
			c.query.fail("Query parameter status has the unknown value %q; it takes one of %s.", st, strings.Join(plumb.BuildStatuses, ", "))
		}
		f.Status = st
	}
	now := s.now()
	return serveList(s, w, r, c, func(pg plumb.Page, fn func(buildListView) error) error {
		f.Page = pg
		return s.store.EachBuild(r.Context(), p.ID, f, func(b plumb.Build) error { return fn(newBuildListView(b, now)) })
	})
}

func (s *Server) handleGetBuild(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	b, err := s.store.FindBuild(r.Context(), p.ID, c.params["build"])
	if err != nil {
		return err
	}
	if err := c.query.err(); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newBuildView(b, s.now()))
}
