package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// issueOf is an issue at line 3 of path.
func issueOf(fp, level, category, path string) plumb.Issue {
	line := 3
	return plumb.Issue{Fingerprint: fp, Tool: "lint", RuleKey: "R-" + fp, Message: "m " + fp, Category: category, Level: level, Path: path, StartLine: &line}
}

// headWithoutAnalysis: a base on main with coverage and an analysis of 3
// open issues, and a pull request's head with coverage and its change only
// (the GitHub Actions example of docs/pull-requests.md does no more).
func headWithoutAnalysis(t *testing.T) *world {
	t.Helper()
	w := newWorld(t)
	ctx := context.Background()
	w.projectAdmin(t, "acme/web", "alice")
	cov := func(sha, branch string, hits []int64) {
		_, err := w.DB.AddCoverage(ctx, plumb.CoverageInput{ProjectID: w.Web.ID, CommitSHA: sha, Branch: branch, CoverageTag: "unit", UploadedAt: w.Clock.Now(),
			Files: []plumb.CoverageFile{{Path: "a.go", Hits: hits}}})
		check(t, err)
	}
	cov(baseSHA, "main", []int64{1, 1, 1, 1})
	cov(headSHA, "feature", []int64{1, 1, 1, 0})
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: baseSHA, AnalyzedAt: t0, FullTree: true,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 4, LOC: 4}},
		Issues: []plumb.Issue{issueOf("fp1", "high", "bug", "a.go"), issueOf("fp2", "low", "lint", "a.go"),
			issueOf("fp3", "high", "vulnerability", "a.go")}})
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, jsonBody, `{"commitSha": "`+headSHA+`", "branch": "feature",
		"baseCommitSha": "`+baseSHA+`", "baseBranch": "main", "pullRequestNumber": 7,
		"files": [{"path": "a.go", "status": "modified", "addedLines": [[4, 4]]}]}`).wantStatus(t, 201)
	return w
}

// Issue 19 item 9: a head with coverage but no analysis does not fix every
// base issue. Its issue comparison has no data, in the JSON, the Markdown,
// the gate and the exports, until an analysis of the head arrives.
func TestCompareHeadWithoutAnalysis(t *testing.T) {
	w := headWithoutAnalysis(t)
	v := w.get(t, "/gh/acme/projects/web/pulls/7", w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(v["issues"])), `{"status": "no_data", "detail": "no analysis of the head commit yet", "new": null, "fixed": null, "unchanged": null}`)
	assertJSON(t, []byte(mustJSON(v["head"].(map[string]any)["analysis"])), `null`)
	gate := `{"status": "failed", "conditions": [
		{"condition": "patch_coverage", "status": "failed", "threshold": "≥ 80.00%", "actual": "0.00% (0 of 1 lines)", "advisory": false},
		{"condition": "coverage_drop", "status": "failed", "threshold": "≤ 1.00 points", "actual": "100.00% → 75.00%", "advisory": false},
		{"condition": "new_issues", "status": "no_data", "threshold": "≤ 0 of level high or worse", "actual": "no analysis of the head commit yet", "advisory": false},
		{"condition": "new_security_issues", "status": "no_data", "threshold": "≤ 0", "actual": "no analysis of the head commit yet", "advisory": false}]}`
	assertJSON(t, []byte(mustJSON(v["gate"])), gate)
	// The head's metrics: coverage only; the others are unknown, not 0.
	for _, m := range v["metrics"].(map[string]any)["project"].([]any) {
		m := m.(map[string]any)
		switch m["key"] {
		case "LCOV":
			if m["head"] != 75.0 || m["delta"] != -25.0 {
				t.Errorf("LCOV = %v", m)
			}
		case "ISS":
			if m["base"] != 3.0 || m["head"] != nil || m["delta"] != nil {
				t.Errorf("ISS = %v, want base 3, head and delta null", m)
			}
		default:
			if m["key"] != "COV" && (m["head"] != nil || m["delta"] != nil) {
				t.Errorf("%v without a head analysis = %v, want null", m["key"], m)
			}
		}
	}
	md := string(w.get(t, "/gh/acme/projects/web/pulls/7?format=markdown", w.Alice).wantStatus(t, 200).Body)
	for _, s := range []string{"| Issues | | | no data: no analysis of the head commit yet (compared once both commits have an analysis) |",
		"| new_issues | ≤ 0 of level high or worse | no analysis of the head commit yet | no_data |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	if strings.Contains(md, "fixed") {
		t.Errorf("markdown claims fixed issues:\n%s", md)
	}
	w.get(t, "/gh/acme/projects/web/pulls/7?issues=fixed", w.Alice, hdr("Accept", "text/csv")).
		wantError(t, 409, "not compared: no analysis of the head commit yet")
	w.get(t, "/gh/acme/projects/web/compare?head="+headSHA, w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, 409)
	g := w.get(t, "/ingest/gh/acme/projects/web/gate?head="+headSHA, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(g["conditions"])), mustJSON(v["gate"].(map[string]any)["conditions"]))

	// The head's analysis arrives: fp1 fixed, fp4 new, fp2 and fp3 unchanged.
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "feature", CommitSHA: headSHA, AnalyzedAt: t0.Add(3600e9),
		Files:  []plumb.FileFigures{{Path: "a.go", Lines: 4, LOC: 4}},
		Issues: []plumb.Issue{issueOf("fp2", "low", "lint", "a.go"), issueOf("fp3", "high", "vulnerability", "a.go"), issueOf("fp4", "low", "lint", "a.go")}})
	v = w.get(t, "/gh/acme/projects/web/pulls/7", w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	issues := v["issues"].(map[string]any)
	if issues["status"] != "compared" || issues["detail"] != nil || issues["new"].(map[string]any)["count"] != 1.0 ||
		issues["fixed"].(map[string]any)["count"] != 1.0 || issues["unchanged"].(map[string]any)["count"] != 2.0 {
		t.Errorf("issues after the head's analysis = %s", mustJSON(issues))
	}
	conds := v["gate"].(map[string]any)["conditions"].([]any)
	if c := conds[2].(map[string]any); c["status"] != "passed" || c["actual"] != "0" {
		t.Errorf("new_issues after the head's analysis = %v", c)
	}
	w.get(t, "/gh/acme/projects/web/pulls/7?issues=fixed", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, 200)
}

// Without an analysis of the base (a project whose default branch was never
// analysed), every head issue would look new: no data either.
func TestCompareBaseWithoutAnalysis(t *testing.T) {
	w := newWorld(t)
	w.projectAdmin(t, "acme/web", "alice")
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "feature", CommitSHA: headSHA, AnalyzedAt: t0,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 4, LOC: 4}}, Issues: []plumb.Issue{issueOf("fp1", "high", "bug", "a.go")}})
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "release", CommitSHA: baseSHA, AnalyzedAt: t0, Files: []plumb.FileFigures{{Path: "a.go", Lines: 4, LOC: 4}}})
	v := w.get(t, "/gh/acme/projects/web/compare?head="+headSHA+"&base="+baseSHA, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	if s := v["issues"].(map[string]any)["status"]; s != "compared" {
		t.Errorf("two analysed commits: issues %v", s)
	}
	const other = "c000000000000000000000000000000000000003"
	_, err := w.DB.AddCoverage(context.Background(), plumb.CoverageInput{ProjectID: w.Web.ID, CommitSHA: other, Branch: "main", UploadedAt: w.Clock.Now(),
		Files: []plumb.CoverageFile{{Path: "a.go", Hits: []int64{1}}}})
	check(t, err)
	v = w.get(t, "/gh/acme/projects/web/compare?head="+headSHA+"&base="+other, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(v["issues"])), `{"status": "no_data", "detail": "no analysis of the base commit", "new": null, "fixed": null, "unchanged": null}`)
	v = w.get(t, "/gh/acme/projects/web/compare?head="+other+"&base="+other, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(v["issues"].(map[string]any)["detail"])), `"no analysis of either commit"`)
}

// Issue 19 item 13: the metric deltas and the issue lists come from the same
// two snapshots by one rule (docs/pull-requests.md): each side's issue
// metrics count its open issues, so ISS's delta is new − fixed. The case
// that broke it: two new issues in a file the base does not have.
func TestCompareMetricsAgreeWithIssueLists(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.projectAdmin(t, "acme/web", "alice")
	_, err := w.DB.CreateComponent(ctx, plumb.Component{ProjectID: w.Web.ID, Name: "fresh", PathGlobs: []string{"b*"}, CreatorID: w.AliceToken.UserID})
	check(t, err)
	_, err = w.DB.CreateComponent(ctx, plumb.Component{ProjectID: w.Web.ID, Name: "old", PathGlobs: []string{"a.go"}, CreatorID: w.AliceToken.UserID})
	check(t, err)
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: baseSHA, AnalyzedAt: t0, FullTree: true,
		Files:  []plumb.FileFigures{{Path: "a.go", Lines: 100, LOC: 100}},
		Issues: []plumb.Issue{issueOf("fp1", "medium", "bug", "a.go"), issueOf("fp2", "low", "lint", "a.go")}})
	// A feature branch's head: b.go is new, with two new issues (one a
	// vulnerability); fp2 is fixed.
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "feature", CommitSHA: headSHA, AnalyzedAt: t0.Add(3600e9), FullTree: true,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 100, LOC: 100}, {Path: "b.go", Lines: 10, LOC: 10}},
		Issues: []plumb.Issue{issueOf("fp1", "medium", "bug", "a.go"),
			issueOf("fp5", "high", "vulnerability", "b.go"), issueOf("fp6", "low", "lint", "b.go")}})
	// The same change merged into main: a default-branch head.
	const mainHead = "d000000000000000000000000000000000000004"
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: mainHead, AnalyzedAt: t0.Add(7200e9), FullTree: true,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 100, LOC: 100}, {Path: "b.go", Lines: 10, LOC: 10}},
		Issues: []plumb.Issue{issueOf("fp1", "medium", "bug", "a.go"),
			issueOf("fp5", "high", "vulnerability", "b.go"), issueOf("fp6", "low", "lint", "b.go")}})

	for _, head := range []string{headSHA, mainHead} {
		v := w.get(t, "/gh/acme/projects/web/compare?base="+baseSHA+"&head="+head, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
		issues := v["issues"].(map[string]any)
		count := func(class string) float64 { return issues[class].(map[string]any)["count"].(float64) }
		if count("new") != 2 || count("fixed") != 1 {
			t.Fatalf("head %s: issues %s", head[:1], mustJSON(issues))
		}
		deltas := func(ms []any) map[string]string {
			out := map[string]string{}
			for _, m := range ms {
				m := m.(map[string]any)
				out[m["key"].(string)] = fmt.Sprintf("%v → %v (%v)", m["base"], m["head"], m["delta"])
			}
			return out
		}
		metrics := v["metrics"].(map[string]any)
		project := deltas(metrics["project"].([]any))
		// ISS 2 → 3: new − fixed = 2 − 1; SECI 0 → 1; SEC A → F (the
		// worst open security issue is high).
		want := map[string]string{"ISS": "2 → 3 (1)", "SECI": "0 → 1 (1)", "SEC": "A → F (4)"}
		for k, s := range want {
			if project[k] != s {
				t.Errorf("head %s: project %s = %s, want %s", head[:1], k, project[k], s)
			}
		}
		comps := metrics["components"].([]any)
		byName := map[string]map[string]string{}
		for _, c := range comps {
			c := c.(map[string]any)
			byName[c["name"].(string)] = deltas(c["metrics"].([]any))
		}
		if byName["fresh"]["ISS"] != "0 → 2 (2)" || byName["old"]["ISS"] != "2 → 1 (-1)" {
			t.Errorf("head %s: component ISS: fresh %s, old %s; want 0 → 2 (2), 2 → 1 (-1)", head[:1], byName["fresh"]["ISS"], byName["old"]["ISS"])
		}
	}
}
