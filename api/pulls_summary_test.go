package api_test

import (
	"context"
	"testing"
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
