package compare

import (
	"slices"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

func TestCoverageTags(t *testing.T) {
	for _, c := range []struct {
		name                     string
		base, head               []string
		only                     string
		wantBase, wantHead, carr []string
	}{
		{"same tags", []string{"unit", "e2e"}, []string{"unit", "e2e"}, "", []string{"unit", "e2e"}, []string{"unit", "e2e"}, nil},
		{"head misses one: carried", []string{"e2e", "unit"}, []string{"unit"}, "", []string{"e2e", "unit"}, []string{"unit"}, []string{"e2e"}},
		{"head has none: all carried", []string{"unit"}, nil, "", []string{"unit"}, nil, []string{"unit"}},
		{"one tag asked, both have it", []string{"e2e", "unit"}, []string{"unit"}, "unit", []string{"unit"}, []string{"unit"}, nil},
		{"one tag asked, head lacks it", []string{"unit"}, []string{"e2e"}, "unit", []string{"unit"}, nil, []string{"unit"}},
		{"one tag asked, nobody has it", []string{"unit"}, []string{"unit"}, "e2e", nil, nil, nil},
	} {
		b, h, carried := CoverageTags(c.base, c.head, c.only)
		if !slices.Equal(b, c.wantBase) || !slices.Equal(h, c.wantHead) || !slices.Equal(carried, c.carr) {
			t.Errorf("%s: got %v %v carried %v, want %v %v carried %v", c.name, b, h, carried, c.wantBase, c.wantHead, c.carr)
		}
	}
}

func TestFilterIssues(t *testing.T) {
	all := []plumb.Issue{
		{ID: "1", Tool: "ESLint", Level: "high", Category: "bug", Status: "open"},
		{ID: "2", Tool: "semgrep", Level: "low", Category: "style", Status: "ignored"},
		{ID: "3", Tool: "eslint", Level: "low", Category: "bug", Status: "open"},
	}
	ids := func(is []plumb.Issue) (out []string) {
		for _, i := range is {
			out = append(out, i.ID)
		}
		return out
	}
	if got := FilterIssues(all, plumb.IssueFilter{}); &got[0] != &all[0] || len(got) != 3 {
		t.Errorf("an empty filter must return the same slice, got %v", ids(got))
	}
	if got := ids(FilterIssues(all, plumb.IssueFilter{Tools: []string{"eslint"}})); !slices.Equal(got, []string{"1", "3"}) {
		t.Errorf("tools match without case: got %v", got)
	}
	if got := ids(FilterIssues(all, plumb.IssueFilter{Statuses: []string{"open"}, Levels: []string{"low"}})); !slices.Equal(got, []string{"3"}) {
		t.Errorf("every list must match: got %v", got)
	}
	if got := ids(FilterIssues(all, plumb.IssueFilter{Categories: []string{"Bug"}})); len(got) != 0 {
		t.Errorf("categories match exactly: got %v", got)
	}
}

func TestHasMetricsAndHeadFiles(t *testing.T) {
	measured := &plumb.Snapshot{Measured: true}
	branch := &plumb.Snapshot{}
	if HasMetrics(nil) || HasMetrics(branch) || !HasMetrics(measured) {
		t.Error("metrics need a default-branch base analysis")
	}
	if HeadFilesDiffer(nil, false) || HeadFilesDiffer(branch, false) || HeadFilesDiffer(measured, true) || !HeadFilesDiffer(measured, false) {
		t.Error("the head's own files apply only for another default-branch analysis")
	}
}

func TestMetricsAppliesHeadChanges(t *testing.T) {
	m, err := metric.CompileGlobs([]string{"src/**"})
	if err != nil {
		t.Fatal(err)
	}
	base := metric.Totals{Files: 2}
	base.Stats.LOC = 100
	old := metric.FileStats{LOC: 40}
	grown := metric.FileStats{LOC: 55}
	added := metric.FileStats{LOC: 10}
	comp := ComponentComparison{ID: "c1", Name: "src", Base: base}
	in := MetricsInput{
		Base: base, Components: []ComponentComparison{comp}, Matchers: []metric.Matcher{m},
		Changes: []FileDelta{
			{Old: &old, New: &grown, Components: map[string]bool{"c1": true}},
			{New: &added}, // outside the component
		},
		HeadIssues:        []plumb.Issue{{Path: "src/a.go", Status: "open", Level: "high", Category: "bug"}},
		BaseCoverage:      metric.Coverage{Covered: 1, Missed: 1},
		HeadCoverage:      metric.Coverage{Covered: 3, Missed: 1},
		ComponentCoverage: [2]map[string]metric.Coverage{{"c1": {Covered: 1}}, {"c1": {Covered: 2}}},
	}
	got := Metrics(in)
	if got.Base.Stats.LOC != 100 || got.Head.Stats.LOC != 125 {
		t.Errorf("project lines: base %v head %v, want 100 and 125", got.Base.Stats.LOC, got.Head.Stats.LOC)
	}
	if got.Head.Files != 3 {
		t.Errorf("an added file counts: head files %d, want 3", got.Head.Files)
	}
	c := got.Components[0]
	if c.Head.Stats.LOC != 115 || c.Base.Stats.LOC != 100 {
		t.Errorf("component lines: base %v head %v, want 100 and 115", c.Base.Stats.LOC, c.Head.Stats.LOC)
	}
	if c.Base.Coverage.Covered != 1 || c.Head.Coverage.Covered != 2 || got.Head.Coverage.Covered != 3 {
		t.Errorf("coverage is each side's own: %+v %+v %+v", c.Base.Coverage, c.Head.Coverage, got.Head.Coverage)
	}
	if in.Components[0].Head.Files != 0 {
		t.Error("Metrics must not write into its input")
	}
}
