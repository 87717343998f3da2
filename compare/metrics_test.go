package compare

import (
	"fmt"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// The issue figures count open issues only, where in accepts the path; a
// security category counts per level; remediation follows the level.
func TestIssueFigures(t *testing.T) {
	is := func(path, level, category, status string) plumb.Issue {
		return plumb.Issue{Path: path, Level: level, Category: category, Status: status}
	}
	issues := []plumb.Issue{is("a.go", "high", "vulnerability", "open"), is("a.go", "low", "lint", "open"),
		is("b.go", "medium", "bug", "open"), is("b.go", "high", "secret", "ignored"), is("go.sum", "note", "dependency_alert", "open")}
	all := IssueFigures(issues, nil)
	want := metric.FileStats{}
	for _, x := range []plumb.Issue{issues[0], issues[1], issues[2], issues[4]} {
		lv, _ := metric.ParseLevel(x.Level)
		want.AddOpenIssue(lv, x.Category)
	}
	if all != want || all.OpenIssues != 4 || all.OpenSecurityIssues() != 2 {
		t.Fatalf("every open issue: %+v, want %+v", all, want)
	}
	onlyB := IssueFigures(issues, func(p string) bool { return p == "b.go" })
	if onlyB.OpenIssues != 1 || onlyB.OpenSecurityIssues() != 0 || onlyB.RemediationMinutes != metric.RemediationMinutes("medium") {
		t.Fatalf("b.go: %+v", onlyB)
	}
	tot := WithIssueFigures(metric.Totals{Files: 3, Stats: metric.FileStats{LOC: 90, OpenIssues: 99}, Coverage: metric.Coverage{Covered: 5}}, IssueFigures(issues, nil))
	if tot.Files != 3 || tot.Stats.LOC != 90 || tot.Coverage.Covered != 5 || tot.Stats.OpenIssues != 4 {
		t.Fatalf("totals: %+v", tot)
	}
	// Groups: the same sums as IssueFigures over each group, both sides.
	head := []plumb.Issue{is("c.go", "low", "lint", "open"), is("b.go", "medium", "bug", "open")}
	groups := []func(string) bool{func(p string) bool { return p == "b.go" }, func(p string) bool { return p != "a.go" }}
	figs := GroupFigures([][]plumb.Issue{issues, head}, groups)
	for i, in := range groups {
		if figs[0][i] != IssueFigures(issues, in) || figs[1][i] != IssueFigures(head, in) {
			t.Errorf("group %d: base %+v head %+v", i, figs[0][i], figs[1][i])
		}
	}
}

// BenchmarkComponentIssueFigures: both sides of the pull request benchmark's
// project (20,000 issues a side, 20 components of one prefix glob each).
func BenchmarkComponentIssueFigures(b *testing.B) {
	issues := make([]plumb.Issue, 20_000)
	for i := range issues {
		issues[i] = plumb.Issue{Path: fmt.Sprintf("svc%02d/pkg%d/file%d.go", i%20, i%50, i), Level: "medium", Category: "bug", Status: "open"}
	}
	var globs []metric.Matcher
	for c := 0; c < 20; c++ {
		m, err := metric.CompileGlobs([]string{fmt.Sprintf("svc%02d/*", c)})
		if err != nil {
			b.Fatal(err)
		}
		globs = append(globs, m)
	}
	in := make([]func(string) bool, len(globs))
	for i := range globs {
		in[i] = globs[i].Match
	}
	b.ResetTimer()
	for range b.N {
		_, _ = IssueFigures(issues, nil), IssueFigures(issues, nil)
		figs := GroupFigures([][]plumb.Issue{issues, issues}, in)
		if figs[0][0].OpenIssues != 1000 || figs[1][19].OpenIssues != 1000 {
			b.Fatal(figs[0][0], figs[1][19])
		}
	}
}
