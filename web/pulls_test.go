package web_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
)

// The pull-request pages on a real store (both backends): the list and
// each state a pull request's page can be in (a full comparison with its
// annotated diff; a head with coverage only; a base Plumb has no data of),
// 404s for what does not exist and for non-members, 400 for a bad filter.

const (
	pullBase  = "b000000000000000000000000000000000000000"
	pullHead  = "a500000000000000000000000000000000000000"
	pullCovHd = "a600000000000000000000000000000000000000"
	pullLost  = "a700000000000000000000000000000000000000"
	pullGo    = "package shop\n\nfunc Total(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\nfunc Unused() {}\n"
)

func pullSite(t testing.TB) *filesFixture {
	t.Helper()
	f := filesSite(t, nil, nil, nil)
	ctx := context.Background()
	db, pid := f.DB, f.ProjectID
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	issue := func(fp string, ln int, msg string) plumb.Issue {
		return plumb.Issue{Tool: "vet", RuleKey: "R1", Message: msg, Category: "bug", Level: "high", Status: "open", Path: "shop/total.go", StartLine: line(ln), Fingerprint: fp}
	}
	_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "main", CommitSHA: pullBase, AnalyzedAt: t0,
		Files: []plumb.FileFigures{{Path: "shop/total.go", Lines: 9, LOC: 8}}, FullTree: true, Issues: []plumb.Issue{issue("old", 3, "an old finding")}})
	check(err)
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: pullBase, Branch: "main", CoverageTag: "unit", UploadedAt: t0,
		Files: []plumb.CoverageFile{{Path: "shop/total.go", Hits: []int64{-1, -1, 1, 1, 1, 1, -1, 1, -1}}}})
	check(err)
	// #5: an analysed, covered head with its source; a new issue at a
	// changed line, a missed changed line, a file without coverage or
	// source, a deleted file.
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "feat", CommitSHA: pullHead, AnalyzedAt: t0,
		Files: []plumb.FileFigures{{Path: "shop/total.go", Lines: 11, LOC: 9}}, FullTree: true,
		Issues: []plumb.Issue{issue("old", 3, "an old finding"), issue("new", 11, "Unused is never called")}})
	check(err)
	for _, sha := range []string{pullHead, pullCovHd} {
		_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: sha, Branch: "feat", CoverageTag: "unit", UploadedAt: t0,
			Files: []plumb.CoverageFile{{Path: "shop/total.go", Hits: []int64{-1, -1, 1, 1, 1, 1, -1, 1, -1, -1, 0}}}})
		check(err)
	}
	_, err = db.PutSources(ctx, pid, pullHead, "upload", func(put func(string, io.Reader) error) error {
		return put("shop/total.go", bytes.NewReader([]byte(pullGo)))
	})
	check(err)
	pr := func(n int) *int { return &n }
	changed := []compare.FileChange{
		{Path: "shop/total.go", Status: "modified", AddedLines: []compare.LineRange{{Start: 6, End: 6}, {Start: 11, End: 11}}},
		{Path: "shop/extra.go", Status: "added", AddedLines: []compare.LineRange{{Start: 1, End: 2}}},
		{Path: "shop/old.go", Status: "deleted"},
	}
	check(db.PutChange(ctx, pid, compare.Change{CommitSHA: pullHead, Branch: "feat", BaseCommitSHA: pullBase, BaseBranch: "main", PullRequestNumber: pr(5), Files: changed}, t0))
	// #6: a head with coverage only (no analysis, no source).
	check(db.PutChange(ctx, pid, compare.Change{CommitSHA: pullCovHd, Branch: "cov-only", BaseCommitSHA: pullBase, BaseBranch: "main", PullRequestNumber: pr(6), Files: changed[:1]}, t0.Add(1)))
	// #7: a base branch Plumb has nothing of.
	check(db.PutChange(ctx, pid, compare.Change{CommitSHA: pullLost, Branch: "lost", BaseBranch: "release-9", PullRequestNumber: pr(7), Files: changed[:1]}, t0.Add(2)))
	return f
}

func TestPullPages(t *testing.T) {
	f := pullSite(t)
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const p = "/w/oss/plumb"
	b.get(p).want(t, 200, `href="/w/oss/plumb/pulls"`)
	list := b.get(p + "/pulls")
	list.want(t, 200, `href="/w/oss/plumb/pulls/5"`, `href="/w/oss/plumb/pulls/6"`, `href="/w/oss/plumb/pulls/7"`, "<code>feat</code>", `class="gate gate-failed"`, "50%")
	// Newest activity first: #7, #6, #5.
	if i7, i6, i5 := strings.Index(list.Body, "/pulls/7"), strings.Index(list.Body, "/pulls/6"), strings.Index(list.Body, "/pulls/5"); !(i7 < i6 && i6 < i5) {
		t.Errorf("list order: #7 at %d, #6 at %d, #5 at %d", i7, i6, i5)
	}
	b.get(p+"/pulls?state=merged").want(t, 200, "No merged pull request")
	b.get(p+"/pulls?state=all").want(t, 200, "/pulls/5")
	b.get(p+"/pulls?state=draft").want(t, 400, "draft")

	full := b.get(p + "/pulls/5")
	full.want(t, 200, "Pull request #5", "Quality gate: <span class=\"gate gate-failed\">failed</span>", "patch_coverage",
		"1 of 2 coverable changed lines covered", "1 new", "Unused is never called", "Lines of Code",
		// The diff: the head's highlighted source, the changed lines
		// marked, the new issue under its line, unchanged lines folded,
		// the file linked at the head.
		`<tr class="changed hit"><td class="ln"><a href="/w/oss/plumb/files/shop/total.go?ref=`+pullHead+`#L6">6</a></td><td class="cov">covered</td>`,
		`<tr class="changed miss"><td class="ln"><a href="/w/oss/plumb/files/shop/total.go?ref=`+pullHead+`#L11">11</a></td><td class="cov">missed</td>`,
		`<span class="k">func</span>`, `<tr class="line-issues">`, "unchanged lines (1–2)",
		`href="/w/oss/plumb/files/shop/total.go?ref=`+pullHead+`"`,
		// A file without source: its changed lines with their coverage.
		"shop/extra.go", "none was uploaded for this commit", `<td class="cov">not coverable</td>`,
		"shop/old.go", "deleted", "tags unit")
	// Again: the highlighted lines now come from the render cache (only the
	// sources' states are read), and the diff is the same.
	diffOf := func(body string) string { return body[strings.Index(body, "<h3><a href=\"/w/oss/plumb/files/"):] }
	if again := b.get(p + "/pulls/5"); diffOf(again.Body) != diffOf(full.Body) {
		t.Error("the second view's diff differs from the first's")
	}
	// The file with the missed line comes first.
	if i, j := strings.Index(full.Body, "<h3><a href=\"/w/oss/plumb/files/shop/total.go"), strings.Index(full.Body, "<h3><a href=\"/w/oss/plumb/files/shop/extra.go"); i < 0 || j < 0 || i > j {
		t.Errorf("file order: total.go at %d, extra.go at %d", i, j)
	}
	// The new issue sits right under line 11.
	if i := strings.Index(full.Body, "#L11\">11</a>"); i < 0 || !strings.Contains(full.Body[i:i+600], "Unused is never called") {
		t.Errorf("the new issue is not under line 11")
	}
	b.get(p+"/pulls/6").want(t, 200, "Pull request #6", "Issues are not compared", "Analysis of the head: none", `<td class="cov">missed</td>`)
	b.get(p+"/pulls/7").want(t, 200, "Pull request #7", "Nothing to compare yet", "release-9")

	for _, path := range []string{p + "/pulls/99", p + "/pulls/abc", p + "/pulls/05", p + "/pulls/0"} {
		b.get(path).want(t, 404)
	}
	// eve is not a member of oss: 404, as every project page.
	out := f.browser(t)
	out.signIn("eve", filesPassword)
	for _, path := range []string{p + "/pulls", p + "/pulls/5"} {
		out.get(path).want(t, 404)
	}
}

// demoPullRequests: the demo's pull requests on acme/web-shop show each
// state the pages have: failing, passing, a merged one, a head with
// coverage only (its issues not compared).
func demoPullRequests(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	const p = "/w/acme/web-shop"
	open := b.get(p + "/pulls")
	open.want(t, 200, `href="/w/acme/web-shop/pulls/41"`, `href="/w/acme/web-shop/pulls/42"`,
		`href="/w/acme/web-shop/pulls/43"`, `class="gate gate-failed"`, `class="gate gate-passed"`, "feature/checkout-redesign",
		"<td>Checkout redesign</td><td>demo</td>")
	if strings.Contains(open.Body, `href="/w/acme/web-shop/pulls/40"`) {
		t.Error("the merged #40 is listed as open")
	}
	// #40 was merged (its closed webhook says so): listed as merged, and
	// so shown on its page.
	b.get(p+"/pulls?state=merged").want(t, 200, `href="/w/acme/web-shop/pulls/40"`, "<td>Upgrade the router</td><td>linus</td>", "<td>merged</td>")
	b.get(p+"/pulls/40").want(t, 200, "Pull request #40: Upgrade the router", "<dt>State</dt><dd>merged</dd>")
	// The fake code host's deliveries show on the settings page, newest
	// first, with their answers.
	b.get(p+"/settings").want(t, 200, "acme/web-shop", "<td>pull_request</td><td>closed</td><td>204</td>", "<td>pull_request</td><td>synchronize</td><td>204</td>", "<td>pull_request</td><td>opened</td><td>204</td>")
	// The connection is fake and reaches nothing: "test connection" says so.
	b.post(p+"/settings", p+"/code-host/test", nil).want(t, 200, "127.0.0.1:9/fake-github-for-the-demo could not be reached")
	b.get(p+"/pulls/41").want(t, 200, "Quality gate: <span class=\"gate gate-failed\">failed</span>", `<tr class="changed miss">`, `class="src"><span class="`, `<tr class="line-issues">`)
	b.get(p+"/pulls/42").want(t, 200, "Quality gate: <span class=\"gate gate-passed\">passed</span>", `<tr class="changed hit">`, "unchanged lines")
	b.get(p+"/pulls/40").want(t, 200, "Pull request #40", `<tr class="changed miss">`)
	// acme/web-shop's gate makes new security issues advisory: #41 fails
	// them, shown as such, and fails its gate on the blocking conditions.
	b.get(p+"/pulls/41").want(t, 200, `<td>new_security_issues</td><td>≤ 0</td><td>2</td><td><span class="gate gate-failed">failed</span> <span class="muted" title="Advisory: shown, never fails the gate">advisory</span>`)
	b.get(p+"/pulls/43").want(t, 200, "Pull request #43", "Issues are not compared", `class="src"><span class="`, "Analysis of the head: none")
	// linus is a plain member of acme: he sees them; nobody sees initech's.
	l := s.browser(t)
	l.signIn("linus", demoPassword)
	l.get(p+"/pulls/41").want(t, 200)
	b.get("/w/initech/tps-reports/pulls").want(t, 404)
}

// The list shows each pull request's figures as kept by the comparison
// that computed them, and only while its inputs hold: a new coverage
// upload for the head and a new analysis of the base (by commit, or of a
// base branch) each change what the list shows.
func TestPullListKeptFigures(t *testing.T) {
	f := pullSite(t)
	ctx := context.Background()
	db, pid := f.DB, f.ProjectID
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	row := func(n string) string {
		t.Helper()
		p := b.get("/w/oss/plumb/pulls")
		p.want(t, 200)
		i := strings.Index(p.Body, `href="/w/oss/plumb/pulls/`+n+`"`)
		if i < 0 {
			t.Fatalf("no row for #%s", n)
		}
		return p.Body[i : i+strings.Index(p.Body[i:], "</tr>")]
	}
	wantRow := func(n string, want ...string) {
		t.Helper()
		r := row(n)
		for _, w := range want {
			if !strings.Contains(r, w) {
				t.Fatalf("#%s's row lacks %q:\n%s", n, w, r)
			}
		}
	}
	wantRow("5", `class="gate gate-failed"`, "<td>50%</td>")
	wantRow("7", "<td>—</td><td>—</td>")
	// The first view kept #5's figures for its current inputs.
	kept, _, found, err := db.CurrentPullSummary(ctx, pid, 5, pullBase, pullHead)
	if err != nil || !found || kept.Gate != "failed" || kept.Patch != (compare.Coverage{Covered: 1, Coverable: 2}) {
		t.Fatalf("kept for #5: %+v, found %v, %v", kept, found, err)
	}
	wantRow("5", `class="gate gate-failed"`, "<td>50%</td>")

	// Another upload for the head covers line 11: 2 of 2.
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: pullHead, Branch: "feat", CoverageTag: "unit", UploadedAt: t0.Add(time.Minute),
		Files: []plumb.CoverageFile{{Path: "shop/total.go", Hits: []int64{-1, -1, 1, 1, 1, 1, -1, 1, -1, -1, 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	wantRow("5", `class="gate gate-failed"`, "<td>100%</td>")
	// A new analysis of the base has the head's finding: it is no longer
	// new, and the gate passes.
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "main", CommitSHA: pullBase, AnalyzedAt: t0.Add(time.Minute),
		Files: []plumb.FileFigures{{Path: "shop/total.go", Lines: 9, LOC: 8}}, FullTree: true,
		Issues: []plumb.Issue{
			{Tool: "vet", RuleKey: "R1", Message: "an old finding", Category: "bug", Level: "high", Status: "open", Path: "shop/total.go", StartLine: line(3), Fingerprint: "old"},
			{Tool: "vet", RuleKey: "R1", Message: "Unused is never called", Category: "bug", Level: "high", Status: "open", Path: "shop/total.go", StartLine: line(9), Fingerprint: "new"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	wantRow("5", `class="gate gate-passed"`, "<td>100%</td>")
	// #7's base branch release-9 gets its first analysis and coverage:
	// #7 is compared now.
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: pid, Branch: "release-9", CommitSHA: "c900000000000000000000000000000000000000", AnalyzedAt: t0.Add(time.Minute),
		Files: []plumb.FileFigures{{Path: "shop/total.go", Lines: 9, LOC: 8}}, FullTree: true})
	if err != nil {
		t.Fatal(err)
	}
	wantRow("7", `class="gate gate-`)
}

// A gate whose failing conditions are advisory: the page shows them failed
// and marked advisory, the gate passed; the list, whose kept figures name
// the gate, follows at once.
func TestPullPageAdvisoryConditions(t *testing.T) {
	f := pullSite(t)
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	b.get("/w/oss/plumb/pulls/5").want(t, 200, "Quality gate: <span class=\"gate gate-failed\">failed</span>")
	g := compare.DefaultGate()
	g.Advisory = append([]string(nil), compare.GateConditions...)
	if err := f.DB.PutGate(context.Background(), f.ProjectID, g, time.Now()); err != nil {
		t.Fatal(err)
	}
	page := b.get("/w/oss/plumb/pulls/5")
	page.want(t, 200, "Quality gate: <span class=\"gate gate-passed\">passed</span>",
		`<span class="gate gate-failed">failed</span> <span class="muted" title="Advisory: shown, never fails the gate">advisory</span>`)
	list := b.get("/w/oss/plumb/pulls")
	i := strings.Index(list.Body, `href="/w/oss/plumb/pulls/5"`)
	if i < 0 || !strings.Contains(list.Body[i:i+strings.Index(list.Body[i:], "</tr>")], `class="gate gate-passed"`) {
		t.Fatalf("the list's row for #5 does not show the gate passed:\n%s", list.Body)
	}
}
