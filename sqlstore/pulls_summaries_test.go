package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
)

// A kept pull-request summary holds exactly while the comparison's inputs
// do: a new coverage upload or analysis of either side, a re-uploaded
// change, another gate or another base each make it stale; the same inputs
// find it again.
func TestPullSummaryInputs(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	db, pid := sOpen(t, &now, Options{})
	ctx := context.Background()
	const base, head, other = "b100000000000000000000000000000000000000", "a100000000000000000000000000000000000000", "b200000000000000000000000000000000000000"
	n := 3
	ch := compare.Change{CommitSHA: head, Branch: "feat", BaseCommitSHA: base, BaseBranch: "main", PullRequestNumber: &n,
		Files: []compare.FileChange{{Path: "a.go", Status: "modified", AddedLines: []compare.LineRange{{Start: 1, End: 2}}}}}
	dCheck(t, db.PutChange(ctx, pid, ch, now))
	cover := func(sha, branch string) {
		t.Helper()
		now = now.Add(time.Second)
		_, err := db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: sha, Branch: branch, CoverageTag: "unit", UploadedAt: now,
			Files: []plumb.CoverageFile{{Path: "a.go", Hits: []int64{1, 0}}}})
		dCheck(t, err)
	}
	analyse := func(sha, branch string) {
		t.Helper()
		now = now.Add(time.Second)
		_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: branch, CommitSHA: sha, AnalyzedAt: now,
			Files: []plumb.FileFigures{{Path: "a.go", Lines: 2, LOC: 2}}, FullTree: true})
		dCheck(t, err)
	}
	cover(base, "main")
	analyse(base, "main")
	cover(head, "feat")

	// keep keeps a summary read with the current inputs; held says
	// whether it is found again now.
	keep := func(gate string) {
		t.Helper()
		in, err := db.PullInputs(ctx, pid, n, base, head)
		dCheck(t, err)
		dCheck(t, db.KeepPullSummary(ctx, pid, compare.PullSummary{Number: n, HeadSHA: head, BaseSHA: base, Inputs: in, Gate: gate, Patch: compare.Coverage{Covered: 1, Coverable: 2}}))
	}
	held := func(what string, want bool) {
		t.Helper()
		s, in, found, err := db.CurrentPullSummary(ctx, pid, n, base, head)
		dCheck(t, err)
		if found != want || in == "" {
			t.Fatalf("%s: found %v, want %v (inputs %q)", what, found, want, in)
		}
		if found && (s.Gate != "failed" || s.Patch.Covered != 1 || s.Patch.Coverable != 2 || s.BaseSHA != base) {
			t.Fatalf("%s: %+v", what, s)
		}
	}
	held("nothing kept", false)
	keep("failed")
	held("kept", true)
	if _, _, found, err := db.CurrentPullSummary(ctx, pid, n, other, head); err != nil || found {
		t.Fatalf("another base: found %v, %v", found, err)
	}
	if _, _, found, err := db.CurrentPullSummary(ctx, pid, n+1, base, head); err != nil || found {
		t.Fatalf("another pull request: found %v, %v", found, err)
	}
	for _, c := range []struct {
		what   string
		change func()
	}{
		{"a new coverage upload for the head", func() { cover(head, "feat") }},
		{"a first analysis of the head", func() { analyse(head, "feat") }},
		{"a new analysis of the base", func() { analyse(base, "main") }},
		{"a new coverage upload for the base", func() { cover(base, "main") }},
		{"the change uploaded again", func() {
			now = now.Add(time.Second)
			dCheck(t, db.PutChange(ctx, pid, ch, now))
		}},
		{"another gate", func() {
			pc := 50.0
			dCheck(t, db.PutGate(ctx, pid, compare.Gate{PatchCoverage: &pc}, now))
		}},
		{"the default gate again", func() { dCheck(t, db.DeleteGate(ctx, pid)) }},
	} {
		c.change()
		held(c.what, false)
		keep("failed")
		held(c.what+", kept again", true)
	}
	// Another head of the same pull request is kept beside it.
	dCheck(t, db.KeepPullSummary(ctx, pid, compare.PullSummary{Number: n, HeadSHA: other, BaseSHA: base, Inputs: "x", Gate: "passed"}))
	held("another head kept", true)

	// Requests keeping the same summary at once all succeed; one of them
	// is kept.
	in, err := db.PullInputs(ctx, pid, n, base, head)
	dCheck(t, err)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			errs <- db.KeepPullSummary(ctx, pid, compare.PullSummary{Number: n, HeadSHA: head, BaseSHA: base, Inputs: in, Gate: "failed", Patch: compare.Coverage{Covered: 1, Coverable: 2}})
		}()
	}
	for range 8 {
		dCheck(t, <-errs)
	}
	held("kept by eight at once", true)
}
