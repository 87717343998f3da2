package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

const (
	baseSHA = "b000000000000000000000000000000000000001"
	headSHA = "e000000000000000000000000000000000000002"
)

// compareFixture: a base on main and a head on a feature branch, with
// coverage under two tags on the base and one on the head (the other is
// carried forward), analyses with issues, a component, and the head's change
// uploaded as CI sends it.
func compareFixture(t *testing.T, opts ...serverOption) *world {
	t.Helper()
	w := newWorld(t, opts...)
	ctx := context.Background()
	w.projectAdmin(t, "acme/web", "alice")
	_, err := w.DB.CreateComponent(ctx, plumb.Component{ProjectID: w.Web.ID, Name: "core", PathGlobs: []string{"a.go"}, CreatorID: w.AliceToken.UserID})
	check(t, err)
	cov := func(sha, branch, tag string, files map[string][]int64) {
		in := plumb.CoverageInput{ProjectID: w.Web.ID, CommitSHA: sha, Branch: branch, CoverageTag: tag, UploadedAt: w.Clock.Now()}
		for p, h := range files {
			in.Files = append(in.Files, plumb.CoverageFile{Path: p, Hits: h})
		}
		_, err := w.DB.AddCoverage(ctx, in)
		check(t, err)
	}
	cov(baseSHA, "main", "unit", map[string][]int64{"a.go": {1, 1, 0, 1}, "old.go": {1, 0, 1}, "gone.go": {1, 1}})
	cov(baseSHA, "main", "integration", map[string][]int64{"a.go": {-1, 1, -1, -1, -1}})
	cov(headSHA, "feature", "unit", map[string][]int64{"a.go": {1, 0, 0, 1, 0}, "new.go": {0, 1, 1}})
	line := func(n int) *int { return &n }
	issue := func(fp, level, category, path string) plumb.Issue {
		return plumb.Issue{Fingerprint: fp, Tool: "lint", RuleKey: "R-" + fp, Message: "m " + fp, Category: category, Level: level, Path: path, StartLine: line(3)}
	}
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: baseSHA, AnalyzedAt: t0, FullTree: true,
		Files:  []plumb.FileFigures{{Path: "a.go", Lines: 5, LOC: 4, Complexity: 2}, {Path: "old.go", Lines: 3, LOC: 3}, {Path: "gone.go", Lines: 2, LOC: 2}},
		Issues: []plumb.Issue{issue("fp1", "high", "bug", "a.go"), issue("fp2", "low", "lint", "a.go")}})
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "feature", CommitSHA: headSHA, AnalyzedAt: t0.Add(3600e9),
		Files:  []plumb.FileFigures{{Path: "a.go", Lines: 5, LOC: 5}},
		Issues: []plumb.Issue{issue("fp2", "low", "lint", "a.go"), issue("fp3", "high", "vulnerability", "a.go"), issue("fp4", "medium", "lint", "a.go")}})
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, hdr("Content-Type", "application/json"), `{
		"commitSha": "`+headSHA+`", "branch": "feature", "baseCommitSha": "`+baseSHA+`", "baseBranch": "main", "pullRequestNumber": 7,
		"files": [
			{"path": "a.go", "status": "modified", "addedLines": [[2, 3], [5, 5]]},
			{"path": "new.go", "previousPath": "old.go", "status": "renamed", "addedLines": [[3, 3], [1, 1]]},
			{"path": "gone.go", "status": "deleted"},
			{"path": "docs.md", "status": "added", "addedLines": [[1, 4]]}
		]}`).wantJSON(t, 201, `{"commitSha": "`+headSHA+`", "files": 4, "changedLines": 9}`)
	return w
}

// The figures, by hand:
//   - base total: per file the union of unit and integration: a.go
//     [1,1,0,1,-1] 3/4, old.go 2/3, gone.go 2/2 → 7/9 = 77.78 %.
//   - head: unit, plus integration carried forward from the base: a.go
//     [1,1,0,1,0] 3/5, new.go 2/3 → 5/8 = 62.5 %; delta −15.28.
//   - patch: a.go lines 2 (covered by the carried integration), 3 and 5
//     missed → 1/3, uncovered 3 and 5; new.go 1 missed, 3 covered → 1/2;
//     docs.md has no coverage; gone.go deleted → 2/5 = 40 %.
//   - issues: new fp3, fp4; fixed fp1; unchanged fp2.
//   - metrics (head on another branch: the base's files with the head's
//     issues): ISS 2 → 3, SECI 0 → 1; FILES stays 3.
func TestCompare(t *testing.T) {
	w := compareFixture(t)
	r := w.get(t, "/gh/acme/projects/web/compare?base=refs/heads/main&head="+headSHA[:10], w.Alice).wantStatus(t, 200)
	v := r.json(t).(map[string]any)
	want := `{
		"commitSha": "` + baseSHA + `", "coverage": {"covered": 7, "coverable": 9, "percent": 77.78},
		"coverageTags": ["integration", "unit"], "carriedForwardTags": [],
		"analysis": {"snapshotId": "` + v["base"].(map[string]any)["analysis"].(map[string]any)["snapshotId"].(string) + `", "branch": "main", "analyzedAt": "2026-03-02T10:00:00Z"}}`
	assertJSON(t, []byte(mustJSON(v["base"])), want)
	head := v["head"].(map[string]any)
	assertJSON(t, []byte(mustJSON(head["coverage"])), `{"covered": 5, "coverable": 8, "percent": 62.5}`)
	assertJSON(t, []byte(mustJSON(head["carriedForwardTags"])), `["integration"]`)
	assertJSON(t, []byte(mustJSON(v["coverageDelta"])), `-15.28`)
	assertJSON(t, []byte(mustJSON(v["patch"])), `{"changedFiles": 3, "changedLines": 9, "covered": 2, "coverable": 5, "percent": 40, "files": [
		{"path": "a.go", "previousPath": null, "status": "modified", "hasCoverage": true, "covered": 1, "coverable": 3, "percent": 33.33, "uncoveredLines": [[3, 3], [5, 5]]},
		{"path": "docs.md", "previousPath": null, "status": "added", "hasCoverage": false, "covered": 0, "coverable": 0, "percent": null, "uncoveredLines": []},
		{"path": "new.go", "previousPath": "old.go", "status": "renamed", "hasCoverage": true, "covered": 1, "coverable": 2, "percent": 50, "uncoveredLines": [[1, 1]]}]}`)
	issues := v["issues"].(map[string]any)
	fps := func(class string) string {
		var out []string
		for _, is := range issues[class].(map[string]any)["data"].([]any) {
			out = append(out, is.(map[string]any)["fingerprint"].(string))
		}
		return strings.Join(out, ",")
	}
	if fps("new") != "fp3,fp4" || fps("fixed") != "fp1" || issues["unchanged"].(map[string]any)["count"].(float64) != 1 {
		t.Errorf("issues = %s", mustJSON(issues))
	}
	metrics := map[string][2]any{}
	for _, m := range v["metrics"].(map[string]any)["project"].([]any) {
		m := m.(map[string]any)
		metrics[m["key"].(string)] = [2]any{m["base"], m["head"]}
	}
	for key, want := range map[string][2]any{"ISS": {2.0, 3.0}, "SECI": {0.0, 1.0}, "FILES": {3.0, 3.0}, "LCOV": {77.78, 62.5}} {
		if metrics[key] != want {
			t.Errorf("metric %s = %v, want %v", key, metrics[key], want)
		}
	}
	comps := v["metrics"].(map[string]any)["components"].([]any)
	if len(comps) != 1 || comps[0].(map[string]any)["name"] != "core" {
		t.Fatalf("components = %s", mustJSON(comps))
	}

	// The issue list's filters apply.
	r = w.get(t, "/gh/acme/projects/web/compare?base="+baseSHA+"&head="+headSHA+"&level=high", w.Alice).wantStatus(t, 200)
	issues = r.json(t).(map[string]any)["issues"].(map[string]any)
	if fps("new") != "fp3" || fps("fixed") != "fp1" {
		t.Errorf("level=high issues = %s", mustJSON(issues))
	}
	// One coverage tag: no carry-forward of the other.
	r = w.get(t, "/gh/acme/projects/web/compare?base="+baseSHA+"&head="+headSHA+"&coverageTag=unit", w.Alice).wantStatus(t, 200)
	v = r.json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(v["patch"].(map[string]any)["percent"])), `20`) // a.go 0/3, new.go 1/2
	assertJSON(t, []byte(mustJSON(v["head"].(map[string]any)["carriedForwardTags"])), `[]`)
}

// A comparison keeps the coverage sums of a head off the default branch
// (the whole project, each component) for the next one, and sums again when
// the head gets another report, or a component changes.
func TestCompareKeptCoverage(t *testing.T) {
	w := compareFixture(t)
	ctx := context.Background()
	read := func() (project, core any) {
		t.Helper()
		w.Clock.Advance(2e9) // kept sums are dated; the next read is later
		v := w.get(t, "/gh/acme/projects/web/compare?base="+baseSHA+"&head="+headSHA, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
		lcov := func(ms []any) any {
			for _, m := range ms {
				if m := m.(map[string]any); m["key"] == "LCOV" {
					return m["head"]
				}
			}
			t.Fatal("no LCOV")
			return nil
		}
		m := v["metrics"].(map[string]any)
		comps := m["components"].([]any)
		if len(comps) == 0 {
			return lcov(m["project"].([]any)), "none"
		}
		return lcov(m["project"].([]any)), lcov(comps[0].(map[string]any)["metrics"].([]any))
	}
	upload := func(tag string, files map[string][]int64) {
		in := plumb.CoverageInput{ProjectID: w.Web.ID, CommitSHA: headSHA, Branch: "feature", CoverageTag: tag, UploadedAt: w.Clock.Now()}
		for p, h := range files {
			in.Files = append(in.Files, plumb.CoverageFile{Path: p, Hits: h})
		}
		_, err := w.DB.AddCoverage(ctx, in)
		check(t, err)
	}
	// The head's own integration report: nothing carried forward, so its
	// total is the stored union. a.go 5/5, new.go 2/3: 87.5 %; core (a.go)
	// 100 %. Twice: the second comes from what the first kept.
	upload("integration", map[string][]int64{"a.go": {1, 1, 1, 1, 1}})
	for i := 0; i < 2; i++ {
		if p, c := read(); p != 87.5 || c != 100.0 {
			t.Fatalf("read %d: project LCOV %v, core %v; want 87.5, 100", i, p, c)
		}
	}
	// Another report for the head: summed again. new.go 3/3: 8/8.
	upload("e2e", map[string][]int64{"new.go": {1, 1, 1}})
	if p, c := read(); p != 100.0 || c != 100.0 {
		t.Fatalf("after a new report: project LCOV %v, core %v; want 100, 100", p, c)
	}
	// The component now covers old.go, which the head has no coverage of.
	_, err := w.DB.ReplaceComponent(ctx, w.Web.ID, "core", plumb.Component{Name: "core", PathGlobs: []string{"old.go"}})
	check(t, err)
	if p, c := read(); p != 100.0 || c != 0.0 {
		t.Fatalf("after the component changed: project LCOV %v, core %v; want 100, 0", p, c)
	}
	check(t, w.DB.DeleteComponent(ctx, w.Web.ID, "core"))
	if p, c := read(); p != 100.0 || c != "none" {
		t.Fatalf("after the component went: project LCOV %v, core %v", p, c)
	}
}

func TestComparePullRequestAndFormats(t *testing.T) {
	w := compareFixture(t)
	r := w.get(t, "/gh/acme/projects/web/pulls/7", w.Alice).wantStatus(t, 200)
	v := r.json(t).(map[string]any)
	assertJSON(t, []byte(mustJSON(v["pullRequest"])), `{"number": 7, "branch": "feature", "baseBranch": "main"}`)
	assertJSON(t, []byte(mustJSON(v["patch"].(map[string]any)["percent"])), `40`)

	md := w.get(t, "/gh/acme/projects/web/pulls/7", w.Alice, hdr("Accept", "text/markdown")).wantStatus(t, 200)
	body := string(md.Body)
	for _, s := range []string{"## Plumb: pull request #7", "| Total coverage | 77.78% | 62.50% | -15.28 |", "| Patch coverage | | 40.00% | 2 of 5 changed lines covered |",
		"| `a.go` | 33.33% | 3, 5 |", "| `new.go` | 50.00% | 1 |", "2 new, 1 fixed, 1 unchanged", "carried forward from the base for: integration"} {
		if !strings.Contains(body, s) {
			t.Errorf("markdown lacks %q:\n%s", s, body)
		}
	}
	if got := w.get(t, "/gh/acme/projects/web/compare?head="+headSHA+"&format=markdown", w.Alice).wantStatus(t, 200); string(got.Body) != strings.Replace(body, "pull request #7", "comparison", 1) {
		t.Errorf("format=markdown without base:\n%s", got.Body)
	}
	csv := w.get(t, "/gh/acme/projects/web/pulls/7?issues=fixed", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, 200)
	lines := strings.Split(strings.TrimSpace(string(csv.Body)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "fp1") {
		t.Errorf("fixed issues CSV = %q", csv.Body)
	}
	nd := w.get(t, "/gh/acme/projects/web/pulls/7", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, 200)
	if n := len(ndjsonLines(t, nd.Body)); n != 2 {
		t.Errorf("new issues NDJSON has %d lines, want 2", n)
	}

	w.get(t, "/gh/acme/projects/web/pulls/8", w.Alice).wantError(t, 404, "Pull request #8")
	w.get(t, "/gh/acme/projects/web/pulls/x", w.Alice).wantError(t, 400, "positive integer")
	w.get(t, "/gh/acme/projects/web/compare?head="+baseSHA, w.Alice).wantError(t, 400, "base is required")
	w.get(t, "/gh/acme/projects/web/compare", w.Alice).wantError(t, 400, "head")
	w.get(t, "/gh/acme/projects/web/compare?head=abcdef0123&base=main", w.Alice).wantError(t, 404, "abcdef0123")
	w.get(t, "/gh/acme/projects/web/compare?head="+headSHA+"&issues=all", w.Alice).wantError(t, 400, "issues must be one of")
	w.get(t, "/gh/globex/projects/vault/compare?head="+headSHA, w.Alice).wantStatus(t, 404)

	// Bad change uploads store nothing.
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, hdr("Content-Type", "application/json"),
		`{"commitSha": "abc", "files": [{"path": "a", "status": "moved", "addedLines": [[3, 1]]}]}`).
		wantError(t, 400, "commitSha", "baseCommitSha or baseBranch", "status must be one of", "[3, 1]")
}

func TestQualityGate(t *testing.T) {
	w := compareFixture(t)
	w.get(t, "/gh/acme/projects/web/gate", w.Alice).wantJSON(t, 200,
		`{"custom": false, "patchCoverage": 80, "coverageDrop": 1, "newIssues": {"level": "high", "max": 0}, "newSecurityIssues": 0, "advisory": []}`)
	// The default gate fails the fixture's change on every condition.
	// With the head's new issues (fp3, fp4), for plumb gate --format
	// gitlab-codequality.
	g := w.get(t, "/ingest/gh/acme/projects/web/gate?head="+headSHA, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
	var fps []string
	for _, is := range g["newIssues"].([]any) {
		is := is.(map[string]any)
		fps = append(fps, fmt.Sprintf("%s %s %s %v", is["fingerprint"], is["level"], is["location"].(map[string]any)["path"], is["location"].(map[string]any)["startLine"]))
	}
	if strings.Join(fps, ", ") != "fp3 high a.go 3, fp4 medium a.go 3" {
		t.Errorf("newIssues: %v", g["newIssues"])
	}
	delete(g, "newIssues")
	assertJSON(t, []byte(mustJSON(g)), `{
		"status": "failed", "baseCommitSha": "`+baseSHA+`", "headCommitSha": "`+headSHA+`", "patchCoverage": 40, "coverageDelta": -15.28,
		"conditions": [
			{"condition": "patch_coverage", "status": "failed", "threshold": "≥ 80.00%", "actual": "40.00% (2 of 5 lines)", "advisory": false},
			{"condition": "coverage_drop", "status": "failed", "threshold": "≤ 1.00 points", "actual": "77.78% → 62.50%", "advisory": false},
			{"condition": "new_issues", "status": "failed", "threshold": "≤ 0 of level high or worse", "actual": "1", "advisory": false},
			{"condition": "new_security_issues", "status": "failed", "threshold": "≤ 0", "actual": "1", "advisory": false}]}`)

	w.user(t, "carol")
	carol := w.token(t, "carol")
	w.member(t, "acme", "carol", plumb.RoleMember)
	gate := `{"patchCoverage": 40, "coverageDrop": 15.28, "newIssues": {"level": "medium", "max": 2}, "newSecurityIssues": null}`
	w.do(t, "PUT", "/gh/acme/projects/web/gate", carol, hdr("Content-Type", "application/json"), gate).wantError(t, 403, "project admin")
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"),
		`{"patchCoverage": 101, "coverageDrop": "x", "newIssues": {"level": "severe", "max": -1}, "extra": 1}`).
		wantError(t, 400, "extra is not a quality gate condition", "coverageDrop must be a number", "newSecurityIssues is required")
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"),
		`{"patchCoverage": 101, "coverageDrop": 1, "newIssues": {"level": "severe", "max": -1}, "newSecurityIssues": 0}`).
		wantError(t, 400, "patchCoverage must be a percentage", "newIssues.level must be one of", "newIssues.max must be 0 or more")
	w.get(t, "/gh/acme/projects/web/gate", w.Alice).wantStatus(t, 200) // unchanged by the refusals
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"), gate).
		wantJSON(t, 200, `{"custom": true, "patchCoverage": 40, "coverageDrop": 15.28, "newIssues": {"level": "medium", "max": 2}, "newSecurityIssues": null, "advisory": []}`)
	r := w.get(t, "/ingest/gh/acme/projects/web/gate?head="+headSHA, w.Alice).wantStatus(t, 200)
	if s := r.json(t).(map[string]any)["status"]; s != "passed" {
		t.Errorf("relaxed gate: %s", r.Body)
	}
	// The comparison carries the outcome, and so does its Markdown.
	v := w.get(t, "/gh/acme/projects/web/pulls/7", carol).wantStatus(t, 200).json(t).(map[string]any)
	if v["gate"].(map[string]any)["status"] != "passed" || len(v["gate"].(map[string]any)["conditions"].([]any)) != 3 {
		t.Errorf("gate in comparison = %s", mustJSON(v["gate"]))
	}
	md := string(w.get(t, "/gh/acme/projects/web/pulls/7?format=markdown", carol).wantStatus(t, 200).Body)
	if !strings.Contains(md, "Quality gate: **passed**") || !strings.Contains(md, "| new_issues | ≤ 2 of level medium or worse | 2 | passed |") {
		t.Errorf("markdown gate:\n%s", md)
	}

	// Advisory conditions: the default thresholds fail all four, but only
	// the blocking ones fail the gate.
	strict := `{"patchCoverage": 80, "coverageDrop": 1, "newIssues": {"level": "high", "max": 0}, "newSecurityIssues": 0, `
	for body, why := range map[string][]string{
		strict + `"advisory": "coverageDrop"}`:                                                                                 {"advisory must be a list of condition names"},
		strict + `"advisory": ["coverage_drop", "newIssues", "newIssues"]}`:                                                    {`advisory names "coverage_drop", which is not a condition`, "advisory names newIssues twice"},
		`{"patchCoverage": null, "coverageDrop": 1, "newIssues": null, "newSecurityIssues": 0, "advisory": ["patchCoverage"]}`: {"advisory names patchCoverage, which is off"},
	} {
		w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"), body).wantError(t, 400, why...)
	}
	w.get(t, "/gh/acme/projects/web/gate", w.Alice).wantJSON(t, 200, `{"custom": true, "patchCoverage": 40, "coverageDrop": 15.28, "newIssues": {"level": "medium", "max": 2}, "newSecurityIssues": null, "advisory": []}`)
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"), strict+`"advisory": ["coverageDrop", "newSecurityIssues"]}`).
		wantJSON(t, 200, `{"custom": true, "patchCoverage": 80, "coverageDrop": 1, "newIssues": {"level": "high", "max": 0}, "newSecurityIssues": 0, "advisory": ["coverageDrop", "newSecurityIssues"]}`)
	adv := func() (status string, advisory []bool) {
		g := w.get(t, "/ingest/gh/acme/projects/web/gate?head="+headSHA, w.Alice).wantStatus(t, 200).json(t).(map[string]any)
		for _, c := range g["conditions"].([]any) {
			c := c.(map[string]any)
			if c["status"] != "failed" {
				t.Errorf("condition %v: %v", c["condition"], c["status"])
			}
			advisory = append(advisory, c["advisory"].(bool))
		}
		return g["status"].(string), advisory
	}
	if st, a := adv(); st != "failed" || fmt.Sprint(a) != "[false true false true]" {
		t.Errorf("two advisory conditions: %s %v", st, a)
	}
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"), strict+`"advisory": ["patchCoverage", "coverageDrop", "newIssues", "newSecurityIssues"]}`).wantStatus(t, 200)
	if st, a := adv(); st != "passed" || fmt.Sprint(a) != "[true true true true]" {
		t.Errorf("every condition advisory: %s %v", st, a)
	}
	md = string(w.get(t, "/gh/acme/projects/web/pulls/7?format=markdown", carol).wantStatus(t, 200).Body)
	if !strings.Contains(md, "Quality gate: **passed** (4 advisory failed)") || !strings.Contains(md, "| new_issues | ≤ 0 of level high or worse | 1 | failed (advisory) |") {
		t.Errorf("markdown with advisory conditions:\n%s", md)
	}
	// advisory left out (an older client): every condition blocks again.
	w.do(t, "PUT", "/gh/acme/projects/web/gate", w.Alice, hdr("Content-Type", "application/json"), strings.TrimSuffix(strict, ", ")+"}").wantStatus(t, 200)
	if st, _ := adv(); st != "failed" {
		t.Errorf("advisory left out: %s", st)
	}

	w.get(t, "/ingest/gh/acme/projects/web/gate?head=ffffffffff", w.Alice).wantError(t, 404, "ffffffffff")
	w.get(t, "/ingest/gh/acme/projects/web/gate", w.Alice).wantError(t, 400, "head")
}
