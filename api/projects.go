package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/metric"
)

// projectView is the Project object of the original service's surface.
type projectView = apiv1.Project

// newProjectView makes the Project object. Its providerUrl is the
// workspace's provider URL followed by the project key (the repository on
// the code host), or "" when the workspace has none.
func newProjectView(ws plumb.Workspace, p plumb.Project) projectView {
	provider := ""
	if ws.ProviderURL != "" {
		provider = strings.TrimRight(ws.ProviderURL, "/") + "/" + p.Key
	}
	return projectView{ID: p.ID, Key: p.Key, WorkspaceID: ws.ID, WorkspaceKey: ws.Key, DefaultBranch: p.DefaultBranch,
		ProviderURL: provider, CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt)}
}

func (s *Server) handleGetWorkspace(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newWorkspaceView(ws))
}

func (s *Server) handleListProjects(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	return serveList(s, w, r, c, func(p plumb.Page, fn func(projectView) error) error {
		return s.store.EachProject(r.Context(), ws.ID, p, func(p plumb.Project) error { return fn(newProjectView(ws, p)) })
	})
}

func (s *Server) handleGetProject(w http.ResponseWriter, r *http.Request, c *call) error {
	ws, _, err := s.workspace(r.Context(), c)
	if err != nil {
		return err
	}
	p, err := s.store.FindProject(r.Context(), ws.ID, c.params["project"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newProjectView(ws, p))
}

// handleProjectMetrics answers the twelve metrics of the whole project.
func (s *Server) handleProjectMetrics(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	t, err := s.store.ProjectTotals(r.Context(), p.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, metricsResponse{Data: metric.Values(t, metric.ScopeProject)})
}

// handleProjectSeries answers the metric series of the whole project, as
// the component series does for a component.
func (s *Server) handleProjectSeries(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	return s.serveSeries(w, c, metric.ScopeProject, func(to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
		return s.store.ProjectHistory(r.Context(), p.ID, to)
	})
}
