package api_test

// Component metrics and file metrics over HTTP: the twelve values computed by
// hand for a small fixture (the worked example of docs/metrics.md), from the
// latest default-branch analysis and the latest default-branch coverage.

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// mContractMetrics is the contract's table of the twelve metrics, in order.
var mContractMetrics = []struct {
	key, category string
	inverted      bool
	valueType     string
}{
	{"CMPLX", "maintainability", true, "number"},
	{"DUP", "maintainability", true, "percentage"},
	{"MNT", "maintainability", true, "grade"},
	{"SEC", "security", true, "grade"},
	{"SIZE", "size", false, "size"},
	{"ISS", "quality", true, "number"},
	{"SECI", "security", true, "number"},
	{"TDR", "maintainability", true, "percentage"},
	{"FILES", "size", false, "number"},
	{"LOC", "size", false, "number"},
	{"COV", "coverage", true, "grade"},
	{"LCOV", "coverage", false, "percentage"},
}

// mValues builds the expected component metric values body from key → value,
// with the descriptors of the catalogue.
func mValues(values map[string]any) string { return mValuesIn(metric.ScopeComponent, values) }

// mValuesIn builds the expected metric values body of a scope.
func mValuesIn(scope metric.Scope, values map[string]any) string {
	var data []map[string]any
	for _, d := range metric.Catalogue(scope) {
		v, ok := values[d.Key]
		if !ok {
			panic("no expected value for " + d.Key)
		}
		data = append(data, map[string]any{"key": d.Key, "name": d.Name, "description": d.Description,
			"category": d.Category, "value": v, "inverted": d.Inverted, "valueType": d.ValueType})
	}
	return mustJSON(map[string]any{"data": data})
}

// mMetricValues reads GET <path>/metrics as key → value, checking that the
// twelve keys come once each in the contract's order with the catalogue's
// descriptors.
func mMetricValues(t testing.TB, ts *testServer, path, token string) map[string]any {
	t.Helper()
	return mCheckValues(t, ts.get(t, path+"/metrics", token).wantStatus(t, http.StatusOK))
}

func mCheckValues(t testing.TB, r *resp) map[string]any {
	t.Helper()
	var body struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("metric values: %v: %s", err, r)
	}
	if len(body.Data) != len(mContractMetrics) {
		t.Fatalf("%d metric values, want 12: %s", len(body.Data), r)
	}
	// The scope is the one whose SIZE name the response carries.
	var cat []metric.Definition
	for _, sc := range []metric.Scope{metric.ScopeFile, metric.ScopeComponent, metric.ScopeProject} {
		if d, _ := metric.Lookup(metric.KeySize, sc); body.Data[4]["name"] == d.Name {
			cat = metric.Catalogue(sc)
		}
	}
	if cat == nil {
		t.Fatalf("SIZE is named %v, the name of no scope: %s", body.Data[4]["name"], r)
	}
	out := map[string]any{}
	for i, v := range body.Data {
		c, d := mContractMetrics[i], cat[i]
		if v["key"] != c.key || v["category"] != c.category || v["inverted"] != c.inverted || v["valueType"] != c.valueType ||
			v["name"] != d.Name || v["description"] != d.Description || len(v) != 7 {
			t.Errorf("metric value %d is %v, want key %s, category %s, inverted %v, name %q and the catalogue's description",
				i, v, c.key, c.category, c.inverted, d.Name)
		}
		out[v["key"].(string)] = v["value"]
	}
	return out
}

// mHits is a file's hits: covered lines hit twice, then missed, then omitted.
func mHits(covered, missed, omitted int) []int64 {
	var h []int64
	for i := 0; i < omitted; i++ {
		h = append(h, -1)
	}
	for i := 0; i < covered; i++ {
		h = append(h, 2)
	}
	for i := 0; i < missed; i++ {
		h = append(h, 0)
	}
	return h
}

const (
	mShaC1 = "c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1"
	mShaC2 = "c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2"
)

// mWorkedExample stores the worked example of docs/metrics.md in project p:
// src/a.go and src/b.go (with their issues and 120 of 160 lines covered),
// plus files and issues that must not count.
func mWorkedExample(t *testing.T, ts *testServer, p plumb.Project) {
	t.Helper()
	ignored := mIssue("f3", "src/a.go", "vulnerability", "high")
	ignored.Status = "ignored"
	ts.mSnapshot(t, p, t0.Add(-96*time.Hour), plumb.SnapshotInput{CommitSHA: "c0", Files: []plumb.FileFigures{
		mFile("src/a.go", 200, 150, 12, 20), mFile("src/old.go", 10, 10, 10, 0),
	}})
	ts.mSnapshot(t, p, t0.Add(-72*time.Hour), plumb.SnapshotInput{CommitSHA: mShaC1, Files: []plumb.FileFigures{
		mFile("src/b.go", 100, 50, 3, 5), mFile("lib/other.go", 50, 40, 7, 0), mFile("docs/über/ß m.md", 7, 0, 0, 0),
	}, Removed: []string{"src/old.go"}, Issues: []plumb.Issue{
		mIssue("f1", "src/a.go", "vulnerability", "high"),
		mIssue("f2", "src/a.go", "style", "low"),
		ignored,
		mIssue("f4", "src/b.go", "secret", "note"),
		mIssue("f5", "src/b.go", "style", "fmt"),
		mIssue("f6", "src/b.go", "style", "fmt"),
		mIssue("f7", "lib/other.go", "secret", "high"),
		mIssue("f8", "src/old.go", "vulnerability", "high"), // not a file any more
	}})
	ts.mCoverage(t, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: mShaC1, Branch: "main", CoverageTag: "unit", UploadedAt: t0.Add(-71 * time.Hour),
		Files: []plumb.CoverageFile{
			{Path: "src/a.go", Hits: mHits(80, 20, 5)},
			{Path: "src/b.go", Hits: mHits(20, 40, 3)},
			{Path: "lib/other.go", Hits: mHits(1, 30, 0)},
		}})
	// A second tag of the same commit: the union over tags counts.
	ts.mCoverage(t, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: mShaC1, Branch: "main", CoverageTag: "integration", UploadedAt: t0.Add(-70 * time.Hour),
		Files: []plumb.CoverageFile{{Path: "src/b.go", Hits: append(mHits(0, 20, 3), mHits(20, 20, 0)...)}}})
}

// The worked example: a = high vulnerability + low style, b = note secret +
// 2 fmt style; 120 of 160 lines covered.
var mWorkedValues = map[string]any{
	"CMPLX": 15, "DUP": 8.33, "MNT": "A", "SEC": "F", "SIZE": "XS", "ISS": 5, "SECI": 2, "TDR": 1.4,
	"FILES": 2, "LOC": 200, "COV": "B", "LCOV": 75,
}

func TestComponentMetrics(t *testing.T) {
	w := mNewCast(t)
	// Created before the analyses (incremental) and after (backfill).
	w.mCreate(t, mCore, w.Carol, "src", "src/*")
	mWorkedExample(t, w.testServer, w.Core)
	w.mCreate(t, mCore, w.Carol, "late-src", "src/*")
	w.mCreate(t, mCore, w.Carol, "b", "src/b.go")
	w.mCreate(t, mCore, w.Carol, "empty", "nothing/*")

	for _, name := range []string{"src", "late-src", "SRC"} {
		r := w.get(t, mCore+"/components/"+name+"/metrics", w.Alice)
		r.wantJSON(t, http.StatusOK, mValues(mWorkedValues))
		mCheckValues(t, r)
	}
	// Without file a, the worst security issue is the note secret: SEC B.
	// TDR = 100 × 9 ÷ (50 × 30) = 0.6; LCOV = 40 of 60 = 66.67, COV C.
	bValues := map[string]any{
		"CMPLX": 3, "DUP": 5, "MNT": "A", "SEC": "B", "SIZE": "XS", "ISS": 3, "SECI": 1, "TDR": 0.6,
		"FILES": 1, "LOC": 50, "COV": "C", "LCOV": 66.67,
	}
	w.get(t, mCore+"/components/b/metrics", w.Alice).wantJSON(t, http.StatusOK, mValues(bValues))
	zero := map[string]any{
		"CMPLX": 0, "DUP": 0, "MNT": "A", "SEC": "A", "SIZE": "XS", "ISS": 0, "SECI": 0, "TDR": 0,
		"FILES": 0, "LOC": 0, "COV": "F", "LCOV": 0,
	}
	w.get(t, mCore+"/components/empty/metrics", w.Alice).wantJSON(t, http.StatusOK, mValues(zero))

	// None of these change the latest values: a newer feature-branch
	// analysis, an older default-branch analysis arriving late, feature-branch
	// coverage, and an older default-branch coverage upload arriving late.
	w.mSnapshot(t, w.Core, t0.Add(-time.Hour), plumb.SnapshotInput{Branch: "feature", FullTree: true,
		Files: []plumb.FileFigures{mFile("src/a.go", 1, 1, 1, 1)}, Issues: []plumb.Issue{mIssue("f9", "src/a.go", "bug", "high")}})
	w.mSnapshot(t, w.Core, t0.Add(-200*time.Hour), plumb.SnapshotInput{FullTree: true, Files: []plumb.FileFigures{mFile("src/z.go", 9, 9, 9, 9)}})
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "f0f0f0f0f0f0f0f0", Branch: "feature", UploadedAt: t0.Add(-time.Hour),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: mHits(1, 0, 0)}}})
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "c0c0c0c0c0", Branch: "main", UploadedAt: t0.Add(-100 * time.Hour),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: mHits(1, 0, 0)}}})
	w.get(t, mCore+"/components/src/metrics", w.Alice).wantJSON(t, http.StatusOK, mValues(mWorkedValues))
	w.get(t, mCore+"/components/late-src/metrics", w.Alice).wantJSON(t, http.StatusOK, mValues(mWorkedValues))

	// A newer default-branch coverage upload replaces the coverage: 1 of 3
	// covered is 33.33.
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: mShaC2, Branch: "main", UploadedAt: t0.Add(-30 * time.Minute),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{0, -1, 5, 0}}}})
	got := mMetricValues(t, w.testServer, mCore+"/components/src", w.Alice)
	if got["LCOV"] != 33.33 || got["COV"] != "F" {
		t.Errorf("after a newer default-branch upload: LCOV %v, COV %v; want 33.33 and F", got["LCOV"], got["COV"])
	}
	// The same commit reached by a tag only (no branch) merges into that
	// commit's coverage: [0,-1,5,0] + [3,0,0,0] = [3,0,5,0], 2 of 4.
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: mShaC2, GitTag: "v2", UploadedAt: t0.Add(-25 * time.Minute),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{3, 0, 0, 0}}}})
	got = mMetricValues(t, w.testServer, mCore+"/components/src", w.Alice)
	if got["LCOV"] != 50.0 || got["COV"] != "D" {
		t.Errorf("after a tag-only upload of the latest commit: LCOV %v, COV %v; want 50 and D", got["LCOV"], got["COV"])
	}
	if f := mCheckValues(t, w.get(t, "/gh/acme/projects/core/files?path=src/a.go", w.Alice).wantStatus(t, http.StatusOK)); f["LCOV"] != 50.0 {
		t.Errorf("file metrics after a tag-only upload: LCOV %v, want 50", f["LCOV"])
	}
	// A newer default-branch analysis replaces the figures and the issues:
	// a's issues are gone, a new medium secret on b makes SEC D.
	w.mSnapshot(t, w.Core, t0.Add(-20*time.Minute), plumb.SnapshotInput{Files: []plumb.FileFigures{mFile("src/a.go", 100, 100, 1, 0)},
		Issues: []plumb.Issue{mIssue("f1", "src/b.go", "secret", "medium")}})
	got = mMetricValues(t, w.testServer, mCore+"/components/src", w.Alice)
	want := map[string]any{"CMPLX": 4.0, "SIZE": "XS", "ISS": 1.0, "SECI": 1.0, "SEC": "D", "FILES": 2.0, "LOC": 150.0, "TDR": 0.67, "DUP": 2.5}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("after a newer analysis: %s = %v, want %v", k, got[k], v)
		}
	}
}

// A high technical debt ratio shows as the matching grade; the grade comes
// from the rounded TDR.
func TestComponentMetricsRatings(t *testing.T) {
	w := mNewCast(t)
	w.mCreate(t, mCore, w.Carol, "all", "*")
	// 1 line of code, 30 minutes per line: each high issue (60 min) is 200 %.
	w.mSnapshot(t, w.Core, t0.Add(-time.Hour), plumb.SnapshotInput{Files: []plumb.FileFigures{mFile("a.go", 1, 1, 0, 0)},
		Issues: []plumb.Issue{mIssue("x", "a.go", "dependency_alert", "low")}})
	got := mMetricValues(t, w.testServer, mCore+"/components/all", w.Alice)
	// 15 minutes ÷ 30 = 50 % → D; a low security issue → C.
	if got["TDR"] != 50.0 || got["MNT"] != "D" || got["SEC"] != "C" || got["SECI"] != 1.0 {
		t.Errorf("TDR %v MNT %v SEC %v SECI %v; want 50, D, C, 1", got["TDR"], got["MNT"], got["SEC"], got["SECI"])
	}
	w.mSnapshot(t, w.Core, t0.Add(-time.Minute), plumb.SnapshotInput{
		Issues: []plumb.Issue{mIssue("y", "a.go", "security_hotspot", "fmt"), mIssue("z", "a.go", "bug", "fmt")}})
	got = mMetricValues(t, w.testServer, mCore+"/components/all", w.Alice)
	// 4 minutes ÷ 30 = 13.33 % → C; a fmt security issue → B; the bug is not a security issue.
	if got["TDR"] != 13.33 || got["MNT"] != "C" || got["SEC"] != "B" || got["SECI"] != 1.0 || got["ISS"] != 2.0 {
		t.Errorf("TDR %v MNT %v SEC %v SECI %v ISS %v; want 13.33, C, B, 1, 2", got["TDR"], got["MNT"], got["SEC"], got["SECI"], got["ISS"])
	}
	// Halves round away from zero: 1 of 32 lines duplicated is 3.125 %, and
	// 15 minutes for 16 lines of code is 3.125 %: both 3.13.
	w.mCreate(t, mCore, w.Carol, "half", "h.go")
	w.mSnapshot(t, w.Core, t0, plumb.SnapshotInput{Files: []plumb.FileFigures{mFile("h.go", 32, 16, 0, 1)},
		Issues: []plumb.Issue{mIssue("h", "h.go", "style", "low")}})
	got = mMetricValues(t, w.testServer, mCore+"/components/half", w.Alice)
	if got["DUP"] != 3.13 || got["TDR"] != 3.13 || got["MNT"] != "A" {
		t.Errorf("DUP %v TDR %v MNT %v; want 3.13, 3.13, A", got["DUP"], got["TDR"], got["MNT"])
	}
}

func TestFileMetrics(t *testing.T) {
	w := mNewCast(t)
	// File metrics need no Components: acme/web has them disabled.
	mWorkedExample(t, w.testServer, w.Web)
	w.mSnapshot(t, w.Web, t0.Add(-time.Hour), plumb.SnapshotInput{Branch: "feature", Files: []plumb.FileFigures{mFile("feature-only.go", 5, 5, 5, 5)}})
	files := "/gh/acme/projects/web/files?path="
	// a: TDR = 100 × 75 ÷ (150 × 30) = 1.67; LCOV 80 of 100, COV B; 150
	// lines of code in one file: S.
	w.get(t, files+"src/a.go", w.Alice).wantJSON(t, http.StatusOK, mValuesIn(metric.ScopeFile, map[string]any{
		"CMPLX": 12, "DUP": 10, "MNT": "A", "SEC": "F", "SIZE": "S", "ISS": 2, "SECI": 1, "TDR": 1.67,
		"FILES": 1, "LOC": 150, "COV": "B", "LCOV": 80,
	}))
	// b: the union of two tags: 40 of 60.
	w.get(t, files+"src/b.go", w.Alice).wantJSON(t, http.StatusOK, mValuesIn(metric.ScopeFile, map[string]any{
		"CMPLX": 3, "DUP": 5, "MNT": "A", "SEC": "B", "SIZE": "XS", "ISS": 3, "SECI": 1, "TDR": 0.6,
		"FILES": 1, "LOC": 50, "COV": "C", "LCOV": 66.67,
	}))
	// Spaces and non-ASCII; no coverage.
	w.get(t, files+url.QueryEscape("docs/über/ß m.md"), w.Alice).wantJSON(t, http.StatusOK, mValuesIn(metric.ScopeFile, map[string]any{
		"CMPLX": 0, "DUP": 0, "MNT": "A", "SEC": "A", "SIZE": "XS", "ISS": 0, "SECI": 0, "TDR": 0,
		"FILES": 1, "LOC": 0, "COV": "F", "LCOV": 0,
	}))
	mCheckValues(t, w.get(t, files+"lib/other.go", w.Alice).wantStatus(t, http.StatusOK))

	// Not a file of the latest default-branch analysis: 404.
	for _, p := range []string{"src", "src/", "src/old.go", "feature-only.go", "nope.go", "SRC/A.GO", "docs/uber/ß m.md"} {
		w.get(t, files+url.QueryEscape(p), w.Alice).wantError(t, http.StatusNotFound, p)
	}
	// The path is required.
	w.get(t, "/gh/acme/projects/web/files", w.Alice).wantError(t, http.StatusBadRequest, "path")
	w.get(t, files, w.Alice).wantError(t, http.StatusBadRequest, "path")
	// Visibility.
	w.get(t, files+"src/a.go", w.Bob).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/acme/projects/nope/files?path=src/a.go", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, files+"src/a.go", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
	// A project without analyses has no files.
	w.get(t, "/gh/acme/projects/api/files?path=src/a.go", w.Alice).wantStatus(t, http.StatusNotFound)
}
