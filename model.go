package plumb

import (
	"cmp"
	"net/url"
	"strings"
	"time"
)

// User is a person who holds API tokens and belongs to workspaces.
type User struct {
	ID          string
	Login       string
	Name        string
	Email       string // "" when unknown
	AvatarURL   string // "" when unknown
	ProviderURL string // the user's profile on the code host; "" when unknown
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Token is an API token. Only the SHA-256 hash of its secret is kept.
type Token struct {
	ID         string
	UserID     string
	Name       string
	Hash       string // hex SHA-256 of the secret
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// Workspace roles.
const (
	RoleMember = "member"
	RoleAdmin  = "admin"
)

// Workspace is an owner of projects (a GitHub organisation or user).
type Workspace struct {
	ID                  string    `json:"id"`
	Key                 string    `json:"key"`
	AvatarURL           string    `json:"avatarUrl"`
	ProviderURL         string    `json:"providerUrl"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
	ApplicationsEnabled bool      `json:"-"`
}

// Project is one repository in a workspace.
type Project struct {
	ID                string
	WorkspaceID       string
	Key               string
	DefaultBranch     string
	ComponentsEnabled bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Application groups a workspace's projects.
type Application struct {
	ID           string
	WorkspaceID  string
	Name         string
	Description  string
	ProjectCount int
	CreatedAt    time.Time
}

// Issue categories, levels and statuses as the spec lists them.
var (
	IssueCategories = []string{"bug", "vulnerability", "structure", "duplication", "security_hotspot",
		"performance", "documentation", "type_check", "style", "anti_pattern", "accessibility",
		"dead_code", "lint", "secret", "dependency_alert"}
	IssueLevels   = []string{"high", "medium", "low", "note", "fmt"}
	IssueStatuses = []string{"open", "ignored"}
	// SecurityCategories are the categories counted by the SECI metric.
	SecurityCategories = []string{"vulnerability", "security_hotspot", "secret", "dependency_alert"}
)

// IsSecurityCategory reports whether issues of category c count as security issues.
func IsSecurityCategory(c string) bool {
	for _, s := range SecurityCategories {
		if s == c {
			return true
		}
	}
	return false
}

// Issue is one finding of an analysis tool in a snapshot.
type Issue struct {
	ID               string
	ProjectID        string
	SnapshotID       string
	Fingerprint      string
	Tool             string
	RuleKey          string
	Message          string
	Category         string
	Level            string
	Status           string
	DocumentationURL string
	Path             string
	StartLine        *int
	EndLine          *int
}

// IssueFilter selects issues of a project's current snapshot. Values within a
// field combine with OR, fields with AND. Empty fields do not filter.
type IssueFilter struct {
	Categories []string
	Levels     []string
	Statuses   []string
	Tools      []string
	Page       Page
}

// Page is an offset page. Limit 0 means "every row" (exports).
type Page struct {
	Offset int
	Limit  int
}

// Build types and statuses.
var (
	BuildTypes    = []string{"analysis", "format", "ssh", "coverage_setup"}
	BuildStatuses = []string{"submitted", "starting", "running", "succeeded", "failed", "skipped", "rejected"}
)

// Build is one CI or analysis run of a project.
type Build struct {
	ID                string
	ProjectID         string
	Type              string
	Status            string
	BranchName        string
	CommitSHA         string
	CommitMessage     string
	SubmittedAt       time.Time
	StartedAt         *time.Time
	FinishedAt        *time.Time
	StatusReason      *string
	Conclusion        *string
	ExitCode          *int
	Source            string
	PullRequestNumber *int
	CommitterLogin    string
	SnapshotID        string // the snapshot an analysis build produced, if any
}

// QueueSeconds is the time from submission to start; for a build that never
// started, to its finish, or to now while it is still queued.
func (b *Build) QueueSeconds(now time.Time) int64 {
	end := now
	switch {
	case b.StartedAt != nil:
		end = *b.StartedAt
	case b.FinishedAt != nil:
		end = *b.FinishedAt
	}
	if d := int64(end.Sub(b.SubmittedAt) / time.Second); d > 0 {
		return d
	}
	return 0
}

// ExecutionSeconds is the time from start to finish, nil until both are known.
func (b *Build) ExecutionSeconds() *int64 {
	if b.StartedAt == nil || b.FinishedAt == nil {
		return nil
	}
	d := int64(b.FinishedAt.Sub(*b.StartedAt) / time.Second)
	if d < 0 {
		d = 0
	}
	return &d
}

// BuildFilter selects a project's builds.
type BuildFilter struct {
	Status string
	Page   Page
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// CompareIssueOrder orders issues for listing: by file path, then start line
// (an issue without one first), then rule key, then fingerprint.
func CompareIssueOrder(pathA string, lineA *int, ruleA, fpA string, pathB string, lineB *int, ruleB, fpB string) int {
	line := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	return cmp.Or(strings.Compare(pathA, pathB), cmp.Compare(line(lineA), line(lineB)),
		strings.Compare(ruleA, ruleB), strings.Compare(fpA, fpB))
}

// UserProfile is a change to a user's profile: nil fields stay as they are,
// an empty string clears an optional field.
type UserProfile struct {
	Name, Email, AvatarURL, ProviderURL *string
}

// SetProfile applies p to u after checking it: an email address needs one @
// with text on both sides and no spaces; URLs must be absolute http or https
// URLs. Each field is at most 1,000 characters.
func (u *User) SetProfile(p UserProfile) error {
	set := func(field string, dst *string, v *string, check func(string) bool, what string) error {
		if v == nil {
			return nil
		}
		s := strings.TrimSpace(*v)
		if len(s) > 1000 || s != "" && check != nil && !check(s) {
			return Errorf(EINVALID, "%s %q is not valid: %s", field, *v, what)
		}
		*dst = s
		return nil
	}
	for _, f := range []struct {
		field    string
		dst, val *string
		check    func(string) bool
		what     string
	}{
		{"name", &u.Name, p.Name, nil, "use at most 1000 characters"},
		{"email", &u.Email, p.Email, validEmail, "use an address such as alice@example.com (or an empty value to clear it)"},
		{"avatar URL", &u.AvatarURL, p.AvatarURL, validWebURL, "use an absolute http or https URL (or an empty value to clear it)"},
		{"provider URL", &u.ProviderURL, p.ProviderURL, validWebURL, "use an absolute http or https URL (or an empty value to clear it)"},
	} {
		if err := set(f.field, f.dst, f.val, f.check, f.what); err != nil {
			return err
		}
	}
	return nil
}

func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(s, " \t\r\n") && !strings.Contains(domain, "@")
}

func validWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, " \t\r\n")
}

// IssueCounts counts a project's current issues that pass a filter, in
// total and by each attribute. Categories, levels and statuses list every
// value (0 included); tools only those with issues.
type IssueCounts struct {
	Total      int
	ByCategory map[string]int
	ByLevel    map[string]int
	ByStatus   map[string]int
	ByTool     map[string]int
}

// NewIssueCounts returns zero counts with every category, level and status.
func NewIssueCounts() IssueCounts {
	c := IssueCounts{ByCategory: map[string]int{}, ByLevel: map[string]int{}, ByStatus: map[string]int{}, ByTool: map[string]int{}}
	for _, set := range []struct {
		m      map[string]int
		values []string
	}{{c.ByCategory, IssueCategories}, {c.ByLevel, IssueLevels}, {c.ByStatus, IssueStatuses}} {
		for _, v := range set.values {
			set.m[v] = 0
		}
	}
	return c
}
