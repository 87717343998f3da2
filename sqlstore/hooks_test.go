package sqlstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
)

func hookDB(t *testing.T) (db *DB, web, api string) {
	t.Helper()
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	db, web = sOpen(t, &now, Options{})
	q, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "api"})
	dCheck(t, err)
	dCheck(t, db.PutCodeHost(ctx, web, codehost.Target{Kind: codehost.GitHub, BaseURL: "https://api.github.com", Repository: "Acme/Web"}, now))
	dCheck(t, db.PutCodeHost(ctx, q.ID, codehost.Target{Kind: codehost.GitLab, BaseURL: "https://gitlab.com", Repository: "acme/web", Token: "glpat"}, now))
	return db, web, q.ID
}

func pullHook(id, action, title string, at time.Time) codehost.HookDelivery {
	return codehost.HookDelivery{ID: id, Event: "pull_request", Action: action, Repository: "acme/web", At: at,
		PullRequest: &codehost.PullRequest{Number: 7, Title: title, Author: "ada", BaseBranch: "main", HeadBranch: "feature/cart",
			HeadSHA: "0123456789abcdef0123456789abcdef01234567", State: "open"}}
}

func TestHookPullRequestsAndReplays(t *testing.T) {
	ctx := context.Background()
	db, web, api := hookDB(t)
	at := time.Unix(1_800_000_100, 0)

	st, err := db.ApplyHook(ctx, pullHook("d-1", "opened", "Faster cart", at), 204, 202)
	dCheck(t, err)
	if st != 204 {
		t.Fatalf("status %d, want 204", st)
	}
	p, found, err := db.PullRequestInfo(ctx, web, 7)
	dCheck(t, err)
	if !found || p.Title != "Faster cart" || p.Author != "ada" || p.HeadBranch != "feature/cart" || p.State != "open" || p.Merged {
		t.Fatalf("pull request = %+v, found %v", p, found)
	}
	// The GitLab project of the same path got nothing.
	if _, found, _ := db.PullRequestInfo(ctx, api, 7); found {
		t.Error("a GitLab project got a GitHub pull request")
	}

	// A replay of d-1 with another body changes nothing and answers the same.
	replay := pullHook("d-1", "edited", "Something else", at.Add(time.Minute))
	if st, err = db.ApplyHook(ctx, replay, 200, 202); err != nil || st != 204 {
		t.Fatalf("replay: %d, %v; want the 204 kept", st, err)
	}
	if p, _, _ := db.PullRequestInfo(ctx, web, 7); p.Title != "Faster cart" {
		t.Errorf("replay changed the title to %q", p.Title)
	}

	// Closed and merged.
	merged := pullHook("d-2", "closed", "Faster cart", at.Add(2*time.Minute))
	merged.PullRequest.State, merged.PullRequest.Merged = "closed", true
	_, err = db.ApplyHook(ctx, merged, 204, 202)
	dCheck(t, err)
	if p, _, _ := db.PullRequestInfo(ctx, web, 7); p.State != "closed" || !p.Merged {
		t.Errorf("after closing: %+v", p)
	}

	// A repository no project is connected to: unknown answered, nothing kept.
	other := pullHook("d-3", "opened", "Elsewhere", at)
	other.Repository = "acme/other"
	if st, err = db.ApplyHook(ctx, other, 204, 202); err != nil || st != 202 {
		t.Fatalf("unknown repository: %d, %v", st, err)
	}

	ds, err := db.HookDeliveries(ctx, web, 10)
	dCheck(t, err)
	if len(ds) != 2 || ds[0].ID != "d-2" || ds[0].Action != "closed" || ds[1].ID != "d-1" || ds[1].Status != 204 || ds[1].Event != "pull_request" {
		t.Errorf("deliveries = %+v, want d-2 then d-1", ds)
	}
	for _, id := range []string{web, api} {
		ds, _ := db.HookDeliveries(ctx, id, 10)
		for _, d := range ds {
			if d.ID == "d-3" {
				t.Errorf("the delivery for an unknown repository was kept for %s", id)
			}
		}
	}

	// Deleting the project deletes its deliveries and pull requests.
	_, err = db.DeleteProject(ctx, "acme/web", false)
	dCheck(t, err)
	var left int
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM hook_deliveries) + (SELECT count(*) FROM pull_requests)`).Scan(&left))
	if left != 0 {
		t.Errorf("%d delivery or pull request rows outlived their project", left)
	}
}

func TestHookDeliveriesKeptPerProject(t *testing.T) {
	ctx := context.Background()
	db, web, _ := hookDB(t)
	base := time.Unix(1_800_000_000, 0)
	for i := range keptHookDeliveries + 5 {
		_, err := db.ApplyHook(ctx, pullHook(fmt.Sprintf("d-%03d", i), "synchronize", "t", base.Add(time.Duration(i)*time.Second)), 204, 202)
		dCheck(t, err)
	}
	ds, err := db.HookDeliveries(ctx, web, 1000)
	dCheck(t, err)
	if len(ds) != keptHookDeliveries || ds[0].ID != fmt.Sprintf("d-%03d", keptHookDeliveries+4) {
		t.Errorf("%d kept, newest %q; want the last %d", len(ds), ds[0].ID, keptHookDeliveries)
	}
}

func TestHookInstallations(t *testing.T) {
	ctx := context.Background()
	db, web, _ := hookDB(t)
	at := time.Unix(1_800_000_100, 0)
	in := codehost.HookDelivery{ID: "i-1", Event: "installation", Action: "created", At: at,
		Installation: &codehost.Installation{ID: 99, Repositories: []string{"Acme/Web", "acme/other"}}}
	_, err := db.ApplyHook(ctx, in, 204, 202)
	dCheck(t, err)
	for _, repo := range []string{"acme/web", "ACME/OTHER"} {
		if id, found, err := db.GitHubInstallation(ctx, repo); err != nil || !found || id != 99 {
			t.Errorf("%s: %d %v %v, want installation 99", repo, id, found, err)
		}
	}
	if ds, _ := db.HookDeliveries(ctx, web, 10); len(ds) != 1 || ds[0].Event != "installation" {
		t.Errorf("the connected project's deliveries = %+v", ds)
	}
	// A repository removed from the installation: only it is dropped.
	removed := codehost.HookDelivery{ID: "i-r", Event: "installation_repositories", Action: "removed", At: at,
		Installation: &codehost.Installation{ID: 99, Deleted: true, Repositories: []string{"acme/other"}}}
	_, err = db.ApplyHook(ctx, removed, 204, 202)
	dCheck(t, err)
	if _, found, _ := db.GitHubInstallation(ctx, "acme/other"); found {
		t.Error("the removed repository kept its installation")
	}
	if _, found, _ := db.GitHubInstallation(ctx, "acme/web"); !found {
		t.Error("removing one repository dropped another")
	}
	// The uninstallation, naming no repository, drops them all.
	del := codehost.HookDelivery{ID: "i-2", Event: "installation", Action: "deleted", At: at,
		Installation: &codehost.Installation{ID: 99, Deleted: true, Uninstalled: true}}
	_, err = db.ApplyHook(ctx, del, 204, 202)
	dCheck(t, err)
	if _, found, _ := db.GitHubInstallation(ctx, "acme/web"); found {
		t.Error("the installation outlived its deletion")
	}
}

func TestCheckRunState(t *testing.T) {
	ctx := context.Background()
	db, web, _ := hookDB(t)
	sha := "0123456789abcdef0123456789abcdef01234567"
	if _, found, err := db.CheckRun(ctx, web, sha); err != nil || found {
		t.Fatalf("before: found %v, %v", found, err)
	}
	st := codehost.CheckState{RunID: 12, PullRequest: 7, Digest: "abc", Sent: 150}
	dCheck(t, db.PutCheckRun(ctx, web, sha, st, time.Unix(1_800_000_000, 0)))
	got, found, err := db.CheckRun(ctx, web, sha)
	if err != nil || !found || got != st {
		t.Fatalf("got %+v %v %v, want %+v", got, found, err, st)
	}
	runs, err := db.UnfinishedCheckRuns(ctx, 10)
	dCheck(t, err)
	if len(runs) != 1 || runs[0] != (plumb.UnfinishedCheckRun{ProjectID: web, HeadSHA: sha, PullRequest: 7}) {
		t.Errorf("unfinished runs %+v", runs)
	}
	st.Sent, st.Completed = 200, true
	dCheck(t, db.PutCheckRun(ctx, web, sha, st, time.Unix(1_800_000_001, 0)))
	if got, _, _ := db.CheckRun(ctx, web, sha); got != st {
		t.Errorf("after completion: %+v", got)
	}
	if runs, _ := db.UnfinishedCheckRuns(ctx, 10); len(runs) != 0 {
		t.Errorf("a completed run is listed unfinished: %+v", runs)
	}
}
