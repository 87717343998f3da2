package api

import (
	"context"
	"net/http"
	"time"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/openapi"
)

// routes is the whole route table. Each route names the OpenAPI operation
// it serves; the openapi package's endpoint tables give its method and path
// (routes_test.go proves the two sets are the same). Only the probes and
// GitHub's webhook are outside the document, and say so.
func (s *Server) routes() {
	rt := &s.router
	op := rt.operation

	op("getOpenAPIDocument", jsonOnly, s.handleOpenAPI).public = true
	rt.undocumented("GET", "/healthz", jsonOnly, s.handleHealthz).public = true
	rt.undocumented("GET", "/readyz", jsonOnly, s.handleReadyz).public = true
	// GitHub's webhooks, signed with the App's secret (hooks.go).
	rt.undocumented("POST", "/hooks/github", jsonOnly, s.handleGitHubHook).ownAuth = true
	op("getRateLimit", jsonOnly, s.handleRateLimit)

	op("listWorkspaces", allFormats, s.handleListWorkspaces)

	// The original service's surface beyond the specification (docs/api.md).
	op("getUser", jsonOnly, s.handleGetUser)
	op("getWorkspace", jsonOnly, s.handleGetWorkspace)
	op("listProjects", allFormats, s.handleListProjects)
	op("getProject", jsonOnly, s.handleGetProject)
	op("getProjectMetrics", jsonOnly, s.handleProjectMetrics)
	op("getProjectMetricSeries", allFormats, s.handleProjectSeries)
	op("getIssueCounts", jsonOnly, s.handleIssueCounts)

	op("createApplication", jsonOnly, s.handleCreateApplication)
	op("listApplications", allFormats, s.handleListApplications)
	op("getApplication", jsonOnly, s.handleGetApplication)

	op("listIssues", allFormats, s.handleListIssues)
	op("listBuilds", allFormats, s.handleListBuilds)
	op("getBuild", jsonOnly, s.handleGetBuild)

	op("getFileMetrics", jsonOnly, s.handleFileMetrics)
	op("getFileCoverage", jsonOnly, s.handleFileCoverage)

	op("listComponents", allFormats, s.handleListComponents)
	op("createComponent", jsonOnly, s.handleCreateComponent)
	op("replaceComponent", jsonOnly, s.handleReplaceComponent)
	op("deleteComponent", jsonOnly, s.handleDeleteComponent)
	op("getComponentMetrics", jsonOnly, s.handleComponentMetrics)
	op("getComponentMetricSeries", allFormats, s.handleComponentSeries)

	// Pull requests (docs/pull-requests.md).
	op("compareCommits", compareFormats, s.handleCompare)
	op("comparePullRequest", compareFormats, s.handlePullRequest)
	op("getQualityGate", jsonOnly, s.handleGetGate)
	op("replaceQualityGate", jsonOnly, s.handlePutGate)
	op("getCodeHost", jsonOnly, s.handleGetCodeHost)
	op("getFileSource", textOnly, s.handleGetFileSource)
	op("replaceCodeHost", jsonOnly, s.handlePutCodeHost)

	// Ingestion (docs/ingest.md): user tokens of project admins, or the
	// project's upload tokens.
	for _, r := range []*route{
		op("uploadCoverage", jsonOnly, s.handleUploadCoverage),
		op("uploadSarif", jsonOnly, s.handleUploadSARIF),
		op("uploadAnalysis", jsonOnly, s.handleUploadAnalysis),
		op("uploadSources", jsonOnly, s.handleUploadSources),
		op("listAnalysedCommits", jsonOnly, s.handleAnalysedCommits),
		op("createBuild", jsonOnly, s.handleCreateBuild),
		op("uploadChange", jsonOnly, s.handleUploadChange),
		op("evaluateQualityGate", jsonOnly, s.handleGateStatus),
		op("reportBuildStatus", jsonOnly, s.handleUpdateBuild),
		op("listUploadTokens", jsonOnly, s.handleListUploadTokens),
		op("createUploadToken", jsonOnly, s.handleCreateUploadToken),
		op("getUploadToken", jsonOnly, s.handleGetUploadToken),
		op("revokeUploadToken", jsonOnly, s.handleRevokeUploadToken),
	} {
		r.ingest = true
	}

	// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md), at the
	// paths it calls below QLTY_API_URL: they authenticate themselves.
	for _, r := range []*route{
		op("qltyPublishCoverage", jsonOnly, s.qltyRoute(s.handleQltyPublish)),
		op("qltyCompleteCoverage", jsonOnly, s.qltyRoute(s.handleQltyComplete)),
		op("qltyUploadCoverageZip", jsonOnly, s.qltyRoute(s.handleQltyUpload)),
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
