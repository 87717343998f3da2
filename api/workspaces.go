package api

import (
	"context"
	"net/http"

	"github.com/plumbhq/plumb"
)

func (s *Server) handleListWorkspaces(w http.ResponseWriter, r *http.Request, c *call) error {
	return serveList(s, w, r, c, func(p plumb.Page, fn func(workspaceView) error) error {
		return s.store.EachWorkspace(r.Context(), c.user.ID, p, func(ws plumb.Workspace) error { return fn(newWorkspaceView(ws)) })
	})
}

// workspace finds the {owner} workspace among those the caller can see.
func (s *Server) workspace(ctx context.Context, c *call) (plumb.Workspace, string, error) {
	return s.store.FindWorkspace(ctx, c.user.ID, c.params["owner"])
}

// project finds the {owner}/{project} project the caller can see.
func (s *Server) project(ctx context.Context, c *call) (plumb.Project, error) {
	ws, _, err := s.workspace(ctx, c)
	if err != nil {
		return plumb.Project{}, err
	}
	return s.store.FindProject(ctx, ws.ID, c.params["project"])
}
