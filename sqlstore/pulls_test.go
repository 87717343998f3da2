package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
)

// PullRequests: one row per pull request from its latest upload, newest
// activity first, paged; by number; states the uploads cannot know list
// none; an unknown state is refused.
func TestPullRequestsList(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	db, pid := sOpen(t, &now, Options{})
	ctx := context.Background()
	put := func(sha string, pr *int, branch string, at time.Duration) {
		t.Helper()
		ch := compare.Change{CommitSHA: sha, Branch: branch, BaseBranch: "main", PullRequestNumber: pr,
			Files: []compare.FileChange{{Path: "a.go", Status: "modified", AddedLines: []compare.LineRange{{Start: 1, End: 2}}}}}
		dCheck(t, db.PutChange(ctx, pid, ch, now.Add(at)))
	}
	seven, eight := 7, 8
	put("aaaaaaa1", &seven, "feat-a", 0)
	put("bbbbbbb1", &eight, "feat-b", time.Minute)
	put("aaaaaaa2", &seven, "feat-a", 2*time.Minute) // #7's newer head
	put("ccccccc1", nil, "main", 3*time.Minute)      // no pull request: not listed

	all, err := db.PullRequests(ctx, pid, compare.PullFilter{})
	dCheck(t, err)
	if len(all) != 2 || all[0].Number != 7 || all[0].HeadSHA != "aaaaaaa2" || all[0].Uploads != 2 || all[0].Branch != "feat-a" ||
		all[0].State != compare.PullOpen || !all[0].LastUpload.Equal(now.Add(2*time.Minute)) || all[1].Number != 8 || all[1].Uploads != 1 {
		t.Fatalf("all: %+v", all)
	}
	page, err := db.PullRequests(ctx, pid, compare.PullFilter{State: compare.PullOpen, Page: plumb.Page{Offset: 1, Limit: 1}})
	dCheck(t, err)
	if len(page) != 1 || page[0].Number != 8 {
		t.Fatalf("second page: %+v", page)
	}
	one, err := db.PullRequests(ctx, pid, compare.PullFilter{Number: 8})
	dCheck(t, err)
	if len(one) != 1 || one[0].HeadSHA != "bbbbbbb1" {
		t.Fatalf("#8: %+v", one)
	}
	if none, err := db.PullRequests(ctx, pid, compare.PullFilter{Number: 9}); err != nil || len(none) != 0 {
		t.Fatalf("#9: %+v %v", none, err)
	}
	if merged, err := db.PullRequests(ctx, pid, compare.PullFilter{State: compare.PullMerged}); err != nil || len(merged) != 0 {
		t.Fatalf("merged before any webhook: %+v %v", merged, err)
	}

	// GitHub's pull_request webhooks name #7 (merged) and #8 (closed): the
	// list takes their titles, authors and states, and filters on them.
	dCheck(t, db.PutCodeHost(ctx, pid, codehost.Target{Kind: codehost.GitHub, BaseURL: "https://api.github.com", Repository: "acme/web"}, now))
	hook := func(id string, n int, title, state string, merged bool) {
		t.Helper()
		_, err := db.ApplyHook(ctx, codehost.HookDelivery{ID: id, Event: "pull_request", Action: "closed", Repository: "acme/web", At: now,
			PullRequest: &codehost.PullRequest{Number: n, Title: title, Author: "ada", BaseBranch: "main", HeadBranch: "feat", HeadSHA: "aaaaaaa2", State: state, Merged: merged}}, 204, 202)
		dCheck(t, err)
	}
	hook("d-7", 7, "Faster cart", "closed", true)
	hook("d-8", 8, "Drop the old API", "closed", false)
	for _, c := range []struct {
		state string
		want  []int
	}{{compare.PullMerged, []int{7}}, {compare.PullClosed, []int{8}}, {compare.PullOpen, nil}, {compare.PullAll, []int{7, 8}}} {
		got, err := db.PullRequests(ctx, pid, compare.PullFilter{State: c.state})
		dCheck(t, err)
		var nums []int
		for _, pr := range got {
			nums = append(nums, pr.Number)
			if pr.State != c.state && c.state != compare.PullAll || pr.Author != "ada" || pr.Title == "" {
				t.Errorf("state %s: %+v", c.state, pr)
			}
		}
		if !slices.Equal(nums, c.want) {
			t.Errorf("state %s: %v, want %v", c.state, nums, c.want)
		}
	}
	if _, err := db.PullRequests(ctx, pid, compare.PullFilter{State: "draft"}); plumb.ErrorCode(err) != plumb.EINVALID {
		t.Fatalf("state draft: %v", err)
	}
}

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

// A compared snapshot's issues carry their fingerprint's status
// (issue_states) where it has one, else their own: the same as the join
// snapshotIssues replaced, for every combination of an issue's own status
// and its fingerprint's state (open, ignored, none), on both backends.
func TestSnapshotIssuesStatusMatchesJoin(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	var issues []plumb.Issue
	for i := range 60 {
		issues = append(issues, plumb.Issue{Fingerprint: fmt.Sprintf("fp%02d", i), Tool: "t", RuleKey: "r", Message: "m", Category: "bug", Level: "low", Path: "a.go"})
	}
	snap, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p, Branch: "main", CommitSHA: sShaA, AnalyzedAt: now,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 1}}, Issues: issues})
	dCheck(t, err)
	// Every combination: the issue's own status (i%2), its fingerprint's
	// state (i%3: open, ignored, none).
	for i := range issues {
		own := []string{"open", "ignored"}[i%2]
		fp := issues[i].Fingerprint
		_, err := db.write.ExecContext(ctx, `UPDATE issues SET status = $1 WHERE fingerprint = $2`, own, fp)
		dCheck(t, err)
		_, err = db.write.ExecContext(ctx, `DELETE FROM issue_states WHERE project_id = $1 AND fingerprint = $2`, p, fp)
		dCheck(t, err)
		if i%3 < 2 {
			_, err = db.write.ExecContext(ctx, `INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, $2, $3)`, p, fp, []string{"open", "ignored"}[i%3])
			dCheck(t, err)
		}
	}
	var seq int64
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT seq FROM snapshots WHERE id = $1`, snap.ID).Scan(&seq))
	want := map[string]string{}
	rows, err := db.read.QueryContext(ctx, `SELECT i.fingerprint, coalesce(st.status, i.status)
		FROM issues i LEFT JOIN issue_states st ON st.project_id = $1 AND st.fingerprint = i.fingerprint
		WHERE i.snapshot_seq = $2`, p, seq)
	dCheck(t, err)
	for rows.Next() {
		var fp, st string
		dCheck(t, rows.Scan(&fp, &st))
		want[fp] = st
	}
	dCheck(t, rows.Err())
	rows.Close()
	got, err := snapshotIssues(ctx, db.read, p, seq)
	dCheck(t, err)
	if len(got) != len(issues) || len(want) != len(issues) {
		t.Fatalf("%d issues read, %d by the join, %d written", len(got), len(want), len(issues))
	}
	ignored := 0
	for _, is := range got {
		if is.Status != want[is.Fingerprint] {
			t.Errorf("%s: status %q, the join says %q", is.Fingerprint, is.Status, want[is.Fingerprint])
		}
		if is.Status == "ignored" {
			ignored++
		}
	}
	// fp i is ignored when its state is (i%3 == 1), or it has none and its own is (i%3 == 2, i odd).
	if ignored != 20+10 {
		t.Errorf("%d ignored, want 30", ignored)
	}
}

func TestSnapshotIssueCache(t *testing.T) {
	c := newSnapshotIssueCache(5)
	loads := map[string]int{}
	load := func(id string, n int, err error) func() ([]plumb.Issue, error) {
		return func() ([]plumb.Issue, error) {
			loads[id]++
			return make([]plumb.Issue, n), err
		}
	}
	get := func(id string, n int, err error) {
		t.Helper()
		is, got := c.get(id, load(id, n, err))
		if !errors.Is(got, err) || len(is) != n {
			t.Fatalf("get %s: %d issues, %v", id, len(is), got)
		}
	}
	get("a", 2, nil)
	get("a", 2, nil)
	get("b", 3, nil) // 5 issues: both kept
	get("a", 2, nil)
	if loads["a"] != 1 || loads["b"] != 1 {
		t.Fatalf("loads %v", loads)
	}
	get("c", 2, nil) // 7 > 5: the least recent (b) goes
	get("a", 2, nil)
	get("b", 3, nil)
	if loads["a"] != 1 || loads["b"] != 2 || loads["c"] != 1 {
		t.Fatalf("loads %v", loads)
	}
	get("big", 6, nil) // over the bound: never kept
	get("big", 6, nil)
	boom := fmt.Errorf("boom")
	get("bad", 0, boom) // errors are not kept
	get("bad", 1, nil)
	if loads["big"] != 2 || loads["bad"] != 2 {
		t.Fatalf("loads %v", loads)
	}
	if c.size > 5 || c.size != sum(c) {
		t.Fatalf("size %d, entries hold %d", c.size, sum(c))
	}
}

func sum(c *snapshotIssueCache) int {
	n := 0
	for _, el := range c.entries {
		if e := el.Value.(*snapshotIssuesEntry); e.kept {
			n += len(e.issues)
		}
	}
	return n
}
