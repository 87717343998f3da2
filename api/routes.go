package api

import (
	"context"
	"net/http"
	"time"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/openapi"
)

// routes is the whole route table.
func (s *Server) routes() {
	rt := &s.router
	const project = "/gh/{owner}/projects/{project}"

	rt.add("GET", "/openapi.json", jsonOnly, s.handleOpenAPI).public = true
	rt.add("GET", "/healthz", jsonOnly, s.handleHealthz).public = true
	rt.add("GET", "/readyz", jsonOnly, s.handleReadyz).public = true
	rt.add("GET", "/rate_limit", jsonOnly, s.handleRateLimit)

	rt.add("GET", "/workspaces", allFormats, s.handleListWorkspaces)

	// The original service's surface beyond the specification (docs/api.md).
	rt.add("GET", "/user", jsonOnly, s.handleGetUser)
	rt.add("GET", "/workspaces/{owner}", jsonOnly, s.handleGetWorkspace)
	rt.add("GET", "/gh/{owner}/projects", allFormats, s.handleListProjects)
	rt.add("GET", project, jsonOnly, s.handleGetProject)
	rt.add("GET", project+"/metrics", jsonOnly, s.handleProjectMetrics)
	rt.add("GET", project+"/metrics/series", allFormats, s.handleProjectSeries)
	rt.add("GET", project+"/issues/counts", jsonOnly, s.handleIssueCounts)

	rt.add("POST", "/gh/{owner}/applications", jsonOnly, s.handleCreateApplication)
	rt.add("GET", "/gh/{owner}/applications", allFormats, s.handleListApplications)
	rt.add("GET", "/gh/{owner}/applications/{application}", jsonOnly, s.handleGetApplication)

	rt.add("GET", project+"/issues", allFormats, s.handleListIssues)
	rt.add("GET", project+"/builds", allFormats, s.handleListBuilds)
	rt.add("GET", project+"/builds/{build}", jsonOnly, s.handleGetBuild)

	rt.add("GET", project+"/files", jsonOnly, s.handleFileMetrics)
	rt.add("GET", project+"/coverage/file", jsonOnly, s.handleFileCoverage)

	rt.add("GET", project+"/components", allFormats, s.handleListComponents)
	rt.add("POST", project+"/components", jsonOnly, s.handleCreateComponent)
	rt.add("PUT", project+"/components/{component}", jsonOnly, s.handleReplaceComponent)
	rt.add("DELETE", project+"/components/{component}", jsonOnly, s.handleDeleteComponent)
	rt.add("GET", project+"/components/{component}/metrics", jsonOnly, s.handleComponentMetrics)
	rt.add("GET", project+"/components/{component}/metrics/series", allFormats, s.handleComponentSeries)

	// Pull requests (docs/pull-requests.md).
	rt.add("GET", project+"/compare", compareFormats, s.handleCompare)
	rt.add("GET", project+"/pulls/{pull}", compareFormats, s.handlePullRequest)
	rt.add("GET", project+"/gate", jsonOnly, s.handleGetGate)
	rt.add("PUT", project+"/gate", jsonOnly, s.handlePutGate)
	rt.add("GET", project+"/code-host", jsonOnly, s.handleGetCodeHost)
	rt.add("PUT", project+"/code-host", jsonOnly, s.handlePutCodeHost)

	// Ingestion (docs/ingest.md): user tokens of project admins, or the
	// project's upload tokens.
	const ingest = "/ingest" + project
	for _, r := range []*route{
		rt.add("POST", ingest+"/coverage", jsonOnly, s.handleUploadCoverage),
		rt.add("POST", ingest+"/sarif", jsonOnly, s.handleUploadSARIF),
		rt.add("POST", ingest+"/analyses", jsonOnly, s.handleUploadAnalysis),
		rt.add("GET", ingest+"/analyses", jsonOnly, s.handleAnalysedCommits),
		rt.add("POST", ingest+"/builds", jsonOnly, s.handleCreateBuild),
		rt.add("POST", ingest+"/changes", jsonOnly, s.handleUploadChange),
		rt.add("GET", ingest+"/gate", jsonOnly, s.handleGateStatus),
		rt.add("POST", ingest+"/builds/{build}/status", jsonOnly, s.handleUpdateBuild),
		rt.add("GET", ingest+"/upload-tokens", jsonOnly, s.handleListUploadTokens),
		rt.add("POST", ingest+"/upload-tokens", jsonOnly, s.handleCreateUploadToken),
		rt.add("GET", ingest+"/upload-tokens/{uploadToken}", jsonOnly, s.handleGetUploadToken),
		rt.add("DELETE", ingest+"/upload-tokens/{uploadToken}", jsonOnly, s.handleRevokeUploadToken),
	} {
		r.ingest = true
	}

	// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md), at the
	// paths it calls below QLTY_API_URL: they authenticate themselves.
	for _, r := range []*route{
		rt.add("POST", "/coverage", jsonOnly, s.qltyRoute(s.handleQltyPublish)),
		rt.add("POST", "/coverage/complete", jsonOnly, s.qltyRoute(s.handleQltyComplete)),
		rt.add("PUT", "/coverage/uploads/{upload}", jsonOnly, s.qltyRoute(s.handleQltyUpload)),
	} {
		r.ownAuth = true
	}

}

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request, c *call) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, err := w.Write(openapi.DocumentFor(s.baseURL(r)))
	return err
}

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request, c *call) error {
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// AddReadyCheck adds a dependency that /readyz reports without failing on:
// fn returns a short status such as "redis: ok". (The database is the one
// dependency whose loss makes the server not ready.)
func (s *Server) AddReadyCheck(name string, fn func(ctx context.Context) string) {
	s.readyChecks = append(s.readyChecks, readyCheck{name, fn})
}

type readyCheck struct {
	name string
	fn   func(ctx context.Context) string
}

type readyResponse struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// handleReadyz answers 200 while the database answers (reporting the state
// of the other dependencies), and 503 with the error body when it does not.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.Warn("not ready: database unreachable", "error", err)
		return plumb.Errorf(plumb.EUNAVAILABLE, "The database is not reachable; the server is not ready.")
	}
	resp := readyResponse{Status: "ready", Checks: map[string]string{"database": "ok"}}
	for _, rc := range s.readyChecks {
		resp.Checks[rc.name] = rc.fn(ctx)
	}
	return writeJSON(w, http.StatusOK, resp)
}

type rateLimitResponse struct {
	Resources struct {
		Core rateLimitResource `json:"core"`
	} `json:"resources"`
}

type rateLimitResource struct {
	Limit     int   `json:"limit"`
	Used      int   `json:"used"`
	Remaining int   `json:"remaining"`
	Reset     int64 `json:"reset"`
}

func (s *Server) handleRateLimit(w http.ResponseWriter, r *http.Request, c *call) error {
	st, err := s.limiter.Peek(r.Context(), c.token.ID)
	if err != nil {
		return err
	}
	var resp rateLimitResponse
	resp.Resources.Core = rateLimitResource{Limit: st.Limit, Used: st.Used, Remaining: st.Remaining, Reset: st.Reset.Unix()}
	return writeJSON(w, http.StatusOK, resp)
}
