// Package datasettest holds a dataset document for tests: Rich, a valid
// document that exercises every rule of the format, and the ids of its
// records. Tests of the document's validation (package dataset) and of the
// store's export and import (package sqlstore) start from it.
package datasettest

import (
	"fmt"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/source"
)

// T0 is the time Rich's records are dated from.
var T0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// Kinds of record, for ID.
const (
	User = iota + 1
	Token
	Workspace
	Project
	Application
	Build
	Snapshot
	Issue
	Coverage
	Component
	UploadToken
)

// ID returns the id (a lower-case UUID) of record n of a kind: Rich's users
// are ID(User, 1) to ID(User, 4), and so on.
func ID(kind, n int) string { return fmt.Sprintf("0190%04d-0000-7000-8000-%012d", kind, n) }

func ip(v int) *int               { return &v }
func sp(v string) *string         { return &v }
func tp(v time.Time) *time.Time   { return &v }
func day(n float64) time.Duration { return time.Duration(n * float64(24*time.Hour)) }

// Rich returns a new copy of a hand-built valid document that exercises
// every rule of the format: lists out of canonical order, ties broken by id,
// a non-UTC time, files listed with unchanged figures, an issue-only change,
// a file removed and re-added, a removal of an unknown path, an out-of-order
// default-branch analysis, other branches, coverage merged over uploads, tags
// and empty hits, components with several globs, upload tokens (one given as
// a plaintext, one revoked), build events listed interleaved and idempotency
// keys. Tests change their copy freely.
func Rich() *dataset.Document {
	u := func(n int) string { return ID(User, n) }
	w := func(n int) string { return ID(Workspace, n) }
	p := func(n int) string { return ID(Project, n) }
	s := func(n int) string { return ID(Snapshot, n) }
	iss := 0
	issue := func(fp, path, cat, level, status string) dataset.Issue {
		iss++
		return dataset.Issue{ID: ID(Issue, iss), Fingerprint: fp, Tool: "golint", RuleKey: "R-" + fp, Message: "Fix <" + fp + "> & more",
			Category: cat, Level: level, Status: status, Path: path}
	}
	withDoc := func(is dataset.Issue) dataset.Issue {
		is.DocumentationURL = "https://example.com/rules?id=" + is.RuleKey + "&x=1"
		is.StartLine, is.EndLine = ip(3), ip(7)
		return is
	}
	f := func(path string, lines, loc, cx, dup int64) dataset.File {
		return dataset.File{Path: path, Lines: lines, LOC: loc, Complexity: cx, DuplicatedLines: dup}
	}
	shaX, shaY, shaZ := strings.Repeat("ab", 20), strings.Repeat("cd", 20), strings.Repeat("0e", 20)
	plus2 := time.FixedZone("CEST", 2*3600)
	return &dataset.Document{
		Format: dataset.Format, Version: dataset.Version,
		Users: []dataset.User{
			{ID: u(3), Login: "grace", Name: "Grace Hopper", Email: "grace@example.com", AvatarURL: "https://avatars.example.com/grace.png",
				ProviderURL: "https://github.com/grace", CreatedAt: T0.Add(day(2)), UpdatedAt: T0.Add(day(3))},
			{ID: u(1), Login: "ada", Name: "Ada Lovelace", CreatedAt: T0.In(plus2),
				PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"},
			{ID: u(4), Login: "Linus", Name: "", CreatedAt: T0.Add(day(1))},
			{ID: u(2), Login: "margaret", Name: "Margaret \"Maggie\" Hamilton", CreatedAt: T0.Add(day(1))},
		},
		Tokens: []dataset.Token{
			{ID: ID(Token, 2), UserID: u(1), Name: "ci", Hash: strings.Repeat("a1", 32), CreatedAt: T0.Add(day(5)), LastUsedAt: tp(T0.Add(day(6)))},
			{ID: ID(Token, 1), UserID: u(2), Name: "old", Hash: strings.Repeat("b2", 32), CreatedAt: T0.Add(day(3)), RevokedAt: tp(T0.Add(day(4)))},
		},
		Workspaces: []dataset.Workspace{
			{ID: w(2), Key: "Zeta", AvatarURL: "https://github.com/Zeta.png", ProviderURL: "https://github.com/Zeta",
				CreatedAt: T0.Add(day(2)), UpdatedAt: T0.Add(day(3)),
				Members: []dataset.Member{{UserID: u(3), Role: "member"}, {UserID: u(1), Role: "admin"}}},
			{ID: w(1), Key: "acme", AvatarURL: "https://github.com/acme.png", ProviderURL: "https://github.com/acme", ApplicationsEnabled: true,
				CreatedAt: T0.Add(day(1)), UpdatedAt: T0.Add(day(1)),
				Members: []dataset.Member{{UserID: u(4), Role: "member"}, {UserID: u(2), Role: "admin"}, {UserID: u(1), Role: "member"}}},
		},
		Projects: []dataset.Project{
			{ID: p(3), WorkspaceID: w(2), Key: "tool", DefaultBranch: "trunk", CreatedAt: T0.Add(day(3)), UpdatedAt: T0.Add(day(3)), AdminIDs: []string{}, BadgesPublic: true},
			{ID: p(1), WorkspaceID: w(1), Key: "web", DefaultBranch: "main", ComponentsEnabled: true, CreatedAt: T0.Add(day(2)),
				UpdatedAt: T0.Add(day(4)), AdminIDs: []string{u(4), u(3)}},
			{ID: p(2), WorkspaceID: w(1), Key: "API", DefaultBranch: "main", ComponentsEnabled: true, CreatedAt: T0.Add(day(2)), UpdatedAt: T0.Add(day(2))},
		},
		UploadTokens: []dataset.UploadToken{
			{ID: ID(UploadToken, 2), ProjectID: p(1), Name: "ci", Hash: strings.Repeat("c3", 32), CreatedBy: "ada", CreatedAt: T0.Add(day(7)),
				LastUsedAt: tp(T0.Add(day(8)))},
			{ID: ID(UploadToken, 1), ProjectID: p(1), Name: "old ci", Hash: strings.Repeat("d4", 32), CreatedBy: "cli", CreatedAt: T0.Add(day(7)),
				RevokedAt: tp(T0.Add(day(9)).In(plus2))},
			{ID: ID(UploadToken, 3), ProjectID: p(2), Name: "api <ci> & co", Hash: strings.Repeat("e5", 32), CreatedBy: "grace", CreatedAt: T0.Add(day(6))},
			{ID: ID(UploadToken, 4), ProjectID: p(3), Name: "tool", Token: plumb.UploadTokenPrefix + "richdoc0123456789abcdefghijklmnopqrstuv", CreatedBy: "cli",
				CreatedAt: T0.Add(day(4))},
		},
		Applications: []dataset.Application{
			{ID: ID(Application, 1), WorkspaceID: w(1), Name: "Shop", Description: "The shop", CreatedAt: T0.Add(day(5)), ProjectIDs: []string{p(2), p(1)}},
			{ID: ID(Application, 2), WorkspaceID: w(1), Name: "admin", CreatedAt: T0.Add(day(6))},
		},
		Builds: []dataset.Build{
			{ID: ID(Build, 3), ProjectID: p(1), Type: "analysis", Status: "succeeded", BranchName: "main", CommitSHA: shaX, CommitMessage: "Add <b>",
				SubmittedAt: T0.Add(day(10)), StartedAt: tp(T0.Add(day(10) + time.Minute)), FinishedAt: tp(T0.Add(day(10) + 5*time.Minute)),
				Conclusion: sp("succeeded"), ExitCode: ip(0), Source: "github", PullRequestNumber: ip(42), CommitterLogin: "ada", SnapshotID: s(1)},
			{ID: ID(Build, 2), ProjectID: p(1), Type: "format", Status: "failed", BranchName: "feature", CommitSHA: shaY,
				SubmittedAt: T0.Add(day(10)), FinishedAt: tp(T0.Add(day(10) + time.Hour)), StatusReason: sp("timeout"),
				Conclusion: sp("failed"), ExitCode: ip(2)},
			{ID: ID(Build, 1), ProjectID: p(2), Type: "coverage_setup", Status: "submitted", BranchName: "main", CommitSHA: shaZ,
				SubmittedAt: T0.Add(day(9))},
			{ID: ID(Build, 4), ProjectID: p(1), Type: "ssh", Status: "running", BranchName: "main", CommitSHA: shaY[:7],
				SubmittedAt: T0.Add(day(1)), StartedAt: tp(T0.Add(day(1)))},
		},
		// Each build's events in order, the builds interleaved.
		BuildEvents: []dataset.BuildEvent{
			{BuildID: ID(Build, 3), Seq: 1, Status: "submitted", At: T0.Add(day(10))},
			{BuildID: ID(Build, 2), Seq: 1, Status: "submitted", At: T0.Add(day(10))},
			{BuildID: ID(Build, 3), Seq: 2, Status: "running", At: T0.Add(day(10) + time.Minute)},
			{BuildID: ID(Build, 1), Seq: 1, Status: "submitted", At: T0.Add(day(9)).In(plus2)},
			{BuildID: ID(Build, 4), Seq: 1, Status: "submitted", At: T0.Add(day(1))},
			{BuildID: ID(Build, 3), Seq: 3, Status: "succeeded", At: T0.Add(day(10) + 5*time.Minute)},
			{BuildID: ID(Build, 2), Seq: 2, Status: "failed", Reason: sp("timeout"), At: T0.Add(day(10) + time.Hour)},
			{BuildID: ID(Build, 4), Seq: 2, Status: "starting", Reason: sp("queued <fast> & soon"), At: T0.Add(day(1))},
			{BuildID: ID(Build, 4), Seq: 3, Status: "running", At: T0.Add(day(1))},
		},
		Snapshots: []dataset.Snapshot{
			{ID: s(1), ProjectID: p(1), Branch: "main", CommitSHA: shaX, AnalyzedAt: T0.Add(day(10)),
				Files: []dataset.File{f("lib/x.go", 10, 8, 1, 0), f("b.go", 50, 40, 7, 5), f("a.go", 100, 80, 12, 10), f("c.go", 5, 5, 0, 0)},
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open"), issue("b1", "b.go", "vulnerability", "medium", "ignored"),
					withDoc(issue("a2", "a.go", "lint", "low", "open"))}},
			{ID: s(2), ProjectID: p(1), Branch: "feature", CommitSHA: shaY, AnalyzedAt: T0.Add(day(10) + time.Hour),
				Issues: []dataset.Issue{issue("f1", "a.go", "style", "note", "")}},
			{ID: s(3), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("11", 20), AnalyzedAt: T0.Add(day(11)),
				Files: []dataset.File{f("d.go", 20, 20, 2, 0), f("b.go", 60, 40, 7, 5)}, Removed: []string{"c.go"},
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open"), issue("a3", "a.go", "secret", "fmt", "open"),
					issue("b1", "b.go", "vulnerability", "medium", "ignored")}},
			{ID: s(4), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("22", 20), AnalyzedAt: T0.Add(day(12)),
				Files: []dataset.File{f("a.go", 100, 80, 12, 10)}, Removed: []string{}, Issues: []dataset.Issue{}},
			{ID: s(5), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("33", 20), AnalyzedAt: T0.Add(day(11.5)),
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open")}},
			{ID: s(7), ProjectID: p(2), Branch: "main", CommitSHA: shaZ, AnalyzedAt: T0.Add(day(9)),
				Files: []dataset.File{f("main.go", 30, 25, 3, 0), f("docs/api.md", 200, 0, 0, 0)}},
			{ID: s(6), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("44", 20), AnalyzedAt: T0.Add(day(13)),
				Files: []dataset.File{f("c.go", 6, 6, 0, 0)}, Removed: []string{"never-existed.go", "lib/x.go"},
				Issues: []dataset.Issue{issue("c1", "c.go", "dead_code", "medium", "open")}},
			{ID: s(8), ProjectID: p(3), Branch: "trunk", CommitSHA: strings.Repeat("55", 20), AnalyzedAt: T0.Add(day(8)),
				Files: []dataset.File{f("tool.py", 3, 3, 0, 0)}, Issues: []dataset.Issue{issue("t1", "tool.py", "dependency_alert", "high", "ignored")}},
			{ID: s(9), ProjectID: p(3), Branch: "main", CommitSHA: strings.Repeat("66", 20), AnalyzedAt: T0.Add(day(9))},
		},
		IssueStates: []dataset.IssueState{
			{ProjectID: p(3), Fingerprint: "t1", Status: "ignored"},
			{ProjectID: p(1), Fingerprint: "b1", Status: "ignored"},
			{ProjectID: p(1), Fingerprint: "a1", Status: "open"},
		},
		Coverage: []dataset.Coverage{
			{ID: ID(Coverage, 1), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: T0.Add(day(10)),
				Files: []dataset.CoverageFile{{Path: "b.go", Hits: []int64{0, 0}}, {Path: "a.go", Hits: []int64{1, 0, -1}}}},
			{ID: ID(Coverage, 2), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: T0.Add(day(10) + time.Hour),
				Files: []dataset.CoverageFile{{Path: "a.go", Hits: []int64{2, -1, 3, 0}}, {Path: "d.go", Hits: []int64{5}}}},
			{ID: ID(Coverage, 3), ProjectID: p(1), CommitSHA: shaX, Branch: "feature", UploadedAt: T0.Add(day(10) + 2*time.Hour),
				Files: []dataset.CoverageFile{{Path: "a.go", Hits: []int64{0, 0, 0}}}},
			{ID: ID(Coverage, 4), ProjectID: p(1), CommitSHA: shaY, GitTag: "v1.0.0", CoverageTag: "e2e", UploadedAt: T0.Add(day(11)),
				Files: []dataset.CoverageFile{{Path: "b.go", Hits: []int64{}}, {Path: "z.go"}}},
			{ID: ID(Coverage, 5), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: T0.Add(day(12))},
			{ID: ID(Coverage, 6), ProjectID: p(2), CommitSHA: shaZ, Branch: "main", CoverageTag: "unit", UploadedAt: T0.Add(day(9)),
				Files: []dataset.CoverageFile{{Path: "main.go", Hits: []int64{-1, 1, 1, 0}}}},
		},
		Components: []dataset.Component{
			{ID: ID(Component, 3), ProjectID: p(2), Name: "all", PathGlobs: []string{"*"}, CreatorID: u(2), CreatedAt: T0.Add(day(20)), UpdatedAt: T0.Add(day(20))},
			{ID: ID(Component, 2), ProjectID: p(1), Name: "docs", Description: "Documentation", PathGlobs: []string{"docs/*", "README.md"},
				CreatorID: u(1), CreatedAt: T0.Add(day(3)), UpdatedAt: T0.Add(day(30))},
			{ID: ID(Component, 1), ProjectID: p(1), Name: "Backend", PathGlobs: []string{"*.go", "lib/*"}, CreatorID: u(1),
				CreatedAt: T0.Add(day(2)), UpdatedAt: T0.Add(day(2))},
		},
		IdempotencyKeys: []dataset.IdempotencyKey{
			{ProjectID: p(1), Key: "ci-run-2", RequestHash: strings.Repeat("f6", 32), BodyHash: strings.Repeat("e5", 32), Status: 201,
				Body: `{"id":"` + ID(Coverage, 2) + `","html":"<b>&</b>"}` + "\n", CreatedAt: T0.Add(day(10) + time.Hour)},
			{ProjectID: p(2), Key: "Ünï key", RequestHash: strings.Repeat("07", 32), Status: 200, Body: "{}\n", CreatedAt: T0.Add(day(9)).In(plus2)},
			{ProjectID: p(1), Key: "ci-run-1", RequestHash: strings.Repeat("f7", 32), Status: 422, Body: "", CreatedAt: T0.Add(day(10))},
		},
	}
}

// WithSources adds sources to a document (Rich, say) and returns it: for
// the commit of its first snapshot, two files with the same content, one
// with its own, a file too large and a binary one; the contents given as
// text, one of them empty.
func WithSources(d *dataset.Document) *dataset.Document {
	s := d.Snapshots[0]
	blob := func(content string) dataset.SourceBlob {
		return dataset.SourceBlob{ProjectID: s.ProjectID, BlobID: source.BlobID([]byte(content)), Origin: source.OriginUpload,
			CreatedAt: s.AnalyzedAt, Size: int64(len(content)), Content: content}
	}
	main, util, empty := blob("package main\n\nfunc main() {}\n"), blob("package util // été\n"), blob("")
	util.Origin = source.OriginGitHub
	fetched := s.AnalyzedAt.Add(time.Hour) // util/util.go was fetched from GitHub on a first view
	d.SourceBlobs = append(d.SourceBlobs, main, util, empty)
	d.SourceCommits = append(d.SourceCommits, dataset.SourceCommit{ProjectID: s.ProjectID, CommitSHA: s.CommitSHA, CreatedAt: s.AnalyzedAt,
		Files: []dataset.SourceFile{
			{Path: "cmd/main.go", State: "ok", BlobID: main.BlobID, Size: main.Size},
			{Path: "util/util.go", State: "ok", BlobID: util.BlobID, Size: util.Size, FetchedFrom: source.OriginGitHub, FetchedAt: &fetched},
			{Path: "copy/main.go", State: "ok", BlobID: main.BlobID, Size: main.Size},
			{Path: "empty.go", State: "ok", BlobID: empty.BlobID, Size: 0},
			{Path: "data/big.json", State: "too_large", Size: 5 << 20},
			{Path: "logo.png", State: "binary", Size: 1234},
		}})
	return d
}
