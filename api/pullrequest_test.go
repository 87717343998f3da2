package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Coverage uploads record their pull request; refs/pull/<n> resolves to the
// commit of the latest upload made for that pull request.
func TestCoverageOfPullRequests(t *testing.T) {
	w := newIngWorld(t)
	const (
		sha1 = "1111111111111111111111111111111111111111"
		sha2 = "2222222222222222222222222222222222222222"
		sha3 = "3333333333333333333333333333333333333333"
	)
	upload := func(sha, pr, tag, report string) {
		t.Helper()
		q := ingQuery("commitSha", sha, "branch", "feature", "coverageTag", tag, "pullRequestNumber", pr)
		w.postCoverage(t, w.Upload, q, nil, report).wantStatus(t, http.StatusCreated)
		w.Clock.Advance(time.Minute)
	}
	upload(sha1, "7", "unit", "SF:src/a.c\nDA:1,1\nDA:2,0\nend_of_record\n")
	upload(sha2, "7", "unit", "SF:src/a.c\nDA:1,1\nDA:2,3\nend_of_record\n")
	upload(sha3, "8", "unit", "SF:src/a.c\nDA:1,0\nend_of_record\n")
	// A second tag of PR 7's latest commit.
	upload(sha2, "7", "e2e", "SF:src/a.c\nDA:1,0\nDA:2,0\nDA:3,1\nend_of_record\n")

	read := func(ref string) (tags []string, hits map[string][]int64) {
		t.Helper()
		r := w.get(t, "/gh/acme/projects/web/coverage/file?path=src/a.c&reference="+ref, w.Alice).wantStatus(t, http.StatusOK)
		var body struct {
			Tags  []string
			Files []struct {
				Tag  string
				Hits []int64
			}
		}
		check(t, json.Unmarshal(r.Body, &body))
		hits = map[string][]int64{}
		for _, f := range body.Files {
			hits[f.Tag] = f.Hits
		}
		return body.Tags, hits
	}
	tags, hits := read("refs/pull/7")
	if strings.Join(tags, ",") != "e2e,unit" || mustJSON(hits) != mustJSON(map[string][]int64{"unit": {1, 3}, "e2e": {0, 0, 1}}) {
		t.Errorf("refs/pull/7: tags %v, hits %v; want PR 7's latest commit %s", tags, hits, sha2)
	}
	// The same commit through its SHA answers the same.
	if _, bySHA := read(sha2); mustJSON(bySHA) != mustJSON(hits) {
		t.Errorf("%s: %v, refs/pull/7: %v", sha2, bySHA, hits)
	}
	if _, hits := read("refs/pull/8"); mustJSON(hits) != mustJSON(map[string][]int64{"unit": {0}}) {
		t.Errorf("refs/pull/8: %v", hits)
	}
	// A newer upload for PR 7 moves the reference.
	upload(sha1, "7", "unit", "SF:src/a.c\nDA:1,5\nend_of_record\n")
	if _, hits := read("refs/pull/7"); mustJSON(hits) != mustJSON(map[string][]int64{"unit": {6, 0}}) {
		t.Errorf("refs/pull/7 after a newer upload of %s: %v", sha1, hits)
	}
	// Unknown pull requests and malformed numbers: 404.
	for _, ref := range []string{"refs/pull/9", "refs/pull/0", "refs/pull/-7", "refs/pull/07", "refs/pull/x"} {
		w.get(t, "/gh/acme/projects/web/coverage/file?path=src/a.c&reference="+ref, w.Alice).wantStatus(t, http.StatusNotFound)
	}
	// An upload without a pull request is not reachable through one.
	w.postCoverage(t, w.Upload, ingQuery("commitSha", "4444444444444444444444444444444444444444", "branch", "main"), nil, "SF:src/b.c\nDA:1,1\nend_of_record\n").
		wantStatus(t, http.StatusCreated)
	w.get(t, "/gh/acme/projects/web/coverage/file?path=src/b.c&reference=refs/pull/7", w.Alice).wantStatus(t, http.StatusNotFound)
	// The number is validated on upload.
	for _, bad := range []string{"0", "-1", "x", "1.5", "07"} {
		w.postCoverage(t, w.Upload, ingQuery("commitSha", sha1, "pullRequestNumber", bad), nil, "SF:src/a.c\nDA:1,1\nend_of_record\n").
			wantError(t, http.StatusBadRequest, "pullRequestNumber")
	}
	// Export and import keep the pull request numbers.
	var out strings.Builder
	check(t, w.DB.Export(t.Context(), &out))
	if !strings.Contains(out.String(), `"pullRequestNumber":7`) || !strings.Contains(out.String(), `"pullRequestNumber":8`) {
		t.Errorf("export lacks the pull request numbers")
	}
}
