package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb/api/apiv1"
)

// Project calls one project's ingestion endpoints
// (/ingest/gh/{workspace}/projects/{project}/…), with a project admin's API
// token or the project's upload token (plbu_…). Upload tokens are managed
// with an admin's API token only.
type Project struct {
	c    *Client
	path string
}

// Project returns the project workspace/project of the client's server.
func (c *Client) Project(workspace, project string) *Project {
	return &Project{c: c, path: "/ingest/gh/" + url.PathEscape(workspace) + "/projects/" + url.PathEscape(project)}
}

// CoverageOptions say which commit a coverage report is about and how to
// read it (the query parameters of POST …/coverage, docs/ingest.md).
// CommitSHA is required; the other fields are optional.
type CoverageOptions struct {
	CommitSHA         string
	Branch            string
	Tag               string
	CoverageTag       string // a report's part of the coverage: "unit", "e2e"
	UploadedAt        string // RFC 3339; the default is now
	PullRequestNumber int
	Format            string // "lcov", "go", …; the default is detected
	StripPrefix       string // removed from the report's paths
	AddPrefix         string // then added to them
	ModulePath        string // a Go module path, for Go cover profiles
}

// UploadCoverage uploads one coverage report.
func (p *Project) UploadCoverage(ctx context.Context, report Content, o CoverageOptions) (apiv1.CoverageUpload, error) {
	q := url.Values{}
	q.Set("commitSha", o.CommitSHA)
	setIf(q, "branch", o.Branch)
	setIf(q, "tag", o.Tag)
	setIf(q, "coverageTag", o.CoverageTag)
	setIf(q, "uploadedAt", o.UploadedAt)
	if o.PullRequestNumber > 0 {
		q.Set("pullRequestNumber", strconv.Itoa(o.PullRequestNumber))
	}
	setIf(q, "format", o.Format)
	setIf(q, "stripPrefix", o.StripPrefix)
	setIf(q, "addPrefix", o.AddPrefix)
	setIf(q, "modulePath", o.ModulePath)
	var res apiv1.CoverageUpload
	err := p.upload(ctx, "coverage report "+report.Name, "/coverage", q, "application/octet-stream", report, &res)
	return res, err
}

// PathMapping maps the paths of SARIF files and analyses to the
// repository's (docs/sarif.md).
type PathMapping struct {
	StripPrefix string // removed from paths
	AddPrefix   string // then added to them
	RepoRoot    string // the checkout directory absolute SARIF paths are relative to
}

func (m PathMapping) set(q url.Values) {
	setIf(q, "stripPrefix", m.StripPrefix)
	setIf(q, "addPrefix", m.AddPrefix)
	setIf(q, "repoRoot", m.RepoRoot)
}

// SARIFOptions say which commit a SARIF file is about. CommitSHA and Branch
// are required.
type SARIFOptions struct {
	CommitSHA  string
	Branch     string
	AnalyzedAt string // RFC 3339; the default is now
	Paths      PathMapping
}

// UploadSARIF uploads one SARIF file (POST …/sarif).
func (p *Project) UploadSARIF(ctx context.Context, sarif Content, o SARIFOptions) (apiv1.Snapshot, error) {
	q := url.Values{}
	q.Set("commitSha", o.CommitSHA)
	q.Set("branch", o.Branch)
	setIf(q, "analyzedAt", o.AnalyzedAt)
	o.Paths.set(q)
	var res apiv1.Snapshot
	err := p.upload(ctx, "SARIF file "+sarif.Name, "/sarif", q, "application/json", sarif, &res)
	return res, err
}

// UploadAnalysis uploads an analysis document (POST …/analyses,
// docs/analyze.md): its commit, branch, stats and SARIF logs in one JSON
// object. Its Name names it in messages: "analysis".
func (p *Project) UploadAnalysis(ctx context.Context, doc Content, paths PathMapping) (apiv1.Snapshot, error) {
	q := url.Values{}
	paths.set(q)
	var res apiv1.Snapshot
	err := p.upload(ctx, doc.Name, "/analyses", q, "application/json", doc, &res)
	return res, err
}

// UploadSources keeps the files of a tar archive as the sources of a commit
// (POST …/sources, Plumb's extension: docs/sources.md). TarFiles makes such
// an archive from a checkout.
func (p *Project) UploadSources(ctx context.Context, commitSHA string, archive Content) (apiv1.SourcesUploaded, error) {
	q := url.Values{}
	q.Set("commitSha", commitSHA)
	var res apiv1.SourcesUploaded
	err := p.upload(ctx, archive.Name, "/sources", q, "application/x-tar", archive, &res)
	return res, err
}

// AnalysedCommits tells which of the commits shas (at most 100; none names
// the branches only) have an analysis on branch ("" for the project's
// default branch), and the project's default branch (GET …/analyses).
func (p *Project) AnalysedCommits(ctx context.Context, branch string, shas []string) (apiv1.AnalysedCommits, error) {
	q := url.Values{}
	setIf(q, "branch", branch)
	if len(shas) > 0 {
		q.Set("commitSha", strings.Join(shas, ","))
	}
	var res apiv1.AnalysedCommits
	err := p.c.do(ctx, &request{method: http.MethodGet, op: "the commits already analysed", path: p.path + "/analyses", query: q, retrySafe: true}, &res)
	return res, err
}

// upload sends content, compressed, as a keyed retry-safe request.
func (p *Project) upload(ctx context.Context, op, endpoint string, q url.Values, contentType string, content Content, out any) error {
	return p.c.do(ctx, &request{op: op, path: p.path + endpoint, query: q, contentType: contentType,
		content: &content, retrySafe: true, keyed: true}, out)
}

// NewBuild is a build to create (POST …/builds). Type, BranchName and
// CommitSHA are required.
type NewBuild struct {
	Type              string `json:"type"` // analysis, format, ssh or coverage_setup
	BranchName        string `json:"branchName"`
	CommitSHA         string `json:"commitSha"`
	CommitMessage     string `json:"commitMessage,omitempty"`
	Source            string `json:"source,omitempty"`
	PullRequestNumber int    `json:"pullRequestNumber,omitempty"`
	CommitterLogin    string `json:"committerLogin,omitempty"`
	Status            string `json:"status,omitempty"` // submitted (default), starting or running
}

// StartBuild creates a build. Creating a build is not idempotent: it is
// retried only when the attempt surely did not reach the server.
func (p *Project) StartBuild(ctx context.Context, b NewBuild) (apiv1.Build, error) {
	var res apiv1.Build
	err := p.sendJSON(ctx, &request{op: "the new build", path: p.path + "/builds"}, b, &res)
	return res, err
}

// BuildStatus is a build's new status (POST …/builds/{build}/status).
type BuildStatus struct {
	Status       string  `json:"status"`
	StatusReason *string `json:"statusReason,omitempty"`
	ExitCode     *int    `json:"exitCode,omitempty"`
}

// SetBuildStatus reports the status of build id. Reporting the status a
// build already has changes nothing, so the call is retried freely; a build
// that has ended refuses another status with 409 Conflict.
func (p *Project) SetBuildStatus(ctx context.Context, id string, s BuildStatus) (apiv1.Build, error) {
	var res apiv1.Build
	err := p.sendJSON(ctx, &request{op: "the status report of build " + id, path: p.path + "/builds/" + url.PathEscape(id) + "/status", retrySafe: true}, s, &res)
	return res, err
}

// FinishBuild reports the final status of build id (succeeded, failed,
// skipped or rejected). A build succeeds from running: one still submitted
// or starting is moved to running first (one running already takes that as
// a no-op; one that has ended answers 409 Conflict, and the final report
// gives the answer: a no-op if it is the same status, else 409).
func (p *Project) FinishBuild(ctx context.Context, id string, s BuildStatus) (apiv1.Build, error) {
	if s.Status == "succeeded" {
		_, err := p.SetBuildStatus(ctx, id, BuildStatus{Status: "running"})
		if e, ok := errors.AsType[*Error](err); err != nil && (!ok || e.StatusCode != http.StatusConflict) {
			return apiv1.Build{}, err
		}
	}
	return p.SetBuildStatus(ctx, id, s)
}

// Change is what a head commit changes against its base (POST …/changes,
// docs/pull-requests.md): the server computes patch coverage from it.
// CommitSHA and BaseCommitSHA or BaseBranch are required.
type Change struct {
	CommitSHA         string        `json:"commitSha"`
	Branch            string        `json:"branch,omitempty"`
	BaseCommitSHA     string        `json:"baseCommitSha,omitempty"`
	BaseBranch        string        `json:"baseBranch,omitempty"`
	PullRequestNumber int           `json:"pullRequestNumber,omitempty"`
	Files             []ChangedFile `json:"files"`
}

// ChangedFile is a file of a [Change].
type ChangedFile struct {
	Path         string   `json:"path"`
	PreviousPath string   `json:"previousPath,omitempty"` // of a renamed file
	Status       string   `json:"status"`                 // added, modified, renamed or deleted
	AddedLines   [][2]int `json:"addedLines,omitempty"`   // head line ranges [start, end]
}

// UploadChange sends the change of a head commit.
func (p *Project) UploadChange(ctx context.Context, ch Change) (apiv1.ChangeReceived, error) {
	if ch.Files == nil {
		ch.Files = []ChangedFile{}
	}
	var res apiv1.ChangeReceived
	err := p.sendJSON(ctx, &request{op: "change", path: p.path + "/changes", retrySafe: true}, ch, &res)
	return res, err
}

// GateQuery names the commits the quality gate judges (GET …/gate). Head is
// required; Base defaults to the base the head's uploaded change names (of
// pull request PullRequestNumber, when given).
type GateQuery struct {
	Head              string
	Base              string
	PullRequestNumber int
}

// Gate evaluates the project's quality gate for a head commit.
func (p *Project) Gate(ctx context.Context, g GateQuery) (apiv1.GateStatus, error) {
	q := url.Values{}
	if g.PullRequestNumber > 0 {
		q.Set("pullRequestNumber", strconv.Itoa(g.PullRequestNumber))
	}
	q.Set("head", g.Head)
	setIf(q, "base", g.Base)
	var res apiv1.GateStatus
	err := p.c.do(ctx, &request{method: http.MethodGet, op: "the quality gate", path: p.path + "/gate", query: q, retrySafe: true}, &res)
	return res, err
}

// CreateUploadToken makes an upload token named name; its secret is in the
// answer only. Not retried when the attempt may have reached the server (it
// would make a second token).
func (p *Project) CreateUploadToken(ctx context.Context, name string) (apiv1.CreatedUploadToken, error) {
	var res apiv1.CreatedUploadToken
	err := p.sendJSON(ctx, &request{op: "the new upload token", path: p.path + "/upload-tokens"}, map[string]string{"name": name}, &res)
	return res, err
}

// UploadTokens lists the project's upload tokens, revoked ones included.
func (p *Project) UploadTokens(ctx context.Context) ([]apiv1.UploadToken, error) {
	return listAll[apiv1.UploadToken](ctx, p.c, "the upload tokens", p.path+"/upload-tokens")
}

// RevokeUploadToken revokes the upload token id.
func (p *Project) RevokeUploadToken(ctx context.Context, id string) error {
	return p.c.do(ctx, &request{method: http.MethodDelete, op: "the revocation of upload token " + id,
		path: p.path + "/upload-tokens/" + url.PathEscape(id), retrySafe: true}, nil)
}

// sendJSON sends body as r's JSON body.
func (p *Project) sendJSON(ctx context.Context, r *request, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	r.data, r.contentType = data, "application/json"
	return p.c.do(ctx, r, out)
}

func setIf(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}
