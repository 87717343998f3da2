package plumb

import (
	"fmt"
	"strings"
	"time"
)

// Workspace roles.
const (
	RoleMember = "member"
	RoleAdmin  = "admin"
)

// Workspace is an owner of projects (a GitHub organisation or user).
type Workspace struct {
	ID                  string
	Key                 string
	AvatarURL           string
	ProviderURL         string
	CreatedAt           time.Time
	UpdatedAt           time.Time
	ApplicationsEnabled bool
}

// WorkspaceInput describes a new workspace.
type WorkspaceInput struct {
	Key                 string
	AvatarURL           string
	ProviderURL         string
	ApplicationsEnabled bool
}

// Workspace returns the new workspace in, with id and created at now, after
// checking its key; the avatar and profile URLs default to the GitHub
// account of the same name.
func (in WorkspaceInput) Workspace(id string, now time.Time) (Workspace, error) {
	w := Workspace{ID: id, Key: strings.TrimSpace(in.Key), AvatarURL: in.AvatarURL, ProviderURL: in.ProviderURL,
		ApplicationsEnabled: in.ApplicationsEnabled, CreatedAt: now, UpdatedAt: now}
	if err := ValidateKey("workspace", w.Key); err != nil {
		return w, err
	}
	if w.AvatarURL == "" {
		w.AvatarURL = "https://github.com/" + w.Key + ".png"
	}
	if w.ProviderURL == "" {
		w.ProviderURL = "https://github.com/" + w.Key
	}
	return w, nil
}

// WorkspaceListing is a workspace as the operator lists them.
type WorkspaceListing struct {
	Workspace
	Members, Projects int
}

// Member is one member of a workspace.
type Member struct {
	User
	Role string
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

// ProjectInput describes a new project.
type ProjectInput struct {
	Workspace         string
	Key               string
	DefaultBranch     string
	ComponentsEnabled bool
}

// Project returns the new project in (in the workspace it names, whose id
// the caller sets), with id and created at now, after checking its key; the
// default branch defaults to main.
func (in ProjectInput) Project(id string, now time.Time) (Project, error) {
	p := Project{ID: id, Key: strings.TrimSpace(in.Key), DefaultBranch: in.DefaultBranch,
		ComponentsEnabled: in.ComponentsEnabled, CreatedAt: now, UpdatedAt: now}
	if p.DefaultBranch == "" {
		p.DefaultBranch = "main"
	}
	return p, ValidateKey("project", p.Key)
}

// ProjectListing is a project as the operator lists them.
type ProjectListing struct {
	Project
	Workspace string // the workspace's key
	Snapshots int
	Builds    int
}

// ProjectDeletion says what deleting projects removes.
type ProjectDeletion struct {
	Projects, Snapshots, Issues, Builds, CoverageUploads, Components, UploadTokens int
}

// String says it in a sentence.
func (d ProjectDeletion) String() string {
	return fmt.Sprintf("%d project(s), %d snapshot(s) with %d issue(s), %d build(s), %d coverage upload(s), %d component(s), %d upload token(s)",
		d.Projects, d.Snapshots, d.Issues, d.Builds, d.CoverageUploads, d.Components, d.UploadTokens)
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
