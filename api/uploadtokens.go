package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
)

// Upload tokens are managed by the project's admins with their user tokens
// (docs/ingest.md): an upload token can upload, never manage tokens.

type uploadTokenView = apiv1.UploadToken

func newUploadTokenView(t plumb.UploadToken) uploadTokenView {
	return uploadTokenView{ID: t.ID, Name: t.Name, CreatedBy: t.CreatedBy, CreatedAt: ts(t.CreatedAt),
		LastUsedAt: tsPtr(t.LastUsedAt), RevokedAt: tsPtr(t.RevokedAt)}
}

// createdUploadTokenView is the answer to a create: the token's secret is
// shown this once.
type createdUploadTokenView = apiv1.CreatedUploadToken

// tokenAdminProject resolves the project of an upload-token operation: the
// project must be visible (404) and the caller a project admin using a user
// token (403).
func (s *Server) tokenAdminProject(ctx context.Context, c *call) (plumb.Project, error) {
	if c.upload != nil {
		p, err := s.ingestProject(ctx, c) // its own project, or 404
		if err != nil {
			return p, err
		}
		return p, plumb.Errorf(plumb.EFORBIDDEN, "An upload token cannot manage upload tokens; use the API token of an admin of project %q.", p.Key)
	}
	p, err := s.project(ctx, c)
	if err != nil {
		return p, err
	}
	return p, s.requireProjectAdmin(ctx, c, p, uploadTokenAdminRefusal)
}

func (s *Server) handleListUploadTokens(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.tokenAdminProject(r.Context(), c)
	if err != nil {
		return err
	}
	return serveList(s, w, r, c, func(pg plumb.Page, fn func(uploadTokenView) error) error {
		return s.store.EachUploadToken(r.Context(), p.ID, pg, func(t plumb.UploadToken) error { return fn(newUploadTokenView(t)) })
	})
}

func (s *Server) handleGetUploadToken(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.tokenAdminProject(r.Context(), c)
	if err != nil {
		return err
	}
	t, err := s.store.FindUploadToken(r.Context(), p.ID, c.params["uploadToken"])
	if err != nil {
		return err
	}
	if err := c.query.err(); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newUploadTokenView(t))
}

func (s *Server) handleCreateUploadToken(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.tokenAdminProject(r.Context(), c)
	if err != nil {
		return err
	}
	f, err := s.readFields(w, r)
	if err != nil {
		return err
	}
	name := f.name("name", 100)
	if err := f.err(); err != nil {
		return err
	}
	t, secret, err := s.store.CreateProjectUploadToken(r.Context(), p.ID, name, c.user.Login)
	if err != nil {
		return err
	}
	s.log.Info("upload token created", "request_id", requestID(r.Context()), "project", p.ID, "upload_token", t.ID, "user", c.user.ID)
	w.Header().Set("Location", fmt.Sprintf("%s/ingest/gh/%s/projects/%s/upload-tokens/%s", s.baseURL(r), c.params["owner"], c.params["project"], t.ID))
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusCreated, createdUploadTokenView{UploadToken: newUploadTokenView(t), Token: secret})
}

func (s *Server) handleRevokeUploadToken(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.tokenAdminProject(r.Context(), c)
	if err != nil {
		return err
	}
	t, err := s.store.RevokeProjectUploadToken(r.Context(), p.ID, c.params["uploadToken"])
	if err != nil {
		return err
	}
	s.log.Info("upload token revoked", "request_id", requestID(r.Context()), "project", p.ID, "upload_token", t.ID, "user", c.user.ID)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
