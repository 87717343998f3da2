package sqlstore_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// One file's history: its figures at each measured default-branch analysis
// (a late analysis at its own time, with its own tree), Files 0 once it is
// removed, nothing before it exists; its coverage (every tag together) at
// each default-branch coverage measurement that names it.
func TestFileHistoryByHand(t *testing.T) {
	ctx := context.Background()
	db, p, _ := mOpen(t)
	day := func(n int) time.Time { return mT0.AddDate(0, 0, n) }
	sha := func(c string) string { return strings.Repeat("0", 40-len(c)) + strings.TrimPrefix(c, "c") + "c" }
	add := func(in plumb.SnapshotInput) {
		in.ProjectID = p.ID
		_, err := db.AddSnapshot(ctx, in)
		mCheck(t, err)
	}
	vuln := plumb.Issue{Fingerprint: "f1", Tool: "t", RuleKey: "r", Path: "src/a.go", Category: "vulnerability", Level: "medium"}
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: sha("c1"), AnalyzedAt: day(0), Files: []plumb.FileFigures{
		{Path: "src/a.go", Lines: 10, LOC: 8, Complexity: 2},
		{Path: "lib/b.go", Lines: 5, LOC: 5, Complexity: 1},
	}, Issues: []plumb.Issue{vuln, {Fingerprint: "f2", Tool: "t", RuleKey: "r", Path: "lib/b.go", Category: "bug", Level: "high"}}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: sha("c2"), AnalyzedAt: day(1), Files: []plumb.FileFigures{
		{Path: "src/new/c.go", Lines: 20, LOC: 15, Complexity: 4},
	}, Issues: []plumb.Issue{vuln}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: sha("c3"), AnalyzedAt: day(2), Removed: []string{"src/a.go"}})
	add(plumb.SnapshotInput{Branch: "feature", CommitSHA: sha("c4"), AnalyzedAt: day(3), Files: []plumb.FileFigures{{Path: "src/a.go", Lines: 99}, {Path: "src/z.go", Lines: 1}}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: sha("c0"), AnalyzedAt: day(-1), FullTree: true, Files: []plumb.FileFigures{{Path: "src/y.go", Lines: 1}}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: sha("c15"), AnalyzedAt: day(1).Add(12 * time.Hour), Files: []plumb.FileFigures{
		{Path: "src/a.go", Lines: 12, LOC: 9, Complexity: 3},
	}})
	cover := func(commit, branch, tag string, at time.Time, files ...plumb.CoverageFile) {
		_, err := db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: commit, Branch: branch, CoverageTag: tag, UploadedAt: at, Files: files})
		mCheck(t, err)
	}
	cover(sha("c1"), "main", "unit", day(0), plumb.CoverageFile{Path: "src/a.go", Hits: []int64{1, 0, -1}})
	cover(sha("c1"), "main", "integration", day(0), plumb.CoverageFile{Path: "src/a.go", Hits: []int64{0, 1, 0}})
	cover(sha("c2"), "main", "unit", day(1), plumb.CoverageFile{Path: "lib/b.go", Hits: []int64{1}}) // names another file only
	cover(sha("c4"), "feature", "unit", day(3), plumb.CoverageFile{Path: "src/a.go", Hits: []int64{5, 5, 5}})

	stats := func(lines, loc, cx, open, rem, secMedium int64) metric.Totals {
		t := metric.Totals{Files: 1, Stats: metric.FileStats{Lines: lines, LOC: loc, Complexity: cx, OpenIssues: open, RemediationMinutes: rem}}
		t.Stats.SecurityIssues.Add(metric.LevelMedium, secMedium)
		return t
	}
	want := []plumb.TotalsAt{
		{At: day(0), Totals: stats(10, 8, 2, 1, 30, 1)},
		{At: day(1), Totals: stats(10, 8, 2, 1, 30, 1)},
		{At: day(1).Add(12 * time.Hour), Totals: stats(12, 9, 3, 0, 0, 0)},
		{At: day(2)},
	}
	wantCov := []plumb.TotalsAt{{At: day(0), Totals: metric.Totals{Files: 1, Coverage: metric.Coverage{Covered: 2, Missed: 1}}}}
	got, cov, err := db.FileHistory(ctx, p.ID, "src/a.go", day(10))
	mCheck(t, err)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(cov, wantCov) {
		t.Errorf("history\n got: %+v\n     %+v\nwant: %+v\n     %+v", got, cov, want, wantCov)
	}
	// `to` cuts it.
	got, _, err = db.FileHistory(ctx, p.ID, "src/a.go", day(1))
	mCheck(t, err)
	if !reflect.DeepEqual(got, want[:2]) {
		t.Errorf("history to day 1\n got: %+v\nwant: %+v", got, want[:2])
	}
	// A file only of the late full tree.
	got, _, err = db.FileHistory(ctx, p.ID, "src/y.go", day(10))
	mCheck(t, err)
	if len(got) == 0 || got[0].At != day(-1) || got[0].Totals.Stats.Lines != 1 || got[1].Totals.Files != 0 {
		t.Errorf("src/y.go: %+v", got)
	}
	// A file only on a feature branch, and one never seen: no measurements.
	for _, path := range []string{"src/z.go", "src/none.go"} {
		if got, cov, err := db.FileHistory(ctx, p.ID, path, day(10)); err != nil || len(got)+len(cov) != 0 {
			t.Errorf("%s: %+v %+v %v, want nothing", path, got, cov, err)
		}
	}
}
