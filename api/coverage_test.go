package api_test

// File coverage over HTTP: reference resolution (branch, tag, SHA, prefix),
// the tags and files of the resolved commit, the line counts, and the merge
// of two uploads of one commit and tag.

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

const (
	mSha1 = "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	mSha2 = "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	mSha3 = "3333333ccccccccccccccccccccccccccccccccc"
	// Two commits sharing a 7-character prefix.
	mSha4 = "abcdef0111111111111111111111111111111111"
	mSha5 = "abcdef0222222222222222222222222222222222"
)

// mCoverageFixture uploads coverage to acme/web (Components not needed):
//   - sha1 on main: unit twice for src/a.go (merged), integration for
//     src/b.go only, e2e for other.go only, lint without files;
//   - sha2 on main, later: the branch's latest;
//   - sha3 on feature, tagged v1.0;
//   - sha4 and sha5 on old, sharing a prefix.
func mCoverageFixture(t *testing.T, w *mCast) {
	t.Helper()
	p := w.Web.ID
	up := func(sha, branch, gitTag, tag string, at time.Duration, files ...plumb.CoverageFile) {
		t.Helper()
		w.mCoverage(t, plumb.CoverageInput{ProjectID: p, CommitSHA: sha, Branch: branch, GitTag: gitTag, CoverageTag: tag,
			UploadedAt: t0.Add(at), Files: files})
	}
	up(mSha1, "main", "", "unit", -10*time.Hour,
		plumb.CoverageFile{Path: "src/a.go", Hits: []int64{-1, 0, 2, 0, -1}},
		plumb.CoverageFile{Path: "src/b.go", Hits: []int64{1, 1}})
	up(mSha1, "main", "", "unit", -9*time.Hour,
		plumb.CoverageFile{Path: "src/a.go", Hits: []int64{1, -1, 3, 0, -1, 4}})
	up(mSha1, "main", "", "integration", -8*time.Hour,
		plumb.CoverageFile{Path: "src/b.go", Hits: []int64{0, 0, 0}})
	up(mSha1, "main", "", "e2e", -7*time.Hour,
		plumb.CoverageFile{Path: "other.go", Hits: []int64{5}})
	up(mSha1, "main", "", "lint", -7*time.Hour) // a report without files
	up(mSha2, "main", "", "", -6*time.Hour,
		plumb.CoverageFile{Path: "src/a.go", Hits: []int64{7, 0}},
		plumb.CoverageFile{Path: "docs/über/ß m.go", Hits: []int64{-1, 1}})
	up(mSha3, "feature", "v1.0", "unit", -5*time.Hour,
		plumb.CoverageFile{Path: "src/a.go", Hits: []int64{0, 0, 0}})
	up(mSha4, "old", "", "unit", -20*time.Hour, plumb.CoverageFile{Path: "src/a.go", Hits: []int64{1}})
	up(mSha5, "old", "", "unit", -21*time.Hour, plumb.CoverageFile{Path: "src/a.go", Hits: []int64{0}})
}

func mCoverageURL(ref, path string) string {
	return "/gh/acme/projects/web/coverage/file?reference=" + url.QueryEscape(ref) + "&path=" + url.QueryEscape(path)
}

// mEntry is one expected file coverage entry.
func mEntry(path, tag string, hits []int64, covered, missed, omit int) map[string]any {
	return map[string]any{"path": path, "hits": hits, "tag": tag, "coveredLines": covered, "missedLines": missed,
		"omitLines": omit, "totalLines": len(hits)}
}

func mCoverageBody(tags []string, files ...map[string]any) string {
	if files == nil {
		files = []map[string]any{}
	}
	return mustJSON(map[string]any{"tags": tags, "files": files})
}

func TestFileCoverage(t *testing.T) {
	w := mNewCast(t)
	mCoverageFixture(t, w)
	sha1Tags := []string{"e2e", "integration", "lint", "unit"}
	// The two unit uploads merge line by line: hits add up, a line
	// coverable in one report is coverable: [1, 0, 5, 0, -1, 4].
	sha1A := mCoverageBody(sha1Tags, mEntry("src/a.go", "unit", []int64{1, 0, 5, 0, -1, 4}, 3, 2, 1))
	cases := []struct {
		name, ref, path, want string
	}{
		{"full SHA", mSha1, "src/a.go", sha1A},
		{"7-character prefix", mSha1[:7], "src/a.go", sha1A},
		{"upper-case prefix", strings.ToUpper(mSha1[:10]), "src/a.go", sha1A},
		// Each tag covering the path has an entry; tags lists them all.
		{"two tags", mSha1, "src/b.go", mCoverageBody(sha1Tags,
			mEntry("src/b.go", "integration", []int64{0, 0, 0}, 0, 3, 0),
			mEntry("src/b.go", "unit", []int64{1, 1}, 2, 0, 0))},
		{"a tag alone", mSha1, "other.go", mCoverageBody(sha1Tags, mEntry("other.go", "e2e", []int64{5}, 1, 0, 0))},
		// A branch: the commit of its most recent upload.
		{"branch", "refs/heads/main", "src/a.go", mCoverageBody([]string{"default"}, mEntry("src/a.go", "default", []int64{7, 0}, 1, 1, 0))},
		{"branch, non-ASCII path", "refs/heads/main", "docs/über/ß m.go", mCoverageBody([]string{"default"}, mEntry("docs/über/ß m.go", "default", []int64{-1, 1}, 1, 0, 1))},
		{"feature branch", "refs/heads/feature", "src/a.go", mCoverageBody([]string{"unit"}, mEntry("src/a.go", "unit", []int64{0, 0, 0}, 0, 3, 0))},
		{"tag", "refs/tags/v1.0", "src/a.go", mCoverageBody([]string{"unit"}, mEntry("src/a.go", "unit", []int64{0, 0, 0}, 0, 3, 0))},
		{"branch, older commit", "refs/heads/old", "src/a.go", mCoverageBody([]string{"unit"}, mEntry("src/a.go", "unit", []int64{1}, 1, 0, 0))},
		{"8-character prefix", mSha5[:8], "src/a.go", mCoverageBody([]string{"unit"}, mEntry("src/a.go", "unit", []int64{0}, 0, 1, 0))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.get(t, mCoverageURL(c.ref, c.path), w.Alice).wantJSON(t, http.StatusOK, c.want)
		})
	}

	notFound := []struct{ name, ref, path string }{
		{"ambiguous prefix", mSha4[:7], "src/a.go"},
		{"unknown SHA", "0000000000000000000000000000000000000000", "src/a.go"},
		{"unknown prefix", "fedcba9", "src/a.go"},
		{"prefix too short", mSha1[:6], "src/a.go"},
		{"not hex", "main", "src/a.go"},
		{"unknown branch", "refs/heads/nope", "src/a.go"},
		{"unknown tag", "refs/tags/v9", "src/a.go"},
		{"a branch name as a tag", "refs/tags/main", "src/a.go"},
		{"path not covered at the commit", mSha1, "src/c.go"},
		{"path covered at another commit only", "refs/heads/main", "src/b.go"},
		{"directory", mSha1, "src"},
	}
	for _, c := range notFound {
		t.Run(c.name, func(t *testing.T) {
			w.get(t, mCoverageURL(c.ref, c.path), w.Alice).wantStatus(t, http.StatusNotFound)
		})
	}

	// Both parameters are required and non-empty; each missing one is named.
	base := "/gh/acme/projects/web/coverage/file"
	w.get(t, base, w.Alice).wantError(t, http.StatusBadRequest, "reference", "path")
	w.get(t, base+"?path=src/a.go", w.Alice).wantError(t, http.StatusBadRequest, "reference")
	w.get(t, base+"?reference="+mSha1, w.Alice).wantError(t, http.StatusBadRequest, "path")
	w.get(t, base+"?reference=&path=", w.Alice).wantError(t, http.StatusBadRequest, "reference", "path")
	// Visibility and formats.
	w.get(t, mCoverageURL(mSha1, "src/a.go"), w.Bob).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/acme/projects/api/coverage/file?reference="+mSha1+"&path=src/a.go", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, mCoverageURL(mSha1, "src/a.go"), "").wantStatus(t, http.StatusUnauthorized)
	w.get(t, mCoverageURL(mSha1, "src/a.go"), w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
}

// A third upload of the same commit and tag merges too; a later upload on
// the branch moves refs/heads to its commit.
func TestFileCoverageMergeAndBranchMoves(t *testing.T) {
	w := mNewCast(t)
	mCoverageFixture(t, w)
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Web.ID, CommitSHA: mSha1, Branch: "main", CoverageTag: "unit", UploadedAt: t0.Add(-time.Hour),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{-1, -1, -1, 2}}}})
	w.get(t, mCoverageURL("refs/heads/main", "src/a.go"), w.Alice).wantJSON(t, http.StatusOK,
		mCoverageBody([]string{"e2e", "integration", "lint", "unit"}, mEntry("src/a.go", "unit", []int64{1, 0, 5, 2, -1, 4}, 4, 1, 1)))
	// The SHA may be sent in upper case.
	w.get(t, mCoverageURL(strings.ToUpper(mSha2), "src/a.go"), w.Alice).wantStatus(t, http.StatusOK)
}
