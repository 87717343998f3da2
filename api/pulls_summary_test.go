package api_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/plumbhq/plumb/api"
)

// The comparisons of a pull request that the API makes (its page, the
// gate) keep the pull request's summary for the web's list; one for a
// single coverage tag does not.
func TestPullSummaryKeptByComparisons(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ path, oneTag string }{
		{"/gh/acme/projects/web/pulls/7", "/gh/acme/projects/web/pulls/7?coverageTag=unit"},
		{"/ingest/gh/acme/projects/web/gate?head=" + headSHA + "&pullRequestNumber=7", ""},
	} {
		w := compareFixture(t)
		kept := func(what string, want bool) {
			t.Helper()
			s, _, found, err := w.DB.CurrentPullSummary(ctx, w.Web.ID, 7, baseSHA, headSHA)
			if err != nil || found != want || found && (s.Gate != "failed" || s.Patch.Covered != 2 || s.Patch.Coverable != 5) {
				t.Fatalf("%s %s: %+v, found %v, %v", what, c.path, s, found, err)
			}
		}
		kept("before", false)
		if c.oneTag != "" {
			w.get(t, c.oneTag, w.Alice).wantStatus(t, 200)
			kept("one coverage tag", false)
		}
		w.get(t, c.path, w.Alice).wantStatus(t, 200)
		kept("after", true)
	}
}

// The code-host delivery after an upload keeps the pull request's summary
// too (for the head and the base its change names).
func TestPullSummaryKeptByCodeHostDelivery(t *testing.T) {
	w := compareFixture(t, withConfig(api.Config{BaseURL: "https://plumb.example.com/"}))
	srv := httptest.NewServer(&fakeGitLab{})
	defer srv.Close()
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, jsonBody, `{"kind": "gitlab", "repository": "acme/web", "token": "glpat-secret", "baseUrl": "`+srv.URL+`"}`).
		wantStatus(t, 200)
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, jsonBody, `{"commitSha": "`+headSHA+`", "branch": "feature",
		"baseBranch": "main", "pullRequestNumber": 8, "files": [{"path": "new.go", "status": "added", "addedLines": [[1, 1], [3, 3]]}]}`).
		wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()
	base, err := w.DB.ResolveCommit(context.Background(), w.Web.ID, "refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, found, err := w.DB.CurrentPullSummary(context.Background(), w.Web.ID, 8, base, headSHA)
	if err != nil || !found || s.Gate != "failed" || s.Patch.Covered != 1 || s.Patch.Coverable != 2 {
		t.Fatalf("after the delivery for !8: %+v, found %v, %v", s, found, err)
	}
}
