// Package dataset defines Plumb's dataset document: a whole installation's
// data as one JSON document, used by `plumb export` and `plumb import` for
// backups, moves between databases, the demo and test fixtures. The format is
// described in docs/dataset.md.
package dataset

import "time"

// Format and Version identify the document.
const (
	Format  = "plumb-dataset"
	Version = 1
)

// Document is a whole dataset. Lists are in a canonical order on export, so
// export → import → export reproduces the same bytes.
type Document struct {
	Format       string        `json:"format"`
	Version      int           `json:"version"`
	Users        []User        `json:"users"`
	Tokens       []Token       `json:"tokens"`
	Workspaces   []Workspace   `json:"workspaces"`
	Projects     []Project     `json:"projects"`
	Applications []Application `json:"applications"`
	Builds       []Build       `json:"builds"`
	Snapshots    []Snapshot    `json:"snapshots"`
	IssueStates  []IssueState  `json:"issueStates"`
	Coverage     []Coverage    `json:"coverage"`
	Components   []Component   `json:"components"`
}

// User is a person.
type User struct {
	ID        string    `json:"id"`
	Login     string    `json:"login"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// Token is an API token. Export carries only Hash. Import takes Hash, or, for
// fixtures, a plaintext Token of which only the hash is stored.
type Token struct {
	ID         string     `json:"id"`
	UserID     string     `json:"userId"`
	Name       string     `json:"name"`
	Hash       string     `json:"hash,omitempty"`
	Token      string     `json:"token,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// Workspace is an owner of projects, with its members.
type Workspace struct {
	ID                  string    `json:"id"`
	Key                 string    `json:"key"`
	AvatarURL           string    `json:"avatarUrl"`
	ProviderURL         string    `json:"providerUrl"`
	ApplicationsEnabled bool      `json:"applicationsEnabled"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
	Members             []Member  `json:"members"`
}

// Member is a user's membership of a workspace.
type Member struct {
	UserID string `json:"userId"`
	Role   string `json:"role"` // member or admin
}

// Project is a repository, with its admins.
type Project struct {
	ID                string    `json:"id"`
	WorkspaceID       string    `json:"workspaceId"`
	Key               string    `json:"key"`
	DefaultBranch     string    `json:"defaultBranch"`
	ComponentsEnabled bool      `json:"componentsEnabled"`
	CreatedAt         time.Time `json:"createdAt"`
	UpdatedAt         time.Time `json:"updatedAt"`
	AdminIDs          []string  `json:"adminIds"`
}

// Application groups projects of one workspace.
type Application struct {
	ID          string    `json:"id"`
	WorkspaceID string    `json:"workspaceId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	ProjectIDs  []string  `json:"projectIds"`
}

// Build is one CI or analysis run.
type Build struct {
	ID                string     `json:"id"`
	ProjectID         string     `json:"projectId"`
	Type              string     `json:"type"`
	Status            string     `json:"status"`
	BranchName        string     `json:"branchName"`
	CommitSHA         string     `json:"commitSha"`
	CommitMessage     string     `json:"commitMessage"`
	SubmittedAt       time.Time  `json:"submittedAt"`
	StartedAt         *time.Time `json:"startedAt"`
	FinishedAt        *time.Time `json:"finishedAt"`
	StatusReason      *string    `json:"statusReason"`
	Conclusion        *string    `json:"conclusion"`
	ExitCode          *int       `json:"exitCode"`
	Source            string     `json:"source"`
	PullRequestNumber *int       `json:"pullRequestNumber"`
	CommitterLogin    string     `json:"committerLogin"`
	SnapshotID        string     `json:"snapshotId,omitempty"`
}

// Snapshot is one analysis of one commit. For the project's default branch,
// Files lists the files whose figures changed since the previous
// default-branch snapshot (all files for the first one) and Removed the paths
// deleted since; an importer also accepts a full file list each time. Other
// branches carry issues only.
type Snapshot struct {
	ID         string    `json:"id"`
	ProjectID  string    `json:"projectId"`
	Branch     string    `json:"branch"`
	CommitSHA  string    `json:"commitSha"`
	AnalyzedAt time.Time `json:"analyzedAt"`
	Files      []File    `json:"files"`
	Removed    []string  `json:"removed"`
	Issues     []Issue   `json:"issues"`
}

// File holds one file's analysis figures.
type File struct {
	Path            string `json:"path"`
	Lines           int64  `json:"lines"`
	LOC             int64  `json:"loc"`
	Complexity      int64  `json:"complexity"`
	DuplicatedLines int64  `json:"duplicatedLines"`
}

// Issue is one finding of a snapshot, in listing order.
type Issue struct {
	ID               string `json:"id"`
	Fingerprint      string `json:"fingerprint"`
	Tool             string `json:"tool"`
	RuleKey          string `json:"ruleKey"`
	Message          string `json:"message"`
	Category         string `json:"category"`
	Level            string `json:"level"`
	Status           string `json:"status"`
	DocumentationURL string `json:"documentationUrl,omitempty"`
	Path             string `json:"path"`
	StartLine        *int   `json:"startLine,omitempty"`
	EndLine          *int   `json:"endLine,omitempty"`
}

// IssueState is the status that belongs to a fingerprint across snapshots.
type IssueState struct {
	ProjectID   string `json:"projectId"`
	Fingerprint string `json:"fingerprint"`
	Status      string `json:"status"`
}

// Coverage is one uploaded coverage report of a commit under one coverage tag,
// reached by a branch and/or a git tag.
type Coverage struct {
	ID          string         `json:"id"`
	ProjectID   string         `json:"projectId"`
	CommitSHA   string         `json:"commitSha"`
	Branch      string         `json:"branch"`
	GitTag      string         `json:"gitTag"`
	CoverageTag string         `json:"coverageTag"`
	UploadedAt  time.Time      `json:"uploadedAt"`
	Files       []CoverageFile `json:"files"`
}

// CoverageFile is one file's line hits: Hits[i] is line i+1; -1 not
// coverable, 0 missed, n > 0 hit n times.
type CoverageFile struct {
	Path string  `json:"path"`
	Hits []int64 `json:"hits"`
}

// Component is a named set of path globs in a project.
type Component struct {
	ID          string    `json:"id"`
	ProjectID   string    `json:"projectId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	PathGlobs   []string  `json:"pathGlobs"`
	CreatorID   string    `json:"creatorId"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}
