package api

import (
	"context"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// Store is what the API asks of storage: exactly the methods its handlers
// call, grouped by what they serve. *sqlstore.DB satisfies it (asserted in
// store_test.go); tests use the real store on both backends, no mock.
type Store interface {
	Ping(ctx context.Context) error
	// IsUnavailable reports whether err means the database could not be
	// reached: the request answers 503, which a client retries, not 500.
	IsUnavailable(err error) bool
	accountStore
	uploadTokenStore
	applicationStore
	buildStore
	ingestStore
	qltyStore
	issueStore
	metricStore
	pullStore
	codeHostStore
	hookStore
	sourceStore
}

// accountStore authenticates callers and finds their workspaces and
// projects (server.go, workspaces.go, projects.go).
type accountStore interface {
	Authenticate(ctx context.Context, secret string) (plumb.User, plumb.Token, error)
	AuthenticateUpload(ctx context.Context, secret string) (plumb.UploadToken, error)
	FindUser(ctx context.Context, loginOrID string) (plumb.User, error)
	EachWorkspace(ctx context.Context, userID string, page plumb.Page, fn func(plumb.Workspace) error) error
	FindWorkspace(ctx context.Context, userID, keyOrID string) (plumb.Workspace, string, error)
	EachProject(ctx context.Context, workspaceID string, page plumb.Page, fn func(plumb.Project) error) error
	FindProject(ctx context.Context, workspaceID, keyOrID string) (plumb.Project, error)
	FindProjectByKeys(ctx context.Context, workspace, project string) (plumb.Project, error)
	FindProjectByID(ctx context.Context, id string) (plumb.Project, error)
	ProjectKeys(ctx context.Context, projectID string) (workspace, project string, err error)
	IsProjectAdmin(ctx context.Context, userID string, p plumb.Project) (bool, error)
}

// uploadTokenStore keeps a project's upload tokens (uploadtokens.go).
type uploadTokenStore interface {
	CreateProjectUploadToken(ctx context.Context, projectID, name, createdBy string) (plumb.UploadToken, string, error)
	EachUploadToken(ctx context.Context, projectID string, page plumb.Page, fn func(plumb.UploadToken) error) error
	FindUploadToken(ctx context.Context, projectID, id string) (plumb.UploadToken, error)
	RevokeProjectUploadToken(ctx context.Context, projectID, id string) (plumb.UploadToken, error)
}

// applicationStore keeps a workspace's applications (applications.go).
type applicationStore interface {
	CreateApplication(ctx context.Context, workspaceID, name, description string) (plumb.Application, error)
	EachApplication(ctx context.Context, workspaceID, nameFilter string, page plumb.Page, fn func(plumb.Application) error) error
	FindApplication(ctx context.Context, workspaceID, idOrName string) (plumb.Application, error)
}

// buildStore keeps a project's builds (builds.go, ingest.go).
type buildStore interface {
	AddBuild(ctx context.Context, b plumb.Build) (plumb.Build, error)
	EachBuild(ctx context.Context, projectID string, f plumb.BuildFilter, fn func(plumb.Build) error) error
	FindBuild(ctx context.Context, projectID, id string) (plumb.Build, error)
	UpdateBuild(ctx context.Context, projectID, buildID string, u plumb.BuildUpdate) (plumb.Build, error)
}

// ingestStore takes uploads of analyses, findings and coverage, once per
// Idempotency-Key (ingest.go, analysis.go, findings.go).
type ingestStore interface {
	NewSnapshotSpool(dir string) plumb.SnapshotSpool
	AddAnalysis(ctx context.Context, in plumb.SnapshotInput, sp plumb.SnapshotSpool) (plumb.Snapshot, error)
	AddFindings(ctx context.Context, in plumb.SnapshotInput, sp plumb.SnapshotSpool, tools []string) (plumb.Snapshot, error)
	AnalysedCommits(ctx context.Context, projectID, branch string, shas []string) ([]plumb.Snapshot, error)
	IngestCoverage(ctx context.Context, in plumb.CoverageInput, read func(emit func(plumb.CoverageFile) error) error) (plumb.CoverageSummary, error)
	IdempotencyStart(ctx context.Context, projectID, key, requestHash string) (status int, body, bodyHash string, done bool, err error)
	IdempotencyRenew(ctx context.Context, projectID, key string) error
	IdempotencyFinish(ctx context.Context, projectID, key string, status int, body, bodyHash string) error
}

// qltyStore takes the qlty CLI's coverage uploads (qltycoverage.go).
type qltyStore interface {
	QltySecret(ctx context.Context, name string) ([]byte, error)
	CreateQltyUpload(ctx context.Context, projectID string, in plumb.QltyInput, expires time.Time) (plumb.QltyUpload, error)
	FindQltyUpload(ctx context.Context, id string) (plumb.QltyUpload, error)
	AddQltyPart(ctx context.Context, u plumb.QltyUpload, read func(emit func(plumb.CoverageFile) error) error) (plumb.QltyReport, error)
	PublishQltyUpload(ctx context.Context, u plumb.QltyUpload, read func(emit func(plumb.CoverageFile) error) error) (sum plumb.CoverageSummary, published bool, err error)
	FindQltyReport(ctx context.Context, projectID, commitSHA, coverageTag string) (plumb.QltyReport, error)
	PublishQltyReport(ctx context.Context, projectID, id string) (plumb.QltyReport, error)
}

// issueStore lists and counts a project's issues (issues.go).
type issueStore interface {
	EachIssue(ctx context.Context, projectID string, f plumb.IssueFilter, fn func(plumb.Issue) error) error
	IssueCounts(ctx context.Context, projectID string, f plumb.IssueFilter) (plumb.IssueCounts, error)
}

// metricStore reads a project's and its components' measures, and keeps
// its components (components.go, projects.go, series.go).
type metricStore interface {
	ProjectTotals(ctx context.Context, projectID string) (metric.Totals, error)
	ProjectHistory(ctx context.Context, projectID string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error)
	FileTotals(ctx context.Context, projectID, path string) (metric.Totals, error)
	FileCoverageHits(ctx context.Context, projectID, ref, path string) (tags []string, files []plumb.StoredFileCoverage, err error)
	ListComponents(ctx context.Context, projectID string) ([]plumb.Component, error)
	FindComponent(ctx context.Context, projectID, idOrName string) (plumb.Component, error)
	CreateComponent(ctx context.Context, c plumb.Component) (plumb.Component, error)
	ReplaceComponent(ctx context.Context, projectID, idOrName string, in plumb.Component) (plumb.Component, error)
	DeleteComponent(ctx context.Context, projectID, idOrName string) error
	ComponentTotals(ctx context.Context, c plumb.Component) (metric.Totals, error)
	ComponentHistory(ctx context.Context, c plumb.Component, to time.Time) (analysis, coverage []plumb.TotalsAt, err error)
}

// pullStore compares commits and keeps pull requests' changes and the
// project's gate (pulls.go, gates.go).
type pullStore interface {
	ResolveCommit(ctx context.Context, projectID, ref string) (string, error)
	LoadComparison(ctx context.Context, projectID, base, head string, o compare.ComparisonOptions) (*compare.Comparison, error)
	FindChange(ctx context.Context, projectID, commit string) (ch compare.Change, found bool, err error)
	FindPullRequest(ctx context.Context, projectID string, number int) (compare.Change, error)
	FindPullRequestChange(ctx context.Context, projectID, commit string, pr int) (ch compare.Change, found bool, err error)
	PutChange(ctx context.Context, projectID string, ch compare.Change, at time.Time) error
	Gate(ctx context.Context, projectID string) (g compare.Gate, custom bool, err error)
	PutGate(ctx context.Context, projectID string, g compare.Gate, at time.Time) error
	// The pull-request list's figures, kept when a comparison computes them.
	PullInputs(ctx context.Context, projectID string, number int, base, head string) (string, error)
	KeepPullSummary(ctx context.Context, projectID string, s compare.PullSummary) error
}

// codeHostStore keeps a project's code host and its deliveries
// (codehost.go).
type codeHostStore interface {
	CodeHost(ctx context.Context, projectID string) (t codehost.Target, found bool, err error)
	PutCodeHost(ctx context.Context, projectID string, t codehost.Target, at time.Time) error
	RecordDelivery(ctx context.Context, projectID, commit string, r codehost.Result, at time.Time) error
	LastDelivery(ctx context.Context, projectID string) (*plumb.Delivery, error)
}
