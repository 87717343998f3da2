package sqlstore

import (
	"context"
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
