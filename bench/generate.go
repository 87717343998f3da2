// Package bench generates large, deterministic datasets for Plumb's
// benchmarks and load tests (see docs/benchmarks.md).
package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// IssuesFixture describes a generated issues project.
type IssuesFixture struct {
	Token     string
	Workspace string
	Project   string
	Issues    int
}

var benchTools = []struct {
	name       string
	categories []string
}{
	{"eslint", []string{"style", "lint", "bug", "anti_pattern"}},
	{"staticcheck", []string{"bug", "dead_code", "performance", "style"}},
	{"gosec", []string{"vulnerability", "security_hotspot"}},
	{"semgrep", []string{"vulnerability", "bug", "anti_pattern"}},
	{"trivy", []string{"dependency_alert"}},
	{"gitleaks", []string{"secret"}},
	{"ruff", []string{"style", "lint", "documentation", "type_check"}},
}

// benchProject creates the user "bench" with a new token, admin of a new
// workspace holding a new project with Components enabled, and returns the
// token, the user and the project.
func benchProject(ctx context.Context, db *sqlstore.DB, workspace, project string) (token string, u plumb.User, p plumb.Project, err error) {
	if u, err = db.CreateUser(ctx, "bench", "Bench User"); err != nil {
		return "", u, p, err
	}
	token = sqlstore.NewTokenSecret()
	if _, err := db.AddToken(ctx, "bench", "bench", sqlstore.HashToken(token)); err != nil {
		return "", u, p, err
	}
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: workspace}); err != nil {
		return "", u, p, err
	}
	if err := db.AddMember(ctx, workspace, "bench", plumb.RoleAdmin); err != nil {
		return "", u, p, err
	}
	p, err = db.CreateProject(ctx, plumb.ProjectInput{Workspace: workspace, Key: project, ComponentsEnabled: true})
	return token, u, p, err
}

// GenerateIssues creates a user with a token, a workspace "bench" and a
// project "big" whose current snapshot has n issues over n/50 files, with a
// realistic spread of tools, categories and levels (about 96% open).
func GenerateIssues(ctx context.Context, db *sqlstore.DB, n int) (IssuesFixture, error) {
	f := IssuesFixture{Workspace: "bench", Project: "big", Issues: n}
	token, _, p, err := benchProject(ctx, db, f.Workspace, f.Project)
	if err != nil {
		return f, err
	}
	f.Token = token
	rng := rand.New(rand.NewPCG(1, 2))
	// fmt is rare (5%), so the benchmark filter level=high,medium,low,note
	// with status=open still matches about 912,000 of 1,000,000 issues.
	levels := []string{"high", "high", "medium", "medium", "medium", "medium", "medium", "low", "low", "low",
		"low", "low", "low", "low", "note", "note", "note", "note", "note", "fmt"}
	files := max(n/50, 1)
	issues := make([]plumb.Issue, n)
	for i := range issues {
		t := benchTools[rng.IntN(len(benchTools))]
		file := i * files / n
		line := 1 + (i%50)*7
		end := line + rng.IntN(3)
		status := "open"
		if rng.IntN(100) < 4 {
			status = "ignored"
		}
		issues[i] = plumb.Issue{
			Fingerprint: fmt.Sprintf("%016x", rng.Uint64()),
			Tool:        t.name,
			RuleKey:     fmt.Sprintf("%s-rule-%d", t.name, rng.IntN(40)),
			Message:     fmt.Sprintf("Finding %d reported by %s on this line", i, t.name),
			Category:    t.categories[rng.IntN(len(t.categories))],
			Level:       levels[rng.IntN(len(levels))],
			Status:      status,
			Path:        fmt.Sprintf("src/module%03d/file%05d.go", file%200, file),
			StartLine:   &line,
			EndLine:     &end,
		}
		if i%3 != 0 {
			issues[i].DocumentationURL = "https://docs.example.com/rules/" + issues[i].RuleKey
		}
	}
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: "0123456789abcdef0123456789abcdef01234567",
		AnalyzedAt: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), Issues: issues, KeepStatus: true})
	return f, err
}
