package sqlstore

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

// The file pages' reads: FilesAt resolves a reference to a commit and what
// is kept of it, TreeFiles gives each file's figures and coverage in one
// read, FileIssues a file's issues.
func TestFilesReads(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	db, pid := sOpen(t, &now, Options{})
	ctx := context.Background()
	const c1, c2, c3 = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	one := 3
	snap, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "main", CommitSHA: c1, AnalyzedAt: now, FullTree: true,
		Files: []plumb.FileFigures{{Path: "a/x.go", Lines: 10, LOC: 8, Complexity: 2}, {Path: "a/b/y.go", Lines: 20, LOC: 15, Complexity: 5}, {Path: "z.md", Lines: 3}},
		Issues: []plumb.Issue{{Tool: "vet", RuleKey: "r", Message: "m", Category: "bug", Level: "high", Path: "a/x.go", StartLine: &one, Fingerprint: "f1"},
			{Tool: "vet", RuleKey: "r", Message: "n", Category: "bug", Level: "low", Path: "z.md", Fingerprint: "f2"}}})
	dCheck(t, err)
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: c1, Branch: "main", CoverageTag: "unit", UploadedAt: now,
		Files: []plumb.CoverageFile{{Path: "a/x.go", Hits: []int64{1, 0, -1, 2}}, {Path: "only/covered.go", Hits: []int64{0}}}})
	dCheck(t, err)
	// A feature branch: an analysis (issues, no per-file figures kept) and
	// coverage on a tag.
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "feature", CommitSHA: c2, AnalyzedAt: now, FullTree: true,
		Files:  []plumb.FileFigures{{Path: "a/x.go", Lines: 10, LOC: 8}},
		Issues: []plumb.Issue{{Tool: "vet", RuleKey: "r", Message: "m", Category: "bug", Level: "high", Path: "a/x.go", StartLine: &one, Fingerprint: "f3"}}})
	dCheck(t, err)
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: c3, GitTag: "v1", CoverageTag: "unit", UploadedAt: now,
		Files: []plumb.CoverageFile{{Path: "a/x.go", Hits: []int64{1}}}})
	dCheck(t, err)

	at, err := db.FilesAt(ctx, pid, "refs/heads/main")
	dCheck(t, err)
	if at.SHA != c1 || at.SnapshotID != snap.ID || at.Figures != plumb.FiguresCurrent || !at.Coverage || at.Version == "" {
		t.Fatalf("main: %+v", at)
	}
	for _, ref := range []string{c1, c1[:9]} {
		if got, err := db.FilesAt(ctx, pid, ref); err != nil || got.SHA != c1 || got.SnapshotID != snap.ID {
			t.Errorf("%s: %+v %v", ref, got, err)
		}
	}
	feat, err := db.FilesAt(ctx, pid, "refs/heads/feature")
	dCheck(t, err)
	if feat.SHA != c2 || feat.SnapshotID == "" || feat.Figures != "" || feat.Coverage {
		t.Errorf("feature: %+v", feat)
	}
	tag, err := db.FilesAt(ctx, pid, "refs/tags/v1")
	dCheck(t, err)
	if tag.SHA != c3 || tag.SnapshotID != "" || !tag.Coverage {
		t.Errorf("tag: %+v", tag)
	}
	for _, ref := range []string{"refs/heads/nope", "refs/tags/nope", "refs/pull/4", "4444444", "not a sha"} {
		if _, err := db.FilesAt(ctx, pid, ref); plumb.ErrorCode(err) != plumb.ENOTFOUND {
			t.Errorf("%s: %v, want ENOTFOUND", ref, err)
		}
	}

	files, err := db.TreeFiles(ctx, pid, at, "", "")
	dCheck(t, err)
	slices.SortFunc(files, func(a, b plumb.TreeFile) int { return strings.Compare(a.Path, b.Path) })
	want := []plumb.TreeFile{
		{Path: "a/b/y.go", Figures: true, Lines: 20, LOC: 15, Complexity: 5},
		{Path: "a/x.go", Figures: true, Lines: 10, LOC: 8, Complexity: 2, OpenIssues: 1, Coverage: true, Covered: 2, Missed: 1},
		{Path: "only/covered.go", Coverage: true, Missed: 1},
		{Path: "z.md", Figures: true, Lines: 3, OpenIssues: 1},
	}
	if !slices.Equal(files, want) {
		t.Errorf("tree:\n got %+v\nwant %+v", files, want)
	}
	under, err := db.TreeFiles(ctx, pid, at, "a/", "")
	dCheck(t, err)
	if len(under) != 2 {
		t.Errorf("under a/: %+v", under)
	}
	// Without figures, the open issues still count.
	ff, err := db.TreeFiles(ctx, pid, feat, "", "")
	dCheck(t, err)
	if len(ff) != 1 || ff[0].Path != "a/x.go" || ff[0].Figures || ff[0].OpenIssues != 1 {
		t.Errorf("feature tree: %+v", ff)
	}
	f, found, err := db.FileFigures(ctx, pid, at, "a/x.go")
	dCheck(t, err)
	if !found || f != want[1] {
		t.Errorf("FileFigures: %+v %v", f, found)
	}
	if _, found, _ := db.FileFigures(ctx, pid, at, "a/x"); found {
		t.Error("FileFigures found a prefix")
	}
	is, err := db.FileIssues(ctx, pid, at.SnapshotID, "a/x.go")
	dCheck(t, err)
	if len(is) != 1 || is[0].Fingerprint != "f1" || *is[0].StartLine != 3 {
		t.Errorf("FileIssues: %+v", is)
	}
	// Another project's snapshot is not found.
	if _, err := db.FileIssues(ctx, "other", at.SnapshotID, "a/x.go"); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Errorf("another project's snapshot: %v", err)
	}
	// A new coverage upload of the commit changes its version.
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: c1, Branch: "main", CoverageTag: "e2e", UploadedAt: now,
		Files: []plumb.CoverageFile{{Path: "a/x.go", Hits: []int64{1}}}})
	dCheck(t, err)
	if again, _ := db.FilesAt(ctx, pid, c1); again.Version == at.Version {
		t.Error("a coverage upload left the version unchanged")
	}
}
