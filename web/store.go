package web

import (
	"context"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// Store is what the pages ask of storage: exactly the methods they call,
// grouped by what they serve. *sqlstore.DB satisfies it (asserted in
// cmd/plumb); tests use the real store, no mock.
type Store interface {
	sessionStore
	tokenStore
	workspaceStore
	pageStore
	fileStore
	pullStore
}

// sessionStore signs people in and keeps their sessions, the flash
// messages they carry and the sign-in throttle (auth.go, oidc.go, flash.go,
// signin_limits.go, settings.go).
type sessionStore interface {
	SignInCredentials(ctx context.Context, login string) (plumb.Credentials, error)
	SignInIdentity(ctx context.Context, id plumb.Identity, linkByEmail, create bool) (plumb.User, error)
	ReserveLoginAttempt(ctx context.Context, a plumb.LoginAttempt) (plumb.LoginReservation, error)
	LoginSucceeded(ctx context.Context, a plumb.LoginAttempt, res plumb.LoginReservation) error
	PruneLoginThrottle(ctx context.Context, forget, known time.Duration) (int64, error)
	CreateSession(ctx context.Context, userID, hash, method, userAgent string, ttl time.Duration) (plumb.Session, error)
	SessionUser(ctx context.Context, hash string) (plumb.User, plumb.Session, error)
	ListSessions(ctx context.Context, userID string) ([]plumb.Session, error)
	RevokeSession(ctx context.Context, userID, id string) error
	RevokeSessionHash(ctx context.Context, hash string) error
	SetSessionFlash(ctx context.Context, hash, kind, value string) error
	TakeSessionFlash(ctx context.Context, hash, kind string) (string, error)
}

// tokenStore keeps a user's API tokens and a project's upload tokens
// (settings.go).
type tokenStore interface {
	CreateToken(ctx context.Context, userLoginOrID, name string) (plumb.Token, string, error)
	ListTokens(ctx context.Context, userLoginOrID string) ([]plumb.Token, error)
	RevokeUserToken(ctx context.Context, userID, id string) error
	CreateProjectUploadToken(ctx context.Context, projectID, name, createdBy string) (plumb.UploadToken, string, error)
	EachUploadToken(ctx context.Context, projectID string, page plumb.Page, fn func(plumb.UploadToken) error) error
	RevokeProjectUploadToken(ctx context.Context, projectID, id string) (plumb.UploadToken, error)
}

// workspaceStore finds the workspaces, applications and projects a person
// may see, and a project's settings (pages.go, settings.go, badges).
type workspaceStore interface {
	EachWorkspace(ctx context.Context, userID string, page plumb.Page, fn func(plumb.Workspace) error) error
	FindWorkspace(ctx context.Context, userID, keyOrID string) (plumb.Workspace, string, error)
	EachApplication(ctx context.Context, workspaceID, nameFilter string, page plumb.Page, fn func(plumb.Application) error) error
	WorkspaceProjects(ctx context.Context, workspaceID string) ([]plumb.Project, error)
	FindProject(ctx context.Context, workspaceID, keyOrID string) (plumb.Project, error)
	FindProjectByKeys(ctx context.Context, workspace, project string) (plumb.Project, error)
	IsProjectAdmin(ctx context.Context, userID string, p plumb.Project) (bool, error)
	BadgesPublic(ctx context.Context, projectID string) (bool, error)
	SetBadgesPublic(ctx context.Context, projectID string, on bool) error
	SourcesDisabled(ctx context.Context, projectID string) (bool, error)
	SourcesRefused(ctx context.Context, projectID string) error
	SetSourcesDisabled(ctx context.Context, projectID string, disabled bool) (plumb.SourcesDeleted, error)
	CreateBadgeToken(ctx context.Context, projectID, createdBy string) (string, error)
	RevokeBadgeToken(ctx context.Context, projectID string) (bool, error)
	ProjectBadgeToken(ctx context.Context, projectID string) (plumb.BadgeToken, bool, error)
	BadgeTokenValid(ctx context.Context, projectID, secret string) (bool, error)
	Gate(ctx context.Context, projectID string) (g compare.Gate, custom bool, err error)
	PutGate(ctx context.Context, projectID string, g compare.Gate, at time.Time) error
	CodeHost(ctx context.Context, projectID string) (t codehost.Target, found bool, err error)
	PutCodeHost(ctx context.Context, projectID string, t codehost.Target, at time.Time) error
	HookDeliveries(ctx context.Context, projectID string, limit int) ([]codehost.HookRecord, error)
}

// pageStore reads what a project's pages show: measures and their history,
// components, builds, issues and coverage (pages.go, coverage.go,
// components.go, builds.go, issues.go).
type pageStore interface {
	WholeProjectTotals(ctx context.Context, projectID string) (metric.Totals, error)
	WholeProjectHistory(ctx context.Context, projectID string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error)
	ListComponents(ctx context.Context, projectID string) ([]plumb.Component, error)
	FindComponent(ctx context.Context, projectID, idOrName string) (plumb.Component, error)
	CreateComponent(ctx context.Context, c plumb.Component) (plumb.Component, error)
	ReplaceComponent(ctx context.Context, projectID, idOrName string, in plumb.Component) (plumb.Component, error)
	DeleteComponent(ctx context.Context, projectID, idOrName string) error
	ComponentTotals(ctx context.Context, c plumb.Component) (metric.Totals, error)
	ComponentHistory(ctx context.Context, c plumb.Component, to time.Time) (analysis, coverage []plumb.TotalsAt, err error)
	// FileHistory is one file's measurements (the file page's history charts).
	FileHistory(ctx context.Context, projectID, path string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error)
	EachBuild(ctx context.Context, projectID string, f plumb.BuildFilter, fn func(plumb.Build) error) error
	FindBuild(ctx context.Context, projectID, id string) (plumb.Build, error)
	EachIssue(ctx context.Context, projectID string, f plumb.IssueFilter, fn func(plumb.Issue) error) error
	ResolveReference(ctx context.Context, projectID, ref string) (string, error)
	FileCoverage(ctx context.Context, projectID, ref, path string) (tags []string, files []plumb.FileCoverageEntry, err error)
	CoveredPaths(ctx context.Context, projectID, ref, prefix string, limit int) (string, []string, error)
}

// fileStore reads what the file tree and a file's page show: the commit a
// reference names, the files' figures there, a file's issues and its kept
// source (files*.go, issues.go's snippets and counts).
type fileStore interface {
	FilesAt(ctx context.Context, projectID, ref string) (plumb.FilesAt, error)
	TreeFiles(ctx context.Context, projectID string, at plumb.FilesAt, prefix, componentID string) ([]plumb.TreeFile, error)
	FileFigures(ctx context.Context, projectID string, at plumb.FilesAt, path string) (plumb.TreeFile, bool, error)
	FileIssues(ctx context.Context, projectID, snapshotID, path string) ([]plumb.Issue, error)
	FileClones(ctx context.Context, projectID, snapshotID, path string) ([]plumb.FileClone, error)
	FileSource(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error)
	FileSourceOrFetch(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error)
	IssueCounts(ctx context.Context, projectID string, f plumb.IssueFilter) (plumb.IssueCounts, error)
}

// pullStore reads a project's pull requests and what their comparison needs
// (pulls*.go): the comparison itself is compare.Judge's, as the API's is.
type pullStore interface {
	PullRequests(ctx context.Context, projectID string, f compare.PullFilter) ([]compare.PullRequest, error)
	FindPullRequest(ctx context.Context, projectID string, number int) (compare.Change, error)
	ResolveCommit(ctx context.Context, projectID, ref string) (string, error)
	LoadComparison(ctx context.Context, projectID, base, head string, o compare.ComparisonOptions) (*compare.Comparison, error)
	Gate(ctx context.Context, projectID string) (g compare.Gate, custom bool, err error)
	PullInputs(ctx context.Context, projectID string, number int, base, head string) (string, error)
	CurrentPullSummary(ctx context.Context, projectID string, number int, base, head string) (s compare.PullSummary, inputs string, found bool, err error)
	KeepPullSummary(ctx context.Context, projectID string, s compare.PullSummary) error
}
