package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
)

// TestCheckRunOf: the conclusion follows the gate (neutral when no
// condition had data), annotations are capped at codehost.MaxAnnotations
// with the rest counted in the summary, the most severe kept, and issues
// off the changed lines are not annotated.
func TestCheckRunOf(t *testing.T) {
	noData := compare.GateResult{Status: compare.GatePassed, Conditions: []compare.ConditionResult{{Condition: "patch_coverage", Status: compare.ConditionNoData}}}
	run := checkRunOf(&Comparison{Gate: noData}, &compare.Change{}, "abc", "", "summary")
	if run.Conclusion != "neutral" || len(run.Annotations) != 0 || run.Summary != "summary" {
		t.Errorf("no data: %+v", run)
	}
	passed := compare.GateResult{Status: compare.GatePassed, Conditions: []compare.ConditionResult{{Condition: "coverage_drop", Status: compare.ConditionPassed}}}
	if run := checkRunOf(&Comparison{Gate: passed}, &compare.Change{}, "abc", "", "s"); run.Conclusion != "success" || run.Title != "Quality gate passed" {
		t.Errorf("passed: %+v", run)
	}
	// An advisory condition failed, the gate passed: neutral, so a branch
	// rule requiring the check is not blocked, and the title says why. The
	// commit statuses succeed, the patch one saying it is advisory.
	advisory := compare.GateResult{Status: compare.GatePassed, Conditions: []compare.ConditionResult{
		{Condition: "patch_coverage", Status: compare.ConditionFailed, Advisory: true, Actual: "50.00% (1 of 2 lines)", Threshold: "≥ 80.00%"},
		{Condition: "coverage_drop", Status: compare.ConditionPassed}}}
	if run := checkRunOf(&Comparison{Gate: advisory}, &compare.Change{}, "abc", "", "s"); run.Conclusion != "neutral" || run.Title != "Quality gate passed (1 advisory condition failed)" {
		t.Errorf("advisory failed: %+v", run)
	}
	st := codeHostStatuses(&Comparison{Gate: advisory}, "https://plumb.example.com/x")
	if st[0].State != "success" || st[0].Description != "Quality gate passed (1 advisory condition failed)" ||
		st[1].State != "success" || st[1].Description != "50.00% (1 of 2 lines) covered (threshold ≥ 80.00%), advisory" {
		t.Errorf("statuses with an advisory failure: %+v", st)
	}
	// A blocking failure beside an advisory one: failure, both counted.
	advisory.Status, advisory.Conditions[1].Status = compare.GateFailed, compare.ConditionFailed
	if run := checkRunOf(&Comparison{Gate: advisory}, &compare.Change{}, "abc", "", "s"); run.Conclusion != "failure" || run.Title != "Quality gate failed: 1 of 1 conditions (and 1 advisory condition failed)" {
		t.Errorf("blocking and advisory failed: %+v", run)
	}

	// 5,100 missed ranges (warnings) and one high issue on a changed line
	// (failure), one off the changed lines.
	patch := &compare.Patch{}
	f := compare.PatchFile{Path: "big.go"}
	for i := range 5100 {
		f.Uncovered = append(f.Uncovered, compare.LineRange{Start: 3*i + 1, End: 3*i + 2})
	}
	patch.Files = []compare.PatchFile{f}
	line := func(n int) *int { return &n }
	ch := &compare.Change{Files: []compare.FileChange{{Path: "big.go", AddedLines: []compare.LineRange{{Start: 1, End: 100}}}}}
	cmp := &Comparison{patch: patch, Gate: compare.GateResult{Status: compare.GateFailed, Conditions: []compare.ConditionResult{{Status: compare.ConditionFailed}}},
		issues: compare.IssueSets{New: []plumb.Issue{
			{Tool: "gosec", RuleKey: "G101", Level: "high", Path: "big.go", StartLine: line(50), Message: "secret"},
			{Tool: "gosec", RuleKey: "G102", Level: "high", Path: "big.go", StartLine: line(500), Message: "elsewhere"},
		}}}
	run = checkRunOf(cmp, ch, "abc", "https://plumb.example.com/w/acme/web/pulls/7", "summary")
	if run.Conclusion != "failure" || len(run.Annotations) != codehost.MaxAnnotations {
		t.Fatalf("conclusion %s, %d annotations", run.Conclusion, len(run.Annotations))
	}
	if a := run.Annotations[0]; a.Level != codehost.AnnotationFailure || a.StartLine != 50 || a.Title != "gosec: G101" {
		t.Errorf("first annotation %+v, want the high issue", a)
	}
	if a := run.Annotations[1]; a.Level != codehost.AnnotationWarning || a.StartLine != 1 || a.EndLine != 2 || a.Message != "Changed lines 1–2 are not covered by tests." {
		t.Errorf("second annotation %+v", a)
	}
	for _, a := range run.Annotations {
		if a.Message == "elsewhere" {
			t.Error("an issue off the changed lines was annotated")
		}
	}
	if want := fmt.Sprintf("%d more annotations", 5101-codehost.MaxAnnotations); !strings.Contains(run.Summary, want) {
		t.Errorf("summary %q lacks %q", run.Summary, want)
	}
}
