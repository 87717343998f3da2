// Package apiv1 holds the JSON objects Plumb's HTTP API answers with, on
// the v1 endpoints and on the ingestion endpoints (/ingest/gh/…): one Go
// definition of each, written by the server (package api) and read by the
// Go client (package client). The field order is the order of the
// resource tables in docs/api.md, which CSV answers follow too.
//
// Times are RFC 3339 strings in UTC to the second ("2026-03-01T12:00:00Z"),
// as they appear on the wire. An optional time is a nil pointer.
//
// apiv1 imports only the standard library and the domain package compare
// (for the gate's outcome); it must never import api, sqlstore or web, so
// that a client program does not pull the server in.
package apiv1

import "github.com/plumbhq/plumb/compare"

// ErrorObject is one entry of an error answer's "errors" list.
type ErrorObject struct {
	Status string `json:"status"` // the HTTP status, as a string: "404"
	Title  string `json:"title"`  // the status' reason phrase: "Not Found"
	Detail string `json:"detail"` // what went wrong, for a person to read
}

// ErrorBody is the body of every error answer (4xx and 5xx).
type ErrorBody struct {
	Errors []ErrorObject `json:"errors"`
}

// User is GET /user: the token's user. Every member is a string, "" for an
// unknown email or URL.
type User struct {
	ID          string `json:"id"`
	Login       string `json:"login"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	AvatarURL   string `json:"avatarUrl"`
	ProviderURL string `json:"providerUrl"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

// Workspace is an element of GET /workspaces and the answer of GET
// /workspaces/{owner}.
type Workspace struct {
	ID          string `json:"id"`
	Key         string `json:"key"`
	AvatarURL   string `json:"avatarUrl"`
	ProviderURL string `json:"providerUrl"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

// Project is an element of GET /gh/{owner}/projects and the answer of GET
// /gh/{owner}/projects/{project}. ProviderURL is the repository on the code
// host, "" when the workspace has no provider URL.
type Project struct {
	ID            string `json:"id"`
	Key           string `json:"key"`
	WorkspaceID   string `json:"workspaceId"`
	WorkspaceKey  string `json:"workspaceKey"`
	DefaultBranch string `json:"defaultBranch"`
	ProviderURL   string `json:"providerUrl"`
	CreatedAt     string `json:"createdAt"`
	UpdatedAt     string `json:"updatedAt"`
}

// UploadToken is one of a project's upload tokens (GET …/upload-tokens).
// The secret is never shown again after its creation.
type UploadToken struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	CreatedBy  string  `json:"createdBy"`
	CreatedAt  string  `json:"createdAt"`
	LastUsedAt *string `json:"lastUsedAt"`
	RevokedAt  *string `json:"revokedAt"`
}

// CreatedUploadToken is the answer to POST …/upload-tokens: the new token
// with its secret, shown this once.
type CreatedUploadToken struct {
	UploadToken
	Token string `json:"token"`
}

// CoverageUpload is the answer to POST …/coverage: the stored report's
// commit and totals.
type CoverageUpload struct {
	ID           string `json:"id"`
	CommitSHA    string `json:"commitSha"`
	Branch       string `json:"branch"`
	Tag          string `json:"tag"`
	CoverageTag  string `json:"coverageTag"`
	Format       string `json:"format"`
	Files        int    `json:"files"`
	CoveredLines int64  `json:"coveredLines"`
	MissedLines  int64  `json:"missedLines"`
	UploadedAt   string `json:"uploadedAt"`
}

// Snapshot is the answer to POST …/sarif and POST …/analyses: the analysis
// snapshot the upload made or added to.
type Snapshot struct {
	ID         string `json:"id"`
	CommitSHA  string `json:"commitSha"`
	Branch     string `json:"branch"`
	AnalyzedAt string `json:"analyzedAt"`
	Issues     int    `json:"issues"`
	// Current: the snapshot is the project's current state (the latest
	// analysis of the default branch).
	Current bool `json:"current"`
	// History: the snapshot entered the default branch's metric history
	// (current, or older than the current one and placed at its time).
	History bool `json:"history"`
	// Kept and Replaced: per tool, the issues of the commit's earlier
	// snapshot on the branch kept or replaced by this upload.
	Kept     map[string]int `json:"keptIssues"`
	Replaced map[string]int `json:"replacedIssues"`
}

// AnalysedCommits answers GET …/analyses: which of the commits asked about
// already have an analysis on the branch, and the project's default branch.
type AnalysedCommits struct {
	Branch        string           `json:"branch"`
	DefaultBranch string           `json:"defaultBranch"`
	Data          []AnalysedCommit `json:"data"`
}

// AnalysedCommit is a commit of AnalysedCommits with its latest analysis.
type AnalysedCommit struct {
	ID         string `json:"id"`
	CommitSHA  string `json:"commitSha"`
	AnalyzedAt string `json:"analyzedAt"`
	Current    bool   `json:"current"`
	History    bool   `json:"history"`
}

// BuildSummary is a build as GET …/builds lists it (and as the CSV
// listing's columns, in this order).
type BuildSummary struct {
	ID            string  `json:"id"`
	Type          string  `json:"type"`
	Status        string  `json:"status"`
	BranchName    string  `json:"branchName"`
	CommitSHA     string  `json:"commitSha"`
	CommitMessage string  `json:"commitMessage"`
	SubmittedAt   string  `json:"submittedAt"`
	FinishedAt    *string `json:"finishedAt"`
	QueueSeconds  int64   `json:"queueSeconds"`
}

// Build is a build as GET …/builds/{build}, POST …/builds and POST
// …/builds/{build}/status answer it: its summary's members, then these.
type Build struct {
	BuildSummary
	StatusReason      *string `json:"statusReason"`
	Conclusion        *string `json:"conclusion"`
	ExitCode          *int    `json:"exitCode"`
	Source            string  `json:"source"`
	PullRequestNumber *int    `json:"pullRequestNumber"`
	CommitterLogin    string  `json:"committerLogin"`
	StartedAt         *string `json:"startedAt"`
	ExecutionSeconds  *int64  `json:"executionSeconds"`
}

// ChangeReceived is the answer to POST …/changes: the head commit and the
// size of the change stored for it. (Its members are in name order, as the
// answer has always had them.)
type ChangeReceived struct {
	ChangedLines int    `json:"changedLines"`
	CommitSHA    string `json:"commitSha"`
	Files        int    `json:"files"`
}

// GateStatus is GET …/gate on the ingestion endpoints: the quality gate's
// outcome for a head commit against its base, with the figures it judged
// (nil when unknown).
type GateStatus struct {
	compare.GateResult
	BaseCommitSHA string   `json:"baseCommitSha"`
	HeadCommitSHA string   `json:"headCommitSha"`
	PatchCoverage *float64 `json:"patchCoverage"`
	CoverageDelta *float64 `json:"coverageDelta"`
	// NewIssues are the head's new open issues, nil (null) while the issues
	// are not compared (a side has no analysis); plumb gate --format
	// gitlab-codequality writes them as GitLab's Code Quality report.
	NewIssues []Issue `json:"newIssues"`
}

// Issue is one issue of an analysis.
type Issue struct {
	ID               string        `json:"id"`
	Fingerprint      string        `json:"fingerprint"`
	Tool             string        `json:"tool"`
	RuleKey          string        `json:"ruleKey"`
	Message          string        `json:"message"`
	Category         string        `json:"category"`
	Level            string        `json:"level"`
	Status           string        `json:"status"`
	DocumentationURL string        `json:"documentationUrl,omitempty"`
	Location         IssueLocation `json:"location"`
}

// IssueLocation is where an issue is.
type IssueLocation struct {
	Path      string `json:"path"`
	StartLine *int   `json:"startLine,omitempty"`
	EndLine   *int   `json:"endLine,omitempty"`
}

// SourcesUploaded is the answer to POST …/sources: what the upload kept.
type SourcesUploaded struct {
	CommitSHA   string `json:"commitSha"`
	Files       int    `json:"files"`       // files whose state was written
	NewBlobs    int    `json:"newBlobs"`    // contents stored for the first time
	ReusedBlobs int    `json:"reusedBlobs"` // contents the project already had
	TooLarge    int    `json:"tooLarge"`    // files over the per-file cap, marked so
	Binary      int    `json:"binary"`      // binary files, marked so
}
