package compare

import (
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// Judge: patch coverage from the change and the head's hits, issues
// classified only with an analysis on both sides, the gate on both.
func TestJudge(t *testing.T) {
	ch := &Change{Files: []FileChange{
		{Path: "a.go", Status: "modified", AddedLines: []LineRange{{Start: 1, End: 4}}},
		{Path: "gone.go", Status: "deleted"},
	}}
	if got := ch.HeadPaths(); len(got) != 1 || got[0] != "a.go" {
		t.Fatalf("head paths %v", got)
	}
	if (*Change)(nil).HeadPaths() != nil {
		t.Fatal("a nil change has head paths")
	}
	data := &Comparison{
		Base:     SideCoverage{Coverage: metric.Coverage{Covered: 8, Missed: 2}},
		Head:     SideCoverage{Coverage: metric.Coverage{Covered: 9, Missed: 3}},
		HeadHits: map[string][]int64{"a.go": {1, 0, -1, 2}},
	}
	j := Judge(data, ch, DefaultGate())
	if j.Patch == nil || j.Patch.Coverage != (Coverage{Covered: 2, Coverable: 3}) || j.NoIssueData == "" || j.Issues.New != nil {
		t.Fatalf("without analyses: %+v", j)
	}
	if j.Gate.Status != GateFailed { // 66.67% < 80%
		t.Fatalf("gate %+v", j.Gate)
	}
	high := plumb.Issue{Fingerprint: "n", Level: "high", Status: "open"}
	data.BaseSnapshot, data.HeadSnapshot = &plumb.Snapshot{}, &plumb.Snapshot{}
	data.HeadIssues, data.HeadIssuesAll = []plumb.Issue{high}, []plumb.Issue{high}
	data.HeadHits["a.go"] = []int64{1, 1, -1, 2}
	j = Judge(data, ch, DefaultGate())
	if j.NoIssueData != "" || len(j.Issues.New) != 1 || j.Gate.Status != GateFailed {
		t.Fatalf("with analyses: %+v", j)
	}
	for _, c := range j.Gate.Conditions {
		if want := map[string]string{conditionPatch: ConditionPassed, conditionNew: ConditionFailed}[c.Condition]; want != "" && c.Status != want {
			t.Errorf("%s: %s, want %s", c.Condition, c.Status, want)
		}
	}
	if j = Judge(data, nil, Gate{}); j.Patch != nil || j.Gate.Status != GatePassed {
		t.Fatalf("no change, no condition: %+v", j)
	}
	if p := CoveragePercent(metric.Coverage{}); p != nil {
		t.Fatalf("nothing coverable: %v", *p)
	}
}
